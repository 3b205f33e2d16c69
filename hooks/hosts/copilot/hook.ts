// The Copilot CLI hook executable: `hook-copilot.mjs <event>` with one Copilot
// hook payload on stdin, the answer on stdout, exit 0 always (a failing hook
// must not break the user's session; a deny is said in JSON).
// Built to dist/hook-copilot.mjs, which .github/hooks/skillgate.json runs.
import { hookMain } from "../../runner/process.js";
import { copilotHost } from "./adapter.js";
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

// Copilot's payload does not name its event: the installed command passes it as the first argument.
const event = process.argv[2] ?? "";
// Copilot sets COPILOT_PROJECT_DIR; without it the hook's directory is the project.
const project = process.env.COPILOT_PROJECT_DIR || process.cwd();
await hookMain({ host: copilotHost(event), project: { dir: project, cwdVar: "SKILLGATE_COPILOT_CWD", table: ".github/skillgate/triggers.json" }, input: (text) => withFinalMessage(event, text) });
