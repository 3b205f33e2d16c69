// A team's project, end to end with the real client: skillgate is a dependency
// (node_modules/skillgate), the project was set up with `skillgate init` and
// `skillgate install`, and the committed settings carry no absolute path
// (exec form, ${CLAUDE_PROJECT_DIR} in args, the launcher in .claude/hooks/).
// Run from the repo root after `npm run build`:
//   node --import tsx --test e2e/teams.test.ts
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { contentText, makeTempRepo, tempDir, toolResults, type ContentBlock, type RunResult } from "./harness.ts";
import { play, ROOT, type Project } from "./project.ts";

const bash = (command: string, id: string) => ({ toolUse: { name: "Bash", input: { command, description: "e2e" }, id } });
const skill = (name: string, id: string) => ({ toolUse: { name: "Skill", input: { skill: name }, id } });

function resultOf(r: RunResult, id: string): ContentBlock {
  for (const q of r.requests) {
    const b = toolResults(q.body).find((x) => x.tool_use_id === id);
    if (b) return b;
  }
  assert.fail(`no tool_result for ${id} in any request`);
}

const gitLog = (repo: string) => execFileSync("git", ["log", "--format=%s"], { cwd: repo, encoding: "utf8" }).trim().split("\n");

/** A repo with skillgate as its dependency, set up the way the README says: init, then install, by the project's own CLI. */
function teamProject(): Project {
  const repo = makeTempRepo();
  mkdirSync(join(repo, "node_modules"));
  symlinkSync(ROOT, join(repo, "node_modules", "skillgate"));
  const cli = join(repo, "node_modules", "skillgate", "bin", "skillgate.mjs");
  const env = { ...process.env, HOME: tempDir("home"), SKILLGATE_STATE: tempDir("state") };
  execFileSync(process.execPath, [cli, "init"], { cwd: repo, env, stdio: "pipe" });
  execFileSync(process.execPath, [cli, "install"], { cwd: repo, env, stdio: "pipe" });
  return { repo, env: { SKILLGATE_STATE: tempDir("state") } };
}

test("init + install: the committed settings are portable, the Skill call finds the project skill and lifts the gate", async () => {
  const p = teamProject();
  const settings = readFileSync(join(p.repo, ".claude", "settings.json"), "utf8");
  assert.ok(settings.includes('"${CLAUDE_PROJECT_DIR}/.claude/hooks/skillgate.mjs"'), settings.slice(0, 400));
  assert.equal(settings.includes(p.repo), false, "no absolute path to the repo in the committed settings");

  const r = await play(p, {
    prompt: "commit it",
    script: [
      bash('git commit --allow-empty -m "feat: before skill"', "toolu_c1"),
      skill("commit", "toolu_skill"),
      bash('git commit --allow-empty -m "feat: after skill"', "toolu_c2"),
      { text: "ok" },
    ],
  });
  // The deny proves the client substituted ${CLAUDE_PROJECT_DIR} in args: otherwise node finds no launcher and the commit runs.
  const denied = resultOf(r, "toolu_c1");
  assert.equal(denied.is_error, true, `the first commit should be refused: ${contentText(denied.content)}`);
  assert.match(contentText(denied.content), /skillgate\[commit-gate\]: .*skill "commit"/);
  const loaded = contentText(resultOf(r, "toolu_skill").content);
  assert.doesNotMatch(loaded, /Unknown skill/, "the project skill copied by init is loadable");
  assert.equal(loaded, "Launching skill: commit");
  const ran = resultOf(r, "toolu_c2");
  assert.notEqual(ran.is_error, true, `the commit after the Skill call should run: ${contentText(ran.content)}`);
  assert.deepEqual(gitLog(p.repo), ["feat: after skill", "init"]);
});

test("a teammate's clone without node_modules: the user is told skillgate is not installed (no silent pass)", async () => {
  const p = teamProject();
  rmSync(join(p.repo, "node_modules"), { recursive: true });
  const r = await play(p, { prompt: "commit it", script: [bash('git commit --allow-empty -m "feat: unchecked"', "toolu_c1"), { text: "ok" }] });
  const notices = r.events.filter((e) => e.type === "system" && typeof e["content"] === "string").map((e) => String(e["content"]));
  assert.ok(
    notices.some((n) => /skillgate is registered but not installed: run npm ci/.test(n)),
    `a notice for the user; system events: ${JSON.stringify(notices).slice(0, 600)}`,
  );
  // The tool-call gates are off (the starter table fails open) and the user was told why; git's own hook, installed
  // with them, sees an agent's commit from no shell call skillgate knows of and refuses it, saying so.
  const c = contentText(resultOf(r, "toolu_c1").content);
  assert.match(c, /skillgate: git refused a new commit/, c);
  assert.deepEqual(gitLog(p.repo), ["init"]);
});
