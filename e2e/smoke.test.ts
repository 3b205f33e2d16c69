// Smoke tests of the harness itself against the real Claude Code binary, with a
// tiny logger hook (fixtures/logger-hook.mjs) instead of skillgate. They pin
// down the client behaviour the real scenarios rely on (see FINDINGS.md).
// Run from the repo root: node --import tsx --test e2e/smoke.test.ts
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  compact,
  execHook,
  mainRequests,
  makeTempRepo,
  readJsonl,
  runClaude,
  tempDir,
  toolResults,
  transcriptPath,
  writeSettings,
  writeSkill,
  contentText,
  type RunResult,
} from "./harness.ts";

const LOGGER = join(import.meta.dirname, "fixtures", "logger-hook.mjs");
const EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "PostCompact",
  "SessionEnd",
] as const;

interface HookPayload {
  hook_event_name: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  agent_id?: string;
  [k: string]: unknown;
}

/** A temp repo with the logger hook on every event (exec form) and a `commit` skill. */
function setup(loggerFlags: string[] = []): { repo: string; log: string; hooks: () => HookPayload[] } {
  const repo = makeTempRepo();
  const log = join(tempDir("log"), "hooks.jsonl");
  writeFileSync(log, "");
  const hook = execHook(process.execPath, [LOGGER, log, ...loggerFlags]);
  writeSettings(repo, { hooks: Object.fromEntries(EVENTS.map((e) => [e, [{ hooks: [hook] }]])) });
  writeSkill(repo, "commit", "Use when committing to git.", "# Commit skill\nWrite conventional commit messages.");
  return { repo, log, hooks: () => readJsonl<HookPayload>(log) };
}

function assertClean(r: RunResult): void {
  assert.equal(r.timedOut, false, "run timed out");
  assert.equal(r.exitCode, 0, `exit ${r.exitCode}; stderr: ${r.stderr}`);
  assert.ok(r.sessionId, "no session id in stream");
}

const names = (hooks: HookPayload[]) => hooks.map((h) => h.hook_event_name);

test("PreToolUse deny reaches the model as the tool_result; UserPromptSubmit context reaches it too", async () => {
  const s = setup();
  const r = await runClaude({
    prompt: "commit it",
    cwd: s.repo,
    script: [{ toolUse: { name: "Bash", input: { command: "git commit -m x", description: "commit" }, id: "toolu_commit" } }, { text: "ok" }],
  });
  assertClean(r);
  const hooks = s.hooks();
  assert.ok(
    hooks.some((h) => h.hook_event_name === "PreToolUse" && h.tool_name === "Bash"),
    "no PreToolUse Bash payload",
  );

  const main = mainRequests(r);
  assert.equal(main.length, 2);
  // additionalContext is in the very first request (UserPromptSubmit runs before it),
  // as a role:"system" message "UserPromptSubmit hook additional context: CTX-MARK".
  assert.match(JSON.stringify(main[0]!.body), /UserPromptSubmit hook additional context: CTX-MARK/);
  const denied = toolResults(main[1]!.body).find((b) => b.tool_use_id === "toolu_commit");
  assert.ok(denied, "no tool_result for the denied call");
  assert.equal(contentText(denied.content), "PreToolUse:Bash hook error: TEST-DENY");
  assert.equal(denied.is_error, true);
  // The stream's result event lists the denial too.
  const result = r.events.find((e) => e.type === "result");
  assert.deepEqual(
    (result?.["permission_denials"] as { tool_name: string }[]).map((d) => d.tool_name),
    ["Bash"],
  );
});

test("Stop block: the reason reaches the model, the turn goes on, the next Stop has stop_hook_active", async () => {
  const s = setup(["--block-stop"]);
  const r = await runClaude({ prompt: "finish", cwd: s.repo, script: [{ text: "✅ Готово" }, { text: "really done" }] });
  assertClean(r);
  const main = mainRequests(r);
  assert.equal(main.length, 2);
  const msgs = main[1]!.body?.messages ?? [];
  // The meaning, not the wrapping: 2.1.328 sends the feedback as the whole user message; 2.1.332 wraps it in a
  // <system-reminder> with a preamble. Either way the reason follows the "Stop hook feedback:" header. An
  // explicit expected value: assert.ok(false) without a message makes Node re-read the source (~50 s under tsx).
  const feedback = msgs.find((m) => m.role === "user" && contentText(m.content).includes("STOP-BLOCK"));
  assert.match(contentText(feedback?.content), /Stop hook feedback:\nSTOP-BLOCK/);
  const stops = s.hooks().filter((h) => h.hook_event_name === "Stop");
  assert.deepEqual(
    stops.map((h) => h.stop_hook_active),
    [false, true],
  );
  assert.equal(r.events.find((e) => e.type === "result")?.["result"], "really done");
});

test("Skill tool call, then /compact --resume: hook events and what the model sees", async () => {
  const s = setup();
  const r1 = await runClaude({
    prompt: "use the skill",
    cwd: s.repo,
    script: [{ toolUse: { name: "Skill", input: { skill: "commit" }, id: "toolu_skill" } }, { text: "ok" }],
  });
  assertClean(r1);
  const afterSkill = mainRequests(r1)[1]!.body;
  assert.equal(contentText(toolResults(afterSkill).find((b) => b.tool_use_id === "toolu_skill")?.content), "Launching skill: commit");
  assert.match(JSON.stringify(afterSkill), /Base directory for this skill: .*\/\.claude\/skills\/commit/);
  const skillPre = s.hooks().find((h) => h.hook_event_name === "PreToolUse" && h.tool_name === "Skill");
  assert.deepEqual(skillPre?.tool_input, { skill: "commit" });

  const before = s.hooks().length;
  const r2 = await compact(r1, s.repo);
  assertClean(r2);
  assert.equal(r2.sessionId, r1.sessionId);
  const fired = s.hooks().slice(before);
  // The summary is written by a forked agent: one SubagentStop (agent_type "")
  // per compaction request (a reply without <summary> is retried: two of them).
  assert.deepEqual(
    fired.map((h) => `${h.hook_event_name}${h["source"] ? ":" + String(h["source"]) : ""}`),
    ["SessionStart:resume", "PreCompact", "SubagentStop", "SessionStart:compact", "PostCompact", "SessionEnd"],
  );
  assert.equal(fired.find((h) => h.hook_event_name === "SubagentStop")?.["agent_type"], "");
  assert.match(String(fired.find((h) => h.hook_event_name === "PostCompact")?.["compact_summary"]), /COMPACT-SUMMARY/);
  assert.equal(fired.find((h) => h.hook_event_name === "PreCompact")?.["trigger"], "manual");
  // Compaction requests carry tools but are recognised and do not consume the script.
  assert.equal(r2.requests.filter((q) => q.kind === "compact").length, 1);
  assert.equal(mainRequests(r2).length, 0);
  assert.ok(
    r2.events.some((e) => e.type === "system" && e.subtype === "compact_boundary"),
    "no compact_boundary in the stream",
  );
  const transcript = readJsonl(transcriptPath(r1.home, s.repo, r1.sessionId!));
  assert.ok(
    transcript.some((l) => l["subtype"] === "compact_boundary"),
    "no compact_boundary in the transcript",
  );
});

test("slash command /commit fires UserPromptExpansion and inlines the skill", async () => {
  const s = setup();
  const r = await runClaude({ prompt: "/commit please", cwd: s.repo, script: [{ text: "ok" }] });
  assertClean(r);
  const exp = s.hooks().filter((h) => h.hook_event_name === "UserPromptExpansion");
  assert.equal(exp.length, 1);
  const { session_id, transcript_path, cwd, prompt_id, ...rest } = exp[0]!;
  assert.ok(session_id && transcript_path && cwd && prompt_id, "UserPromptExpansion payload lacks common fields");
  assert.deepEqual(rest, {
    permission_mode: "default",
    hook_event_name: "UserPromptExpansion",
    expansion_type: "slash_command",
    command_name: "commit",
    command_args: "please",
    command_source: "projectSettings",
    prompt: "/commit please",
  });
  // UserPromptSubmit fires first, with the raw prompt; no Skill tool call happens.
  assert.deepEqual(names(s.hooks()).slice(0, 3), ["SessionStart", "UserPromptSubmit", "UserPromptExpansion"]);
  assert.ok(!s.hooks().some((h) => h.tool_name === "Skill"), "a slash command made a Skill tool call");
  const first = JSON.stringify(mainRequests(r)[0]!.body);
  assert.match(first, /<command-name>\/commit<\/command-name>/);
  assert.match(first, /Base directory for this skill: .*ARGUMENTS: please/s);
});

test("subagent: its requests use their own script, its tool calls reach hooks with agent_id", async () => {
  const s = setup();
  const r = await runClaude({
    prompt: "delegate",
    cwd: s.repo,
    script: [
      // run_in_background:false keeps the order deterministic; by default Agent
      // calls run in the background (see FINDINGS.md).
      {
        toolUse: {
          name: "Agent",
          id: "toolu_agent",
          input: { description: "sub", prompt: "SUBTASK-ALPHA do it", subagent_type: "general-purpose", run_in_background: false },
        },
      },
      { text: "main final" },
    ],
    subagentScripts: {
      "SUBTASK-ALPHA": [{ toolUse: { name: "Bash", input: { command: "git commit -m sub", description: "c" }, id: "toolu_sub" } }, { text: "sub finished" }],
    },
  });
  assertClean(r);
  assert.deepEqual(
    r.requests.map((q) => q.kind),
    ["main", "subagent", "subagent", "main"],
  );
  const sub = r.requests.filter((q) => q.kind === "subagent");
  assert.ok(
    sub.every((q) => q.subagent === "SUBTASK-ALPHA"),
    "a subagent request matched no script",
  );
  // The PreToolUse hook gates the subagent's own calls too.
  assert.equal(contentText(toolResults(sub[1]!.body).find((b) => b.tool_use_id === "toolu_sub")?.content), "PreToolUse:Bash hook error: TEST-DENY");
  const pre = s.hooks().find((h) => h.hook_event_name === "PreToolUse" && h.tool_name === "Bash");
  assert.ok(pre?.agent_id, "subagent tool call carries agent_id");
  assert.equal(pre?.["agent_type"], "general-purpose");
  // The subagent's final text comes back to the main thread as the Agent tool_result.
  const back = toolResults(mainRequests(r)[1]!.body).find((b) => b.tool_use_id === "toolu_agent");
  assert.match(contentText(back?.content), /sub finished/);
  // In the stream, the subagent's messages carry parent_tool_use_id = the Agent call.
  assert.ok(
    r.events.some((e) => e.type === "assistant" && e["parent_tool_use_id"] === "toolu_agent"),
    "no subagent message with parent_tool_use_id",
  );
});

test("--plugin-dir: plugin hooks run with ${CLAUDE_PLUGIN_ROOT} expanded, skills are namespaced", async () => {
  const plugin = tempDir("plugin");
  const log = join(plugin, "hooks.jsonl");
  writeFileSync(log, "");
  const write = (rel: string, text: string) => writeFileSync(join(plugin, rel), text);
  for (const d of [".claude-plugin", "hooks", "skills/commit"]) mkdirSync(join(plugin, d), { recursive: true });
  write(".claude-plugin/plugin.json", JSON.stringify({ name: "sgtest", version: "0.0.1", description: "e2e probe" }));
  write("skills/commit/SKILL.md", "---\nname: commit\ndescription: Use when committing to git.\n---\n# Plugin commit skill\n");
  write("logger-hook.mjs", readFileSync(LOGGER, "utf8"));
  // Exec form with the placeholder in args: Claude Code substitutes it itself (no shell).
  const hook = { type: "command", command: process.execPath, args: ["${CLAUDE_PLUGIN_ROOT}/logger-hook.mjs", log] };
  write("hooks/hooks.json", JSON.stringify({ hooks: Object.fromEntries(EVENTS.map((e) => [e, [{ hooks: [hook] }]])) }));

  const repo = makeTempRepo();
  const r = await runClaude({ prompt: "/sgtest:commit now", cwd: repo, pluginDir: plugin, script: [{ text: "ok" }] });
  assertClean(r);
  const init = r.events.find((e) => e.type === "system" && e.subtype === "init");
  assert.ok((init?.["skills"] as string[]).includes("sgtest:commit"), JSON.stringify(init?.["skills"]));
  const hooks = readJsonl<HookPayload>(log);
  const exp = hooks.find((h) => h.hook_event_name === "UserPromptExpansion");
  assert.equal(exp?.["command_name"], "sgtest:commit");
  assert.equal(exp?.["command_source"], "plugin");
  assert.match(JSON.stringify(mainRequests(r)[0]!.body), /UserPromptSubmit hook additional context: CTX-MARK/);
});
