// One hook run, stage by stage:
//   stdin text → JSON → normalize (host) → context (table, state folder)
//   → read state → decide (pure) → effects (output file) → write state → render (host).
// Never throws: every failure becomes a message the user sees, and a refusal
// only when the table asks to fail closed.
import type { Host } from "../core/host.js";
import { decide, type Outcome } from "../core/decide.js";
import { emptyState, type Decision, type Effects, type Event, type SessionState, type Table } from "../core/types.js";
import type { CompiledTable } from "../core/table/compile.js";
import type { Facts } from "../core/facts.js";
import { shellCommandOf, toolFacts } from "../core/facts.js";
import { prefilteredFacts } from "../core/prefilter.js";
import { recordCap } from "../core/counters.js";
import { carriesBudgetReminder } from "../core/policies/budget.js";
import { isSafeSessionId, StateStore } from "../io/state-store.js";
import { stateDirOf } from "../io/state-dir.js";
import { claudeCode } from "../hosts/claude-code/adapter.js";
import { loadContext, type HookEnv } from "./context.js";

export { stateDirOf, type HookEnv };

/** Events larger than this are not parsed (a shell command is capped separately). */
export const MAX_EVENT_BYTES = 8 * 1024 * 1024;

export interface HookResult {
  stdout: string;
  stderr: string;
  /** What was decided, structured (for the case runner and `explain`); absent when nothing was decided. */
  trace?: HookTrace;
}

export interface HookTrace {
  verdict: Decision["verdict"];
  rows: string[];
  matched: string[];
  state: SessionState;
}

/** What is known so far about the event being handled: how a failure has to answer. */
interface FailureContext {
  host: Host;
  input: string;
  kind?: Event["kind"];
  /** The table's own failMode once it is loaded; until then $SKILLGATE_FAIL_MODE. */
  failMode?: "open" | "closed";
}

export async function runHook(input: string, h: HookEnv): Promise<HookResult> {
  const fc: FailureContext = { host: h.host ?? claudeCode, input };
  try {
    return await run(input, h, fc);
  } catch (e) {
    // An internal error: fail the way the table (or the environment) asks, and say so.
    const err = e instanceof Error ? e : new Error(String(e));
    const closed = (fc.failMode ?? (h.env.SKILLGATE_FAIL_MODE === "closed" ? "closed" : "open")) === "closed";
    const r = failure(`skillgate: internal error: ${err.message}`, closed, fc);
    return { ...r, stderr: `${r.stderr}${err.stack ?? ""}\n` };
  }
}

async function run(input: string, h: HookEnv, fc: FailureContext): Promise<HookResult> {
  if (input.length > MAX_EVENT_BYTES || Buffer.byteLength(input) > MAX_EVENT_BYTES) return tooLarge(fc.host);
  let payload: unknown;
  try {
    payload = JSON.parse(input);
  } catch (e) {
    return failure(`skillgate: the hook event is not JSON (${(e as Error).message})`, false, fc);
  }
  const n = fc.host.normalize(payload);
  if (!n.ok) return n.ignored ? { stdout: "", stderr: "" } : failure(`skillgate: ${n.error}`, false, fc);
  fc.kind = n.event.kind;
  return runEvent(n.event, h, fc, n.transcriptPath);
}

/**
 * The decision for one normalized event, with its I/O. In-process hosts
 * (a plugin module) call this directly; the hook process comes through runHook.
 */
export async function runEvent(given: Event, h: HookEnv, fc: FailureContext = { host: h.host ?? claudeCode, input: "", kind: given.kind }, transcriptPath?: string): Promise<HookResult> {
  // The shell parser and the glob engine are the biggest modules: load them
  // only for a tool call about to run (the parser only for a shell call that
  // is not plain enough for prefilter.ts to analyse alone).
  const facts: Facts | undefined = shellCommandOf(given) !== undefined ? (prefilteredFacts(given) ?? (await import("../core/shell-facts.js")).factsOf(given)) : undefined;
  const canRefuse = given.kind === "tool-call" || given.kind === "stop" || given.kind === "session-start";
  // Write globs (picomatch) only for a call that writes something: most shell calls write nothing.
  const callFacts = given.kind === "tool-call" ? (facts ?? toolFacts(given)) : undefined;
  const globs = callFacts !== undefined && (callFacts.writes.length > 0 || callFacts.mentions !== undefined);
  const ctx = await loadContext({ ...h, host: fc.host }, { globs, checkSkills: canRefuse });
  fc.failMode = ctx.ok ? ctx.table.table.failMode : ctx.failMode;
  if (!ctx.ok) return failure(`skillgate: trigger table unusable, ${ctx.failMode === "closed" ? "refusing tool calls" : "gates are OFF"}: ${ctx.error}`, ctx.failMode === "closed", fc);
  const { table, stateDir, host } = ctx;
  const event = await withContextTokens(given, table, transcriptPath);
  const notices: string[] = [];

  // A hostile session id never becomes a path: decide from empty state, store nothing.
  const store = isSafeSessionId(event.sessionId) ? new StateStore(stateDir) : undefined;
  if (!store) notices.push(`skillgate: session id ${JSON.stringify(event.sessionId.slice(0, 40))} is not a safe file name; state is not kept for it`);
  const current = store ? store.read(event.sessionId) : { state: emptyState() };
  if (current.warning) notices.push(current.warning);
  let outcome: Outcome = decide(event, table, current.state, facts);

  // The output cap writes its file first; the state then records how it went.
  let effects: Effects = {};
  let record = (s: SessionState) => s;
  if (outcome.decision.verdict === "cap" && event.kind === "tool-result") {
    const c = await capOutput(event, outcome.decision, table.table, stateDir, h.env);
    outcome = { ...outcome, decision: c.decision };
    effects = c.effects;
    record = c.record;
    if (c.notice) notices.push(c.notice);
  }
  if (event.kind === "session-start") {
    notices.push(...sessionNotices(ctx.tableFile, ctx.isDefaultTable, table));
    // Housekeeping once per session: old session files, old capped outputs.
    if (store && event.source === "startup") store.cleanOld(table.table.stateMaxAgeDays);
    if (table.rows.some((r) => r.row.kind === "cap")) await cleanOutputs(table.table, stateDir, h.env);
  }

  if (store && (outcome.state !== current.state || effects.updatedOutput)) {
    // Decide again under the lock on fresh state, so parallel hooks of one session lose nothing.
    try {
      store.update(event.sessionId, (fresh) => {
        // The fresh decision wins (a hint another hook just showed is not shown twice); the cap already done is kept.
        const again = decide(event, table, fresh, facts);
        const decision = again.decision.verdict === "cap" && !effects.updatedOutput ? withoutCap(again.decision) : again.decision;
        outcome = { ...again, decision, state: record(again.state) };
        return outcome.state;
      });
    } catch (e) {
      notices.push(`skillgate: session state not saved (${(e as Error).message})`);
    }
  }

  const decision: Decision = notices.length ? { ...outcome.decision, notice: notices.join("\n") } : outcome.decision;
  const out = host.render(event, decision, effects);
  let stderr = decision.notice ? decision.notice + "\n" : "";
  // A machine-readable account of the decision, for the case runner and for debugging.
  const trace: HookTrace = { verdict: decision.verdict, rows: decision.rows, matched: outcome.matched, state: outcome.state };
  if (h.env.SKILLGATE_TRACE) stderr += `skillgate-trace ${JSON.stringify(trace)}\n`;
  return { stdout: out ? JSON.stringify(out) : "", stderr, trace };
}

/** What the user should know when a session starts: which table governs it, and which skills cannot be loaded. */
function sessionNotices(tableFile: string, isDefault: boolean, table: CompiledTable): string[] {
  const out: string[] = [];
  if (!isDefault) out.push(`skillgate: table ${tableFile} is active (${table.rows.length} rows)`);
  if (table.missingSkills.length) {
    out.push(`skillgate: skills named by the table are not installed where the client can load them: ${table.missingSkills.join(", ")} (looked in ${table.skillRoots.join(", ")}); run \`skillgate init\` or copy them into .claude/skills/`);
  }
  return out;
}

/** Budget rows need the prompt size: read it from the transcript's tail when the event does not carry it. */
async function withContextTokens(event: Event, table: CompiledTable, transcriptPath: string | undefined): Promise<Event> {
  if ((event.kind !== "prompt" && event.kind !== "tool-result") || event.contextTokens !== undefined || !transcriptPath) return event;
  if (!carriesBudgetReminder(event) || !table.rows.some((r) => r.row.kind === "budget")) return event;
  const tokens = (await import("../io/transcript-tail.js")).contextTokensFromTranscript(transcriptPath);
  return tokens === undefined ? event : { ...event, contextTokens: tokens };
}

/** The decision when the output could not be capped: the output passes untouched, any reminders stay. */
function withoutCap(d: Decision & { verdict: "cap" }): Decision {
  const rows = d.rows.filter((r) => r !== d.cap.row);
  return d.message ? { verdict: "hint", rows, message: d.message } : { verdict: "allow", rows };
}

/** $SKILLGATE_OUTPUT_DIR, else the table's outputDir, else (undefined) a private folder made per installation. */
function outputDirOf(table: Table, env: NodeJS.ProcessEnv): string | undefined {
  return env.SKILLGATE_OUTPUT_DIR ?? table.outputDir;
}

type CapResult = { decision: Decision; effects: Effects; record: (s: SessionState) => SessionState; notice?: string };

/** Save a too-long tool output to the private folder; on any failure leave the output untouched (fail open) and count it. */
async function capOutput(event: Extract<Event, { kind: "tool-result" }>, d: Decision & { verdict: "cap" }, table: Table, stateDir: string, env: NodeJS.ProcessEnv): Promise<CapResult> {
  const tool = event.tool.name;
  const failed = (why: string): CapResult => ({
    decision: withoutCap(d),
    effects: {},
    record: (s) => recordCap(s, tool, { ok: false }),
    notice: `skillgate: output of ${tool} not capped (${why})`,
  });
  if (!event.output) return failed("no output");
  try {
    const { outputRoot, saveCapped } = await import("../io/output-store.js");
    const root = outputRoot(outputDirOf(table, env), stateDir);
    if (!root.ok) return failed(root.error);
    const name = `${event.sessionId}-${event.toolUseId ?? Date.now()}`;
    const saved = saveCapped(root.dir, name, event.output, d.cap.headChars, d.cap.row);
    return { decision: d, effects: { updatedOutput: saved.updated }, record: (s) => recordCap(s, tool, { ok: true, charsSaved: saved.charsSaved }) };
  } catch (e) {
    return failed((e as Error).message);
  }
}

async function cleanOutputs(table: Table, stateDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  try {
    const { outputRoot, cleanOldOutputs } = await import("../io/output-store.js");
    const root = outputRoot(outputDirOf(table, env), stateDir, false);
    if (root.ok) cleanOldOutputs(root.dir, table.outputMaxAgeDays);
  } catch {
    /* cleaning is housekeeping: never worth failing a session start */
  }
}

/** An event over the cap is not parsed: say so (the fail mode of an unread table is unknown, so open). */
export function tooLarge(host: Host = claudeCode): HookResult {
  const message = `skillgate: hook event over ${MAX_EVENT_BYTES} bytes was not read; gates did not run for it`;
  return { stdout: JSON.stringify(host.renderFailure(message, false)), stderr: message + "\n" };
}

/** Tell the user; when failing closed, also refuse — but only a tool call can be refused. */
function failure(message: string, closed: boolean, fc: FailureContext): HookResult {
  const toolCall = fc.kind !== undefined ? fc.kind === "tool-call" : fc.host.looksLikeToolCall(fc.input);
  return { stdout: JSON.stringify(fc.host.renderFailure(message, closed && toolCall)), stderr: message + "\n" };
}
