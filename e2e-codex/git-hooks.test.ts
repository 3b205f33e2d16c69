// The git hooks under the real Codex CLI (docs/git-hooks.md): a commit made by a
// program the shell analysis lets run is stopped by git's reference-transaction
// hook and the model reads why; once the skill is loaded the same program commits.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { installGitHooks } from "../hooks/io/git-hooks.ts";
import { AGENT_MARKERS } from "../hooks/effects/caller.ts";
import { ROOT, callOutput, project, run, tempDir, type RunResult } from "./harness.ts";

const sh = (cmd: string, callId: string) => ({ name: "exec_command", arguments: { cmd }, callId });
const log = (repo: string) => execFileSync("git", ["log", "--format=%s"], { cwd: repo, encoding: "utf8" }).trim().split("\n");
const TOOL =
  "const v = ['com', 'mit'].join('');\nrequire('fs').appendFileSync('README.md', 'x\\n');\nconst r = require('child_process').spawnSync('git', [v, '-qam', process.argv[2]], { stdio: 'inherit' });\nprocess.exit(r.status === null ? 1 : r.status);\n";

function outputOf(r: RunResult, callId: string): string {
  for (const q of r.requests) {
    const out = callOutput(q.body, callId);
    if (out !== undefined) return out;
  }
  assert.fail(`no output for ${callId} reached the model`);
}

test("codex: an agent commit through a program is aborted by the git hook with the gate reason; after the skill it commits", async () => {
  const p = await project(["commit"]);
  installGitHooks(p.repo, { node: process.execPath, entry: join(ROOT, "dist", "git-hook.mjs"), stateDir: p.state, markers: Object.keys(AGENT_MARKERS) });
  mkdirSync(join(p.repo, "tools"));
  writeFileSync(join(p.repo, "tools", "commit.js"), TOOL);
  execFileSync("git", ["add", "tools"], { cwd: p.repo });
  execFileSync("git", ["commit", "-qm", "tools"], { cwd: p.repo, env: { ...process.env, CLAUDECODE: "", CLAUDE_CODE_SESSION_ID: "" } });
  const envFile = join(tempDir("env"), "shell-env.txt");
  const r = await run(p, {
    prompt: "make a commit",
    script: [
      { calls: sh(`env > ${envFile}; node tools/commit.js first`, "c1") },
      { calls: sh("cat .agents/skills/commit/SKILL.md", "c2") },
      { calls: sh("node tools/commit.js second", "c3") },
      { text: "done" },
    ],
  });
  assert.equal(r.exitCode, 0, r.stderr.slice(-800));
  const env = readFileSync(envFile, "utf8");
  if (process.env.E2E_DEBUG)
    console.error(
      "codex shell env:",
      env
        .split("\n")
        .map((l) => (/^(CODEX_\w*|SKILLGATE_STATE)=/.test(l) ? l : l.split("=")[0]))
        .join(" "),
    );
  assert.match(env, /^CODEX_THREAD_ID=\S+$/m, "Codex names its thread in the shell environment");
  const first = outputOf(r, "c1");
  assert.match(first, /skillgate: git refused a new commit on main/);
  assert.match(first, /skillgate\[commit-gate\]/);
  assert.deepEqual(log(p.repo).slice(0, 2), ["second", "tools"]);
});
