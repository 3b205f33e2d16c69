// Cursor's hook payloads — DOCUMENTED SHAPES ONLY (test/fixtures/cursor/SOURCES.md;
// no Cursor binary runs here) → core events; decisions → Cursor's answers;
// hooks.json install; the gate through runHook on those shapes.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CURSOR_EVENTS, cursor, normalize, render } from "../hooks/hosts/cursor/adapter.ts";
import { environment } from "../hooks/hosts/cursor/env.ts";
import { installCursor, uninstallCursor } from "../hooks/hosts/cursor/install.ts";
import { runHook } from "../hooks/entries/claude-code.ts";
import { installVerb } from "../cli/install.ts";

/** `skillgate <verb> --host cursor …` in-process (cli/install.ts installVerb), with its own environment and output. */
const cursorInstallMain = (verb: "install" | "uninstall", args: string[], root: string, env: NodeJS.ProcessEnv, out: (s: string) => void) =>
  installVerb(verb, ["--host", "cursor", ...args], root, { env, out, err: out });

const FIX = path.join(import.meta.dirname, "fixtures", "cursor");
const fixture = (name: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(FIX, `${name}.json`), "utf8"));
const ROOT = path.resolve(import.meta.dirname, "..");
const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), `skillgate-cursor-${p}-`));

const KIND: Record<string, string | undefined> = {
  beforeShellExecution: "tool-call",
  beforeReadFile: "tool-call",
  preToolUse: "tool-call",
  postToolUse: "tool-result",
  beforeSubmitPrompt: "prompt",
  stop: "stop",
  preCompact: "compaction",
  sessionStart: "session-start",
  subagentStart: "subagent-start",
  afterFileEdit: undefined,
};

test("every documented Cursor payload normalizes to its core kind (afterFileEdit is not registered: ignored)", () => {
  const names = fs.readdirSync(FIX).filter((f) => f.endsWith(".json"));
  assert.equal(names.length, 10);
  for (const f of names) {
    const p = fixture(f.replace(/\.json$/, ""));
    const n = normalize(p);
    const want = KIND[String(p.hook_event_name)];
    if (want === undefined) {
      assert.deepEqual(n, { ok: false, ignored: true }, f);
      continue;
    }
    assert.ok(n.ok, `${f}: ${JSON.stringify(n)}`);
    assert.equal(n.event.kind, want, f);
    assert.equal(n.event.sessionId, "conv-123", f);
    assert.equal(n.event.cwd, "/path/to/project", f);
    assert.equal(n.event.promptId, "gen-456", f);
  }
});

test("tools: beforeShellExecution is a shell, beforeReadFile a whole read, preToolUse Write a write with its path; preToolUse Shell/Read are left to their own events", () => {
  const shell = normalize(fixture("beforeShellExecution"));
  assert.ok(shell.ok && shell.event.kind === "tool-call");
  assert.deepEqual(shell.event.tool, { kind: "shell", name: "Shell", command: "npm install express" });
  const read = normalize(fixture("beforeReadFile"));
  assert.ok(read.ok && read.event.kind === "tool-call");
  assert.deepEqual(read.event.tool, { kind: "read", name: "Read", path: "/path/to/project/secrets.env", whole: true });
  const write = normalize(fixture("preToolUse"));
  assert.ok(write.ok && write.event.kind === "tool-call");
  assert.deepEqual(write.event.tool, { kind: "write", name: "Write", paths: ["/path/to/project/docs/guide_RU.md"] });
  assert.equal(write.event.toolUseId, "tool-1");
  assert.deepEqual(normalize({ ...fixture("preToolUse"), tool_name: "Shell", tool_input: { command: "ls" } }), { ok: false, ignored: true });
  const result = normalize(fixture("postToolUse"));
  assert.ok(result.ok && result.event.kind === "tool-result");
  assert.deepEqual(result.event.tool, { kind: "read", name: "Read", path: "/path/to/project/.cursor/skills/commit/SKILL.md", whole: true });
  assert.equal(result.event.output, undefined, "Cursor cannot replace a non-MCP output: nothing to cap");
});

test("stop: loop_count > 0 is a continuation; bad input is a specific error", () => {
  const first = normalize(fixture("stop"));
  assert.ok(first.ok && first.event.kind === "stop");
  assert.equal(first.event.continuing, false);
  const again = normalize({ ...fixture("stop"), loop_count: 1 });
  assert.ok(again.ok && again.event.kind === "stop");
  assert.equal(again.event.continuing, true);
  const bad = normalize({ hook_event_name: "stop" });
  assert.equal(bad.ok, false);
  assert.match(!bad.ok && !bad.ignored ? bad.error : "", /conversation_id/);
  const none = normalize({});
  assert.match(!none.ok && !none.ignored ? none.error : "", /hook_event_name/);
});

test("render: permission shape for shell/read, both spellings for preToolUse, followup_message for stop, continue for prompts", () => {
  const ev = (name: string) => {
    const n = normalize(fixture(name));
    assert.ok(n.ok);
    return n.event;
  };
  const deny = { verdict: "deny" as const, rows: ["g"], message: "load commit" };
  assert.deepEqual(render(ev("beforeShellExecution"), deny), { permission: "deny", agent_message: "load commit", user_message: "load commit" });
  assert.deepEqual(render(ev("beforeShellExecution"), { verdict: "allow", rows: [] }), { permission: "allow" });
  assert.deepEqual(render(ev("beforeReadFile"), { verdict: "allow", rows: [] }), { permission: "allow" });
  assert.deepEqual(render(ev("preToolUse"), deny), {
    decision: "deny",
    reason: "load commit",
    permission: "deny",
    agent_message: "load commit",
    user_message: "load commit",
  });
  assert.equal(render(ev("preToolUse"), { verdict: "allow", rows: [] }), undefined);
  assert.deepEqual(render(ev("stop"), { verdict: "block", rows: ["d"], message: "check first" }), { followup_message: "check first" });
  assert.deepEqual(render(ev("beforeSubmitPrompt"), { verdict: "hint", rows: ["h"], message: "load release" }), {
    continue: true,
    user_message: "load release",
  });
  assert.deepEqual(render(ev("sessionStart"), { verdict: "hint", rows: ["h"], message: "skills: x" }), { additional_context: "skills: x" });
  assert.equal(cursor.looksLikeToolCall(JSON.stringify(fixture("beforeShellExecution"))), true);
  assert.equal(cursor.looksLikeToolCall(JSON.stringify(fixture("stop"))), false);
});

test("on documented payloads the gate refuses a commit, blocks push HEAD, refuses a *_RU.md write, and a whole SKILL.md read lifts the commit gate", async () => {
  const project = tmp("proj");
  fs.cpSync(path.join(ROOT, "skills", "commit"), path.join(project, ".cursor", "skills", "commit"), { recursive: true });
  const env = { HOME: tmp("home"), SKILLGATE_CURSOR_CWD: project, SKILLGATE_STATE: tmp("state") };
  const shell = (command: string) => JSON.stringify({ ...fixture("beforeShellExecution"), workspace_roots: [project], cwd: project, command });
  const answer = async (input: string) =>
    JSON.parse((await runHook(input, { env, packageRoot: ROOT, host: cursor })).stdout || "{}") as Record<string, unknown>;

  const commit = await answer(shell("git commit -m x"));
  assert.equal(commit.permission, "deny");
  assert.match(String(commit.agent_message), /commit/);
  // A shell `cat` is no load under Cursor's hooks: the model is told to use the Read tool, whole.
  assert.match(String(commit.agent_message), /read \S+\/commit\/SKILL\.md whole with the Read tool \(no offset or limit\)/);
  assert.doesNotMatch(String(commit.agent_message), /`cat`|Skill tool/);
  const push = await answer(shell("git push origin HEAD"));
  assert.equal(push.permission, "deny");
  assert.match(String(push.agent_message), /HEAD/);
  const ru = await answer(
    JSON.stringify({ ...fixture("preToolUse"), workspace_roots: [project], cwd: project, tool_input: { file_path: path.join(project, "docs/guide_RU.md") } }),
  );
  assert.equal(ru.decision, "deny");
  assert.match(String(ru.reason), /paired-docs/);
  const skill = path.join(project, ".cursor", "skills", "commit", "SKILL.md");
  await answer(
    JSON.stringify({
      ...fixture("postToolUse"),
      workspace_roots: [project],
      cwd: project,
      tool_input: { path: skill },
      tool_output: fs.readFileSync(skill, "utf8"),
    }),
  );
  const after = await answer(shell("git commit -m x"));
  assert.equal(after.permission, "allow", JSON.stringify(after));
});

test("environment and install: .cursor skills and hooks.json; install keeps other hooks, is idempotent, uninstall removes only skillgate", async () => {
  const he = environment({ HOME: "/h", SKILLGATE_CURSOR_CWD: "/p" });
  assert.ok(he.skillRoots.includes("/p/.cursor/skills"));
  assert.ok(he.settingsFiles.includes("/p/.cursor/hooks.json"));
  assert.ok(he.settingsFiles.includes("/h/.cursor/hooks.json"));
  const project = tmp("inst");
  const file = path.join(project, ".cursor", "hooks.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ version: 1, hooks: { afterFileEdit: [{ command: "prettier" }] } }));
  const hookPath = "/pkg/dist/hook-cursor.cjs";
  installCursor({ project, runtime: "/usr/bin/node", hookPath });
  installCursor({ project, runtime: "/usr/bin/node", hookPath });
  const j = JSON.parse(fs.readFileSync(file, "utf8")) as { version: number; hooks: Record<string, { command: string }[]> };
  assert.equal(j.version, 1);
  // The events that refuse a call fail closed: a crash or timeout of the hook blocks it.
  for (const e of CURSOR_EVENTS)
    assert.deepEqual(
      j.hooks[e],
      [
        {
          command: "/usr/bin/node /pkg/dist/hook-cursor.cjs",
          ...(["beforeShellExecution", "beforeReadFile", "preToolUse"].includes(e) ? { failClosed: true } : {}),
        },
      ],
      e,
    );
  assert.deepEqual(j.hooks.afterFileEdit, [{ command: "prettier" }]);
  uninstallCursor({ project, hookPath });
  assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")), { version: 1, hooks: { afterFileEdit: [{ command: "prettier" }] } });
  const lines: string[] = [];
  assert.equal(await cursorInstallMain("install", ["--bogus"], ROOT, {}, (s) => lines.push(s)), 2);
  assert.match(lines.join(""), /unknown option --bogus/);
});
