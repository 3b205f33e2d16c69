// Gemini CLI's payloads (captured from the real 0.61.0 binary into
// test/fixtures/gemini/) → core events; decisions → Gemini's output shapes;
// settings.json edits; the whole hook through the runner.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gemini, normalize, render } from "../hooks/hosts/gemini/adapter.ts";
import { environment } from "../hooks/hosts/gemini/env.ts";
import { addToSettings, geminiCommand, removeFromSettings, GEMINI_EVENTS } from "../hooks/hosts/gemini/install.ts";
import { runHook } from "../hooks/entries/claude-code.ts";
import { DEFAULT_PROFILE } from "../hooks/core/summaries/profiles.ts";
import { installVerb } from "../cli/install.ts";

/** `skillgate <verb> --host gemini …` in-process (cli/install.ts installVerb), with its own environment and output. */
const geminiInstallMain = (verb: "install" | "uninstall", args: string[], root: string, env: NodeJS.ProcessEnv, out: (s: string) => void) =>
  installVerb(verb, ["--host", "gemini", ...args], root, { env, out, err: out });
const geminiDoctorMain = (args: string[], root: string, env: NodeJS.ProcessEnv, out: (s: string) => void) =>
  installVerb("doctor", ["--host", "gemini", ...args], root, { env, out, err: out });

const FIX = path.join(import.meta.dirname, "fixtures", "gemini");
const fixture = (name: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(FIX, `${name}.json`), "utf8"));
const ROOT = path.resolve(import.meta.dirname, "..");

const KIND: Record<string, string | undefined> = {
  BeforeTool: "tool-call",
  AfterTool: "tool-result",
  BeforeAgent: "prompt",
  AfterAgent: "stop",
  SessionStart: "session-start",
  PreCompress: undefined,
  SessionEnd: undefined,
};

test("every captured Gemini payload normalizes to the core event kind of its hook (or is ignored)", () => {
  const names = fs.readdirSync(FIX).filter((f) => f.endsWith(".json"));
  assert.ok(names.length >= 12, `${names.length} fixtures`);
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
    assert.equal(n.event.sessionId, p.session_id, f);
    assert.equal(n.event.cwd, p.cwd, f);
    assert.equal(n.transcriptPath, p.transcript_path, f);
  }
});

test("tools: shell command, write/replace paths, whole vs sliced read, the skill tool's name", () => {
  const tool = (name: string, extra: Record<string, unknown> = {}) => {
    const n = normalize({ ...fixture(`BeforeTool-${name}`), ...extra });
    assert.ok(n.ok && n.event.kind === "tool-call");
    return n.event.tool;
  };
  assert.deepEqual(tool("run_shell_command"), { kind: "shell", name: "run_shell_command", command: "git status --short" });
  const w = tool("write_file");
  assert.ok(w.kind === "write" && w.paths.length === 1 && w.paths[0]?.endsWith("/a.md"));
  const e = tool("replace");
  assert.ok(e.kind === "edit" && e.paths[0]?.endsWith("/a.md"));
  const r = tool("read_file");
  assert.ok(r.kind === "read" && r.whole && r.path?.endsWith("/a.md"));
  const slice = tool("read_file", { tool_input: { file_path: "/x/SKILL.md", start_line: 1, end_line: 5 } });
  assert.ok(slice.kind === "read" && !slice.whole);
  assert.deepEqual(tool("activate_skill"), { kind: "skill", name: "activate_skill", skill: "commit" });
  assert.deepEqual(tool("run_shell_command", { tool_name: "mcp_fs_write", tool_input: { path: "a" } }), { kind: "write", name: "mcp_fs_write", paths: ["a"] });
  assert.equal(tool("run_shell_command", { tool_name: "mcp_fs_read_file", tool_input: { path: "a" } }).kind, "other");
});

test("activate_skill loads only in its success shape", () => {
  const ok = normalize(fixture("AfterTool-activate_skill"));
  assert.ok(ok.ok && ok.event.kind === "tool-result");
  assert.deepEqual(ok.event.loads, ["commit"]);
  const unknown = normalize({
    ...fixture("AfterTool-activate_skill"),
    tool_response: { llmContent: 'Error: Skill "commit" not found.', error: { message: "x", type: "invalid_tool_params" } },
  });
  assert.ok(unknown.ok && unknown.event.kind === "tool-result");
  assert.deepEqual(unknown.event.loads, []);
  // Another skill's body under this call's name does not count.
  const other = normalize({ ...fixture("AfterTool-activate_skill"), tool_response: { llmContent: '<activated_skill name="release">' } });
  assert.ok(other.ok && other.event.kind === "tool-result");
  assert.deepEqual(other.event.loads, []);
});

test("PreCompress: auto fires before every request (not a compaction); manual is one", () => {
  assert.deepEqual(normalize(fixture("PreCompress")), { ok: false, ignored: true });
  const manual = normalize({ ...fixture("PreCompress"), trigger: "manual" });
  assert.ok(manual.ok && manual.event.kind === "compaction");
});

test("AfterAgent is the stop with the final answer; stop_hook_active is a retry", () => {
  const n = normalize({ ...fixture("AfterAgent"), stop_hook_active: true });
  assert.ok(n.ok && n.event.kind === "stop");
  assert.equal(n.event.finalMessage, "All done.");
  assert.equal(n.event.continuing, true);
});

test("bad input: no event name or no session id is a clear error", () => {
  assert.deepEqual(normalize({}), { ok: false, ignored: false, error: "the event has no hook_event_name" });
  const n = normalize({ hook_event_name: "BeforeTool" });
  assert.ok(!n.ok && !n.ignored && /session_id/.test(n.error));
  assert.equal(gemini.looksLikeToolCall('{"hook_event_name": "BeforeTool"'), true);
  assert.equal(gemini.looksLikeToolCall('{"hook_event_name": "AfterTool"'), false);
});

test("render: deny on BeforeTool and AfterAgent; hint as additionalContext; cap replaces the result", () => {
  const call = normalize(fixture("BeforeTool-run_shell_command"));
  assert.ok(call.ok);
  assert.deepEqual(render(call.event, { verdict: "deny", rows: ["r"], message: "load commit" }), { decision: "deny", reason: "load commit" });
  const stop = normalize(fixture("AfterAgent"));
  assert.ok(stop.ok);
  assert.deepEqual(render(stop.event, { verdict: "block", rows: ["r"], message: "check first" }), { decision: "deny", reason: "check first" });
  const prompt = normalize(fixture("BeforeAgent"));
  assert.ok(prompt.ok);
  assert.deepEqual(render(prompt.event, { verdict: "hint", rows: ["r"], message: "load logs" }), {
    hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: "load logs" },
  });
  const result = normalize(fixture("AfterTool-run_shell_command"));
  assert.ok(result.ok);
  assert.deepEqual(
    render(
      result.event,
      { verdict: "cap", rows: ["r"], message: "rest in /x", cap: { row: "r", headChars: 4, profile: DEFAULT_PROFILE } },
      { updatedOutput: { llmContent: "head" } },
    ),
    { decision: "deny", reason: "head\n\nrest in /x" },
  );
  assert.equal(render(call.event, { verdict: "allow", rows: [] }), undefined);
  assert.deepEqual(gemini.renderFailure("broken", true), { systemMessage: "broken", decision: "deny", reason: "broken" });
});

test("environment: user and project skill folders, settings files, the project's table", () => {
  const env = environment({ HOME: "/h", SKILLGATE_GEMINI_CWD: "/p" });
  assert.deepEqual(env.skillRoots, ["/h/.gemini/skills", "/h/.agents/skills", "/p/.gemini/skills", "/p/.agents/skills"]);
  assert.deepEqual(env.settingsFiles, ["/h/.gemini/settings.json", "/p/.gemini/settings.json"]);
  assert.equal(env.projectTable, "/p/.gemini/triggers.json");
  assert.deepEqual(environment({ GEMINI_CLI_HOME: "/g", HOME: "/h" }).skillRoots, ["/g/.gemini/skills", "/g/.agents/skills"]);
});

test("settings.json: install adds one group per event, keeps the user's, uninstall removes only ours", () => {
  const mine = { type: "command", command: "other.sh" };
  const before = { general: { vimMode: true }, hooks: { BeforeTool: [{ matcher: "write_file", hooks: [mine] }] } };
  const added = addToSettings(before, geminiCommand("/usr/bin/node", "/sg/dist/hook-gemini.cjs"), "/sg/dist/hook-gemini.cjs");
  const hooks = added.hooks as Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
  assert.deepEqual(Object.keys(hooks).sort(), Object.keys(GEMINI_EVENTS).sort());
  assert.equal(hooks.BeforeTool?.length, 2);
  assert.equal(hooks.BeforeTool?.[1]?.hooks[0]?.command, "/usr/bin/node /sg/dist/hook-gemini.cjs");
  // Installing again replaces, never duplicates.
  const twice = addToSettings(added, geminiCommand("/usr/bin/node", "/sg/dist/hook-gemini.cjs"), "/sg/dist/hook-gemini.cjs");
  assert.deepEqual(twice, added);
  assert.deepEqual(removeFromSettings(added, "/sg/dist/hook-gemini.cjs"), before);
  assert.throws(() => addToSettings({ hooks: { BeforeTool: {} } }, "x", "y"), /not a list/);
});

test("install --host gemini writes .gemini/settings.json (and with --with-skills the table's skills into .gemini/skills); doctor finds every event; uninstall clears it", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-gemini-inst-"));
  const lines: string[] = [];
  const out = (s: string) => lines.push(s);
  const file = path.join(dir, ".gemini", "settings.json");
  // The shipped table names skills Gemini does not have: activate_skill would answer "must be equal to one of the allowed values".
  assert.equal(await geminiInstallMain("install", ["--host", "gemini", "--project", dir], ROOT, { HOME: dir }, out), 3);
  assert.match(lines.join("\n"), /names skills Gemini CLI cannot load: .*commit.*--with-skills.*\.gemini\/skills/s);
  assert.ok(!fs.existsSync(file), "nothing written");
  assert.equal(await geminiInstallMain("install", ["--host", "gemini", "--project", dir, "--with-skills"], ROOT, { HOME: dir }, out), 0, lines.join("\n"));
  assert.ok(fs.existsSync(file));
  assert.ok(fs.existsSync(path.join(dir, ".gemini", "skills", "commit", "SKILL.md")));
  assert.match(lines.join("\n"), /copied skills into \S+\.gemini\/skills: .*commit/);
  assert.match(lines.join("\n"), /trusted folder/);
  const doctorLines: string[] = [];
  // The doctor also runs dist/hook-gemini.cjs: only its registration part is asserted without a build.
  await geminiDoctorMain(["--project", dir], ROOT, { HOME: dir }, (s) => doctorLines.push(s));
  assert.doesNotMatch(doctorLines.join("\n"), /does not run skillgate on/);
  assert.equal(await geminiInstallMain("uninstall", ["--project", dir], ROOT, { HOME: dir }, out), 0);
  // Nothing else changed it since install created it: uninstall puts back no file.
  assert.equal(fs.existsSync(file), false);
  const after: string[] = [];
  assert.equal(await geminiDoctorMain(["--project", dir], ROOT, { HOME: dir }, (s) => after.push(s)), 1);
  assert.match(after.join("\n"), /does not run skillgate on BeforeTool/);
  assert.equal(await geminiInstallMain("install", ["--project", dir, "--user"], ROOT, { HOME: dir }, out), 2);
  fs.writeFileSync(file, "{ // comment\n}");
  assert.equal(await geminiInstallMain("install", ["--project", dir], ROOT, { HOME: dir }, out), 3);
  assert.match(lines.at(-1) ?? "", /not plain JSON/);
});

async function hook(payload: unknown, env: Record<string, string>) {
  const r = await runHook(JSON.stringify(payload), { env, packageRoot: ROOT, host: gemini });
  return r.stdout ? (JSON.parse(r.stdout) as Record<string, unknown>) : undefined;
}

test("through the runner: commit refused naming activate_skill's route; activate_skill lifts it; push HEAD blocked", async () => {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "sg-gemini-"));
  const env = { SKILLGATE_STATE: state, HOME: state, SKILLGATE_GEMINI_CWD: "/tmp/gm/repo" };
  const commit = { ...fixture("BeforeTool-run_shell_command"), tool_input: { command: "git commit -m x" } };
  const first = await hook(commit, env);
  assert.equal(first?.decision, "deny");
  // skillgate's own copy of the skill is outside the workspace, where read_file refuses: only activate_skill is named.
  assert.match(String(first?.reason), /call activate_skill with name "commit"/);
  assert.doesNotMatch(String(first?.reason), /read_file/);
  assert.equal(
    gemini.howToLoad("commit", "/r/.gemini/skills/commit/SKILL.md"),
    'call activate_skill with name "commit" (or read_file /r/.gemini/skills/commit/SKILL.md whole, no start_line/end_line)',
  );
  assert.doesNotMatch(String(first?.reason), /Skill tool/);
  await hook(fixture("AfterTool-activate_skill"), env);
  assert.equal(await hook(commit, env), undefined, "allowed after activate_skill");
  const push = await hook({ ...commit, tool_input: { command: "git push origin HEAD" } }, env);
  assert.equal(push?.decision, "deny");
  assert.match(String(push?.reason), /HEAD/);
});

test("through the runner: write_file to *_RU.md refused, read_file of it allowed", async () => {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "sg-gemini-"));
  const env = { SKILLGATE_STATE: state, HOME: state, SKILLGATE_GEMINI_CWD: "/tmp/gm/repo" };
  const write = await hook({ ...fixture("BeforeTool-write_file"), tool_input: { file_path: "/tmp/gm/repo/doc_RU.md", content: "x" } }, env);
  assert.equal(write?.decision, "deny");
  assert.equal(await hook({ ...fixture("BeforeTool-read_file"), tool_input: { file_path: "/tmp/gm/repo/doc_RU.md" } }, env), undefined);
});

test("compression check: the transcript's last prompt size against threshold × window, settings override", async () => {
  const { autoCompresses, lastPrompt, tokenLimit } = await import("../hooks/hosts/gemini/compression.ts");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-gemini-cmp-"));
  const transcript = path.join(dir, "session.jsonl");
  const rec = (input: number) =>
    JSON.stringify({ id: "x", type: "gemini", content: "", tokens: { input, output: 1, total: input + 1 }, model: "gemini-2.5-flash" });
  fs.writeFileSync(
    transcript,
    [JSON.stringify({ sessionId: "s" }), rec(900_000), JSON.stringify({ $set: { lastUpdated: "t" } }), rec(100), '{"$set":'].join("\n"),
  );
  assert.deepEqual(lastPrompt(transcript), { tokens: 100, model: "gemini-2.5-flash" });
  assert.equal(autoCompresses(transcript, dir, undefined), false);
  fs.appendFileSync(transcript, "\n" + rec(600_000) + "\n");
  assert.equal(autoCompresses(transcript, dir, undefined), true, "600k ≥ 0.5 × 1,048,576");
  fs.mkdirSync(path.join(dir, ".gemini"));
  fs.writeFileSync(path.join(dir, ".gemini", "settings.json"), JSON.stringify({ model: { compressionThreshold: 0.7 } }));
  assert.equal(autoCompresses(transcript, dir, undefined), false, "the project's threshold 0.7 wins");
  assert.equal(tokenLimit("gemma-4-31b-it"), 256_000);
  assert.equal(autoCompresses(path.join(dir, "missing.jsonl"), dir, undefined), false);
  assert.equal(autoCompresses(undefined, dir, undefined), false);
});

test("subagents: tool calls between invoke_agent's BeforeTool and AfterTool are the subagent's, with a context of their own", async () => {
  const { annotate } = await import("../hooks/hosts/gemini/hook.ts");
  const { SUBAGENT } = await import("../hooks/hosts/gemini/subagents.ts");
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "sg-gemini-sub-"));
  const env = { SKILLGATE_STATE: state, HOME: state, SKILLGATE_GEMINI_CWD: "/tmp/gm/repo" };
  // What the entry does before the runner parses the event (dist/hook-gemini.cjs).
  const send = (payload: Record<string, unknown>) => {
    const text = annotate(JSON.stringify(payload), "/tmp/gm/repo", env);
    return runHook(text, { env, packageRoot: ROOT, host: gemini }).then((r) => (r.stdout ? (JSON.parse(r.stdout) as Record<string, unknown>) : undefined));
  };
  const commit = { ...fixture("BeforeTool-run_shell_command"), tool_input: { command: "git commit -m x" } };
  const invoke = {
    ...fixture("BeforeTool-run_shell_command"),
    tool_name: "invoke_agent",
    tool_input: { agent_name: "generalist", prompt: "commit the change" },
  };
  const invoked = {
    ...fixture("AfterTool-run_shell_command"),
    tool_name: "invoke_agent",
    tool_input: invoke.tool_input,
    tool_response: { llmContent: "done" },
  };
  // The main thread loads the skill: its own commit is allowed.
  await send(fixture("AfterTool-activate_skill"));
  assert.equal(await send(commit), undefined);
  // A subagent starts: its commit does not ride on the main thread's load.
  assert.equal(await send(invoke), undefined, "invoke_agent itself is allowed");
  const marked = JSON.parse(annotate(JSON.stringify(commit), "/tmp/gm/repo", env)) as Record<string, unknown>;
  assert.match(String(marked[SUBAGENT]), /^agent-/);
  const n = normalize(marked);
  assert.ok(n.ok && n.event.agentId === marked[SUBAGENT]);
  const sub = await send(commit);
  assert.equal(sub?.decision, "deny", "the subagent has not loaded the skill");
  assert.match(String(sub?.reason), /activate_skill/);
  // The subagent loads it itself: then its commit is allowed.
  await send(fixture("AfterTool-activate_skill"));
  assert.equal(await send(commit), undefined);
  // It ends: the main thread's calls are its own again, with the main thread's load.
  await send(invoked);
  assert.equal((JSON.parse(annotate(JSON.stringify(commit), "/tmp/gm/repo", env)) as Record<string, unknown>)[SUBAGENT], undefined);
  assert.equal(await send(commit), undefined);
  // An invoke_agent that never came back (refused, cancelled) is forgotten at the next user prompt.
  await send(invoke);
  assert.equal((await send(commit))?.decision, "deny");
  await send(fixture("BeforeAgent"));
  assert.equal(await send(commit), undefined);
  // A payload cannot name its own agent: the key is the entry's.
  const forged = JSON.parse(annotate(JSON.stringify({ ...commit, [SUBAGENT]: "x" }), "/tmp/gm/repo", env)) as Record<string, unknown>;
  assert.equal(forged[SUBAGENT], undefined);
});
