// One hook run, stage by stage:
//   stdin text → JSON → normalize (adapter) → load table → read state
//   → decide (pure) → write state → render (adapter) → stdout text.
// Never throws: every failure becomes a message the user sees, and a deny
// only when the table asks to fail closed.
import path from "node:path";
import { normalize, render, renderNotice } from "./adapter/claude-code.js";
import { decide } from "./decide.js";
import { loadTable, resolveTableFile } from "./table/load.js";
import { isSafeSessionId, StateStore } from "./state/store.js";
import { emptyState, type Event } from "./types.js";

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
}

/** $SKILLGATE_STATE, else the plugin's data folder (survives plugin updates), else skillgate's state/. */
export function stateDirOf(h: HookEnv): string {
  if (h.env.SKILLGATE_STATE) return path.resolve(h.env.SKILLGATE_STATE);
  if (h.env.CLAUDE_PLUGIN_DATA) return path.join(h.env.CLAUDE_PLUGIN_DATA, "state");
  return path.join(h.packageRoot, "state");
}

/** Running as a Claude Code plugin with the plugin's own skills: they are named `skillgate:<skill>`. */
function pluginNamespace(h: HookEnv, tableFile: string): string | undefined {
  const pluginRoot = h.env.CLAUDE_PLUGIN_ROOT;
  if (!pluginRoot || path.resolve(pluginRoot) !== h.packageRoot) return undefined;
  return path.dirname(tableFile) === h.packageRoot ? "skillgate" : undefined;
}

export async function runHook(input: string, h: HookEnv): Promise<HookResult> {
  try {
    return await run(input, h);
  } catch (e) {
    // An internal error: fail the way the environment asks, and say so.
    const msg = `skillgate: internal error: ${(e as Error).stack ?? e}`;
    return failure(msg, h.env.SKILLGATE_FAIL_MODE === "closed", undefined);
  }
}

async function run(input: string, h: HookEnv): Promise<HookResult> {
  if (input.length > MAX_EVENT_BYTES) return failure(`skillgate: hook event over ${MAX_EVENT_BYTES} bytes was not read`, false, undefined);
  let payload: unknown;
  try {
    payload = JSON.parse(input);
  } catch (e) {
    return failure(`skillgate: the hook event is not JSON (${(e as Error).message})`, false, undefined);
  }
  const n = normalize(payload);
  if (!n.ok) return n.ignored ? { stdout: "", stderr: "" } : failure(`skillgate: ${n.error}`, false, undefined);
  const event = n.event;

  // The shell parser and the glob engine are the biggest modules: load them
  // only for a Bash call about to run / for an event that writes paths.
  const facts = event.kind === "PreToolUse" && event.command !== undefined ? (await import("./shell-facts.js")).factsOf(event) : undefined;
  const writes = event.kind === "PreToolUse" && ((facts?.writes.length ?? 0) > 0 || (event.writes?.length ?? 0) > 0);

  const stateDir = stateDirOf(h);
  const tableFile = resolveTableFile(h.env, h.packageRoot);
  const table = await loadTable(tableFile, stateDir, h.env, { globs: writes });
  if (!table.ok) return failure(`skillgate: trigger table unusable, ${table.failMode === "closed" ? "refusing tool calls" : "gates are OFF"}: ${table.error}`, table.failMode === "closed", event);
  table.compiled.pluginNamespace = pluginNamespace(h, tableFile);
  const notices: string[] = [];
  let outcome;
  if (!isSafeSessionId(event.sessionId)) {
    // Never let a hostile id become a path; decide from empty state, store nothing.
    notices.push(`skillgate: session id ${JSON.stringify(event.sessionId.slice(0, 40))} is not a safe file name; state is not kept for it`);
    outcome = decide(event, table.compiled, emptyState(), facts);
  } else {
    const store = new StateStore(stateDir);
    const current = store.read(event.sessionId);
    outcome = decide(event, table.compiled, current.state, facts);
    if (outcome.state !== current.state) {
      // Decide again under the lock on fresh state, so parallel hooks of one session lose nothing.
      let locked = outcome;
      try {
        const saved = store.update(event.sessionId, (fresh) => (locked = decide(event, table.compiled, fresh, facts)).state);
        if (saved.warning) notices.push(saved.warning);
      } catch (e) {
        // Decide from what we read, but say that this event's state change was not saved.
        notices.push(`skillgate: session state not saved (${(e as Error).message})`);
      }
      outcome = locked;
    } else if (current.warning) notices.push(current.warning);
  }

  const decision = notices.length ? { ...outcome.decision, notice: notices.join("\n") } : outcome.decision;
  const out = render(event, decision);
  let stderr = decision.notice ? decision.notice + "\n" : "";
  // A machine-readable account of the decision, for the case runner and for debugging.
  if (h.env.SKILLGATE_TRACE) {
    stderr += `skillgate-trace ${JSON.stringify({ verdict: decision.verdict, rows: decision.rows, matched: outcome.matched, state: outcome.state })}\n`;
  }
  return { stdout: out ? JSON.stringify(out) : "", stderr };
}

function failure(message: string, closed: boolean, event: Event | undefined): HookResult {
  const denyTool = closed && (event === undefined || event.kind === "PreToolUse");
  return { stdout: JSON.stringify(renderNotice(message, denyTool)), stderr: message + "\n" };
}
