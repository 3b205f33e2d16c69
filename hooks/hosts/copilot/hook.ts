// The Copilot CLI hook: `hook-copilot.cjs <event>` with one Copilot hook payload
// on stdin, the answer on stdout, exit 0 always (a failing hook must not break
// the user's session; a deny is said in JSON). How it reads its event;
// hooks/entries/copilot.ts runs it (dist/hook-copilot.cjs, from the Node bundle
// every host shares), which .github/hooks/skillgate.json runs.
import type { HostProcess } from "../../core/host.js";
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
    input: (text) => withFinalMessage(event, text),
  };
}
