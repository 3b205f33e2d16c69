// The process edge of the hook: stdin in, stdout/stderr out, exit code 0.
// Shared by the hook executable (hooks/skillgate.ts) and `skillgate hook`.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runHook, MAX_EVENT_BYTES } from "./hook.js";

export async function readStdin(limit = MAX_EVENT_BYTES + 1): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    // Keep reading past the cap (so the writer never blocks) but stop storing.
    if (size < limit) chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** skillgate's own folder: the nearest parent holding skillgate's package.json (source and bundle alike). */
export function findPackageRoot(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "triggers.json")) && fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, "..");
  }
}

export async function hookMain(): Promise<void> {
  try {
    const input = await readStdin();
    const { stdout, stderr } = await runHook(input, { env: process.env, packageRoot: findPackageRoot() });
    if (stderr) process.stderr.write(stderr);
    if (stdout) process.stdout.write(stdout + "\n");
  } catch (e) {
    // Last line of defence: never exit non-zero, never leave the user uninformed.
    process.stderr.write(`skillgate: ${(e as Error).stack ?? e}\n`);
    process.stdout.write(JSON.stringify({ systemMessage: `skillgate: internal error: ${(e as Error).message}` }) + "\n");
  }
  process.exitCode = 0;
}
