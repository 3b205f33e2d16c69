// The Copilot CLI hook: `hook-copilot.cjs <event>` with one Copilot hook payload
// on stdin, the answer on stdout, exit 0 always (a failing hook must not break
// the user's session; a deny is said in JSON). How it reads its event;
// hooks/entries/copilot.ts runs it (dist/hook-copilot.cjs, from the Node bundle
// every host shares), which .github/hooks/skillgate.json runs.
import path from "node:path";
import type { HostProcess } from "../../core/host.js";
import { copilotHost } from "./adapter.js";
import { copilotHome } from "./env.js";
import { lastAssistantMessage } from "./transcript.js";

/** agentStop names no final message: add the transcript's last assistant message (I/O stays at the edge). */
function withFinalMessage(event: string, text: string): string {
  if (event !== "agentStop") return text;
  try {
    const p = JSON.parse(text) as Record<string, unknown>;
    if (typeof p.transcriptPath !== "string" || typeof p.finalMessage === "string") return text;
    return JSON.stringify({ ...p, finalMessage: lastAssistantMessage(p.transcriptPath) });
  } catch {
    return text;
  }
}

/** Budget rows read the prompt size from events.jsonl, which only agentStop names: the others get its path here. */
const SIZED = new Set(["userPromptSubmitted", "postToolUse"]);
/** A session id that is safe as one path segment (a hostile one gets no transcript, and so no size). */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function withTranscriptPath(event: string, text: string, env: NodeJS.ProcessEnv): string {
  if (!SIZED.has(event)) return text;
  const home = copilotHome(env);
  if (!home) return text;
  try {
    const p = JSON.parse(text) as Record<string, unknown>;
    if (!p || typeof p !== "object" || typeof p.transcriptPath === "string" || typeof p.sessionId !== "string" || !SAFE_ID.test(p.sessionId)) return text;
    return JSON.stringify({ ...p, transcriptPath: path.join(home, "session-state", p.sessionId, "events.jsonl") });
  } catch {
    return text;
  }
}

/**
 * How Copilot's hook process reads its event (the code-cache build runs these in-process).
 * Copilot's payload does not name its event: the installed command passes it as the first argument.
 */
export function hookOptions(args: readonly string[] = process.argv.slice(2)): HostProcess {
  const event = args[0] ?? "";
  // Copilot sets COPILOT_PROJECT_DIR; without it the hook's directory is the project.
  const project = process.env.COPILOT_PROJECT_DIR || process.cwd();
  return {
    host: copilotHost(event),
    project: { dir: project, cwdVar: "SKILLGATE_COPILOT_CWD", table: ".github/skillgate/triggers.json" },
    input: (text, env) => withTranscriptPath(event, withFinalMessage(event, text), env),
  };
}
