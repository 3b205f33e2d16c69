// What every host's e2e harness does the same way: bundle the host's hook
// entry once per run, make temp folders (removed at exit), make a git repo
// with one commit, and run the agent CLI with a time limit. Each suite's
// harness.ts keeps what is its host's own (flags, environment, install).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const bundles = new Map<string, Promise<void>>();

/** Bundle a hook entry as scripts/build.mjs does (ESM, node20), once per output file per run. */
export function bundleHook(entry: string, outfile: string): Promise<void> {
  let b = bundles.get(outfile);
  if (!b) {
    b = build({ entryPoints: [entry], outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning' }).then(() => undefined);
    bundles.set(outfile, b);
  }
  return b;
}

const temps: string[] = [];
process.on('exit', () => {
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
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'E2E Test');
  git('config', 'user.email', 'e2e@example.invalid');
  git('config', 'commit.gpgsign', 'false');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  git('add', '.');
  git('commit', '-q', '-m', 'init');
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
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(o.stdin);
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, o.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ exitCode: code, stdout, stderr, timedOut });
    });
  });
}
