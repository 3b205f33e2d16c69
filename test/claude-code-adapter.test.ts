// Claude Code's payloads (captured from the real 2.1.328 binary, cases/fixtures/)
// → core events, and decisions → Claude Code's output shapes.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { normalize, render } from "../hooks/hosts/claude-code/adapter.ts";
import { casesDir } from "./helpers.ts";

const fixture = (name: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(casesDir, "fixtures", `${name}.json`), "utf8"));
const KIND: Record<string, string> = {
  PreToolUse: "tool-call",
  PostToolUse: "tool-result",
  PostToolUseFailure: "tool-failure",
  UserPromptSubmit: "prompt",
  UserPromptExpansion: "prompt-expansion",
  SessionStart: "session-start",
  PreCompact: "compaction",
  PostCompact: "compaction",
  Stop: "stop",
  SubagentStop: "stop",
  SubagentStart: "subagent-start",
};

test("every captured fixture normalizes to the core event kind of its hook", () => {
  const names = fs.readdirSync(path.join(casesDir, "fixtures")).filter((f) => f.endsWith(".json"));
  assert.ok(names.length >= 10);
  for (const f of names) {
    const p = fixture(f.replace(/\.json$/, ""));
    if (!("hook_event_name" in p)) continue; // a broken-table fixture, not a payload
    const n = normalize(p);
    const hook = String(p.hook_event_name);
    if (!(hook in KIND)) {
      assert.deepEqual(n, { ok: false, ignored: true }, f);
      continue;
    }
    assert.ok(n.ok, `${f}: ${JSON.stringify(n)}`);
    assert.equal(n.event.kind, KIND[hook], f);
    assert.equal(n.event.sessionId, p.session_id, f);
  }
});

test("tool names become kinds; paths and commands are carried", () => {
  const bash = normalize(fixture("pre-tool-use-bash"));
  assert.ok(bash.ok && bash.event.kind === "tool-call" && bash.event.tool.kind === "shell" && bash.event.tool.command.length > 0);
  for (const [tool, field, kind] of [
    ["Write", "file_path", "write"],
    ["Edit", "file_path", "edit"],
    ["MultiEdit", "file_path", "edit"],
    ["NotebookEdit", "notebook_path", "edit"],
  ] as const) {
    const n = normalize({ hook_event_name: "PreToolUse", session_id: "s", tool_name: tool, tool_input: { [field]: "a_RU.md" } });
    assert.ok(n.ok && n.event.kind === "tool-call");
    assert.deepEqual(n.event.tool, { kind, name: tool, paths: ["a_RU.md"] });
  }
});

test("a Skill result loads only in the client's exact success shape", () => {
  const skill = (tool_response: unknown) => {
    const n = normalize({
      hook_event_name: "PostToolUse",
      session_id: "s",
      tool_name: "Skill",
      tool_input: { skill: "commit" },
      ...(tool_response === undefined ? {} : { tool_response }),
    });
    return n.ok && n.event.kind === "tool-result" ? n.event.loads : ["<not a tool result>"];
  };
  assert.deepEqual(skill({ success: true, commandName: "commit" }), ["commit"]);
  for (const bad of [
    undefined,
    "Launching skill: commit",
    { success: "true" },
    { success: "false" },
    { success: 1 },
    {},
    { success: false },
    { success: true, status: "forked" },
    null,
    [],
  ]) {
    assert.deepEqual(skill(bad), [], JSON.stringify(bad));
  }
});

test("SubagentStop is a stop that belongs to a subagent, even without agent_id", () => {
  const n = normalize({ hook_event_name: "SubagentStop", session_id: "s", last_assistant_message: "ok" });
  assert.ok(n.ok && n.event.kind === "stop" && n.event.agentId === "subagent");
});

test("a task notification is not the user's words", () => {
  const n = normalize({ hook_event_name: "UserPromptSubmit", session_id: "s", prompt: "<task-notification>logs</task-notification>" });
  assert.ok(n.ok && n.event.kind === "prompt" && n.event.prompt === undefined);
});

test("render: deny on a tool call, block on a stop, context on a hint, nothing on allow", () => {
  const call = normalize(fixture("pre-tool-use-bash"));
  assert.ok(call.ok);
  assert.deepEqual(render(call.event, { verdict: "deny", rows: ["r"], message: "no" }), {
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" },
  });
  assert.equal(render(call.event, { verdict: "allow", rows: [] }), undefined);
  const stop = normalize({ hook_event_name: "Stop", session_id: "s", last_assistant_message: "x" });
  assert.ok(stop.ok);
  assert.deepEqual(render(stop.event, { verdict: "block", rows: ["r"], message: "m" }), { decision: "block", reason: "m" });
  const prompt = normalize({ hook_event_name: "UserPromptSubmit", session_id: "s", prompt: "x" });
  assert.ok(prompt.ok);
  assert.deepEqual(render(prompt.event, { verdict: "hint", rows: ["r"], message: "m", notice: "n" }), {
    hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "m" },
    systemMessage: "n",
  });
});
