// The Gemini CLI hook: one hook event on stdin, the answer on stdout, exit 0
// always (exit 2 would block with stderr as the reason, regardless of our JSON).
// How it reads its event; hooks/entries/gemini.ts runs it (dist/hook-gemini.cjs,
// from the Node bundle every host shares), which settings.json runs.
import type { HostProcess } from "../../core/host.js";
import { COMPRESSES, gemini } from "./adapter.js";
import { autoCompresses } from "./compression.js";
import { geminiHome } from "./env.js";
import { SUBAGENT, trackSubagents } from "./subagents.js";
import { stateDirPath } from "../../io/state-dir.js";

/**
 * What only the edge can read, added to the event before it is parsed: an `auto` PreCompress that
 * will compress gets COMPRESSES (the adapter then resets); a tool event while a subagent runs gets
 * SUBAGENT (subagents.ts). Keys of those names in the payload itself are dropped.
 */
export function annotate(text: string, cwd: string, env: NodeJS.ProcessEnv): string {
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return text; // the runner reports the bad JSON
  }
  if (!p || typeof p !== "object" || Array.isArray(p)) return text;
  const planted = Object.hasOwn(p, COMPRESSES) || Object.hasOwn(p, SUBAGENT);
  const { [COMPRESSES]: _c, [SUBAGENT]: _s, ...out } = p as Record<string, unknown>;
  const event = typeof p.hook_event_name === "string" ? p.hook_event_name : "";
  if (
    event === "PreCompress" &&
    p.trigger === "auto" &&
    autoCompresses(typeof p.transcript_path === "string" ? p.transcript_path : undefined, cwd, geminiHome(env))
  )
    out[COMPRESSES] = true;
  if (typeof p.session_id === "string" && p.session_id) {
    try {
      const agent = trackSubagents(stateDirPath(env), p.session_id, event, typeof p.tool_name === "string" ? p.tool_name : undefined);
      if (agent) out[SUBAGENT] = agent;
    } catch (e) {
      // Without the record a subagent's call would pass for the main thread's: say so to the user.
      out[SUBAGENT] = "unknown";
      process.stderr.write(`skillgate: cannot record Gemini subagents (${(e as Error).message}); tool calls count as a subagent's\n`);
    }
  }
  // Unchanged events keep their text (a large tool response is not written out again).
  return planted || Object.hasOwn(out, COMPRESSES) || Object.hasOwn(out, SUBAGENT) ? JSON.stringify(out) : text;
}

/** How Gemini's hook process reads its event (the code-cache build runs these in-process). */
export function hookOptions(): HostProcess {
  // Gemini names the project in GEMINI_PROJECT_DIR; the hook also runs there.
  const project = process.env.GEMINI_PROJECT_DIR || process.cwd();
  return {
    host: gemini,
    project: { dir: project, cwdVar: "SKILLGATE_GEMINI_CWD", table: ".gemini/triggers.json" },
    input: (text, env) => annotate(text, project, env),
  };
}
