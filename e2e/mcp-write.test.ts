// An MCP server's write tool reaches the hook with the real Claude Code: the
// installed PreToolUse matcher covers `mcp__.*`, and the adapter maps a
// filesystem server's write_file to a write, so the write rows and the
// self-protection apply to it as to the Write tool.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentText, tempDir, type RunResult } from "./harness.ts";
import { installed, play, ROOT } from "./project.ts";

function resultOf(r: RunResult, id: string): { text: string; error: boolean } {
  for (const q of r.requests) {
    for (const m of q.body?.messages ?? []) {
      for (const b of Array.isArray(m.content) ? m.content : []) {
        if (b.type === "tool_result" && b.tool_use_id === id) return { text: contentText(b.content), error: b.is_error === true };
      }
    }
  }
  throw new Error(`no tool_result for ${id}`);
}

function mcpConfig(repo: string): string {
  const file = join(tempDir("mcp"), "mcp.json");
  writeFileSync(
    file,
    JSON.stringify({ mcpServers: { fs: { type: "stdio", command: process.execPath, args: [join(ROOT, "e2e-shared", "mcp-fs-server.mjs")], cwd: repo } } }),
  );
  return file;
}

const write = (repo: string, rel: string, content: string, id: string) => ({
  toolUse: { name: "mcp__fs__write_file", input: { path: join(repo, rel), content }, id },
});

test("an MCP write_file to a *_RU.md is refused with the paired-docs reason; to another file it runs", async () => {
  const p = installed(["paired-docs"]);
  const r = await play(p, {
    prompt: "write the docs",
    extraArgs: ["--mcp-config", mcpConfig(p.repo), "--strict-mcp-config"],
    allowedTools: "Bash Read Write Edit Skill Agent mcp__fs__write_file",
    script: [write(p.repo, "docs/x_RU.md", "привет", "toolu_ru"), write(p.repo, "notes.md", "ok", "toolu_plain"), { text: "done" }],
  });
  // Claude Code defers MCP tools behind ToolSearch (they are not in the request's tool list);
  // the plain write landing below shows the call really reaches the server.
  const ru = resultOf(r, "toolu_ru");
  assert.equal(ru.error, true, ru.text);
  assert.match(ru.text, /skillgate\[paired-docs-write\]/);
  assert.equal(existsSync(join(p.repo, "docs", "x_RU.md")), false, "the MCP write did not happen");
  assert.equal(resultOf(r, "toolu_plain").error, false);
  assert.equal(readFileSync(join(p.repo, "notes.md"), "utf8"), "ok", "a write no row names runs");
});

test("an MCP write_file to skillgate's own table is refused (self-protection); the table is unchanged", async () => {
  const p = installed([]);
  const table = join(p.repo, ".claude", "settings.json");
  const before = readFileSync(table, "utf8");
  const r = await play(p, {
    prompt: "fix the settings",
    extraArgs: ["--mcp-config", mcpConfig(p.repo), "--strict-mcp-config"],
    allowedTools: "Bash Read Write Edit Skill Agent mcp__fs__write_file",
    script: [write(p.repo, ".claude/settings.json", '{"hooks":{}}', "toolu_settings"), { text: "done" }],
  });
  const res = resultOf(r, "toolu_settings");
  assert.equal(res.error, true, res.text);
  assert.match(res.text, /skillgate/);
  assert.equal(readFileSync(table, "utf8"), before, "settings unchanged");
});

test("control: with a matcher that leaves MCP tools out, the same MCP write lands (so the matcher is what sends it to the hook)", async () => {
  const p = installed(["paired-docs"]);
  const file = join(p.repo, ".claude", "settings.json");
  const s = JSON.parse(readFileSync(file, "utf8"));
  for (const g of s.hooks.PreToolUse) g.matcher = "Bash|Write|Edit|MultiEdit|NotebookEdit|Agent|Task";
  writeFileSync(file, JSON.stringify(s, null, 2));
  await play(p, {
    prompt: "write the docs",
    extraArgs: ["--mcp-config", mcpConfig(p.repo), "--strict-mcp-config"],
    allowedTools: "Bash Read Write Edit Skill Agent mcp__fs__write_file",
    script: [write(p.repo, "docs/x_RU.md", "привет", "toolu_ru"), { text: "done" }],
  });
  assert.equal(readFileSync(join(p.repo, "docs", "x_RU.md"), "utf8"), "привет");
});
