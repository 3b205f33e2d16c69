// A person's commit made in another terminal while an agent's shell call runs (io/persons-updates.ts): the git
// hooks let it through as a person's and note it, so the effects audit of the agent's call, which compares the
// branch before and after the call, neither reports it as the agent's nor takes it back. Real git, the real git
// hook entry (dist/git-hook.mjs) and the hook in-process with Claude Code payload shapes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runHook } from "../hooks/entries/claude-code.js";
import { AGENT_MARKERS } from "../hooks/effects/caller.js";
import { installGitHooks } from "../hooks/io/git-hooks.js";
import { gitRepoWithCommit, root } from "./helpers.ts";

const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(root, "cases", "fixtures", `${name}.json`), "utf8")) as Record<string, unknown>;
const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), `skillgate-persons-${p}-`));

function personEnv(state: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SKILLGATE_STATE: state, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", ...extra };
  for (const k of Object.keys(AGENT_MARKERS)) delete env[k];
  return env;
}
function git(repo: string, args: string[], env: NodeJS.ProcessEnv): string {
  const r = spawnSync("git", args, { cwd: repo, env, encoding: "utf8" });
  assert.equal(r.status, 0, `git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

function setup(): { state: string; repo: string; event: (name: string, over: Record<string, unknown>) => Promise<{ stdout: string }> } {
  const state = tmp("state");
  const repo = tmp("repo");
  gitRepoWithCommit(repo, personEnv(state));
  installGitHooks(repo, { node: process.execPath, entry: path.join(root, "dist", "git-hook.mjs"), stateDir: state, markers: Object.keys(AGENT_MARKERS) });
  const event = (name: string, over: Record<string, unknown>) =>
    runHook(JSON.stringify({ ...fixture(name), cwd: repo, ...over }), {
      env: { ...personEnv(state), CLAUDE_PROJECT_DIR: repo, HOME: state },
      packageRoot: root,
    });
  return { state, repo, event };
}

/**
 * A commit from a process that is not below this test (its parent exits at once, so it is adopted by init):
 * the in-process hook's ticket names this test's parent as the agent's client, and a person's terminal is not
 * below the client.
 */
function personCommits(repo: string, env: NodeJS.ProcessEnv, message: string): void {
  const done = path.join(repo, ".git", `done-${message.replace(/\W/g, "")}`);
  spawnSync("sh", ["-c", `(git commit --allow-empty -qm '${message}' > /dev/null 2>&1; echo $? > '${done}') < /dev/null > /dev/null 2>&1 &`], {
    cwd: repo,
    env,
  });
  const until = Date.now() + 20_000;
  while (!fs.existsSync(done) || fs.readFileSync(done, "utf8").trim() === "") {
    assert.ok(Date.now() < until, "the person's commit did not finish");
    spawnSync("sleep", ["0.05"]);
  }
  assert.equal(fs.readFileSync(done, "utf8").trim(), "0", "the person's commit passed the git hook");
}

const call = (command: string, id: string) => ({ tool_input: { command, description: "t" }, tool_use_id: id });

test("a person's commit during an agent's call stays, and is not reported as the agent's; an agent's commit on top of it is taken back to it", async () => {
  const { state, repo, event } = setup();
  await event("pre-tool-use-bash", call("node tools/build.js", "toolu_build"));
  assert.ok(
    fs.readdirSync(path.join(state, "tickets")).some((n) => n.includes("toolu_build")),
    "the call's ticket is live",
  );
  personCommits(repo, personEnv(state), "person");
  const personal = git(repo, ["rev-parse", "HEAD"], personEnv(state));
  assert.ok(fs.existsSync(path.join(state, "persons-updates", personal)), "the git hook noted the person's commit");
  const told = (await event("post-tool-use-bash", call("node tools/build.js", "toolu_build"))).stdout;
  assert.doesNotMatch(told, /effects-audit/, "the person's commit was reported as the agent's");
  assert.equal(git(repo, ["rev-parse", "HEAD"], personEnv(state)), personal, "the person's commit was taken back");

  // The agent's own commit, with git's hooks switched off in its shell (as Gemini CLI does), after a person's: back to the person's.
  const hooksOff = personEnv(state, { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.hooksPath", GIT_CONFIG_VALUE_0: "" });
  await event("pre-tool-use-bash", call("node tools/build.js", "toolu_build2"));
  personCommits(repo, personEnv(state), "person2");
  const personal2 = git(repo, ["rev-parse", "HEAD"], personEnv(state));
  git(repo, ["commit", "--allow-empty", "-qm", "agent"], hooksOff);
  const told2 = (await event("post-tool-use-bash", call("node tools/build.js", "toolu_build2"))).stdout;
  assert.match(told2, /skillgate\[effects-audit\]: a commit \(main: \\"commit: agent\\"\)/);
  assert.doesNotMatch(told2, /person2/, "the person's commit is not in the agent's findings");
  assert.equal(git(repo, ["rev-parse", "HEAD"], personEnv(state)), personal2, "the branch goes back to the person's commit, not before it");
});

test("without the git hooks' record (a record that fails its check), the same commit counts as the call's and is taken back", async () => {
  const { state, repo, event } = setup();
  const before = git(repo, ["rev-parse", "HEAD"], personEnv(state));
  await event("pre-tool-use-bash", call("node tools/build.js", "toolu_build"));
  personCommits(repo, personEnv(state), "person");
  const personal = git(repo, ["rev-parse", "HEAD"], personEnv(state));
  // An edited record vouches for nothing.
  fs.appendFileSync(path.join(state, "persons-updates", personal), " ");
  const told = (await event("post-tool-use-bash", call("node tools/build.js", "toolu_build"))).stdout;
  assert.match(told, /skillgate\[effects-audit\]/);
  assert.equal(git(repo, ["rev-parse", "HEAD"], personEnv(state)), before);
});
