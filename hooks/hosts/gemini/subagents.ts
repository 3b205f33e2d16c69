// Which Gemini CLI hook events come from a subagent. Gemini 0.61 runs a subagent
// (`invoke_agent`, LocalAgentExecutor) with the main session's config: its tool
// calls fire BeforeTool/AfterTool with the same session_id, transcript_path and
// cwd as the main thread, and nothing in the payload says whose they are. What
// does say it is time: the main agent waits for invoke_agent, so between its
// BeforeTool and its AfterTool the subagent is running. The entry (hook.ts)
// records each running invoke_agent as a marker file; while one exists, tool
// events get SUBAGENT (the oldest marker's name), which the adapter turns into
// the event's agentId: the subagent's own context, which starts with no loads.
//
// What this cannot tell apart: a main-thread call Gemini runs in parallel with an
// invoke_agent of the same turn counts as the subagent's (stricter: a gate asks for
// the load again), and two subagents running at once share one context. A marker
// left by an invoke_agent that never finished (refused, cancelled) is cleared at
// the main thread's next BeforeAgent/AfterAgent (subagents fire neither).
import fs from "node:fs";
import path from "node:path";
import { makeDir } from "../../io/make-dir.js";

/** Set by the entry on a tool event while a subagent runs: the subagent's id. */
export const SUBAGENT = "skillgate_gemini_subagent";

/** The folder of one session's running-subagent markers. */
export function markerDir(stateDir: string, sessionId: string): string {
  return path.join(stateDir, "gemini-subagents", sessionId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 128) || "_");
}

function markers(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((f) => f.startsWith("agent-"))
      .sort();
  } catch {
    return [];
  }
}

let counter = 0;

/**
 * Track one event; returns the subagent id the event belongs to, or undefined for the main thread.
 * `tool` is the tool_name of a BeforeTool/AfterTool, undefined for other events.
 */
export function trackSubagents(stateDir: string, sessionId: string, event: string, tool: string | undefined): string | undefined {
  const dir = markerDir(stateDir, sessionId);
  if (event === "BeforeAgent" || event === "AfterAgent" || event === "SessionStart") {
    // A main-thread turn boundary: no subagent of the last turn is still running.
    for (const m of markers(dir)) fs.rmSync(path.join(dir, m), { force: true });
    return undefined;
  }
  if (event !== "BeforeTool" && event !== "AfterTool") return undefined;
  if (tool === "invoke_agent") {
    // The main thread's own call: it starts (or ends) a subagent.
    if (event === "BeforeTool") {
      makeDir(dir, 0o700);
      // Sorts by start: time, then a per-process counter and the pid for hooks started in the same millisecond.
      fs.writeFileSync(path.join(dir, `agent-${Date.now().toString(36).padStart(10, "0")}-${process.pid}-${counter++}`), "", { flag: "wx" });
    } else {
      // One subagent ended: remove one marker (parallel hooks each take a different one).
      for (const m of markers(dir)) {
        try {
          fs.rmSync(path.join(dir, m));
          break;
        } catch {}
      }
    }
    return undefined;
  }
  return markers(dir)[0];
}
