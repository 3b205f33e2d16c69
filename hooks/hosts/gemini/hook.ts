// The Gemini CLI hook executable: one hook event on stdin, the answer on
// stdout, exit 0 always (exit 2 would block with stderr as the reason,
// regardless of our JSON). Built to dist/hook-gemini.mjs, which settings.json runs.
import fs from "node:fs";
import path from "node:path";
import { readStdin, findPackageRoot } from "../../runner/process.js";
import { runHook, tooLarge, MAX_EVENT_BYTES } from "../../runner/hook.js";
import { gemini } from "./adapter.js";

try {
  const input = readStdin();
  // Gemini names the project in GEMINI_PROJECT_DIR; the hook also runs there.
  const cwd = process.env.GEMINI_PROJECT_DIR || process.cwd();
  const env: NodeJS.ProcessEnv = { ...process.env, SKILLGATE_GEMINI_CWD: process.env.SKILLGATE_GEMINI_CWD ?? cwd };
  const own = path.join(cwd, ".gemini", "triggers.json");
  if (!env.SKILLGATE_TABLE && fs.existsSync(own)) env.SKILLGATE_TABLE = own;
  const { stdout, stderr } = input.bytes > MAX_EVENT_BYTES ? tooLarge(gemini) : await runHook(input.text, { env, packageRoot: findPackageRoot(), host: gemini });
  if (stderr) process.stderr.write(stderr);
  if (stdout) process.stdout.write(stdout + "\n");
} catch (e) {
  // Last line of defence: never exit non-zero, never leave the user uninformed.
  process.stderr.write(`skillgate: ${(e as Error).stack ?? e}\n`);
  process.stdout.write(JSON.stringify({ systemMessage: `skillgate: internal error: ${(e as Error).message}` }) + "\n");
}
process.exitCode = 0;
