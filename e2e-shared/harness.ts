// What every host's e2e harness does the same way: find the host's built hook
// (dist/hook-<host>.cjs, as install writes it), make temp folders (removed at
// exit), make a git repo with one commit, and run the agent CLI with a time
// limit. Each suite's harness.ts keeps what is its host's own (flags, environment, install).
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * The hook a host's install runs: dist/hook-<host>.cjs, the Node route (scripts/build.mjs,
 * buildForNode), which `npm run test:e2e-<host>` builds before the suite.
 */
export function builtHook(root: string, host: string): string {
  const hook = join(root, "dist", `hook-${host}.cjs`);
  if (!existsSync(hook)) throw new Error(`${hook} is not built: run npm run build (npm run test:e2e-${host} does)`);
  return hook;
}

const temps: string[] = [];
process.on("exit", () => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/** `skillgate-e2e-<suite>-<prefix>-XXXXXX` under the OS temp folder; with `keep: false` (default) removed when the run exits. */
export function tempDirIn(suite: string, prefix: string, o: { keep?: boolean } = {}): string {
  const d = mkdtempSync(join(tmpdir(), `skillgate-e2e-${suite}-${prefix}-`));
  if (!o.keep) temps.push(d);
  return d;
}

/** A git repo in `dir` with a local identity (no signing) and one commit of `files` (name → text). */
export function initRepo(dir: string, files: Record<string, string>): void {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "E2E Test");
  git("config", "user.email", "e2e@example.invalid");
  git("config", "commit.gpgsign", "false");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  git("add", ".");
  git("commit", "-q", "-m", "init");
}

export interface CliRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Run an agent CLI to its end: `stdin` written then closed; killed (SIGKILL) after `timeoutMs`. */
export function runCli(bin: string, args: string[], o: { cwd: string; env: NodeJS.ProcessEnv; stdin?: string; timeoutMs: number }): Promise<CliRun> {
  return new Promise<CliRun>((resolveRun) => {
    const child = spawn(bin, args, { cwd: o.cwd, env: o.env });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(o.stdin);
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, o.timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolveRun({ exitCode: code, stdout, stderr, timedOut });
    });
  });
}
