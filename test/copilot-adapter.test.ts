// Copilot CLI's payloads (captured from the real 1.0.102 binary into
// test/fixtures/copilot/) → core events; decisions → Copilot's output shapes;
// the hooks file install; the hook executable end to end.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { COPILOT_EVENTS, copilotHost, normalize, render } from "../hooks/hosts/copilot/adapter.ts";
import { environment } from "../hooks/hosts/copilot/env.ts";
import { installCopilot, uninstallCopilot, withSkillgate, withoutSkillgate } from "../hooks/hosts/copilot/install.ts";
import { lastAssistantMessage } from "../hooks/hosts/copilot/transcript.ts";
import { runHook } from "../hooks/entries/claude-code.ts";
import { copyBuiltHook } from "./built-hook.ts";
import { installVerb } from "../cli/install.ts";

/** `skillgate <verb> --host copilot …` in-process (cli/install.ts installVerb), with its own environment and output. */
const copilotInstallMain = (verb: "install" | "uninstall", args: string[], root: string, env: NodeJS.ProcessEnv, out: (s: string) => void) =>
  installVerb(verb, ["--host", "copilot", ...args], root, { env, out, err: out });
const copilotDoctorMain = (args: string[], root: string, env: NodeJS.ProcessEnv, out: (s: string) => void) =>
  installVerb("doctor", ["--host", "copilot", ...args], root, { env, out, err: out });

const FIX = path.join(import.meta.dirname, "fixtures", "copilot");
const fixture = (name: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(FIX, `${name}.json`), "utf8"));
const ROOT = path.resolve(import.meta.dirname, "..");
const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), `skillgate-copilot-${p}-`));

const KIND: Record<string, string> = {
  sessionStart: "session-start",
  userPromptSubmitted: "prompt",
  preToolUse: "tool-call",
  postToolUse: "tool-result",
  preCompact: "compaction",
  agentStop: "stop",
  subagentStart: "subagent-start",
  subagentStop: "stop",
};

test("every captured Copilot payload normalizes to the core event kind of its hook (the event comes from the file name)", () => {
  const names = fs.readdirSync(FIX).filter((f) => f.endsWith(".json"));
  assert.ok(names.length >= 14, `${names.length} fixtures`);
  for (const f of names) {
    const event = f.split(/[-.]/)[0] ?? "";
    const p = fixture(f.replace(/\.json$/, ""));
    const n = normalize(event, p);
    // sessionEnd is not skillgate's; a subagent's agentStop is left to its subagentStop.
    if (event === "sessionEnd" || (event === "agentStop" && p.agentId)) {
      assert.deepEqual(n, { ok: false, ignored: true }, f);
      continue;
    }
    assert.ok(n.ok, `${f}: ${JSON.stringify(n)}`);
    assert.equal(n.event.kind, KIND[event], f);
    assert.equal(n.event.sessionId, p.parentAgentId ?? p.sessionId, f);
    assert.equal(n.event.agentId, p.agentId ?? (event === "subagentStop" ? p.agentName : undefined), f);
    assert.equal(n.event.cwd, p.cwd, f);
  }
});

test("tool names map to kinds: bash is a shell, view a read (whole unless view_range), apply_patch's string envelope gives paths", () => {
  const bash = normalize("preToolUse", fixture("preToolUse-bash"));
  assert.ok(bash.ok && bash.event.kind === "tool-call");
  assert.deepEqual(bash.event.tool, { kind: "shell", name: "bash", command: "git status --short" });
  const view = normalize("preToolUse", fixture("preToolUse-view"));
  assert.ok(view.ok && view.event.kind === "tool-call");
  assert.deepEqual(view.event.tool, { kind: "read", name: "view", path: "/tmp/cprobe/repo/README.md", whole: true });
  const slice = normalize("preToolUse", { ...fixture("preToolUse-view"), toolArgs: { path: "/x/SKILL.md", view_range: [1, 5] } });
  assert.ok(slice.ok && slice.event.kind === "tool-call");
  assert.equal(slice.event.tool.kind === "read" && slice.event.tool.whole, false);
  const patch = normalize("preToolUse", fixture("preToolUse-apply_patch"));
  assert.ok(patch.ok && patch.event.kind === "tool-call");
  assert.deepEqual(patch.event.tool, { kind: "write", name: "apply_patch", paths: ["notes_RU.md"] });
  const edit = normalize("preToolUse", { sessionId: "s", cwd: "/r", toolName: "edit", toolArgs: { path: "/r/a_RU.md", old_str: "a", new_str: "b" } });
  assert.ok(edit.ok && edit.event.kind === "tool-call");
  assert.deepEqual(edit.event.tool, { kind: "edit", name: "edit", paths: ["/r/a_RU.md"] });
  const task = normalize("preToolUse", { sessionId: "s", cwd: "/r", toolName: "task", toolArgs: { agent_type: "explore", prompt: "look" } });
  assert.ok(task.ok && task.event.kind === "tool-call");
  assert.deepEqual(task.event.tool, { kind: "subagent", name: "task", subagentType: "explore", prompt: "look" });
});

test("the skill tool loads its skill only in 1.0.102's success answer", () => {
  const ok = normalize("postToolUse", fixture("postToolUse-skill"));
  assert.ok(ok.ok && ok.event.kind === "tool-result");
  assert.deepEqual(ok.event.loads, ["commit"]);
  const missing = normalize("postToolUse", {
    ...fixture("postToolUse-skill"),
    toolResult: { resultType: "success", textResultForLlm: 'Skill "commit" not found. Available skills: x' },
  });
  assert.ok(missing.ok && missing.event.kind === "tool-result");
  assert.deepEqual(missing.event.loads, []);
  const failed = normalize("postToolUse", {
    ...fixture("postToolUse-skill"),
    toolResult: { resultType: "failure", textResultForLlm: 'Skill "commit" loaded successfully.' },
  });
  assert.ok(failed.ok && failed.event.kind === "tool-result");
  assert.deepEqual(failed.event.loads, []);
});

test("a tool result's textResultForLlm is the output a cap may replace", () => {
  const n = normalize("postToolUse", fixture("postToolUse-bash"));
  assert.ok(n.ok && n.event.kind === "tool-result");
  assert.deepEqual(n.event.output?.fields, ["textResultForLlm"]);
  assert.equal(n.event.output?.chars, String((fixture("postToolUse-bash").toolResult as { textResultForLlm: string }).textResultForLlm).length);
});

test("agentStop: finalMessage (added by the entry) and stop_hook_active; sessionStart new → startup; unknown events ignored; no sessionId is an error", () => {
  const stop = normalize("agentStop", { ...fixture("agentStop"), finalMessage: "done ✅", stop_hook_active: true });
  assert.ok(stop.ok && stop.event.kind === "stop");
  assert.equal(stop.event.finalMessage, "done ✅");
  assert.equal(stop.event.continuing, true);
  const start = normalize("sessionStart", fixture("sessionStart"));
  assert.ok(start.ok && start.event.kind === "session-start");
  assert.equal(start.event.source, "startup");
  assert.deepEqual(normalize("errorOccurred", {}), { ok: false, ignored: true });
  const bad = normalize("preToolUse", { toolName: "bash" });
  assert.equal(bad.ok, false);
  assert.match(!bad.ok && !bad.ignored ? bad.error : "", /no sessionId/);
  const sub = normalize("subagentStop", { sessionId: "s", cwd: "/r", agentName: "explore", response: "found it" });
  assert.ok(sub.ok && sub.event.kind === "stop");
  assert.equal(sub.event.agentId, "explore");
  assert.equal(sub.event.finalMessage, "found it");
});

test("a subagent (captured task run): its tool calls belong to the parent session as agentId; it loads skills itself", async () => {
  const project = tmp("sub");
  fs.cpSync(path.join(ROOT, "skills", "commit"), path.join(project, ".github", "skills", "commit"), { recursive: true });
  const env = { HOME: tmp("home"), COPILOT_PROJECT_DIR: project, SKILLGATE_STATE: tmp("state") };
  const at = (name: string, extra: Record<string, unknown> = {}) => JSON.stringify({ ...fixture(name), cwd: project, ...extra });
  const run = async (event: string, input: string) => (await runHook(input, { env, packageRoot: ROOT, host: copilotHost(event) })).stdout;
  const parent = String(fixture("preToolUse-task").sessionId);
  const sub = fixture("preToolUse-subagent-bash");
  assert.equal(sub.parentAgentId, parent);
  // The main agent loads the skill; the subagent starts and tries to commit.
  await run("postToolUse", at("postToolUse-skill", { sessionId: parent }));
  await run("subagentStart", at("subagentStart"));
  const commit = { toolArgs: { command: "git commit -m x", description: "c" } };
  const denied = await run("preToolUse", at("preToolUse-subagent-bash", commit));
  assert.match(denied, /"permissionDecision":"deny"/);
  // The subagent loads it itself (the skill tool's captured answer, from inside the subagent).
  await run("postToolUse", at("postToolUse-skill", { sessionId: sub.sessionId, agentId: sub.agentId, parentAgentId: parent }));
  const allowed = await run("preToolUse", at("preToolUse-subagent-bash", commit));
  assert.doesNotMatch(allowed, /"deny"/);
});

test("render: deny → permissionDecision; stop block → decision/reason; cap → modifiedResult; hint → additionalContext", () => {
  const call = normalize("preToolUse", fixture("preToolUse-bash"));
  assert.ok(call.ok);
  assert.deepEqual(render(call.event, { verdict: "deny", rows: ["g"], message: "load commit" }), {
    permissionDecision: "deny",
    permissionDecisionReason: "load commit",
  });
  const stop = normalize("agentStop", fixture("agentStop"));
  assert.ok(stop.ok);
  assert.deepEqual(render(stop.event, { verdict: "block", rows: ["d"], message: "check first" }), { decision: "block", reason: "check first" });
  const result = normalize("postToolUse", fixture("postToolUse-bash"));
  assert.ok(result.ok);
  const updated = { resultType: "success", textResultForLlm: "head…" };
  assert.deepEqual(render(result.event, { verdict: "cap", rows: ["c"], cap: { row: "c", headChars: 5, profile: "balanced" } }, { updatedOutput: updated }), {
    modifiedResult: updated,
  });
  const prompt = normalize("userPromptSubmitted", fixture("userPromptSubmitted"));
  assert.ok(prompt.ok);
  assert.deepEqual(render(prompt.event, { verdict: "hint", rows: ["h"], message: "load release" }), { additionalContext: "load release" });
  assert.equal(render(call.event, { verdict: "allow", rows: [] }), undefined);
  assert.equal(copilotHost("preToolUse").looksLikeToolCall("garbage"), true);
  assert.equal(copilotHost("postToolUse").looksLikeToolCall("garbage"), false);
});

test("environment: Copilot's three project skill folders, the user's, and the hooks file as settings", () => {
  const he = environment({ HOME: "/h", COPILOT_PROJECT_DIR: "/p" });
  for (const d of ["/p/.github/skills", "/p/.claude/skills", "/p/.agents/skills", "/h/.copilot/skills"]) assert.ok(he.skillRoots.includes(d), d);
  assert.ok(he.settingsFiles.includes("/p/.github/hooks/skillgate.json"));
  assert.ok(he.settingsFiles.includes("/h/.copilot/config.json"));
  assert.deepEqual(environment({ COPILOT_HOME: "/c" }).settingsFiles, ["/c/config.json", "/c/settings.json"]);
});

test("the hook refuses a captured commit payload and lets a captured skill load lift the gate (runHook, shipped table)", async () => {
  const project = tmp("proj");
  fs.cpSync(path.join(ROOT, "skills", "commit"), path.join(project, ".github", "skills", "commit"), { recursive: true });
  const env = { HOME: tmp("home"), COPILOT_PROJECT_DIR: project, SKILLGATE_STATE: tmp("state") };
  const commit = { ...fixture("preToolUse-bash"), cwd: project, toolArgs: { command: "git commit -m x", description: "c" } };
  const deny = await runHook(JSON.stringify(commit), { env, packageRoot: ROOT, host: copilotHost("preToolUse") });
  const out = JSON.parse(deny.stdout) as Record<string, unknown>;
  assert.equal(out.permissionDecision, "deny");
  assert.match(String(out.permissionDecisionReason), /commit/);
  // Copilot's own tools: `skill` ({skill}) and `view` (whole without view_range), never Claude Code's Skill/Read.
  // skillgate's own copy is outside the repository, where a headless view is refused: only the skill tool is named.
  assert.match(String(out.permissionDecisionReason), /call the skill tool with skill "commit"/);
  assert.doesNotMatch(String(out.permissionDecisionReason), /view /);
  assert.equal(
    copilotHost("preToolUse").howToLoad("commit", "/r/.github/skills/commit/SKILL.md"),
    'call the skill tool with skill "commit" (or view /r/.github/skills/commit/SKILL.md whole, without view_range)',
  );
  assert.doesNotMatch(String(out.permissionDecisionReason), /Skill tool|Read /);
  await runHook(JSON.stringify({ ...fixture("postToolUse-skill"), cwd: project }), { env, packageRoot: ROOT, host: copilotHost("postToolUse") });
  const allow = await runHook(JSON.stringify(commit), { env, packageRoot: ROOT, host: copilotHost("preToolUse") });
  assert.equal(allow.stdout.includes('"deny"'), false, allow.stdout);
});

test("lastAssistantMessage reads the last assistant.message of an events.jsonl; a missing file gives ''", () => {
  const dir = tmp("tr");
  const f = path.join(dir, "events.jsonl");
  const line = (type: string, content: string) => JSON.stringify({ type, data: { content } });
  fs.writeFileSync(
    f,
    [line("user.message", "hi"), line("assistant.message", "first"), line("assistant.message", "готово ✅"), line("assistant.turn_end", "")].join("\n") + "\n",
  );
  assert.equal(lastAssistantMessage(f), "готово ✅");
  // A missing file is waited for (2 s by default: the answer may not be written yet), then gives '': a short
  // wait here, not the default, which would hold up every test file sharing this process for 2 s.
  assert.equal(lastAssistantMessage(path.join(dir, "none.jsonl"), 100), "");
});

test("install writes .github/hooks/skillgate.json with every event (other hooks kept); uninstall removes it; --user merges config.json", async () => {
  const project = tmp("inst");
  const hookPath = "/pkg/dist/hook-copilot.cjs";
  const [file] = installCopilot({ project, runtime: "/usr/bin/node", hookPath });
  assert.ok(file);
  const j = JSON.parse(fs.readFileSync(file, "utf8")) as { version: number; hooks: Record<string, { bash: string }[]> };
  assert.equal(j.version, 1);
  for (const e of COPILOT_EVENTS) assert.equal(j.hooks[e]?.[0]?.bash, `/usr/bin/node /pkg/dist/hook-copilot.cjs ${e}`);
  // Idempotent.
  installCopilot({ project, runtime: "/usr/bin/node", hookPath });
  assert.equal((JSON.parse(fs.readFileSync(file, "utf8")) as typeof j).hooks.preToolUse?.length, 1);
  assert.deepEqual(uninstallCopilot({ project, hookPath }), [file]);
  assert.equal(fs.existsSync(file), false);

  const home = tmp("uhome");
  const cfg = path.join(home, "config.json");
  fs.writeFileSync(cfg, JSON.stringify({ model: "x", hooks: { preToolUse: [{ type: "command", bash: "other" }] } }));
  installCopilot({ user: true, runtime: "node", hookPath, env: { COPILOT_HOME: home } });
  const u = JSON.parse(fs.readFileSync(cfg, "utf8")) as { model: string; hooks: Record<string, unknown[]> };
  assert.equal(u.model, "x");
  assert.equal(u.hooks.preToolUse?.length, 2);
  uninstallCopilot({ user: true, hookPath, env: { COPILOT_HOME: home } });
  assert.deepEqual(JSON.parse(fs.readFileSync(cfg, "utf8")), { model: "x", hooks: { preToolUse: [{ type: "command", bash: "other" }] } });
  assert.deepEqual(withoutSkillgate(withSkillgate({}, "node", hookPath), hookPath), {});
  const lines: string[] = [];
  assert.equal(await copilotInstallMain("install", ["--project", project, "--user"], ROOT, {}, (s) => lines.push(s)), 2);
  assert.match(lines.join("\n"), /--project and --user cannot be used together/);
});

test("install --host copilot: refused while the table's skills are not loadable; --with-skills copies them into .github/skills", async () => {
  const project = tmp("skills");
  const lines: string[] = [];
  const env = { HOME: tmp("h") };
  assert.equal(await copilotInstallMain("install", ["--project", project], ROOT, env, (s) => lines.push(s)), 3);
  assert.match(lines.join("\n"), /names skills Copilot CLI cannot load: .*commit.*--with-skills/s);
  assert.ok(!fs.existsSync(path.join(project, ".github", "hooks", "skillgate.json")), "nothing written");
  lines.length = 0;
  assert.equal(await copilotInstallMain("install", ["--project", project, "--with-skills"], ROOT, env, (s) => lines.push(s)), 0, lines.join("\n"));
  assert.ok(fs.existsSync(path.join(project, ".github", "skills", "commit", "SKILL.md")));
  assert.ok(fs.existsSync(path.join(project, ".github", "hooks", "skillgate.json")));
  // A skill already in a folder Copilot reads (.claude/skills) is not copied again.
  const other = tmp("skills-claude");
  fs.cpSync(path.join(ROOT, "skills"), path.join(other, ".claude", "skills"), { recursive: true });
  lines.length = 0;
  assert.equal(await copilotInstallMain("install", ["--project", other], ROOT, env, (s) => lines.push(s)), 0, lines.join("\n"));
  assert.ok(!fs.existsSync(path.join(other, ".github", "skills")));
});

test("the built hook executable answers a captured preToolUse with a deny and exits 0; doctor sees a missing and a complete install", async () => {
  const root = tmp("root");
  const out = copyBuiltHook(root, "copilot");
  fs.copyFileSync(path.join(ROOT, "triggers.json"), path.join(root, "triggers.json"));
  fs.writeFileSync(path.join(root, "package.json"), "{}");
  const project = tmp("exe");
  const env = { PATH: process.env.PATH ?? "", HOME: tmp("h"), COPILOT_PROJECT_DIR: project, SKILLGATE_STATE: tmp("s") };
  const push = { ...fixture("preToolUse-bash-2"), cwd: project };
  const r = spawnSync(process.execPath, [out, "preToolUse"], { input: JSON.stringify(push), encoding: "utf8", env, cwd: project });
  assert.equal(r.status, 0, r.stderr);
  const answer = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.equal(answer.permissionDecision, "deny");
  assert.match(String(answer.permissionDecisionReason), /HEAD/);
  const bad = spawnSync(process.execPath, [out, "preToolUse"], { input: "{not json", encoding: "utf8", env, cwd: project });
  assert.equal(bad.status, 0);

  const lines: string[] = [];
  assert.equal(await copilotDoctorMain(["--project", project], root, env, (s) => lines.push(s)), 1);
  assert.match(lines.join("\n"), /does not run skillgate on preToolUse/);
  fs.cpSync(path.join(ROOT, "skills"), path.join(root, "skills"), { recursive: true });
  // skillgate as the project's dependency: the committed hooks file names no absolute path (doctor checks).
  fs.mkdirSync(path.join(project, "node_modules"));
  fs.symlinkSync(root, path.join(project, "node_modules", "skillgate"));
  assert.equal(await copilotInstallMain("install", ["--project", project, "--with-skills"], root, env, () => undefined), 0);
  lines.length = 0;
  assert.equal(await copilotDoctorMain(["--project", project], root, env, (s) => lines.push(s)), 0, lines.join("\n"));
  assert.match(lines.join("\n"), new RegExp(`skillgate runs on ${COPILOT_EVENTS.length} Copilot CLI hook events`));
});
