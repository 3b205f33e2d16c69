// skillgate under the real GitHub Copilot CLI: each scenario runs `copilot -p`
// offline against the scripted Responses server and checks what Copilot did
// and what the model was told (the next request's input).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { COPILOT_BIN, ROOT, bodyText, callOutput, project, run, type RunResult } from "./harness.ts";
import { installVerb } from "../cli/install.ts";
import { hostTest, recordResults } from "../e2e-shared/scenarios.ts";
import { copilotDriver } from "./driver.ts";

recordResults(copilotDriver, import.meta.filename);

/** `skillgate <verb> --host copilot …` in-process (cli/install.ts installVerb), with its own environment and output. */
const copilotInstallMain = (verb: "install" | "uninstall", args: string[], root: string, env: NodeJS.ProcessEnv, out: (s: string) => void) =>
  installVerb(verb, ["--host", "copilot", ...args], root, { env, out, err: out });

const sh = (command: string, callId: string) => ({ name: "bash", arguments: { command, description: "run" }, callId });
const view = (path: string, callId: string) => ({ name: "view", arguments: { path }, callId });
const skill = (name: string, callId: string) => ({ name: "skill", arguments: { skill: name }, callId });
const patch = (text: string, callId: string) => ({ name: "apply_patch", input: text, callId });
const log = (repo: string) => execFileSync("git", ["log", "--format=%s"], { cwd: repo, encoding: "utf8" }).trim().split("\n");

function ok(r: RunResult): void {
  assert.equal(r.timedOut, false, "copilot timed out");
  assert.equal(r.exitCode, 0, `copilot exited ${r.exitCode}: ${(r.stdout + r.stderr).slice(-800)}`);
}

function outputOf(r: RunResult, callId: string): string {
  for (const q of r.requests) {
    const out = callOutput(q.body, callId);
    if (out !== undefined) return out;
  }
  assert.fail(`no output for ${callId} reached the model`);
}

test("skillgate as the project's dependency: the install writes node and $COPILOT_PROJECT_DIR, no absolute path, and Copilot runs it: the commit is refused", async () => {
  const p = await project([], { install: false });
  mkdirSync(join(p.repo, "node_modules"));
  symlinkSync(ROOT, join(p.repo, "node_modules", "skillgate"));
  const lines: string[] = [];
  assert.equal(await copilotInstallMain("install", ["--project", p.repo, "--with-skills"], ROOT, { HOME: p.state }, (l) => lines.push(l)), 0, lines.join("\n"));
  const hooks = readFileSync(join(p.repo, ".github", "hooks", "skillgate.json"), "utf8");
  assert.ok(!hooks.includes(ROOT) && !hooks.includes(p.repo), hooks);
  assert.match(hooks, /node \\"\$COPILOT_PROJECT_DIR\/node_modules\/skillgate\/dist\/hook-copilot\.cjs\\" preToolUse/);
  const r = await run(p, { prompt: "make a commit", script: [{ calls: sh('git commit --allow-empty -m "feat: x"', "c1") }, { text: "blocked" }] });
  ok(r);
  assert.match(outputOf(r, "c1"), /Denied by preToolUse hook/);
  assert.deepEqual(log(p.repo), ["init"], "the commit must not have run");
});

test("control: without skillgate installed the same commit runs", async () => {
  const p = await project(["commit"], { install: false });
  const r = await run(p, { prompt: "make a commit", script: [{ calls: sh('git commit --allow-empty -m "feat: x"', "c1") }, { text: "committed" }] });
  ok(r);
  assert.doesNotMatch(outputOf(r, "c1"), /Denied/);
  assert.deepEqual(log(p.repo), ["feat: x", "init"]);
});

test("skill loaded by viewing its SKILL.md whole; a view_range slice loads nothing", async () => {
  const p = await project(["commit"]);
  const file = join(p.repo, ".github/skills/commit/SKILL.md");
  const r1 = await run(p, {
    prompt: "commit",
    script: [
      { calls: { name: "view", arguments: { path: file, view_range: [1, 3] }, callId: "v1" } },
      { calls: sh('git commit --allow-empty -m "feat: a"', "c1") },
      { text: "blocked" },
    ],
  });
  ok(r1);
  assert.match(outputOf(r1, "c1"), /Denied by preToolUse hook/);
  const r2 = await run(p, {
    prompt: "commit",
    script: [{ calls: view(file, "v2") }, { calls: sh('git commit --allow-empty -m "feat: b"', "c2") }, { text: "ok" }],
  });
  ok(r2);
  assert.deepEqual(log(p.repo), ["feat: b", "init"]);
});

test("a subagent (task) must load the skill itself: its commit is refused though the main agent loaded it, allowed after its own load", async () => {
  const p = await project(["commit"]);
  const r = await run(p, {
    prompt: "delegate a commit",
    script: [
      { calls: skill("commit", "s1") },
      { calls: { name: "task", arguments: { description: "commit it", prompt: "make the commit", agent_type: "task", name: "t1" }, callId: "t1" } },
      { calls: sh('git commit --allow-empty -m "feat: sub"', "c1") },
      { calls: skill("commit", "s2") },
      { calls: sh('git commit --allow-empty -m "feat: sub2"', "c2") },
      { text: "sub committed" },
      { text: "done" },
    ],
  });
  ok(r);
  assert.match(outputOf(r, "s1"), /loaded successfully/);
  assert.match(outputOf(r, "c1"), /Denied by preToolUse hook/);
  assert.doesNotMatch(outputOf(r, "c2"), /Denied/);
  assert.deepEqual(log(p.repo), ["feat: sub2", "init"]);
});

test("apply_patch writing a *_RU.md is refused; viewing one is allowed", async () => {
  const p = await project(["paired-docs"]);
  writeFileSync(join(p.repo, "intro_RU.md"), "введение\n");
  const r = await run(p, {
    prompt: "edit the docs",
    script: [
      { calls: patch("*** Begin Patch\n*** Add File: docs/guide_RU.md\n+привет\n*** End Patch\n", "p1") },
      { calls: view(join(p.repo, "intro_RU.md"), "v2") },
      { text: "done" },
    ],
  });
  ok(r);
  const out = outputOf(r, "p1");
  assert.match(out, /Denied by preToolUse hook/);
  assert.match(out, /paired-docs/);
  assert.equal(existsSync(join(p.repo, "docs/guide_RU.md")), false);
  assert.match(outputOf(r, "v2"), /введение/);
});

hostTest("cap", "output cap: a long shell output is replaced (modifiedResult) by its head and the path of the full text", async () => {
  // Copilot spills outputs itself somewhere between 8.9 KB (kept) and 23.3 KB (spilled) in 1.0.102, so the
  // default 20,000-char row never sees one: this table caps at 2,000 to show the hook's replacement works.
  const p = await project([]);
  const table = JSON.parse(readFileSync(join(ROOT, "triggers.json"), "utf8")) as {
    rows: { id: string; when: { output?: { maxChars: number; headChars: number } } }[];
  };
  const cap = table.rows.find((r) => r.id === "output-cap")?.when.output;
  assert.ok(cap, "the shipped table has the output-cap row");
  cap.maxChars = 2000;
  cap.headChars = 500;
  const file = join(p.state, "cap-table.json");
  writeFileSync(file, JSON.stringify(table));
  const r = await run(p, { prompt: "print", script: [{ calls: sh("seq 1 2000", "c1") }, { text: "ok" }], env: { SKILLGATE_TABLE: file } });
  ok(r);
  const out = outputOf(r, "c1");
  assert.ok(out.length < 1000, `the model got ${out.length} chars`);
  assert.match(out, /^1\n2\n3\n/);
  assert.doesNotMatch(out, /\n1999\n/);
  const saved = /the full output is in (\S+\.txt)/.exec(out)?.[1];
  assert.ok(saved && existsSync(saved), `the full output was saved: ${out.slice(-300)}`);
  assert.match(readFileSync(saved, "utf8"), /\n1999\n2000\n/);
});

hostTest("compaction", "compaction empties the loads: a commit after an auto-compaction is refused again", async () => {
  const p = await project(["commit"]);
  // A 16,000-token window and a reported prompt of 15,500 tokens: Copilot compacts after the second call.
  const r = await run(p, {
    prompt: "commit twice",
    script: [
      { calls: skill("commit", "s1") },
      { calls: sh('git commit --allow-empty -m "feat: one"', "c1"), inputTokens: 15_500 },
      { calls: sh('git commit --allow-empty -m "feat: two"', "c2") },
      { text: "done" },
    ],
    env: { COPILOT_PROVIDER_MAX_PROMPT_TOKENS: "16000" },
  });
  ok(r);
  assert.ok(
    r.requests.some((q) => q.kind === "compact"),
    "Copilot compacted",
  );
  assert.doesNotMatch(outputOf(r, "c1"), /Denied/);
  assert.match(outputOf(r, "c2"), /Denied by preToolUse hook/);
  assert.deepEqual(log(p.repo), ["feat: one", "init"]);
});

hostTest("stop", "stop gate: a final answer with ✅ is sent back once with the reason; the next one ends the turn", async () => {
  const p = await project(["done-check"]);
  const r = await run(p, { prompt: "finish", script: [{ text: "всё готово ✅" }, { text: "Verified: ran the tests, read the diff." }] });
  ok(r);
  assert.equal(r.main.length, 2, "one more turn after the refused stop");
  assert.match(bodyText(r.main[1] ?? { seq: 0, method: "", path: "", kind: "main" }), /done-check/);
  assert.match(r.stdout, /Verified/);
});

test("the binary under test is the pinned version", () => {
  if (process.env["COPILOT_BIN"]) return; // another binary on purpose
  const pinned = (JSON.parse(readFileSync(join(import.meta.dirname, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies[
    "@github/copilot"
  ];
  const got = execFileSync(COPILOT_BIN, ["--version"], { encoding: "utf8" }).trim();
  assert.match(got, new RegExp(`^GitHub Copilot CLI ${String(pinned).replace(/\./g, "\\.")}\\.`));
});
