// Shared by the tests: the repo root and the built hook.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const casesDir = path.join(root, "cases");
export const defaultTable = path.join(root, "triggers.json");
/** The hook as `install` writes it for Node. */
export const hookBundle = path.join(root, "dist", "hook.cjs");
/** The Bun build as `install` writes it for Bun. */
export const bunHookBundle = path.join(root, "dist", "hook.bun.cjs");
/** dist/hook.mjs: what settings written by older installs run (it runs dist/hook.cjs). */
export const legacyHookBundle = path.join(root, "dist", "hook.mjs");

/**
 * A small git project for the evidence tests: src/a.ts, test/a.test.ts, package.json and
 * (unless `readme: false`) README.md, in a fresh temp folder; returns it and a git runner.
 */
export function gitProject(prefix: string, o: { readme?: boolean } = {}): { ws: string; git: (...args: string[]) => void } {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const git = (...a: string[]) => assert.equal(spawnSync("git", a, { cwd: ws }).status, 0, `git ${a.join(" ")}`);
  git("init", "-q", ".");
  fs.mkdirSync(path.join(ws, "src"));
  fs.mkdirSync(path.join(ws, "test"));
  fs.writeFileSync(path.join(ws, "src/a.ts"), "export const a = 1;\n");
  fs.writeFileSync(path.join(ws, "test/a.test.ts"), "test\n");
  fs.writeFileSync(path.join(ws, "package.json"), "{}\n");
  if (o.readme !== false) fs.writeFileSync(path.join(ws, "README.md"), "readme\n");
  return { ws, git };
}

/**
 * `repo` made a git repository on branch main with one commit of a.txt, committed as T in `env` (no signing):
 * what the git-hook tests commit on top of.
 */
export function gitRepoWithCommit(repo: string, env: NodeJS.ProcessEnv): void {
  const git = (...a: string[]) => {
    const r = spawnSync("git", a, { cwd: repo, env, encoding: "utf8" });
    assert.equal(r.status, 0, `git ${a.join(" ")}: ${r.stderr}`);
  };
  git("init", "-q", "-b", "main");
  git("config", "user.name", "T");
  git("config", "user.email", "t@example.invalid");
  git("config", "commit.gpgsign", "false");
  fs.writeFileSync(path.join(repo, "a.txt"), "a\n");
  git("add", ".");
  git("commit", "-qm", "init");
}

/**
 * `skillgate <argv>` run in this process as a user runs the command: cli() with `env` as the
 * whole environment, `cwd` as the current folder and the console captured; all put back after.
 * For verbs whose process adds nothing to what is tested (one node start each is ~0.3 s).
 */
export async function cliRun(argv: string[], o: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number; out: string; err: string }> {
  const { cli } = await import("../cli/main.ts");
  const saved = { ...process.env };
  const cwd = process.cwd();
  const { log, error } = console;
  const out: string[] = [];
  const err: string[] = [];
  for (const k of Object.keys(process.env)) if (o.env[k] === undefined) delete process.env[k];
  for (const [k, v] of Object.entries(o.env)) if (v !== undefined) process.env[k] = v;
  process.chdir(o.cwd);
  console.log = (...a: unknown[]) => void out.push(a.join(" "));
  console.error = (...a: unknown[]) => void err.push(a.join(" "));
  try {
    const code = await cli(argv);
    return { code, out: out.length ? `${out.join("\n")}\n` : "", err: err.length ? `${err.join("\n")}\n` : "" };
  } finally {
    console.log = log;
    console.error = error;
    process.chdir(cwd);
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/**
 * The Bun `install --runtime bun` would use, for a test of the Bun route: missing, the test fails in CI (.ci/run
 * puts a pinned Bun in .ci/tools) and is a visible skip elsewhere (undefined: return).
 */
export async function bunOrSkip(t: { skip: (why: string) => void }): Promise<string | undefined> {
  const { findBun } = await import("../cli/install.ts");
  const bun = findBun(root);
  if (bun) return bun;
  if (process.env.CI) assert.fail("no bun on PATH nor SKILLGATE_BUN; CI is set, so the Bun route must run");
  t.skip("no bun on PATH nor SKILLGATE_BUN");
  return undefined;
}
