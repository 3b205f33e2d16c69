// The hook's stages as separate calls, for scripts/bench-split.ts (loaded by
// one dynamic import there, so its module load is timed as "load").
import { decide, type Outcome } from "../hooks/core/decide.js";
import type { Facts } from "../hooks/core/facts.js";
import { toolFacts } from "../hooks/core/facts.js";
import type { Event, SessionState } from "../hooks/core/types.js";
import { emptyState } from "../hooks/core/types.js";
import { isSafeSessionId, StateStore } from "../hooks/io/state-store.js";
import { readStdin, findPackageRoot, writeAll } from "../hooks/runner/process.js";
import { loadContext, type RunContext } from "../hooks/runner/context.js";
import { claudeCode } from "../hooks/hosts/claude-code/adapter.js";
import { needsWriteGlobs, shellFactsBeforeTable, shellFactsWithTable, type CallFacts } from "../hooks/runner/call-facts.js";

type Ok = Extract<RunContext, { ok: true }>;

export function stages() {
  const packageRoot = process.env.SKILLGATE_BENCH_ROOT ?? findPackageRoot();
  return {
    readStdin: () => readStdin().text,
    parse(text: string): Event {
      const n = claudeCode.normalize(JSON.parse(text));
      if (!n.ok) throw new Error(`the bench event does not normalize: ${n.ignored ? "ignored" : n.error}`);
      return n.event;
    },
    /** Phase 1 of the pre-filter, else the parser (hooks/runner/call-facts.ts, as the hook does). */
    facts: (event: Event): Promise<CallFacts> => shellFactsBeforeTable(event, process.env),
    /** loadContext, then the pre-filter's phase 2 (the parser after all when a row names a word of the command). */
    async context(event: Event, before: CallFacts): Promise<{ ctx: Ok; facts: Facts | undefined; skipped: boolean }> {
      const canRefuse = event.kind === "tool-call" || event.kind === "stop" || event.kind === "session-start";
      const globs = event.kind === "tool-call" && needsWriteGlobs(before.facts ?? toolFacts(event));
      const ctx = await loadContext({ env: process.env, packageRoot }, { globs, checkSkills: canRefuse, protect: event.kind === "tool-call" });
      if (!ctx.ok) throw new Error(ctx.error);
      const facts = before.pending ? await shellFactsWithTable(event, process.env, before, ctx.table) : before.facts;
      return { ctx, facts, skipped: before.pending && facts === before.facts };
    },
    readState(ctx: Ok, event: Event): SessionState {
      return isSafeSessionId(event.sessionId) ? new StateStore(ctx.stateDir).read(event.sessionId).state : emptyState();
    },
    decide(event: Event, ctx: Ok, state: SessionState, facts: Facts | undefined): Outcome {
      return decide(event, ctx.table, state, facts);
    },
    saveState(event: Event, ctx: Ok, before: SessionState, outcome: Outcome, facts: Facts | undefined): void {
      if (outcome.state !== before && isSafeSessionId(event.sessionId)) {
        new StateStore(ctx.stateDir).update(event.sessionId, (fresh) => decide(event, ctx.table, fresh, facts).state);
      }
    },
    /** As hookMain() answers: write(2) on fd 1. */
    answer(event: Event, ctx: Ok, outcome: Outcome): void {
      const out = ctx.host.render(event, outcome.decision, {});
      if (out) writeAll(1, JSON.stringify(out) + "\n");
    },
  };
}
