// The Codex hook executable: one Codex hook event on stdin, the answer on
// stdout, exit 0 always (exit 2 would block regardless of our JSON).
// Built to dist/hook-codex.mjs, which hooks.json runs.
import fs from "node:fs";
import path from "node:path";
import { readStdin, findPackageRoot } from "../../runner/process.js";
import { runHook, tooLarge, MAX_EVENT_BYTES } from "../../runner/hook.js";
import { codex } from "./adapter.js";

try {
  const input = readStdin();
  // Codex starts the hook in the session's directory: that is the project the skills and the table come from.
  const cwd = process.cwd();
  const env: NodeJS.ProcessEnv = { ...process.env, SKILLGATE_CODEX_CWD: process.env.SKILLGATE_CODEX_CWD ?? cwd };
  const own = path.join(cwd, ".codex", "triggers.json");
  if (!env.SKILLGATE_TABLE && fs.existsSync(own)) env.SKILLGATE_TABLE = own;
  const { stdout, stderr } = input.bytes > MAX_EVENT_BYTES ? tooLarge(codex) : await runHook(input.text, { env, packageRoot: findPackageRoot(), host: codex });
  if (stderr) process.stderr.write(stderr);
  if (stdout) process.stdout.write(stdout + "\n");
} catch (e) {
  // Last line of defence: never exit non-zero, never leave the user uninformed.
  process.stderr.write(`skillgate: ${(e as Error).stack ?? e}\n`);
  process.stdout.write(JSON.stringify({ systemMessage: `skillgate: internal error: ${(e as Error).message}` }) + "\n");
}
process.exitCode = 0;
