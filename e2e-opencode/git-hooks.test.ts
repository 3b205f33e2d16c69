// The git hooks under the real opencode (docs/git-hooks.md): the plugin writes a
// ticket for each bash call, so a commit made by a program the shell analysis lets
// run is stopped by git's reference-transaction hook and the model reads why;
// after the skill is loaded (its SKILL.md read whole) the same program commits.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { installOpencode } from "../hooks/hosts/opencode/install.ts";
import { installGitHooks } from "../hooks/io/git-hooks.ts";
import { AGENT_MARKERS } from "../hooks/effects/caller.ts";
import { contentText, mainRequests, makeTempRepo, OPENCODE_BIN, ROOT, runOpencode, tempDir, toolResults, type RunResult } from "./harness.ts";

if (!existsSync(OPENCODE_BIN)) throw new Error(`opencode binary missing at ${OPENCODE_BIN}: run (cd e2e-opencode && npm install)`);

const TOOL =
  "const v = ['com', 'mit'].join('');\nrequire('fs').appendFileSync('README.md', 'x\\n');\nconst r = require('child_process').spawnSync('git', [v, '-qam', process.argv[2]], { stdio: 'inherit' });\nprocess.exit(r.status === null ? 1 : r.status);\n";
const bash = (command: string) => ({ toolUse: { name: "bash", input: { command, description: "e2e" } } });

function resultFor(r: RunResult, id: string): string {
  for (const q of mainRequests(r)) {
    const b = toolResults(q.body).find((x) => x.tool_use_id === id);
    if (b) return contentText(b.content);
  }
  assert.fail(`no tool_result for ${id} reached the model`);
}

test("opencode: an agent commit through a program is aborted by the git hook with the gate reason; after the skill is read it commits", async () => {
  const repo = makeTempRepo();
  installOpencode({ project: repo }, ROOT);
  const state = tempDir("state");
  installGitHooks(repo, { node: process.execPath, entry: join(ROOT, "dist", "git-hook.mjs"), stateDir: state, markers: Object.keys(AGENT_MARKERS) });
  mkdirSync(join(repo, "tools"));
  writeFileSync(join(repo, "tools", "commit.js"), TOOL);
  const envFile = join(tempDir("env"), "bash-env.txt");
  const r = await runOpencode({
    cwd: repo,
    prompt: "commit the work",
    env: { SKILLGATE_STATE: state },
    script: [
      bash(`env > ${envFile}; node tools/commit.js first`),
      { toolUse: { name: "read", input: { filePath: join(ROOT, "skills", "commit", "SKILL.md") } } },
      bash("node tools/commit.js second"),
      { text: "done" },
    ],
  });
  assert.equal(r.exitCode, 0, r.stderr.slice(-1500));
  const env = readFileSync(envFile, "utf8");
  assert.match(env, /^OPENCODE=1$/m, "opencode marks its bash tool");
  const first = resultFor(r, "toolu_e2e_1");
  assert.match(first, /skillgate: git refused a new commit on main/);
  assert.match(first, /skillgate\[commit-gate\]: Load skill "commit" first .*call the skill tool with name "commit"/);
  if (process.env.E2E_DEBUG) for (const id of ["toolu_e2e_2", "toolu_e2e_3"]) console.error(id, resultFor(r, id).slice(0, 800));
  const log = execFileSync("git", ["log", "--format=%s"], { cwd: repo, encoding: "utf8" }).trim().split("\n");
  assert.deepEqual(log, ["second", "init"]);
});
