// The git hooks with the real client (docs/git-hooks.md): a commit made by a
// program the shell analysis lets run is stopped by git's own
// reference-transaction hook, and the model reads why in the next request; after
// the Skill call the same command commits; a commit the agent left running in
// the background (setsid, the call already over) is stopped too; a person's
// commit in the same repository, made while the session is open, passes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentText, tempDir, toolResults, type RunResult } from "./harness.ts";
import { installed, play } from "./project.ts";

const bash = (command: string, id: string) => ({ toolUse: { name: "Bash", input: { command, description: "e2e" }, id } });
const skill = (name: string, id: string) => ({ toolUse: { name: "Skill", input: { skill: name }, id } });
// A program the shell analysis does not see into (it assembles "commit" at run time; the spelled-out
// `python3 -c "…subprocess.run(['git','commit',…])"` is refused by the analysis before it runs).
const TOOL = `const fs = require('fs');
const [subject, delay] = process.argv.slice(2);
setTimeout(() => {
  fs.appendFileSync('README.md', subject + '\\n');
  const r = require('child_process').spawnSync('git', [['com', 'mit'].join(''), '-qam', subject], { stdio: 'inherit' });
  process.exit(r.status === null ? 1 : r.status);
}, Number(delay || 0) * 1000);
`;
const COMMIT = "node tools/commit.js x";

/** What the model was fed for one tool call. */
function resultText(r: RunResult, id: string): string {
  for (const q of r.requests) {
    const b = toolResults(q.body).find((x) => x.tool_use_id === id);
    if (b) return contentText(b.content);
  }
  assert.fail(`no tool_result for ${id}`);
}

/** The environment without any agent's marker: a person's terminal. */
function personEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CODEX_THREAD_ID", "CODEX_SANDBOX_NETWORK_DISABLED", "OPENCODE", "GEMINI_CLI"]) delete env[k];
  return env;
}

test("git hooks: an agent commit is aborted with the gate reason, passes after the skill, a background one is aborted, a person passes", async () => {
  const p = installed(["commit"]);
  mkdirSync(join(p.repo, "tools"));
  writeFileSync(join(p.repo, "tools", "commit.js"), TOOL);
  const out = tempDir("git-hooks-out");
  const envFile = join(out, "bash-env.txt");
  const bgLog = join(out, "background.log");
  const subjects = () => execFileSync("git", ["log", "--format=%s"], { cwd: p.repo, encoding: "utf8" }).trim().split("\n");
  assert.ok(existsSync(join(p.repo, ".git", "hooks", "reference-transaction")), "install put the reference-transaction hook in place");

  // While the session waits in `sleep` (its call's ticket live), a person commits from outside (no marker, not below the client).
  let personCommit: { ok: boolean; error?: string } | undefined;
  const tickets = join(p.env.SKILLGATE_STATE!, "tickets");
  const watch = setInterval(() => {
    if (personCommit || !existsSync(tickets) || !readdirSync(tickets).some((n) => n.includes("toolu_wait"))) return;
    try {
      execFileSync("git", ["commit", "--allow-empty", "-qm", "person: typed in another terminal"], { cwd: p.repo, env: personEnv(), stdio: "pipe" });
      personCommit = { ok: true };
    } catch (e) {
      personCommit = { ok: false, error: String((e as { stderr?: Buffer }).stderr ?? e) };
    }
  }, 100);
  let r: RunResult;
  try {
    r = await play(p, {
      prompt: "commit it",
      timeoutMs: 150_000,
      script: [
        bash(`env > ${envFile}; ${COMMIT}`, "toolu_py1"),
        // Left running after the call returns, in its own session: the client is no longer its ancestor.
        bash(`(setsid node tools/commit.js background 2 >> ${bgLog} 2>&1; echo "exit $?" >> ${bgLog}) > /dev/null 2>&1 < /dev/null &`, "toolu_bg"),
        // A call that may run git (a ticket is live for it; a vouched read-only call such as `sleep 6` leaves none).
        bash("sleep 6; git status --short > /dev/null; echo waited", "toolu_wait"),
        skill("commit", "toolu_skill"),
        bash(COMMIT, "toolu_py2"),
        { text: "done" },
      ],
    });
  } finally {
    clearInterval(watch);
  }

  if (process.env.E2E_DEBUG) {
    for (const id of ["toolu_py1", "toolu_bg", "toolu_wait", "toolu_skill", "toolu_py2"]) console.error(id, resultText(r, id).slice(0, 1500));
    console.error("background:", readFileSync(bgLog, "utf8"));
    // Names only (values may be secrets), and the values of the markers.
    console.error(
      "bash env:",
      readFileSync(envFile, "utf8")
        .split("\n")
        .map((l) => (/^(CLAUDECODE|CLAUDE_CODE_ENTRYPOINT|AI_AGENT|CLAUDE_CODE_SESSION_ID|CLAUDE_PID|SKILLGATE_STATE)=/.test(l) ? l : l.split("=")[0]))
        .join(" "),
    );
  }
  // What Claude Code puts into its Bash tool's environment (docs/git-hooks.md records it).
  const env = readFileSync(envFile, "utf8");
  assert.match(env, /^CLAUDECODE=1$/m);
  assert.match(env, new RegExp(`^CLAUDE_CODE_SESSION_ID=${r.sessionId}$`, "m"), "the session is named in the environment too");

  const first = resultText(r, "toolu_py1");
  assert.match(first, /skillgate: git refused a new commit on main/, "the model reads the git hook's refusal as the command's output");
  assert.match(first, /skillgate\[commit-gate\]/, "with the commit gate's own reason (the core decided it)");
  assert.match(first, /Skill/, "and how to load the skill, in Claude Code's words");

  const bg = readFileSync(bgLog, "utf8");
  assert.match(bg, /skillgate: git refused a new commit/, `the background commit was refused: ${bg}`);
  assert.match(bg, /exit [1-9]/);

  assert.deepEqual(personCommit, { ok: true }, "a person's commit passes while the session is open");
  const log = subjects();
  assert.equal(log[0], "x", "after the Skill call the same command commits");
  assert.ok(log.includes("person: typed in another terminal"));
  assert.ok(!log.includes("background"));
  assert.equal(log.filter((s) => s === "x").length, 1, "the first attempt made no commit");
});
