// A scenario's project: a temp git repo with skillgate installed (as a user
// would, with `skillgate install --project`), its own state folder, and a
// `play` that runs the real client in it and checks the run itself went well.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync } from "node:fs";
import { join, resolve } from "node:path";
import { makeTempRepo, runClaude, tempDir, type RunOptions, type RunResult } from "./harness.ts";

export const ROOT = resolve(import.meta.dirname, "..");
export const CLI = join(ROOT, "bin", "skillgate.mjs");
/** E2E_RUNTIME=node|bun forces the installed runtime; default: what `install` picks (node). */
const RUNTIME = process.env["E2E_RUNTIME"];

export interface Project {
  repo: string;
  /** Environment for every run of the scenario: its own state folder (hooks inherit it). */
  env: Record<string, string>;
}

/** Install skillgate into .claude/settings.json of a new repo and copy the given skills into .claude/skills. */
export function installed(skills: string[] = [], env: Record<string, string> = {}): Project {
  const repo = makeTempRepo();
  for (const s of skills) cpSync(join(ROOT, "skills", s), join(repo, ".claude", "skills", s), { recursive: true });
  // install refuses a table whose skills the client cannot load; --with-skills copies the rest of the default table's.
  // The scenario's own state folder also holds install's backup and record (never the real ~/.local/state).
  const state = tempDir("state");
  execFileSync(process.execPath, [CLI, "install", "--project", repo, "--with-skills", ...(RUNTIME ? ["--runtime", RUNTIME] : [])], {
    stdio: "pipe",
    env: { ...process.env, SKILLGATE_STATE: state },
  });
  return { repo, env: { SKILLGATE_STATE: state, ...env } };
}

export async function play(p: Project, opts: Omit<RunOptions, "cwd">): Promise<RunResult> {
  const r = await runClaude({ cwd: p.repo, ...opts, env: { ...p.env, ...opts.env } });
  assert.equal(r.timedOut, false, "run timed out");
  assert.equal(r.exitCode, 0, `claude exited ${r.exitCode}; stderr: ${r.stderr.slice(0, 500)}`);
  assert.ok(r.sessionId, "no session id in the stream");
  return r;
}
