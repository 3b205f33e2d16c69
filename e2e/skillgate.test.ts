// skillgate end to end: installed with `skillgate install --project <temp repo>`
// (one scenario as a plugin via --plugin-dir), driven through the real Claude
// Code binary against the scripted mock API. Every assertion is on what the
// client did: the next request body (what the model was fed), the stream-json
// events, the repo's git log; never on skillgate's own log.
// Run from the repo root after `npm run build`:
//   node --import tsx --test --test-concurrency=1 e2e/*.test.ts
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { compact, contentText, mainRequests, makeTempRepo, tempDir, toolResults, type ContentBlock, type RunResult, type StreamEvent } from "./harness.ts";

import { installed, play, ROOT, type Project } from "./project.ts";
import { hostTest, recordResults } from "../e2e-shared/scenarios.ts";
import { claudeDriver } from "./driver.ts";

recordResults(claudeDriver, import.meta.filename);

const bash = (command: string, id: string) => ({ toolUse: { name: "Bash", input: { command, description: "e2e" }, id } });
const skill = (name: string, id: string) => ({ toolUse: { name: "Skill", input: { skill: name }, id } });

/** The tool_result Claude Code sent back for a tool call, from whichever request (main or subagent) carried it. */
function resultOf(r: RunResult, id: string): ContentBlock {
  for (const q of r.requests) {
    const b = toolResults(q.body).find((x) => x.tool_use_id === id);
    if (b) return b;
  }
  assert.fail(`no tool_result for ${id} in any request`);
}

function assertDenied(r: RunResult, id: string, tool: string, row: string): string {
  const b = resultOf(r, id);
  const text = contentText(b.content);
  assert.equal(b.is_error, true, `${id} should be refused: ${text}`);
  assert.ok(text.startsWith(`PreToolUse:${tool} hook error: skillgate[${row}]: `), text);
  return text;
}

function assertRan(r: RunResult, id: string): string {
  const b = resultOf(r, id);
  const text = contentText(b.content);
  assert.notEqual(b.is_error, true, `${id} should have run: ${text}`);
  assert.doesNotMatch(text, /hook error/);
  return text;
}

const gitLog = (repo: string) => execFileSync("git", ["log", "--format=%s"], { cwd: repo, encoding: "utf8" }).trim().split("\n");
const count = (hay: string, needle: string) => hay.split(needle).length - 1;
const resultEvent = (r: RunResult) =>
  r.events.find((e) => e.type === "result") as StreamEvent & { result: string; permission_denials: { tool_name: string; tool_use_id: string }[] };

test("git commit without the commit skill is denied, and the deny reason is the tool_result the model receives", async () => {
  const p = installed(["commit"]);
  const r = await play(p, { prompt: "commit it", script: [bash('git commit --allow-empty -m "feat: e2e"', "toolu_commit"), { text: "ok" }] });
  const text = assertDenied(r, "toolu_commit", "Bash", "commit-gate");
  assert.match(text, /Load skill "commit" first/);
  // It is the very next main request that carries it.
  assert.equal(contentText(toolResults(mainRequests(r)[1]!.body)[0]!.content), text);
  // The stream agrees: the tool call is a hook rejection listed in permission_denials.
  assert.deepEqual(
    resultEvent(r).permission_denials.map((d) => d.tool_use_id),
    ["toolu_commit"],
  );
  assert.deepEqual(gitLog(p.repo), ["init"]);
});

test("Skill tool call, then git commit is allowed and actually runs", async () => {
  const p = installed(["commit"]);
  const r = await play(p, {
    prompt: "commit it",
    script: [skill("commit", "toolu_skill"), bash('git commit --allow-empty -m "feat: after skill"', "toolu_commit"), { text: "ok" }],
  });
  assert.equal(contentText(resultOf(r, "toolu_skill").content), "Launching skill: commit");
  assertRan(r, "toolu_commit");
  assert.deepEqual(resultEvent(r).permission_denials, []);
  assert.deepEqual(gitLog(p.repo), ["feat: after skill", "init"]);
});

hostTest("compaction", "/compact forgets the loaded skill: the next commit is denied again", async () => {
  const p = installed(["commit"]);
  const r1 = await play(p, {
    prompt: "commit it",
    script: [skill("commit", "toolu_skill"), bash('git commit --allow-empty -m "feat: before compact"', "toolu_c1"), { text: "ok" }],
  });
  assertRan(r1, "toolu_c1");
  const rc = await compact(r1, p.repo, { env: p.env });
  assert.equal(rc.exitCode, 0);
  assert.ok(
    rc.events.some((e) => e.type === "system" && e.subtype === "compact_boundary"),
    "no compact_boundary in the stream",
  );
  const r2 = await play(p, {
    prompt: "commit again",
    home: r1.home,
    resume: r1.sessionId,
    script: [bash('git commit --allow-empty -m "feat: after compact"', "toolu_c2"), { text: "ok" }],
  });
  assert.equal(r2.sessionId, r1.sessionId);
  assertDenied(r2, "toolu_c2", "Bash", "commit-gate");
  assert.deepEqual(gitLog(p.repo), ["feat: before compact", "init"]);
});

test("a Russian keyword prompt («проверь логи») gets the logs hint once; a later prompt does not repeat it", async () => {
  const p = installed(["logs"]);
  const r1 = await play(p, { prompt: "проверь логи", script: [{ text: "ok" }] });
  const first = JSON.stringify(mainRequests(r1)[0]!.body);
  assert.match(first, /UserPromptSubmit hook additional context: skillgate\[logs-hint\]: load skill \\"logs\\"/);
  assert.equal(count(first, "skillgate[logs-hint]"), 1);
  // Same session, another prompt with the keyword: only the first hint (kept in history) is there.
  const r2 = await play(p, { prompt: "а теперь ещё раз логи", home: r1.home, resume: r1.sessionId, script: [{ text: "ok" }] });
  const next = JSON.stringify(mainRequests(r2)[0]!.body);
  assert.match(next, /а теперь ещё раз логи/);
  assert.equal(count(next, "skillgate[logs-hint]"), 1);
});

test("Write to notes_RU.md is denied without the paired-docs skill; tail notes_EN.md is allowed", async () => {
  const p = installed(["paired-docs"]);
  writeFileSync(join(p.repo, "notes_EN.md"), "EN-NOTES-CONTENT\n");
  const r = await play(p, {
    prompt: "update the notes",
    script: [
      { toolUse: { name: "Write", input: { file_path: join(p.repo, "notes_RU.md"), content: "привет\n" }, id: "toolu_write" } },
      bash("tail notes_EN.md", "toolu_tail"),
      { text: "ok" },
    ],
  });
  assert.match(assertDenied(r, "toolu_write", "Write", "paired-docs-write"), /Load skill "paired-docs" first/);
  assert.equal(existsSync(join(p.repo, "notes_RU.md")), false);
  assert.match(assertRan(r, "toolu_tail"), /EN-NOTES-CONTENT/);
});

test("an executor subagent call is denied until the delegate skill is loaded", async () => {
  const p = installed(["delegate"]);
  // Claude Code refuses unknown subagent types itself (after PreToolUse), so the agent must exist.
  mkdirSync(join(p.repo, ".claude", "agents"), { recursive: true });
  writeFileSync(
    join(p.repo, ".claude", "agents", "executor.md"),
    "---\nname: executor\ndescription: Cheap executor for self-contained briefs.\n---\nDo exactly the brief.\n",
  );
  const agent = (id: string, prompt: string) => ({
    toolUse: { name: "Agent", id, input: { description: "exec", prompt, subagent_type: "executor", run_in_background: false } },
  });
  const r = await play(p, {
    prompt: "delegate the chore",
    script: [agent("toolu_a1", "EXEC-FIRST do the chore"), skill("delegate", "toolu_skill"), agent("toolu_a2", "EXEC-SECOND do the chore"), { text: "ok" }],
    subagentScripts: { "EXEC-SECOND": [{ text: "executor finished" }] },
  });
  assert.match(assertDenied(r, "toolu_a1", "Agent", "delegate-executor"), /Load skill "delegate" first/);
  assert.match(assertRan(r, "toolu_a2"), /executor finished/);
  assert.deepEqual(
    r.requests.filter((q) => q.kind === "subagent").map((q) => q.subagent),
    ["EXEC-SECOND"],
  );
});

test("a subagent's git commit is denied until the subagent loads the skill itself; its push HEAD stays blocked", async () => {
  const p = installed(["commit"]);
  const r = await play(p, {
    prompt: "have a helper commit and push",
    script: [
      {
        toolUse: {
          name: "Agent",
          id: "toolu_agent",
          input: { description: "git", prompt: "SUBTASK-GIT commit and push", subagent_type: "general-purpose", run_in_background: false },
        },
      },
      bash('git commit --allow-empty -m "chore: from main"', "toolu_main_commit"),
      { text: "ok" },
    ],
    subagentScripts: {
      "SUBTASK-GIT": [
        bash('git commit --allow-empty -m "chore: from subagent"', "toolu_sub_commit1"),
        skill("commit", "toolu_sub_skill"),
        bash('git commit --allow-empty -m "chore: from subagent"', "toolu_sub_commit2"),
        bash("git push origin HEAD", "toolu_sub_push"),
        { text: "sub done" },
      ],
    },
  });
  assert.deepEqual(
    r.requests.map((q) => q.kind),
    ["main", "subagent", "subagent", "subagent", "subagent", "subagent", "main", "main"],
  );
  // The deny reaches the subagent (its second request) and tells it to load the skill itself.
  const subs = r.requests.filter((q) => q.kind === "subagent");
  assert.ok(
    toolResults(subs[1]!.body).some((b) => b.tool_use_id === "toolu_sub_commit1"),
    "the deny is in the subagent's request",
  );
  assert.match(assertDenied(r, "toolu_sub_commit1", "Bash", "commit-gate"), /yourself/);
  assertRan(r, "toolu_sub_skill");
  assertRan(r, "toolu_sub_commit2");
  assertDenied(r, "toolu_sub_push", "Bash", "push-head-block");
  // The subagent's load stays in the subagent: the main thread's commit is still denied.
  assertDenied(r, "toolu_main_commit", "Bash", "commit-gate");
  assert.deepEqual(gitLog(p.repo), ["chore: from subagent", "init"]);
  assert.match(contentText(resultOf(r, "toolu_agent").content), /sub done/);
});

hostTest("stop", 'a "✅ Готово" final answer is blocked once with the reason, then the session ends', async () => {
  const p = installed(["done-check"]);
  const r = await play(p, { prompt: "finish up", script: [{ text: "✅ Готово" }, { text: "✅ Готово: checked git log and the tests" }] });
  const main = mainRequests(r);
  assert.equal(main.length, 2, "exactly one extra turn");
  // 2.1.328 sends the feedback as the whole user message; 2.1.332 wraps it in a
  // <system-reminder> with a preamble. Either way the reason follows the header.
  const feedback = main[1]!.body!.messages!.filter((m) => m.role === "user" && contentText(m.content).includes("Stop hook feedback:\n"));
  assert.equal(feedback.length, 1);
  assert.match(contentText(feedback[0]!.content), /Stop hook feedback:\nskillgate\[done-check-final\]: Load skill "done-check" first/);
  assert.equal(resultEvent(r).result, "✅ Готово: checked git log and the tests");
  assert.equal(r.events.filter((e) => e.type === "system" && e["key"] === "stop-hook-error").length, 1);
});

test("the slash command /commit counts as loading the skill: the commit is allowed", async () => {
  const p = installed(["commit"]);
  const r = await play(p, { prompt: "/commit please", script: [bash('git commit --allow-empty -m "feat: via slash"', "toolu_commit"), { text: "ok" }] });
  assert.match(JSON.stringify(mainRequests(r)[0]!.body), /<command-name>\/commit<\/command-name>/);
  assertRan(r, "toolu_commit");
  assert.deepEqual(gitLog(p.repo), ["feat: via slash", "init"]);
});

test("a broken triggers.json does not break the session, and the user (not the model) is told", async () => {
  const broken = join(tempDir("table"), "triggers.json");
  writeFileSync(broken, '{ "version": 1, "rows": [');
  const p = installed(["commit"], { SKILLGATE_TABLE: broken });
  const r = await play(p, { prompt: "commit it", script: [bash('git commit --allow-empty -m "feat: table broken"', "toolu_commit"), { text: "ok" }] });
  const notices = r.events.filter((e) => e.type === "system" && e.subtype === "informational").map((e) => String(e["content"]));
  assert.ok(
    notices.some((n) => n.includes("skillgate") && n.includes(broken)),
    notices.join("\n"),
  );
  // Fail open: the commit ran; the notice went to the user, not into the model's context.
  assertRan(r, "toolu_commit");
  assert.deepEqual(gitLog(p.repo), ["feat: table broken", "init"]);
  assert.ok(
    r.requests.every((q) => !JSON.stringify(q.body ?? {}).includes(broken)),
    "the table notice reached the model",
  );
});

test("as a plugin (--plugin-dir <skillgate>): deny, load the namespaced skill, commit allowed", async () => {
  const p: Project = { repo: makeTempRepo(), env: { SKILLGATE_STATE: tempDir("state") } };
  const r = await play(p, {
    prompt: "commit it",
    pluginDir: ROOT,
    script: [
      bash('git commit --allow-empty -m "feat: plugin"', "toolu_c1"),
      skill("skillgate:commit", "toolu_skill"),
      bash('git commit --allow-empty -m "feat: plugin"', "toolu_c2"),
      { text: "ok" },
    ],
  });
  const init = r.events.find((e) => e.type === "system" && e.subtype === "init")!;
  assert.ok(
    (init["plugins"] as { name: string; path: string }[]).some((pl) => pl.name === "skillgate" && pl.path === ROOT),
    JSON.stringify(init["plugins"]),
  );
  assert.ok((init["skills"] as string[]).includes("skillgate:commit"), JSON.stringify(init["skills"]));
  assertDenied(r, "toolu_c1", "Bash", "commit-gate");
  assert.equal(contentText(resultOf(r, "toolu_skill").content), "Launching skill: skillgate:commit");
  assertRan(r, "toolu_c2");
  assert.deepEqual(gitLog(p.repo), ["feat: plugin", "init"]);
});
