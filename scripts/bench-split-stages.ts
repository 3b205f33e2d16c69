// The hook's stages as separate calls, for scripts/bench-split.ts (loaded by
// one dynamic import there, so its module load is timed as "load").
import { decide, type Outcome } from "../hooks/core/decide.js";
import type { Facts } from "../hooks/core/facts.js";
import { shellCommandOf, toolFacts } from "../hooks/core/facts.js";
import type { Event, SessionState } from "../hooks/core/types.js";
import { emptyState } from "../hooks/core/types.js";
import { isSafeSessionId, StateStore } from "../hooks/io/state-store.js";
import { readStdin, findPackageRoot, writeAll } from "../hooks/runner/process.js";
import { loadContext, type RunContext } from "../hooks/runner/context.js";
import { claudeCode } from "../hooks/hosts/claude-code/adapter.js";

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
    async context(event: Event, facts: Facts | undefined): Promise<Ok> {
      const canRefuse = event.kind === "tool-call" || event.kind === "stop" || event.kind === "session-start";
      const callFacts = event.kind === "tool-call" ? (facts ?? toolFacts(event)) : undefined;
      const globs = callFacts !== undefined && (callFacts.writes.length > 0 || callFacts.mentions !== undefined);
      const ctx = await loadContext({ env: process.env, packageRoot }, { globs, checkSkills: canRefuse });
      if (!ctx.ok) throw new Error(ctx.error);
      return ctx;
    },
    async facts(event: Event): Promise<Facts | undefined> {
      if (shellCommandOf(event) === undefined) return undefined;
      return (await import("../hooks/core/shell-facts.js")).factsOf(event);
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
