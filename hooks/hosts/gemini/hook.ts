// The Gemini CLI hook executable: one hook event on stdin, the answer on
// stdout, exit 0 always (exit 2 would block with stderr as the reason,
// regardless of our JSON). Built to dist/hook-gemini.mjs, which settings.json runs.
import fs from "node:fs";
import path from "node:path";
import { readStdin, findPackageRoot } from "../../runner/process.js";
import { runHook, tooLarge, MAX_EVENT_BYTES } from "../../runner/hook.js";
import { COMPRESSES, gemini } from "./adapter.js";
import { autoCompresses } from "./compression.js";
import { geminiHome } from "./env.js";

/** An `auto` PreCompress that will compress gets COMPRESSES (the adapter then resets); anything else passes unchanged. */
function markCompression(text: string, cwd: string, env: NodeJS.ProcessEnv): string {
  if (!/"hook_event_name"\s*:\s*"PreCompress"/.test(text)) return text;
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return text; // the runner reports the bad JSON
  }
  if (p.trigger !== "auto" || !autoCompresses(typeof p.transcript_path === "string" ? p.transcript_path : undefined, cwd, geminiHome(env))) return text;
  return JSON.stringify({ ...p, [COMPRESSES]: true });
}

try {
  const input = readStdin();
  // Gemini names the project in GEMINI_PROJECT_DIR; the hook also runs there.
  const cwd = process.env.GEMINI_PROJECT_DIR || process.cwd();
  const env: NodeJS.ProcessEnv = { ...process.env, SKILLGATE_GEMINI_CWD: process.env.SKILLGATE_GEMINI_CWD ?? cwd };
  const own = path.join(cwd, ".gemini", "triggers.json");
  if (!env.SKILLGATE_TABLE && fs.existsSync(own)) env.SKILLGATE_TABLE = own;
  const text = input.bytes > MAX_EVENT_BYTES ? input.text : markCompression(input.text, cwd, env);
  const { stdout, stderr } = input.bytes > MAX_EVENT_BYTES ? tooLarge(gemini) : await runHook(text, { env, packageRoot: findPackageRoot(), host: gemini });
  if (stderr) process.stderr.write(stderr);
  if (stdout) process.stdout.write(stdout + "\n");
} catch (e) {
  // Last line of defence: never exit non-zero, never leave the user uninformed.
  process.stderr.write(`skillgate: ${(e as Error).stack ?? e}\n`);
  process.stdout.write(JSON.stringify({ systemMessage: `skillgate: internal error: ${(e as Error).message}` }) + "\n");
}
process.exitCode = 0;
