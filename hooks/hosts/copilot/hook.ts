// The Copilot CLI hook executable: `hook-copilot.mjs <event>` with one Copilot
// hook payload on stdin, the answer on stdout, exit 0 always (a failing hook
// must not break the user's session; a deny is said in JSON).
// Built to dist/hook-copilot.mjs, which .github/hooks/skillgate.json runs.
import fs from "node:fs";
import path from "node:path";
import { readStdin, findPackageRoot } from "../../runner/process.js";
import { runHook, tooLarge, MAX_EVENT_BYTES } from "../../runner/hook.js";
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

try {
  const event = process.argv[2] ?? "";
  const host = copilotHost(event);
  const input = readStdin();
  // Copilot sets COPILOT_PROJECT_DIR; without it the hook's directory is the project.
  const project = process.env.COPILOT_PROJECT_DIR || process.cwd();
  const env: NodeJS.ProcessEnv = { ...process.env, SKILLGATE_COPILOT_CWD: process.env.SKILLGATE_COPILOT_CWD ?? project };
  const own = path.join(project, ".github", "skillgate", "triggers.json");
  if (!env.SKILLGATE_TABLE && fs.existsSync(own)) env.SKILLGATE_TABLE = own;
  const { stdout, stderr } = input.bytes > MAX_EVENT_BYTES ? tooLarge(host) : await runHook(withFinalMessage(event, input.text), { env, packageRoot: findPackageRoot(), host });
  if (stderr) process.stderr.write(stderr);
  if (stdout) process.stdout.write(stdout + "\n");
} catch (e) {
  // Last line of defence: never exit non-zero.
  process.stderr.write(`skillgate: ${(e as Error).stack ?? e}\n`);
}
process.exitCode = 0;
