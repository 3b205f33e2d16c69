// Evidence-bound gates end to end through the real hook (runHook, in process):
// a table with an evidence row and gates that require it, a temp git repo as
// the project, Claude Code payloads from cases/fixtures.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { runHook } from "../hooks/entries/claude-code.ts";
import { casesDir, cliRun, gitProject, root } from "./helpers.ts";

const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(casesDir, "fixtures", `${name}.json`), "utf8")) as Record<string, unknown>;
const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), p));

function table(reuse: boolean): unknown {
  return {
    version: 1,
    skillsDir: "skills",
    rows: [
      {
        id: "tests",
        kind: "evidence",
        when: { command: { name: "npm", sub: ["test"] } },
        paths: ["src", "test", "package.json", "package-lock.json"],
        ...(reuse ? { reuse: true } : {}),
      },
      { id: "commit-needs-tests", kind: "gate", when: { command: { name: "git", sub: ["commit"] } }, require: { evidence: "tests" } },
      { id: "done-needs-tests", kind: "gate", when: { final: { pattern: "✅" } }, require: { evidence: "tests" } },
    ],
  };
}

interface Project {
  ws: string;
  env: NodeJS.ProcessEnv;
  stateDir: string;
}

function project(reuse = false): Project {
  const { ws } = gitProject("sg-gate-ws-");
  const conf = tmp("sg-gate-conf-");
  const tableFile = path.join(conf, "triggers.json");
  fs.writeFileSync(tableFile, JSON.stringify(table(reuse)));
  fs.mkdirSync(path.join(conf, "skills"));
  const stateDir = path.join(conf, "state");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: conf,
    SKILLGATE_TABLE: tableFile,
    SKILLGATE_STATE: stateDir,
    SKILLGATE_OUTPUT_DIR: path.join(conf, "out"),
    CLAUDE_PROJECT_DIR: ws,
  };
  return { ws, env, stateDir };
}

let seq = 0;
async function hook(p: Project, name: string, over: Record<string, unknown>): Promise<Record<string, any>> {
  const payload = { ...fixture(name), session_id: "gate-session", cwd: p.ws, ...over };
  const r = await runHook(JSON.stringify(payload), { env: p.env, packageRoot: root });
  assert.ok(!/internal error/.test(r.stderr), r.stderr);
  return r.stdout ? (JSON.parse(r.stdout) as Record<string, any>) : {};
}

const commit = (p: Project) =>
  hook(p, "pre-tool-use-bash", { tool_input: { command: "git commit -m 'x'", description: "commit" }, tool_use_id: `toolu_c${++seq}` });
const done = (p: Project) => hook(p, "stop", { last_assistant_message: "✅ Готово", stop_hook_active: false, prompt_id: `prompt-${++seq}` });
const refusal = (out: Record<string, any>): string | undefined =>
  out.hookSpecificOutput?.permissionDecision === "deny" ? out.hookSpecificOutput.permissionDecisionReason : out.decision === "block" ? out.reason : undefined;

/** The model runs `npm test`: PreToolUse, then PostToolUse (green) or PostToolUseFailure (red). */
async function npmTest(p: Project, green: boolean, command = "npm test"): Promise<Record<string, any>> {
  const id = `toolu_t${++seq}`;
  const pre = await hook(p, "pre-tool-use-bash", { tool_input: { command, description: "run the tests", timeout: 120000 }, tool_use_id: id });
  if (pre.hookSpecificOutput?.updatedInput) return pre; // answered from the record: nothing runs
  if (green)
    await hook(p, "post-tool-use-bash", {
      tool_input: { command },
      tool_use_id: id,
      tool_response: { stdout: "# tests 3\n# pass 3\n# fail 0\n", stderr: "", interrupted: false, isImage: false, noOutputExpected: false },
      duration_ms: 1534,
    });
  else
    await hook(p, "post-tool-use-failure-bash", {
      tool_input: { command },
      tool_use_id: id,
      error: "Exit code 1\nnot ok 2 - adds\n# fail 1",
      duration_ms: 1200,
    });
  return pre;
}

test("a commit and a ✅ are refused before any test run, allowed after a green npm test", async () => {
  const p = project();
  const r1 = refusal(await commit(p));
  assert.match(r1 ?? "", /^skillgate\[commit-needs-tests\]: .*check "tests".*none is recorded.*Run: npm test/s);
  assert.match(refusal(await done(p)) ?? "", /skillgate\[done-needs-tests\].*Run: npm test/s);
  await npmTest(p, true);
  assert.equal(refusal(await commit(p)), undefined);
  assert.equal(refusal(await done(p)), undefined);
});

test("skillgate evidence reads the table's `paths` and reports the check fresh after the green run", async () => {
  const p = project();
  await npmTest(p, true);
  // The verb in this process (cli(): its --json and exit code are what is tested, not a process start).
  const r = await cliRun(["evidence", "--json", "--cwd", p.ws, "--table", p.env.SKILLGATE_TABLE ?? ""], {
    cwd: root,
    env: { ...process.env, SKILLGATE_STATE: p.stateDir },
  });
  assert.equal(r.code, 0, r.err);
  const checks = (JSON.parse(r.out) as { checks: { check: string; status: string; inTable?: boolean }[] }).checks;
  assert.deepEqual(
    checks.map((c) => [c.check, c.status]),
    [["tests", "fresh"]],
  );
});

test("an Edit in src/ closes the gate again, naming the file; the re-run opens it", async () => {
  const p = project();
  await npmTest(p, true);
  assert.equal(refusal(await commit(p)), undefined);
  fs.writeFileSync(path.join(p.ws, "src/a.ts"), "export const a = 2;\n"); // what the Edit tool did
  const r = refusal(await commit(p));
  assert.match(r ?? "", /changed since the green run: src\/a\.ts \(modified\)/);
  assert.match(r ?? "", /Run: npm test/);
  assert.match(refusal(await done(p)) ?? "", /src\/a\.ts \(modified\)/);
  await npmTest(p, true);
  assert.equal(refusal(await commit(p)), undefined);
});

test("a failing run does not lift the gate (and closes one a green run opened)", async () => {
  const p = project();
  await npmTest(p, false);
  assert.match(refusal(await commit(p)) ?? "", /the latest run failed \(npm test, exit 1/);
  await npmTest(p, true);
  assert.equal(refusal(await commit(p)), undefined);
  await npmTest(p, false);
  assert.match(refusal(await commit(p)) ?? "", /the latest run failed/);
});

test("a change outside the row's paths does not invalidate the green run", async () => {
  const p = project();
  await npmTest(p, true);
  fs.writeFileSync(path.join(p.ws, "README.md"), "changed\n");
  fs.writeFileSync(path.join(p.ws, "notes.txt"), "new\n");
  assert.equal(refusal(await commit(p)), undefined);
  fs.writeFileSync(path.join(p.ws, "test/b.test.ts"), "new test\n");
  assert.match(refusal(await commit(p)) ?? "", /test\/b\.test\.ts \(new\)/);
});

test("reuse: the second identical run is answered from the record via updatedInput (the rest of the input kept)", async () => {
  const p = project(true);
  const first = await npmTest(p, true);
  assert.equal(first.hookSpecificOutput?.updatedInput, undefined, "the first run really runs");
  const second = await npmTest(p, true);
  const hso = second.hookSpecificOutput;
  assert.equal(hso?.hookEventName, "PreToolUse");
  assert.equal(hso?.permissionDecision, "allow");
  assert.equal(hso?.updatedInput.description, "run the tests");
  assert.equal(hso?.updatedInput.timeout, 120000);
  const cmd: string = hso?.updatedInput.command;
  assert.match(cmd, /^printf /);
  // The rewritten command prints the record: run it as the client would.
  const printed = spawnSync("sh", ["-c", cmd], { encoding: "utf8" }).stdout;
  assert.match(printed, /check "tests" already passed on this exact tree/);
  assert.match(printed, /# pass 3/);
  // A different command line runs for real; after an edit the same line runs again too.
  assert.equal((await npmTest(p, true, "npm test -- --reporter=dot")).hookSpecificOutput?.updatedInput, undefined);
  fs.writeFileSync(path.join(p.ws, "src/a.ts"), "export const a = 3;\n");
  assert.equal((await npmTest(p, true)).hookSpecificOutput?.updatedInput, undefined);
});

test("without reuse the identical run runs again; events without a requiring gate touch no evidence or fingerprint", async () => {
  const p = project();
  await hook(p, "pre-tool-use-bash", { tool_input: { command: "ls -la" }, tool_use_id: "toolu_ls" });
  await hook(p, "stop", { last_assistant_message: "still working", prompt_id: "p-x" });
  await hook(p, "user-prompt-submit", { prompt: "hello" });
  assert.ok(!fs.existsSync(path.join(p.stateDir, "evidence")), "no evidence store touched");
  assert.ok(!fs.existsSync(path.join(p.stateDir, "fingerprint-cache")), "nothing fingerprinted");
  await npmTest(p, true);
  assert.equal((await npmTest(p, true)).hookSpecificOutput?.updatedInput, undefined);
});

test("a check run inside a subagent is not recorded (evidence is the main thread's)", async () => {
  const p = project();
  const id = "toolu_sub";
  await hook(p, "pre-tool-use-bash", { tool_input: { command: "npm test" }, tool_use_id: id, agent_id: "agent-1" });
  await hook(p, "post-tool-use-bash", {
    tool_input: { command: "npm test" },
    tool_use_id: id,
    agent_id: "agent-1",
    tool_response: { stdout: "ok", stderr: "" },
  });
  assert.match(refusal(await commit(p)) ?? "", /none is recorded/);
});

test("the table: require must name an evidence row; a gate with neither skill nor require is refused", async () => {
  const { validateTable } = await import("../hooks/core/table/schema.ts");
  const bad = { version: 1, rows: [{ id: "g", kind: "gate", when: { command: { name: "git", sub: ["commit"] } }, require: { evidence: "nope" } }] };
  const v = validateTable(bad, "t.json");
  assert.equal(v.ok, false);
  assert.match(v.ok ? "" : v.error, /require\.evidence names "nope", which is not an evidence row/);
  const noSkill = validateTable({ version: 1, rows: [{ id: "g", kind: "gate", when: { command: { name: "git" } } }] }, "t.json");
  assert.match(noSkill.ok ? "" : noSkill.error, /name a skill/);
  const evidenceWithoutPaths = validateTable({ version: 1, rows: [{ id: "e", kind: "evidence", when: { command: { name: "npm" } } }] }, "t.json");
  assert.match(evidenceWithoutPaths.ok ? "" : evidenceWithoutPaths.error, /list paths/);
  assert.equal(validateTable(table(true), "t.json").ok, true);
});
