// Evidence records only what was observed: attack sequences through Claude
// Code's hook entry in-process (runHook, what dist/hook.cjs runs; the Codex test
// runs the built dist/hook-codex.cjs), with Claude Code 2.1.328 payload shapes
// (cases/fixtures). Every command the hook
// lets run is really run with bash in the project before the next event, and
// its real exit status decides PostToolUse or PostToolUseFailure — as the
// client does. The project's own tests FAIL, so any green that opens the
// commit or done gate is a forged one.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { runHook } from "../hooks/entries/claude-code.ts";
import { casesDir, gitProject, hookBundle, root } from "./helpers.ts";

const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(casesDir, "fixtures", `${name}.json`), "utf8")) as Record<string, unknown>;
const made: string[] = [];
const tmp = (p: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), p));
  made.push(d);
  return d;
};
after(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

/** A process, waited for without blocking the other tests. */
function spawnAsync(
  cmd: string,
  args: string[],
  o: { cwd: string; env?: NodeJS.ProcessEnv; input?: string },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: o.cwd, env: o.env, stdio: ["pipe", "pipe", "pipe"] });
    child.stdin.on("error", () => {});
    child.stdin.end(o.input ?? "");
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * For the real runs: npm's check for a newer npm (on by default, and due on every run here: each project's
 * HOME is new) costs a run ~0.7 s more CPU than the test itself, and changes nothing the hook sees.
 */
const NPM_QUIET = { npm_config_update_notifier: "false" };

/**
 * The projects' tests are shell scripts, run by npm as a package's tests are: what npm does (and what the hook
 * reads of it) is the same whatever the script is, and a second Node start per run would cost ~60 ms of CPU more.
 */
const RED = `{"name":"ws","version":"1.0.0","scripts":{"test":"sh test/run.sh"}}\n`;
const GREEN_SCRIPT = `{"name":"ws","version":"1.0.0","scripts":{"test":"true"}}\n`;
const RED_TESTS = "echo 'not ok 1 - adds'; exit 1\n";
const GREEN_TESTS = "echo 'ok 1 - adds'\n";

/**
 * `npm test` where npm itself is not what a test is about (the shell around it is: `|| true`, a trap, a background
 * start): a stand-in first on PATH that does what npm does for these projects (announces the script, runs it, exits
 * with its status) without a Node start, ~0.13 s of CPU per run. Each test still runs the real npm at least once,
 * and the tests about what npm itself does (--prefix, npm_config_*, an edited script) run it every time.
 */
const FAKE_NPM_BIN = (() => {
  const dir = tmp("sg-obs-npm-");
  // Anything else than a bare `npm test` of such a project goes to the real npm (this folder taken off PATH).
  const script = [
    "#!/bin/sh",
    `if [ "$*" = test ] && grep -q '"test":"sh test/run.sh"' package.json 2>/dev/null; then`,
    `  printf '\\n> ws@1.0.0 test\\n> sh test/run.sh\\n\\n'`,
    "  exec sh test/run.sh",
    "fi",
    `PATH=$(printf '%s' "$PATH" | sed 's#${dir}:##g') exec npm "$@"`,
  ];
  fs.writeFileSync(path.join(dir, "npm"), `${script.join("\n")}\n`, { mode: 0o755 });
  return dir;
})();

interface Project {
  ws: string;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  /** A second package next to the project, whose tests pass. */
  other: string;
}

/** The row's paths leave package.json out on purpose: the check's definition must be in scope anyway. */
function project(paths: string[] = ["src", "test"]): Project {
  const { ws, git } = gitProject("sg-obs-ws-");
  made.push(ws);
  fs.writeFileSync(path.join(ws, "package.json"), RED);
  fs.writeFileSync(path.join(ws, "test/run.sh"), RED_TESTS);
  git("add", "-A");
  const conf = tmp("sg-obs-conf-");
  const tableFile = path.join(conf, "triggers.json");
  fs.writeFileSync(
    tableFile,
    JSON.stringify({
      version: 1,
      skillsDir: "skills",
      rows: [
        { id: "tests", kind: "evidence", when: { command: { name: "npm", sub: ["test"] } }, paths },
        { id: "commit-needs-tests", kind: "gate", when: { command: { name: "git", sub: ["commit"] } }, require: { evidence: "tests" } },
        { id: "done-needs-tests", kind: "gate", when: { final: { pattern: "✅" } }, require: { evidence: "tests" } },
      ],
    }),
  );
  fs.mkdirSync(path.join(conf, "skills"));
  const other = tmp("sg-obs-other-");
  fs.writeFileSync(path.join(other, "package.json"), `{"name":"other","version":"1.0.0","scripts":{"test":"true"}}\n`);
  const stateDir = path.join(conf, "state");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: conf,
    SKILLGATE_TABLE: tableFile,
    SKILLGATE_STATE: stateDir,
    SKILLGATE_OUTPUT_DIR: path.join(conf, "out"),
    CLAUDE_PROJECT_DIR: ws,
  };
  return { ws, env, stateDir, other };
}

let seq = 0;
async function hook(p: Project, name: string, over: Record<string, unknown>): Promise<Record<string, any>> {
  const payload = { ...fixture(name), session_id: "obs-session", cwd: p.ws, ...over };
  const r = await runHook(JSON.stringify(payload), { env: p.env, packageRoot: root });
  assert.ok(!/internal error/.test(r.stdout), r.stdout);
  return r.stdout ? (JSON.parse(r.stdout) as Record<string, any>) : {};
}

const refusal = (out: Record<string, any>): string | undefined =>
  out.hookSpecificOutput?.permissionDecision === "deny" ? out.hookSpecificOutput.permissionDecisionReason : out.decision === "block" ? out.reason : undefined;
const commit = async (p: Project) =>
  refusal(await hook(p, "pre-tool-use-bash", { tool_input: { command: "git commit -m 'x'", description: "commit" }, tool_use_id: `toolu_c${++seq}` }));
const done = async (p: Project) =>
  refusal(await hook(p, "stop", { last_assistant_message: "✅ Готово", stop_hook_active: false, prompt_id: `prompt-${++seq}` }));

interface Ran {
  pre: Record<string, any>;
  post: Record<string, any>;
}

/**
 * The client's Bash tool: PreToolUse, then (if allowed) the command really runs in bash, then
 * PostToolUse (exit 0) or PostToolUseFailure ("Exit code N"). `shape` overrides the result the
 * client reports (a background start, an interrupt), for what bash alone cannot show.
 */
async function bash(
  p: Project,
  command: string,
  o: { input?: Record<string, unknown>; response?: Record<string, unknown>; npm?: "stand-in" } = {},
): Promise<Ran> {
  const id = `toolu_b${++seq}`;
  const input = { command, description: "run", ...o.input };
  const pre = await hook(p, "pre-tool-use-bash", { tool_input: input, tool_use_id: id });
  assert.equal(refusal(pre), undefined, `the call itself is allowed: ${command}`);
  const PATH = o.npm ? `${FAKE_NPM_BIN}${path.delimiter}${process.env.PATH}` : process.env.PATH;
  const real = await spawnAsync("bash", ["-c", command], { cwd: p.ws, env: { PATH, HOME: p.env.HOME, ...NPM_QUIET } });
  const base = { tool_input: input, tool_use_id: id, duration_ms: 40 };
  const response = { stdout: real.stdout, stderr: real.stderr, interrupted: false, isImage: false, noOutputExpected: false, ...o.response };
  const post =
    real.status === 0 || o.response
      ? await hook(p, "post-tool-use-bash", { ...base, tool_response: response })
      : await hook(p, "post-tool-use-failure-bash", { ...base, error: `Exit code ${real.status}\n${real.stdout}${real.stderr}`, is_interrupt: false });
  return { pre, post };
}

// Each test has projects of its own and mostly waits on real npm runs: they run side by side.
describe("evidence records only what was observed", { concurrency: true }, () => {
  test("control: the project's own red tests keep the gates shut; a real green opens them", async () => {
    const p = project();
    await bash(p, "npm test");
    assert.match((await commit(p)) ?? "", /the latest run failed \(npm test, exit 1/);
    fs.writeFileSync(path.join(p.ws, "test/run.sh"), GREEN_TESTS);
    await bash(p, "npm test");
    assert.equal(await commit(p), undefined);
    assert.equal(await done(p), undefined);
  });

  test("`npm test || true` and `true || npm test` are not a pass; neither opens the done gate", async () => {
    const commands = [
      "npm test || true",
      "true || npm test",
      "npm test; true",
      "npm test | cat",
      "! npm test",
      "npm test & wait",
      "(npm test) || :",
      "npm test && exit 0",
    ];
    // A project each: the runs go side by side.
    await Promise.all(
      commands.map(async (command, i) => {
        const p = project();
        // The first with the real npm; the others are about the shell around it.
        const r = await bash(p, command, i === 0 ? {} : { npm: "stand-in" });
        assert.match(r.pre.systemMessage ?? "", /will not count as evidence/, `${command}: the user is told`);
        assert.match((await commit(p)) ?? "", /none is recorded/, command);
        assert.match((await done(p)) ?? "", /skillgate\[done-needs-tests\]/, command);
      }),
    );
  });

  test("state set up earlier on the line that can change the status does not count (trap, function, alias, exec)", async () => {
    const commands = [
      "trap 'exit 0' EXIT; npm test",
      "npm() { :; }; npm test",
      "set +e; npm test",
      "PATH=/tmp/fake:$PATH npm test",
      "npm_config_script_shell=/bin/true npm test",
    ];
    await Promise.all(
      commands.map(async (command) => {
        const p = project();
        // The real npm where what npm does is the point (it honours npm_config_script_shell); the shell's own
        // tricks with the stand-in.
        await bash(p, command, command.startsWith("npm_config_") ? {} : { npm: "stand-in" });
        assert.match((await commit(p)) ?? "", /none is recorded/, command);
      }),
    );
  });

  test("a run the client put in the background, or one it reports interrupted, is not a pass", async () => {
    const p = project();
    const bg = await bash(p, "npm test", { input: { run_in_background: true }, response: { stdout: "", stderr: "", backgroundTaskId: "b7x2k" } });
    assert.match(bg.pre.systemMessage ?? "", /background/);
    assert.match((await commit(p)) ?? "", /none is recorded/);
    // Auto-backgrounded by the client without the input field: the result says so.
    // The client's report decides these two, whatever the run did: the stand-in runs them.
    await bash(p, "npm test", { response: { stdout: "", stderr: "", backgroundTaskId: "b7x2l" }, npm: "stand-in" });
    assert.match((await commit(p)) ?? "", /none is recorded/);
    const cut = await bash(p, "npm test", { response: { stdout: "ok 1 - adds\n", stderr: "", interrupted: true }, npm: "stand-in" });
    assert.match(cut.post.systemMessage ?? "", /interrupted/);
    assert.match((await commit(p)) ?? "", /none is recorded/);
    assert.match((await done(p)) ?? "", /skillgate\[done-needs-tests\]/);
  });

  test("another package's green run does not count for this workspace (--prefix, cd, -C, npm_config_prefix)", async () => {
    const p = project();
    for (const command of [
      `npm test --prefix ${p.other}`,
      `npm --prefix=${p.other} test`,
      `cd ${p.other} && npm test`,
      `npm -C ${p.other} test`,
      `npm_config_prefix=${p.other} npm test`,
      `env npm_config_prefix=${p.other} npm test`,
      `cd ${p.other}; npm test`,
      `npm test --workspace=../x`,
    ]) {
      await bash(p, command);
      assert.match((await commit(p)) ?? "", /none is recorded/, command);
    }
    // The workspace itself, named every way, does count (and here it is red).
    await Promise.all(
      [`cd ${p.ws} && npm test`, `npm test --prefix ${p.ws}`, `cd src && cd .. && npm test`].map(async (command) => {
        const q = project();
        fs.writeFileSync(path.join(q.ws, "test/run.sh"), GREEN_TESTS);
        await bash(q, command.replaceAll(p.ws, q.ws));
        assert.equal(await commit(q), undefined, command);
      }),
    );
  });

  test("a green got by editing the test script first goes stale when the script is put back (package.json is in scope by default)", async () => {
    const p = project();
    fs.writeFileSync(path.join(p.ws, "package.json"), GREEN_SCRIPT); // the agent's Edit
    await bash(p, "npm test");
    fs.writeFileSync(path.join(p.ws, "package.json"), RED); // and back
    const r = (await commit(p)) ?? "";
    assert.match(r, /package\.json \(modified\)/);
    assert.match((await done(p)) ?? "", /package\.json \(modified\)/);
  });

  test("the runner's config is in scope by default: a .mocharc or tsconfig change after the run makes it stale", async () => {
    const p = project();
    fs.writeFileSync(path.join(p.ws, "test/run.sh"), GREEN_TESTS);
    fs.writeFileSync(path.join(p.ws, "tsconfig.json"), "{}\n");
    await bash(p, "npm test");
    assert.equal(await commit(p), undefined);
    fs.writeFileSync(path.join(p.ws, ".mocharc.json"), `{"spec": "nothing/*.js"}\n`);
    assert.match((await commit(p)) ?? "", /\.mocharc\.json/);
    fs.rmSync(path.join(p.ws, ".mocharc.json"));
    assert.equal(await commit(p), undefined);
    fs.writeFileSync(path.join(p.ws, "tsconfig.json"), `{"include": []}\n`);
    assert.match((await commit(p)) ?? "", /tsconfig\.json \(modified\)/);
  });

  test("a symlink in scope is hashed by what it points to: its target changing after the run makes it stale", async () => {
    const p = project(["src", "test"]);
    fs.writeFileSync(path.join(p.ws, "test/run.sh"), GREEN_TESTS);
    fs.mkdirSync(path.join(p.ws, "data"));
    fs.writeFileSync(path.join(p.ws, "data/cases.json"), "[1]\n");
    fs.symlinkSync("../data/cases.json", path.join(p.ws, "test/cases.json"));
    await bash(p, "npm test");
    assert.equal(await commit(p), undefined);
    fs.writeFileSync(path.join(p.ws, "data/cases.json"), "[]\n"); // outside the row's paths; the link in scope reads it
    assert.match((await commit(p)) ?? "", /test\/cases\.json \(modified\)/);
  });

  test("Codex: its PostToolUse carries no exit status, so a red run is never recorded as a pass", async () => {
    const p = project();
    const codexHook = path.join(path.dirname(hookBundle), "hook-codex.cjs");
    const codexFixture = JSON.parse(fs.readFileSync(path.join(casesDir, "..", "test", "fixtures", "codex", "PreToolUse-Bash.json"), "utf8")) as Record<
      string,
      unknown
    >;
    const env = { ...p.env, CLAUDE_PROJECT_DIR: undefined };
    const run = async (payload: Record<string, unknown>) => {
      const r = await spawnAsync(process.execPath, [codexHook], { input: JSON.stringify({ ...codexFixture, cwd: p.ws, ...payload }), env, cwd: p.ws });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout ? (JSON.parse(r.stdout) as Record<string, any>) : {};
    };
    const pre = await run({ tool_input: { command: "npm test" }, tool_use_id: "call_t1" });
    assert.match(pre.systemMessage ?? "", /does not tell hooks a command's exit status/);
    const real = await spawnAsync("bash", ["-c", "npm test"], { cwd: p.ws, env: { ...process.env, ...NPM_QUIET } });
    assert.notEqual(real.status, 0, "the project's tests are red");
    await run({ hook_event_name: "PostToolUse", tool_input: { command: "npm test" }, tool_use_id: "call_t1", tool_response: `${real.stdout}${real.stderr}` });
    const commitOut = await run({ tool_input: { command: "git commit -m x" }, tool_use_id: "call_c1" });
    assert.equal(commitOut.hookSpecificOutput?.permissionDecision, "deny");
    assert.match(commitOut.hookSpecificOutput?.permissionDecisionReason ?? "", /none is recorded/);
  });
});
