// skillgate under the real Gemini CLI: each scenario runs `gemini -p` against
// the scripted generateContent server and checks what the CLI did and what the
// model was told (the function responses and user turns of later requests).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ROOT, functionResponses, project, run, textsOf, type RunResult } from "./harness.ts";
import { installVerb } from "../cli/install.ts";
import { hostTest, recordResults } from "../e2e-shared/scenarios.ts";
import { geminiDriver } from "./driver.ts";

recordResults(geminiDriver, import.meta.filename);

/** `skillgate <verb> --host gemini …` in-process (cli/install.ts installVerb), with its own environment and output. */
const geminiInstallMain = (verb: "install" | "uninstall", args: string[], root: string, env: NodeJS.ProcessEnv, out: (s: string) => void) =>
  installVerb(verb, ["--host", "gemini", ...args], root, { env, out, err: out });

const sh = (command: string) => ({ calls: { name: "run_shell_command", args: { command, description: "e2e" } } });
const log = (repo: string) => execFileSync("git", ["log", "--format=%s"], { cwd: repo, encoding: "utf8" }).trim().split("\n");

function ok(r: RunResult): void {
  assert.equal(r.timedOut, false, "gemini timed out");
  assert.equal(r.exitCode, 0, `gemini exited ${r.exitCode}: ${r.stderr.slice(-800)}`);
}

/** What the model got back for the n-th function call (0-based), as JSON text, from the last request. */
function responseOf(r: RunResult, n: number): string {
  const last = r.main.at(-1);
  const all = functionResponses(last?.body);
  const got = all[n];
  assert.ok(got, `no function response #${n} reached the model (${all.length} seen)`);
  return got.response;
}

test("control: without skillgate installed the same commit runs", async () => {
  const p = await project(["commit"], { install: false });
  const r = await run(p, { prompt: "make a commit", script: [sh('git commit --allow-empty -m "feat: x"'), { text: "committed" }] });
  ok(r);
  assert.deepEqual(log(p.repo), ["feat: x", "init"]);
});

test("skillgate as the project's dependency: the install writes node and $GEMINI_PROJECT_DIR, no absolute path, and Gemini runs it: the commit is refused", async () => {
  const p = await project([], { install: false });
  mkdirSync(join(p.repo, "node_modules"));
  symlinkSync(ROOT, join(p.repo, "node_modules", "skillgate"));
  const lines: string[] = [];
  assert.equal(await geminiInstallMain("install", ["--project", p.repo, "--with-skills"], ROOT, { HOME: p.home }, (l) => lines.push(l)), 0, lines.join("\n"));
  const settings = readFileSync(join(p.repo, ".gemini", "settings.json"), "utf8");
  assert.ok(!settings.includes(ROOT) && !settings.includes(p.repo), settings);
  assert.match(settings, /node \\"\$GEMINI_PROJECT_DIR\/node_modules\/skillgate\/dist\/hook-gemini\.cjs\\"/);
  const r = await run(p, { prompt: "make a commit", script: [sh('git commit --allow-empty -m "feat: x"'), { text: "blocked" }] });
  ok(r);
  assert.match(responseOf(r, 0), /skillgate\[commit-gate\]/);
  assert.deepEqual(log(p.repo), ["init"], "the commit must not have run");
});

test("a generalist subagent (invoke_agent) does not commit on the main thread's load", async () => {
  const p = await project(["commit"]);
  const r = await run(p, {
    prompt: "make a commit",
    script: [
      { calls: { name: "activate_skill", args: { name: "commit" } } },
      { calls: { name: "invoke_agent", args: { agent_name: "generalist", prompt: "commit the change" } } },
      // The subagent's own requests (it has the same tools):
      sh('git commit --allow-empty -m "feat: sub"'),
      { calls: { name: "complete_task", args: { result: { response: "could not commit" } } } },
      { text: "the subagent was refused" },
    ],
  });
  ok(r);
  const sub = r.main.find((q) => functionResponses(q.body).some((f) => f.name === "run_shell_command"));
  const refused = functionResponses(sub?.body).find((f) => f.name === "run_shell_command")?.response ?? "";
  assert.match(refused, /skillgate\[commit-gate\]/, `the subagent's commit was refused: ${refused}`);
  assert.deepEqual(log(p.repo), ["init"], "no commit from the subagent");
});

test("an MCP server's write_file (mcp_fs_write_file) to a *_RU.md is refused; to another file it runs", async () => {
  const p = await project(["paired-docs"]);
  const settings = join(p.repo, ".gemini", "settings.json");
  const s = JSON.parse(readFileSync(settings, "utf8")) as Record<string, unknown>;
  writeFileSync(
    settings,
    JSON.stringify(
      {
        ...s,
        mcpServers: { fs: { command: process.execPath, args: [join(import.meta.dirname, "..", "e2e-shared", "mcp-fs-server.mjs")], cwd: p.repo, trust: true } },
      },
      null,
      2,
    ),
  );
  const r = await run(p, {
    prompt: "write the docs",
    script: [
      { calls: { name: "mcp_fs_write_file", args: { path: join(p.repo, "docs", "x_RU.md"), content: "привет" } } },
      { calls: { name: "mcp_fs_write_file", args: { path: join(p.repo, "notes.md"), content: "ok" } } },
      { text: "done" },
    ],
  });
  ok(r);
  const offered = (r.main[0]?.body?.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name));
  assert.ok(offered.includes("mcp_fs_write_file"), `Gemini offers the MCP tool: ${offered.join(", ")}`);
  assert.match(responseOf(r, 0), /paired-docs/);
  assert.equal(existsSync(join(p.repo, "docs", "x_RU.md")), false, "the MCP write did not happen");
  assert.equal(readFileSync(join(p.repo, "notes.md"), "utf8"), "ok", "a write no row names runs");
});

test("write_file to a *_RU.md refused; read_file of it allowed", async () => {
  const p = await project(["paired-docs"]);
  writeFileSync(join(p.repo, "guide_RU.md"), "привет\n");
  const r = await run(p, {
    prompt: "update the docs",
    script: [
      { calls: { name: "write_file", args: { file_path: join(p.repo, "new_RU.md"), content: "x\n" } } },
      { calls: { name: "read_file", args: { file_path: join(p.repo, "guide_RU.md") } } },
      { text: "done" },
    ],
  });
  ok(r);
  assert.match(responseOf(r, 0), /skillgate\[paired-docs-write\]/);
  assert.equal(existsSync(join(p.repo, "new_RU.md")), false, "the write must not have run");
  assert.match(responseOf(r, 1), /привет/);
});

hostTest("stop", 'AfterAgent: a "done" answer before the skill is rejected and the reason becomes the retry prompt', async () => {
  const p = await project(["done-check"]);
  const r = await run(p, { prompt: "fix it", script: [{ text: "готово ✅" }, { text: "Checked: tests ran." }] });
  ok(r);
  assert.ok(r.main.length >= 2, `the CLI asked the model again (${r.main.length} requests)`);
  const retry = textsOf(r.main[1]?.body, "user").join("\n");
  assert.match(retry, /skillgate\[done-check-final\]/);
});

hostTest("cap", "a long shell output is capped: the model gets the head and where the rest is (AfterTool deny replaces the result)", async () => {
  const p = await project();
  const r = await run(p, { prompt: "count", script: [sh("seq 1 30000"), { text: "ok" }] });
  ok(r);
  const out = responseOf(r, 0);
  assert.match(out, /skillgate\[output-cap\]/);
  assert.match(out, /Output: 1\\n2\\n3\\n/, "the head is kept");
  // Gemini hands a replaced AfterTool result to the model as the call's `error`.
  assert.match(out, /^\{"error":/);
  assert.ok(out.length < 12_000, `capped to ${out.length} chars`);
  assert.doesNotMatch(out, /\b29999\b/, "the tail is not in the model's context");
});

hostTest("compaction", "an automatic compression empties the loads: the commit allowed before it is refused after it", async () => {
  const p = await project(["commit", "done-check"]);
  const r = await run(p, {
    prompt: "make two commits",
    script: [
      { calls: { name: "activate_skill", args: { name: "commit" } } },
      sh('git commit --allow-empty -m "feat: a"'),
      // A final answer the stop gate rejects; it reports a prompt past half the 1M window, so the
      // retry turn starts with a real compression (the CLI splits history at a user turn: the retry is one).
      { text: "готово ✅", promptTokens: 900_000 },
      sh('git commit --allow-empty -m "feat: b"'),
      { text: "Checked: one commit made, the second refused." },
    ],
    sideText: "<state_snapshot>The user wants two commits; one is made.</state_snapshot>",
  });
  ok(r);
  // The CLI really compressed: it asked for a summary (a request without the agent's tools).
  assert.ok(
    r.requests.some((q) => !q.main),
    "a compression request was made",
  );
  assert.deepEqual(log(p.repo), ["feat: a", "init"], "the second commit must not have run");
  const last = functionResponses(r.main.at(-1)?.body)
    .map((f) => f.response)
    .join("\n");
  assert.match(last, /skillgate\[commit-gate\]/);
});

test("control: prompts under the threshold never reset the loads (PreCompress auto fires before every request)", async () => {
  const p = await project(["commit"]);
  const r = await run(p, {
    prompt: "make two commits",
    script: [
      { calls: { name: "activate_skill", args: { name: "commit" } } },
      sh('git commit --allow-empty -m "feat: a"'),
      sh('git commit --allow-empty -m "feat: b"'),
      { text: "done" },
    ],
  });
  ok(r);
  assert.deepEqual(log(p.repo), ["feat: b", "feat: a", "init"]);
});
