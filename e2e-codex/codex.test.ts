// skillgate under the real Codex CLI: each scenario runs `codex exec` against
// the scripted Responses server and checks what Codex did and what the model
// was told (the next request's input).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { CODEX_BIN, ROOT, callOutput, messages, project, run, type RunResult } from "./harness.ts";
import { installVerb } from "../cli/install.ts";
import { hostTest, recordResults } from "../e2e-shared/scenarios.ts";
import { codexDriver } from "./driver.ts";

recordResults(codexDriver, import.meta.filename);

/** `skillgate <verb> --host codex …` in-process (cli/install.ts installVerb), with its own environment and output. */
const codexInstallMain = (verb: "install" | "uninstall", args: string[], root: string, env: NodeJS.ProcessEnv, out: (s: string) => void) =>
  installVerb(verb, ["--host", "codex", ...args], root, { env, out, err: out });

const sh = (cmd: string, callId: string) => ({ name: "exec_command", arguments: { cmd }, callId });
const patch = (text: string, callId: string) => ({ name: "apply_patch", input: text, callId });
const log = (repo: string) => execFileSync("git", ["log", "--format=%s"], { cwd: repo, encoding: "utf8" }).trim().split("\n");

function ok(r: RunResult): void {
  assert.equal(r.timedOut, false, "codex timed out");
  assert.equal(r.exitCode, 0, `codex exited ${r.exitCode}: ${r.stderr.slice(-800)}`);
}

/** What the model got back for a call: in the first request after the call (a compaction request too). */
function outputOf(r: RunResult, callId: string): string {
  for (const q of r.requests) {
    const out = callOutput(q.body, callId);
    if (out !== undefined) return out;
  }
  assert.fail(`no output for ${callId} reached the model`);
}

test("control: without trust Codex skips the hooks, so the same commit runs (the trust entries are what make them run)", async () => {
  const p = await project(["commit"], { trust: false });
  const r = await run(p, {
    prompt: "make a commit",
    script: [{ calls: sh('git commit --allow-empty -m "feat: x"', "c1") }, { text: "committed" }],
  });
  ok(r);
  assert.doesNotMatch(outputOf(r, "c1"), /blocked by PreToolUse hook/);
  assert.deepEqual(log(p.repo), ["feat: x", "init"]);
});

test("a partial read of SKILL.md (head -3) loads nothing: the commit stays refused", async () => {
  const p = await project(["commit"]);
  const r = await run(p, {
    prompt: "make a commit",
    script: [{ calls: sh("head -3 .agents/skills/commit/SKILL.md", "c1") }, { calls: sh('git commit --allow-empty -m "feat: x"', "c2") }, { text: "blocked" }],
  });
  ok(r);
  assert.match(outputOf(r, "c2"), /Command blocked by PreToolUse hook/);
  assert.deepEqual(log(p.repo), ["init"]);
});

test("$commit in the prompt loads the skill (Codex injects it), so the commit is allowed", async () => {
  const p = await project(["commit"]);
  const r = await run(p, {
    prompt: "$commit then commit",
    script: [{ calls: sh('git commit --allow-empty -m "feat: y"', "c1") }, { text: "committed" }],
  });
  ok(r);
  assert.ok(
    messages(r.main[0]?.body, "user").some((m) => m.includes("<skill>") && m.includes("<name>commit</name>")),
    "Codex injected the skill",
  );
  assert.deepEqual(log(p.repo), ["feat: y", "init"]);
});

test("$commit for a skill Codex does not have: nothing is injected, so the commit stays refused", async () => {
  const p = await project([]);
  const r = await run(p, {
    prompt: "$commit then commit",
    script: [{ calls: sh('git commit --allow-empty -m "feat: y"', "c1") }, { text: "refused" }],
  });
  ok(r);
  assert.ok(!messages(r.main[0]?.body, "user").some((m) => m.includes("<skill>")), "Codex injected no skill");
  assert.match(outputOf(r, "c1"), /Command blocked by PreToolUse hook/);
  assert.deepEqual(log(p.repo), ["init"]);
});

test("install --host codex --with-skills copies the skills into .agents/skills: Codex then injects $commit and the commit runs", async () => {
  const p = await project([]);
  const lines: string[] = [];
  const env = { HOME: p.home, CODEX_HOME: p.codexHome, PATH: process.env.PATH ?? "" };
  assert.equal(
    await codexInstallMain("install", ["--project", p.repo, "--trust", "--with-skills"], join(import.meta.dirname, ".."), env, (l) => lines.push(l)),
    0,
    lines.join("\n"),
  );
  assert.ok(existsSync(join(p.repo, ".agents", "skills", "commit", "SKILL.md")), lines.join("\n"));
  const r = await run(p, {
    prompt: "$commit then commit",
    script: [{ calls: sh('git commit --allow-empty -m "feat: z"', "c1") }, { text: "committed" }],
  });
  ok(r);
  assert.ok(
    messages(r.main[0]?.body, "user").some((m) => m.includes("<skill>") && m.includes("<name>commit</name>")),
    "Codex injected the skill",
  );
  assert.deepEqual(log(p.repo), ["feat: z", "init"]);
});

test("skillgate as the project's dependency: the install writes a command with no absolute path, trusted with the hash Codex computes, and Codex runs it: the commit is refused", async () => {
  const p = await project([]);
  mkdirSync(join(p.repo, "node_modules"));
  symlinkSync(ROOT, join(p.repo, "node_modules", "skillgate"));
  const lines: string[] = [];
  const env = { HOME: p.home, CODEX_HOME: p.codexHome, PATH: process.env.PATH ?? "" };
  assert.equal(await codexInstallMain("install", ["--project", p.repo, "--trust", "--with-skills"], ROOT, env, (l) => lines.push(l)), 0, lines.join("\n"));
  const hooks = readFileSync(join(p.repo, ".codex", "hooks.json"), "utf8");
  assert.ok(!hooks.includes(ROOT) && !hooks.includes(process.execPath), hooks);
  assert.match(hooks, /node -e \\"require\('skillgate\/dist\/hook-codex\.cjs'\)\.run\('codex'\)\\"/);
  const r = await run(p, { prompt: "make a commit", script: [{ calls: sh('git commit --allow-empty -m "feat: x"', "c1") }, { text: "blocked" }] });
  ok(r);
  assert.match(outputOf(r, "c1"), /Command blocked by PreToolUse hook/);
  assert.deepEqual(log(p.repo), ["init"], "the commit must not have run");
});

test("apply_patch writing a *_RU.md is refused (paths from the envelope); reading it is allowed", async () => {
  const p = await project(["paired-docs"]);
  writeFileSync(join(p.repo, "intro_RU.md"), "введение\n");
  const r = await run(p, {
    prompt: "edit the docs",
    script: [
      { calls: patch("*** Begin Patch\n*** Add File: notes.txt\n+ok\n*** Add File: docs/guide_RU.md\n+привет\n*** End Patch\n", "p1") },
      { calls: sh("cat intro_RU.md", "c2") },
      { text: "done" },
    ],
  });
  ok(r);
  const out = outputOf(r, "p1");
  assert.match(out, /blocked by PreToolUse hook/);
  assert.match(out, /paired-docs/);
  assert.equal(existsSync(join(p.repo, "docs/guide_RU.md")), false);
  assert.equal(existsSync(join(p.repo, "notes.txt")), false, "the whole patch is refused");
  assert.match(outputOf(r, "c2"), /введение/, "reading a paired doc needs no skill");
  assert.doesNotMatch(outputOf(r, "c2"), /blocked/);
});

test("apply_patch moving a file onto *_RU.md is refused (*** Move to:)", async () => {
  const p = await project(["paired-docs"]);
  const r = await run(p, {
    prompt: "rename",
    script: [
      { calls: patch("*** Begin Patch\n*** Update File: README.md\n*** Move to: README_RU.md\n@@\n-old\n+new\n*** End Patch\n", "p1") },
      { text: "done" },
    ],
  });
  ok(r);
  assert.match(outputOf(r, "p1"), /blocked by PreToolUse hook/);
  assert.equal(existsSync(join(p.repo, "README_RU.md")), false);
});

test("the refusal says how to load the skill on Codex; doing just that lifts the gate", async () => {
  const p = await project(["commit"]);
  // Turn 2 reads the very path the refusal names (the model has nothing else to go on).
  const r1 = await run(p, { prompt: "commit", script: [{ calls: sh('git commit --allow-empty -m "feat: z"', "c1") }, { text: "blocked" }] });
  ok(r1);
  const reason = outputOf(r1, "c1");
  const file = /read (\S+SKILL\.md) in full/.exec(reason)?.[1];
  assert.ok(file, `the refusal names a SKILL.md to read: ${reason}`);
  const r2 = await run(p, {
    prompt: "commit",
    script: [{ calls: sh(`cat ${file}`, "c2") }, { calls: sh('git commit --allow-empty -m "feat: z"', "c3") }, { text: "committed" }],
  });
  ok(r2);
  assert.deepEqual(log(p.repo), ["feat: z", "init"]);
});

hostTest("compaction", "compaction empties the loads: a commit after an auto-compaction is refused again", async () => {
  const p = await project(["commit"]);
  const r = await run(p, {
    prompt: "commit twice",
    // The second answer reports a prompt over the limit: Codex compacts before the next turn.
    script: [
      { calls: sh("cat .agents/skills/commit/SKILL.md", "c1") },
      { calls: sh('git commit --allow-empty -m "feat: one"', "c2"), inputTokens: 50_000 },
      { calls: sh('git commit --allow-empty -m "feat: two"', "c3") },
      { text: "done" },
    ],
    extraArgs: ["-c", "model_auto_compact_token_limit=20000"],
  });
  ok(r);
  assert.ok(
    r.requests.some((q) => q.kind === "compact"),
    "Codex compacted",
  );
  assert.doesNotMatch(outputOf(r, "c2"), /blocked/);
  assert.match(outputOf(r, "c3"), /Command blocked by PreToolUse hook/);
  assert.deepEqual(log(p.repo), ["feat: one", "init"]);
});

hostTest("stop", "stop gate: a final answer with ✅ is sent back once with the reason; the next one ends the turn", async () => {
  const p = await project(["done-check"]);
  const r = await run(p, { prompt: "finish", script: [{ text: "всё готово ✅" }, { text: "Verified: ran the tests, read the diff." }] });
  ok(r);
  assert.equal(r.main.length, 2, "one more turn after the refused stop");
  const seen = JSON.stringify(r.main[1]?.body?.input ?? []);
  assert.match(seen, /done-check/);
  const last = r.events.filter((e) => (e.item as { type?: string } | undefined)?.type === "agent_message").at(-1);
  assert.match(JSON.stringify(last), /Verified/);
});

test("the binary under test is the pinned version", () => {
  const pinned = (JSON.parse(readFileSync(join(import.meta.dirname, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies[
    "@openai/codex"
  ];
  const got = execFileSync(CODEX_BIN, ["--version"], { encoding: "utf8" }).trim();
  if (process.env["CODEX_BIN"]) return; // another binary on purpose
  assert.equal(got, `codex-cli ${pinned}`);
});
