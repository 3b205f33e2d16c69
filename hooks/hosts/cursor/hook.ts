// The Cursor hook executable (DOCUMENTED SHAPES ONLY: not run under a real
// Cursor here): one Cursor hook event on stdin, the answer on stdout, exit 0
// always (Cursor treats exit 2 as a refusal regardless of the JSON).
// Built to dist/hook-cursor.mjs, which .cursor/hooks.json runs.
import fs from "node:fs";
import path from "node:path";
import { readStdin, findPackageRoot } from "../../runner/process.js";
import { runHook, tooLarge, MAX_EVENT_BYTES } from "../../runner/hook.js";
import { cursor } from "./adapter.js";

try {
  const input = readStdin();
  // Cursor starts project hooks in the project: that is where the skills and the table are.
  const cwd = process.cwd();
  const env: NodeJS.ProcessEnv = { ...process.env, SKILLGATE_CURSOR_CWD: process.env.SKILLGATE_CURSOR_CWD ?? cwd };
  const own = path.join(cwd, ".cursor", "triggers.json");
  if (!env.SKILLGATE_TABLE && fs.existsSync(own)) env.SKILLGATE_TABLE = own;
  const { stdout, stderr } = input.bytes > MAX_EVENT_BYTES ? tooLarge(cursor) : await runHook(input.text, { env, packageRoot: findPackageRoot(), host: cursor });
  if (stderr) process.stderr.write(stderr);
  if (stdout) process.stdout.write(stdout + "\n");
} catch (e) {
  process.stderr.write(`skillgate: ${(e as Error).stack ?? e}\n`);
}
process.exitCode = 0;
