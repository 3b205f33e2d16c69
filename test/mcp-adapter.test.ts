// MCP tools that write, on every host: each host's MCP name and payload shape
// (Claude Code and Codex `mcp__<server>__<tool>`, Gemini `mcp_<server>_<tool>` with
// mcp_context, Copilot `<server>-<tool>`, opencode `<server>_<tool>`) become the
// same write facts (hooks/core/mcp-tools.ts), so write rows and self-protection
// refuse an MCP write_file as they refuse the host's own write tool.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { mcpPaths, mcpToolCall, mcpToolPart, mcpWrites } from "../hooks/core/mcp-tools.ts";
import { normalize as claudeNormalize } from "../hooks/hosts/claude-code/adapter.ts";
import { codex, normalize as codexNormalize } from "../hooks/hosts/codex/adapter.ts";
import { gemini, normalize as geminiNormalize } from "../hooks/hosts/gemini/adapter.ts";
import { copilotHost, normalize as copilotNormalize } from "../hooks/hosts/copilot/adapter.ts";
import { normalize as opencodeNormalize } from "../hooks/hosts/opencode/adapter.ts";
import { HOOK_EVENTS, PRE_TOOL_USE_MATCHER } from "../hooks/hosts/claude-code/install.ts";
import { CODEX_EVENTS } from "../hooks/hosts/codex/install.ts";
import { GEMINI_EVENTS } from "../hooks/hosts/gemini/install.ts";
import { runHook } from "../hooks/entries/claude-code.ts";
import type { Host } from "../hooks/core/host.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const fixture = (host: string, name: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures", host, `${name}.json`), "utf8"));

test("the filesystem server's tools: which write, and the paths their arguments name", () => {
  assert.equal(mcpWrites("write_file"), "write");
  assert.equal(mcpWrites("edit_file"), "edit");
  assert.equal(mcpWrites("create_directory"), "write");
  assert.equal(mcpWrites("move_file"), "edit");
  assert.equal(mcpWrites("create_or_update_file"), "write");
  assert.equal(mcpWrites("delete_branch"), "edit");
  assert.equal(mcpWrites("writeFile"), "write");
  for (const reader of [
    "read_file",
    "read_text_file",
    "read_multiple_files",
    "list_directory",
    "directory_tree",
    "search_files",
    "get_file_info",
    "created_at",
    "list_allowed_directories",
  ]) {
    assert.equal(mcpWrites(reader), undefined, reader);
  }
  assert.deepEqual(mcpPaths({ source: "a.md", destination: "docs/x_RU.md" }), ["a.md", "docs/x_RU.md"]);
  assert.deepEqual(mcpPaths({ paths: ["a", "b", 3], path: "a" }), ["a", "b"]);
  assert.deepEqual(mcpPaths({ path: "f.md", edits: [{ oldText: "a", newText: "b" }], dryRun: false }), ["f.md"]);
  assert.deepEqual(mcpToolCall("x", "write_file", { path: "p", content: "c" }), { kind: "write", name: "x", paths: ["p"] });
  assert.deepEqual(mcpToolCall("x", "read_file", { path: "p" }), { kind: "other", name: "x" });
});

test("a server name holding the separator: the split whose tool writes wins", () => {
  assert.equal(mcpToolPart("my_fs_write_file", "_"), "write_file");
  assert.equal(mcpToolPart("github-mcp-server-create_or_update_file", "-"), "create_or_update_file");
  assert.equal(mcpToolPart("github-mcp-server-search_code", "-"), "mcp-server-search_code");
  assert.equal(mcpToolPart("fs__edit_file", "__"), "edit_file");
  assert.equal(mcpToolPart("bash", "-"), undefined);
  assert.equal(mcpToolPart("_lead", "_"), undefined);
});

const WRITE = { kind: "write", paths: ["/r/docs/x_RU.md"] };
const MOVE = { kind: "edit", paths: ["/r/a.md", "/r/docs/x_RU.md"] };

test("every host: an MCP write_file and move_file in the host's payload shape are writes of their paths", () => {
  const tool = (n: ReturnType<typeof claudeNormalize>) => {
    assert.ok(n.ok && n.event.kind === "tool-call", JSON.stringify(n));
    const { name: _name, ...rest } = n.event.tool as { name: string };
    return rest;
  };
  const write = { path: "/r/docs/x_RU.md", content: "x" };
  const move = { source: "/r/a.md", destination: "/r/docs/x_RU.md" };
  const claude = (name: string, input: unknown) =>
    claudeNormalize({
      session_id: "s",
      transcript_path: "/t.jsonl",
      cwd: "/r",
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: name,
      tool_input: input,
      tool_use_id: "toolu_1",
    });
  assert.deepEqual(tool(claude("mcp__filesystem__write_file", write)), WRITE);
  assert.deepEqual(tool(claude("mcp__plugin_fs_filesystem__move_file", move)), MOVE);
  assert.deepEqual(tool(claude("mcp__filesystem__read_file", { path: "/r/a.md" })), { kind: "other" });

  const cx = (name: string, input: unknown) => codexNormalize({ ...fixture("codex", "PreToolUse-Bash"), tool_name: name, tool_input: input });
  assert.deepEqual(tool(cx("mcp__filesystem__write_file", write)), WRITE);
  assert.deepEqual(tool(cx("mcp__filesystem__move_file", move)), MOVE);

  // Gemini 0.61: `mcp_<server>_<tool>`, and mcp_context names the server's own tool.
  const gm = (name: string, input: unknown, ctx?: unknown) =>
    geminiNormalize({ ...fixture("gemini", "BeforeTool-write_file"), tool_name: name, tool_input: input, ...(ctx ? { mcp_context: ctx } : {}) });
  assert.deepEqual(
    tool(
      gm("mcp_filesystem_write_file", write, {
        server_name: "filesystem",
        tool_name: "write_file",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-filesystem", "/r"],
      }),
    ),
    WRITE,
  );
  assert.deepEqual(tool(gm("mcp_my_fs_move_file", move)), MOVE);

  const cp = (name: string, args: unknown) => copilotNormalize("preToolUse", { sessionId: "s", timestamp: 1, cwd: "/r", toolName: name, toolArgs: args });
  assert.deepEqual(tool(cp("filesystem-write_file", write)), WRITE);
  assert.deepEqual(tool(cp("my-fs-move_file", move)), MOVE);
  assert.deepEqual(tool(cp("github-mcp-server-search_code", { query: "x" })), { kind: "other" });

  const oc = (name: string, args: unknown) =>
    opencodeNormalize({ hook: "tool.execute.before", input: { tool: name, sessionID: "ses_1", callID: "call_1" }, output: { args } }, "/r");
  assert.deepEqual(tool(oc("filesystem_write_file", write)), WRITE);
  assert.deepEqual(tool(oc("my_fs_move_file", move)), MOVE);
  assert.deepEqual(tool(oc("todowrite", { todos: [] })), { kind: "other" });
});

test("the installed matchers send MCP tools to the hook", () => {
  const matches = (matcher: string | undefined, tool: string) => matcher !== undefined && new RegExp(matcher).test(tool);
  assert.equal(HOOK_EVENTS.PreToolUse, PRE_TOOL_USE_MATCHER);
  for (const t of ["mcp__filesystem__write_file", "Bash", "Write", "Edit", "MultiEdit", "NotebookEdit", "Agent", "Task"])
    assert.ok(matches(PRE_TOOL_USE_MATCHER, t), t);
  for (const t of ["Read", "Skill", "WebFetch"]) assert.ok(!matches(PRE_TOOL_USE_MATCHER, t), t);
  const plugin = JSON.parse(fs.readFileSync(path.join(ROOT, "hooks", "hooks.json"), "utf8")) as { hooks: { PreToolUse: { matcher: string }[] } };
  assert.equal(plugin.hooks.PreToolUse[0]?.matcher, PRE_TOOL_USE_MATCHER, "the plugin registers the same matcher");
  assert.ok(matches(CODEX_EVENTS.PreToolUse, "mcp__filesystem__write_file"));
  assert.ok(matches(GEMINI_EVENTS.BeforeTool, "mcp_filesystem_write_file"));
  assert.ok(matches(GEMINI_EVENTS.BeforeTool, "invoke_agent") && matches(GEMINI_EVENTS.AfterTool, "invoke_agent"));
});

/** One PreToolUse through the whole runner: the refusal's text, or undefined when allowed. */
async function refusal(host: Host | undefined, payload: unknown, env: Record<string, string>): Promise<string | undefined> {
  const r = await runHook(JSON.stringify(payload), { env, packageRoot: ROOT, ...(host ? { host } : {}) });
  if (!r.stdout) return undefined;
  const out = JSON.parse(r.stdout) as Record<string, unknown>;
  const hso = out.hookSpecificOutput as Record<string, unknown> | undefined;
  const deny =
    hso?.permissionDecision === "deny"
      ? hso.permissionDecisionReason
      : out.permissionDecision === "deny"
        ? out.permissionDecisionReason
        : out.decision === "deny"
          ? out.reason
          : undefined;
  return typeof deny === "string" ? deny : undefined;
}

test("through the runner, every hook host: an MCP write to a paired doc, the project table or the settings is refused; an MCP read is not", async () => {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), "sg-mcp-"));
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "sg-mcp-state-"));
  const base = { SKILLGATE_STATE: state, HOME: state };
  const cases: {
    host: Host | undefined;
    env: Record<string, string>;
    payload: (tool: string, args: Record<string, unknown>) => unknown;
    name: (tool: string) => string;
    table: string;
    settings: string;
  }[] = [
    {
      host: undefined,
      env: { ...base, CLAUDE_PROJECT_DIR: repo },
      name: (t) => `mcp__filesystem__${t}`,
      table: ".claude/triggers.json",
      settings: ".claude/settings.json",
      payload: (tool, args) => ({
        session_id: "s-cc",
        transcript_path: "",
        cwd: repo,
        permission_mode: "default",
        hook_event_name: "PreToolUse",
        tool_name: tool,
        tool_input: args,
        tool_use_id: "toolu_1",
      }),
    },
    {
      host: codex,
      env: { ...base, SKILLGATE_CODEX_CWD: repo },
      name: (t) => `mcp__filesystem__${t}`,
      table: ".codex/triggers.json",
      settings: ".codex/hooks.json",
      payload: (tool, args) => ({ ...fixture("codex", "PreToolUse-Bash"), session_id: "s-cx", cwd: repo, tool_name: tool, tool_input: args }),
    },
    {
      host: gemini,
      env: { ...base, SKILLGATE_GEMINI_CWD: repo },
      name: (t) => `mcp_filesystem_${t}`,
      table: ".gemini/triggers.json",
      settings: ".gemini/settings.json",
      payload: (tool, args) => ({
        ...fixture("gemini", "BeforeTool-write_file"),
        session_id: "s-gm",
        cwd: repo,
        tool_name: tool,
        tool_input: args,
        mcp_context: { server_name: "filesystem", tool_name: tool.slice("mcp_filesystem_".length) },
      }),
    },
    {
      host: copilotHost("preToolUse"),
      env: { ...base, COPILOT_PROJECT_DIR: repo },
      name: (t) => `filesystem-${t}`,
      table: ".github/skillgate/triggers.json",
      settings: ".github/hooks/skillgate.json",
      payload: (tool, args) => ({ sessionId: "s-cp", timestamp: 1, cwd: repo, toolName: tool, toolArgs: args }),
    },
  ];
  for (const c of cases) {
    const label = c.host?.name ?? "claude-code";
    const run = (tool: string, args: Record<string, unknown>) => refusal(c.host, c.payload(c.name(tool), args), c.env);
    assert.match((await run("write_file", { path: path.join(repo, "docs", "x_RU.md"), content: "x" })) ?? "", /paired-docs/, `${label}: paired doc`);
    assert.match(
      (await run("move_file", { source: path.join(repo, "a.md"), destination: path.join(repo, "docs", "x_RU.md") })) ?? "",
      /paired-docs/,
      `${label}: move onto a paired doc`,
    );
    assert.ok(await run("write_file", { path: path.join(repo, c.table), content: "{}" }), `${label}: the project table`);
    assert.ok(await run("edit_file", { path: path.join(repo, c.settings), edits: [{ oldText: "skillgate", newText: "" }] }), `${label}: the settings`);
    assert.equal(await run("read_file", { path: path.join(repo, "docs", "x_RU.md") }), undefined, `${label}: a read`);
    assert.equal(await run("write_file", { path: path.join(repo, "notes.md"), content: "x" }), undefined, `${label}: a plain write`);
  }
});
