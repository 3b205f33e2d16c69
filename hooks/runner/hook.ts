// One hook run, stage by stage:
//   stdin text → JSON → normalize (adapter) → load table → read state
//   → decide (pure) → write state → render (adapter) → stdout text.
// Never throws: every failure becomes a message the user sees, and a deny
// only when the table asks to fail closed.
import fs from "node:fs";
import path from "node:path";
import { normalize, render, renderNotice } from "../hosts/claude-code/adapter.js";
import { decide } from "../core/decide.js";
import { loadTable, resolveTableFile } from "../io/table-load.js";
import { isSafeSessionId, StateStore } from "../io/state-store.js";
import { emptyState, type Decision, type Event, type SessionState, type Table } from "../core/types.js";
import type { CompiledTable } from "../core/table/compile.js";
import { carriesBudgetReminder, recordCap } from "../core/guard.js";
import { stateDirOf } from "../io/state-dir.js";
export { stateDirOf };

/** Events larger than this are not parsed (a Bash command is capped separately). */
export const MAX_EVENT_BYTES = 8 * 1024 * 1024;

export interface HookEnv {
  env: NodeJS.ProcessEnv;
  /** skillgate's own folder (default table and state live there). */
  packageRoot: string;
}

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

/** Where Claude Code finds skills besides the table's skillsDir: the user's and the project's .claude/skills. */
function skillRootsOf(env: NodeJS.ProcessEnv): string[] {
  return [env.HOME && path.join(env.HOME, ".claude", "skills"), env.CLAUDE_PROJECT_DIR && path.join(env.CLAUDE_PROJECT_DIR, ".claude", "skills")].filter((x): x is string => !!x);
}

const realpath = (p: string): string => {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};

/** Running as a Claude Code plugin with the plugin's own skills: they are named `skillgate:<skill>`. */
function pluginNamespace(h: HookEnv, tableFile: string): string | undefined {
  const pluginRoot = h.env.CLAUDE_PLUGIN_ROOT;
  if (!pluginRoot || realpath(pluginRoot) !== realpath(h.packageRoot)) return undefined;
  return path.dirname(tableFile) === h.packageRoot ? "skillgate" : undefined;
}

/** What is known so far about the event being handled: how a failure has to answer. */
interface Context {
  input: string;
  kind?: string;
  /** The table's own failMode once it is loaded; until then $SKILLGATE_FAIL_MODE. */
  failMode?: "open" | "closed";
}

export async function runHook(input: string, h: HookEnv): Promise<HookResult> {
  const ctx: Context = { input };
  try {
    return await run(input, h, ctx);
  } catch (e) {
    // An internal error: fail the way the table (or the environment) asks, and say so.
    const err = e as Error;
    const closed = (ctx.failMode ?? (h.env.SKILLGATE_FAIL_MODE === "closed" ? "closed" : "open")) === "closed";
    const r = failure(`skillgate: internal error: ${err.message ?? err}`, closed, ctx);
    return { ...r, stderr: `${r.stderr}${err.stack ?? ""}\n` };
  }
}

async function run(input: string, h: HookEnv, ctx: Context): Promise<HookResult> {
  if (input.length > MAX_EVENT_BYTES || Buffer.byteLength(input) > MAX_EVENT_BYTES) return tooLarge();
  let payload: unknown;
  try {
    payload = JSON.parse(input);
  } catch (e) {
    return failure(`skillgate: the hook event is not JSON (${(e as Error).message})`, false, ctx);
  }
  const n = normalize(payload);
  if (!n.ok) return n.ignored ? { stdout: "", stderr: "" } : failure(`skillgate: ${n.error}`, false, ctx);
  const event = n.event;
  ctx.kind = event.kind;

  // The shell parser and the glob engine are the biggest modules: load them
  // only for a tool call about to run (the parser only for Bash).
  const facts = event.kind === "PreToolUse" && event.command !== undefined ? (await import("../core/shell-facts.js")).factsOf(event) : undefined;
  const needGlobs = event.kind === "PreToolUse";

  const stateDir = stateDirOf(h);
  const tableFile = resolveTableFile(h.env, h.packageRoot);
  const table = await loadTable(tableFile, stateDir, h.env, { globs: needGlobs });
  ctx.failMode = table.ok ? table.compiled.table.failMode : table.failMode;
  if (!table.ok) return failure(`skillgate: trigger table unusable, ${table.failMode === "closed" ? "refusing tool calls" : "gates are OFF"}: ${table.error}`, table.failMode === "closed", ctx);
  table.compiled.pluginNamespace = pluginNamespace(h, tableFile);
  table.compiled.skillRoots.push(...skillRootsOf(h.env));
  const notices: string[] = [];
  if (event.contextTokens === undefined && event.transcriptPath && wantsContextTokens(event, table.compiled)) {
    event.contextTokens = (await import("../io/transcript-tail.js")).contextTokensFromTranscript(event.transcriptPath);
  }

  // A hostile session id never becomes a path: decide from empty state, store nothing.
  const store = isSafeSessionId(event.sessionId) ? new StateStore(stateDir) : undefined;
  if (!store) notices.push(`skillgate: session id ${JSON.stringify(event.sessionId.slice(0, 40))} is not a safe file name; state is not kept for it`);
  const current = store ? store.read(event.sessionId) : { state: emptyState() };
  if (current.warning) notices.push(current.warning);
  let outcome = decide(event, table.compiled, current.state, facts);

  // The output cap writes its file first; the state then records how it went.
  let record = (s: SessionState) => s;
  if (outcome.decision.cap) {
    const c = await capOutput(event, outcome.decision, table.compiled.table, stateDir, h.env);
    outcome = { ...outcome, decision: c.decision };
    record = c.record;
    if (c.notice) notices.push(c.notice);
  }
  if (event.kind === "SessionStart") {
    // Housekeeping once per session: old session files, old capped outputs.
    if (store && event.source === "startup") store.cleanOld(table.compiled.table.stateMaxAgeDays);
    if (table.compiled.rows.some((r) => r.row.kind === "cap")) await cleanOutputs(table.compiled.table, stateDir, h.env);
  }

  if (store && (outcome.state !== current.state || outcome.decision.cap)) {
    // Decide again under the lock on fresh state, so parallel hooks of one session lose nothing.
    try {
      const updatedOutput = outcome.decision.updatedOutput;
      store.update(event.sessionId, (fresh) => {
        // The fresh decision wins (a hint another hook just showed is not shown twice); the cap already done is kept.
        const again = decide(event, table.compiled, fresh, facts);
        const decision = again.decision.cap ? (updatedOutput ? { ...again.decision, updatedOutput } : withoutCap(again.decision)) : again.decision;
        outcome = { ...again, decision, state: record(again.state) };
        return outcome.state;
      });
    } catch (e) {
      notices.push(`skillgate: session state not saved (${(e as Error).message})`);
    }
  }

  const decision = notices.length ? { ...outcome.decision, notice: notices.join("\n") } : outcome.decision;
  const out = render(event, decision);
  let stderr = decision.notice ? decision.notice + "\n" : "";
  // A machine-readable account of the decision, for the case runner and for debugging.
  const trace: HookTrace = { verdict: decision.verdict, rows: decision.rows, matched: outcome.matched, state: outcome.state };
  if (h.env.SKILLGATE_TRACE) stderr += `skillgate-trace ${JSON.stringify(trace)}\n`;
  return { stdout: out ? JSON.stringify(out) : "", stderr, trace };
}

/** Budget rows need the prompt size: read it from the transcript on prompts and tool results of the main thread. */
function wantsContextTokens(event: Event, table: CompiledTable): boolean {
  return carriesBudgetReminder(event) && table.rows.some((r) => r.row.kind === "budget");
}

/** The decision when the output could not be capped: the output passes untouched, any reminders stay. */
function withoutCap(d: Decision): Decision {
  return { ...d, verdict: d.message ? "hint" : "allow", rows: d.rows.filter((r) => r !== d.cap?.row), cap: undefined };
}

/** $SKILLGATE_OUTPUT_DIR, else the table's outputDir, else (undefined) a private folder made per installation. */
function outputDirOf(table: Table, env: NodeJS.ProcessEnv): string | undefined {
  return env.SKILLGATE_OUTPUT_DIR ?? table.outputDir;
}

/** Save a too-long tool output to the private folder; on any failure leave the output untouched (fail open) and count it. */
async function capOutput(event: Event, d: Decision, table: Table, stateDir: string, env: NodeJS.ProcessEnv): Promise<{ decision: Decision; record: (s: SessionState) => SessionState; notice?: string }> {
  const tool = event.tool!;
  const { outputRoot, saveCapped } = await import("../io/output-store.js");
  const failed = (why: string) => ({
    decision: withoutCap(d),
    record: (s: SessionState) => recordCap(s, tool, { ok: false }),
    notice: `skillgate: output of ${tool} not capped (${why})`,
  });
  try {
    const root = outputRoot(outputDirOf(table, env), stateDir);
    if (!root.ok) return failed(root.error);
    const name = `${event.sessionId}-${event.toolUseId ?? Date.now()}`;
    const saved = saveCapped(root.dir, name, event.output!, d.cap!.headChars, d.cap!.row);
    return { decision: { ...d, updatedOutput: saved.updated }, record: (s) => recordCap(s, tool, { ok: true, charsSaved: saved.charsSaved }) };
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
export function tooLarge(): HookResult {
  return failure(`skillgate: hook event over ${MAX_EVENT_BYTES} bytes was not read; gates did not run for it`, false, undefined);
}

/**
 * Tell the user; when failing closed, also deny — but only a PreToolUse can be
 * denied (its kind read from the raw text when the event never parsed).
 */
function failure(message: string, closed: boolean, ctx: Context | undefined): HookResult {
  const kind = ctx?.kind ?? (ctx && /"hook_event_name"\s*:\s*"PreToolUse"/.test(ctx.input.slice(0, 65_536)) ? "PreToolUse" : undefined);
  return { stdout: JSON.stringify(renderNotice(message, closed && kind === "PreToolUse")), stderr: message + "\n" };
}
