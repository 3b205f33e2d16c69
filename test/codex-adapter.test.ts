// Codex CLI's payloads (captured from the real 0.171.0 binary into
// test/fixtures/codex/) → core events; decisions → Codex's output shapes;
// the apply_patch envelope parser; hooks.json and trust edits.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { codex, normalize, render, skillMentions, wholeFileRead } from "../hooks/hosts/codex/adapter.ts";
import { environment } from "../hooks/hosts/codex/env.ts";
import { patchPaths } from "../hooks/core/apply-patch.ts";
import {
  addToHooksJson,
  codexCommand,
  installCodex,
  removeFromHooksJson,
  trustEntries,
  trustHash,
  uninstallCodex,
  withTrust,
} from "../hooks/hosts/codex/install.ts";
import { runHook } from "../hooks/entries/claude-code.ts";
import { copyBuiltHook } from "./built-hook.ts";
import { installVerb } from "../cli/install.ts";

/** `skillgate <verb> --host codex …` in-process (cli/install.ts installVerb), with its own environment and output. */
const codexInstallMain = (verb: "install" | "uninstall", args: string[], root: string, env: NodeJS.ProcessEnv, out: (s: string) => void) =>
  installVerb(verb, ["--host", "codex", ...args], root, { env, out, err: out });
const codexDoctorMain = (args: string[], root: string, env: NodeJS.ProcessEnv, out: (s: string) => void) =>
  installVerb("doctor", ["--host", "codex", ...args], root, { env, out, err: out });

const FIX = path.join(import.meta.dirname, "fixtures", "codex");
const fixture = (name: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(FIX, `${name}.json`), "utf8"));
const ROOT = path.resolve(import.meta.dirname, "..");

const KIND: Record<string, string> = {
  PreToolUse: "tool-call",
  PostToolUse: "tool-result",
  UserPromptSubmit: "prompt",
  SessionStart: "session-start",
  PreCompact: "compaction",
  PostCompact: "compaction",
  Stop: "stop",
};

test("every captured Codex payload normalizes to the core event kind of its hook", () => {
  const names = fs.readdirSync(FIX).filter((f) => f.endsWith(".json"));
  assert.ok(names.length >= 10, `${names.length} fixtures`);
  for (const f of names) {
    const p = fixture(f.replace(/\.json$/, ""));
    const n = normalize(p);
    assert.ok(n.ok, `${f}: ${JSON.stringify(n)}`);
    // A raw capture carries no injection mark (the entry adds it): a `$commit` in it is a prompt like any other.
    const want = KIND[String(p.hook_event_name)];
    assert.equal(n.event.kind, want, f);
    assert.equal(n.event.sessionId, p.session_id, f);
    assert.equal(n.event.cwd, p.cwd, f);
    if ("turn_id" in p) assert.equal(n.event.promptId, p.turn_id, f);
  }
});

test("Bash is a shell call; apply_patch carries the envelope's paths", () => {
  const bash = normalize(fixture("PreToolUse-Bash"));
  assert.ok(bash.ok && bash.event.kind === "tool-call");
  assert.deepEqual(bash.event.tool, { kind: "shell", name: "Bash", command: "cat .agents/skills/commit/SKILL.md" });
  const patch = normalize(fixture("PreToolUse-apply-patch"));
  assert.ok(patch.ok && patch.event.kind === "tool-call");
  assert.deepEqual(patch.event.tool, { kind: "edit", name: "apply_patch", paths: ["docs/a_RU.md", "README.md"] });
  const addOnly = normalize({ ...fixture("PreToolUse-apply-patch"), tool_input: { command: "*** Begin Patch\n*** Add File: x_RU.md\n+a\n*** End Patch" } });
  assert.ok(addOnly.ok && addOnly.event.kind === "tool-call");
  assert.deepEqual(addOnly.event.tool, { kind: "write", name: "apply_patch", paths: ["x_RU.md"] });
  // An MCP tool that writes is a write of its path (test/mcp-adapter.test.ts); one that reads is not.
  const mcp = normalize({ ...fixture("PreToolUse-Bash"), tool_name: "mcp__fs__write", tool_input: { path: "a" } });
  assert.ok(mcp.ok && mcp.event.kind === "tool-call");
  assert.deepEqual(mcp.event.tool, { kind: "write", name: "mcp__fs__write", paths: ["a"] });
  const read = normalize({ ...fixture("PreToolUse-Bash"), tool_name: "mcp__fs__read_file", tool_input: { path: "a" } });
  assert.ok(read.ok && read.event.kind === "tool-call" && read.event.tool.kind === "other");
});

test("patch parser: add, update, delete, move; indented headers; hunk lines are not headers", () => {
  assert.deepEqual(
    patchPaths("*** Begin Patch\n*** Add File: a.md\n+x\n*** Update File: b.md\n*** Move to: c_RU.md\n@@\n-1\n+2\n*** Delete File: d.md\n*** End Patch\n"),
    {
      added: ["a.md"],
      changed: ["b.md", "c_RU.md", "d.md"],
    },
  );
  // CRLF, indentation, paths with spaces, duplicates.
  assert.deepEqual(patchPaths("*** Begin Patch\r\n  *** Update File: my docs/x_EN.md\r\n@@\r\n-a\r\n+b\r\n*** Update File: my docs/x_EN.md\r\n*** End Patch"), {
    added: [],
    changed: ["my docs/x_EN.md"],
  });
  // An added line that looks like a header is content, not a file.
  assert.deepEqual(patchPaths("*** Begin Patch\n*** Add File: a.txt\n+*** Add File: evil_RU.md\n*** End Patch"), { added: ["a.txt"], changed: [] });
  assert.deepEqual(patchPaths("*** Begin Patch\n*** Add File: \n*** End Patch"), { added: [], changed: [] });
  assert.deepEqual(patchPaths("not a patch"), { added: [], changed: [] });
  assert.deepEqual(patchPaths(""), { added: [], changed: [] });
});

test("a whole print of SKILL.md is a read (the skill's load); anything partial or compound is not", () => {
  const post = normalize(fixture("PostToolUse-Bash"));
  assert.ok(post.ok && post.event.kind === "tool-result");
  assert.deepEqual(post.event.tool, { kind: "read", name: "Bash", path: ".agents/skills/commit/SKILL.md", whole: true });
  assert.equal("output" in post.event, false, "Codex cannot replace a shell's output: nothing to cap");
  assert.equal(wholeFileRead("cat -- a/SKILL.md", ""), "a/SKILL.md");
  assert.equal(wholeFileRead("cat 'dir with space/SKILL.md'", ""), "dir with space/SKILL.md");
  assert.equal(wholeFileRead("sed -n '1,200p' a/SKILL.md", "l1\nl2\n"), "a/SKILL.md");
  assert.equal(wholeFileRead("sed -n '1,2p' a/SKILL.md", "l1\nl2\n"), undefined, "the range may have cut the file");
  for (const cmd of [
    "cat a/SKILL.md b/SKILL.md",
    "cat a/SKILL.md | head",
    "cat a/SKILL.md; rm x",
    "head a/SKILL.md",
    "cat $HOME/SKILL.md",
    "cat -n a/SKILL.md",
    "cat",
    "sed -n '5,9p' a/SKILL.md",
    "cat a/SKILL.md > b",
  ]) {
    assert.equal(wholeFileRead(cmd, "x\n"), undefined, cmd);
  }
  const other = normalize({ ...fixture("PostToolUse-Bash"), tool_input: { command: "cat README.md" } });
  assert.ok(other.ok && other.event.kind === "tool-result" && other.event.tool.kind === "shell");
});

test("$skill mentions: names the user wrote, not shell variables inside words", () => {
  assert.deepEqual(skillMentions("$commit now, then commit"), ["commit"]);
  assert.deepEqual(skillMentions("use $paired-docs and $commit."), ["paired-docs", "commit"]);
  assert.deepEqual(skillMentions("cost is US$5 and a$b"), []);
});

test("a $skill mention loads only a skill Codex injects: the entry marks which, the adapter believes nothing else", async () => {
  const { markInjections } = await import("../hooks/hosts/codex/hook.ts");
  const { INJECTS, frontMatterName } = await import("../hooks/hosts/codex/mentions.ts");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-codex-mention-"));
  const env = { HOME: dir, CODEX_HOME: path.join(dir, ".codex"), SKILLGATE_CODEX_CWD: path.join(dir, "repo") };
  const payload = fixture("UserPromptSubmit-skill-mention");
  const mark = (p: Record<string, unknown>) => JSON.parse(markInjections(JSON.stringify(p), env)) as Record<string, unknown>;
  // No such skill anywhere Codex looks: Codex injects nothing, so nothing loads (the prompt stays a prompt).
  assert.deepEqual(mark(payload)[INJECTS], []);
  const plain = normalize(mark(payload));
  assert.ok(plain.ok && plain.event.kind === "prompt" && plain.event.prompt === payload.prompt);
  // A payload that claims the injection itself is not believed: the entry replaces the key.
  assert.deepEqual(mark({ ...payload, [INJECTS]: ["commit"] })[INJECTS], []);
  const unmarked = normalize(payload);
  assert.ok(unmarked.ok && unmarked.event.kind === "prompt", "without the entry's mark a mention loads nothing");
  // The skill in the project's .agents/skills, named by its front matter: injected, so loaded.
  const skill = path.join(dir, "repo", ".agents", "skills", "commit-skill");
  fs.mkdirSync(skill, { recursive: true });
  fs.writeFileSync(path.join(skill, "SKILL.md"), "---\nname: commit\ndescription: x\n---\n# Commit\n");
  const marked = mark(payload);
  assert.deepEqual(marked[INJECTS], ["commit"]);
  const n = normalize(marked);
  assert.ok(n.ok && n.event.kind === "prompt-expansion");
  assert.deepEqual(n.event.loads, ["commit"]);
  // A second skill of the same name makes the mention ambiguous: Codex selects neither.
  const twin = path.join(dir, ".agents", "skills", "commit");
  fs.mkdirSync(twin, { recursive: true });
  fs.writeFileSync(path.join(twin, "SKILL.md"), '---\nname: "commit"\n---\n');
  assert.deepEqual(mark(payload)[INJECTS], []);
  // Other events pass untouched.
  const bash = JSON.stringify(fixture("PreToolUse-Bash"));
  assert.equal(markInjections(bash, env), bash);
  assert.equal(frontMatterName("# no front matter\nname: x"), undefined);
  assert.equal(frontMatterName("---\ndescription: d\n---\nname: x"), undefined);
});

test("Stop and compaction events carry what the core needs", () => {
  const stop = normalize(fixture("Stop"));
  assert.ok(stop.ok && stop.event.kind === "stop");
  assert.equal(stop.event.finalMessage, "ok done");
  assert.equal(stop.event.continuing, false);
  const pre = normalize(fixture("PreCompact"));
  assert.ok(pre.ok && pre.event.kind === "compaction" && pre.event.phase === "before");
  const ss = normalize(fixture("SessionStart-compact"));
  assert.ok(ss.ok && ss.event.kind === "session-start" && ss.event.source === "compact");
  assert.deepEqual(normalize({ hook_event_name: "PermissionRequest", session_id: "s" }), { ok: false, ignored: true });
  assert.deepEqual(normalize({ hook_event_name: "Stop" }), { ok: false, ignored: false, error: "Stop event has no session_id" });
  assert.deepEqual(normalize("junk"), { ok: false, ignored: false, error: "the event has no hook_event_name" });
});

test("render: Codex's deny, stop block and context shapes, only the fields each event accepts", () => {
  const call = normalize(fixture("PreToolUse-Bash"));
  assert.ok(call.ok);
  assert.deepEqual(render(call.event, { verdict: "deny", rows: ["r"], message: "load skill commit" }), {
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "load skill commit" },
  });
  assert.equal(render(call.event, { verdict: "allow", rows: [] }), undefined);
  const stop = normalize(fixture("Stop"));
  assert.ok(stop.ok);
  assert.deepEqual(render(stop.event, { verdict: "block", rows: ["r"], message: "verify first" }), { decision: "block", reason: "verify first" });
  const prompt = normalize(fixture("UserPromptSubmit"));
  assert.ok(prompt.ok);
  assert.deepEqual(render(prompt.event, { verdict: "hint", rows: ["h"], message: "load x", notice: "n" }), {
    hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "load x" },
    systemMessage: "n",
  });
  const compact = normalize(fixture("PostCompact"));
  assert.ok(compact.ok);
  // No hookSpecificOutput for compaction events: Codex's schema for them has none.
  assert.deepEqual(render(compact.event, { verdict: "hint", rows: ["h"], message: "m" }), { systemMessage: "m" });
  assert.deepEqual(codex.renderFailure("bad", true), {
    systemMessage: "bad",
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "bad" },
  });
  assert.ok(codex.looksLikeToolCall(JSON.stringify(fixture("PreToolUse-apply-patch"))));
  assert.equal(codex.looksLikeToolCall(JSON.stringify(fixture("Stop"))), false);
});

test("environment: Codex's skill folders and the files that register the hook", () => {
  const e = environment({ HOME: "/h", CODEX_HOME: "/c", SKILLGATE_CODEX_CWD: "/p/sub" });
  for (const r of ["/c/skills", "/h/.agents/skills", "/p/sub/.agents/skills", "/p/.agents/skills"]) assert.ok(e.skillRoots.includes(r), r);
  for (const f of ["/c/hooks.json", "/c/config.toml", "/p/.codex/hooks.json", "/p/sub/.codex/config.toml"]) assert.ok(e.settingsFiles.includes(f), f);
  assert.equal(e.projectTable, "/p/sub/.codex/triggers.json");
  assert.ok(environment({ HOME: "/h" }).skillRoots.includes("/h/.codex/skills"));
});

/** One hook run through the whole runner with the Codex host, on a captured payload. */
async function hook(payload: Record<string, unknown>, env: Record<string, string>) {
  const r = await runHook(JSON.stringify(payload), { env, packageRoot: ROOT, host: codex });
  return { out: r.stdout ? (JSON.parse(r.stdout) as Record<string, unknown>) : undefined, r };
}

test("through the runner: commit refused with Codex's route to load; a whole SKILL.md print lifts the gate", async () => {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "sg-codex-"));
  const env = { SKILLGATE_STATE: state, HOME: state, CODEX_HOME: path.join(state, ".codex"), SKILLGATE_CODEX_CWD: "/tmp/cx/repo" };
  const commit = { ...fixture("PreToolUse-Bash"), tool_input: { command: "git commit -m x" } };
  const first = await hook(commit, env);
  const hso = first.out?.hookSpecificOutput as Record<string, string> | undefined;
  assert.equal(hso?.permissionDecision, "deny");
  assert.match(hso?.permissionDecisionReason ?? "", /read \S+skills\/commit\/SKILL\.md in full/);
  assert.doesNotMatch(hso?.permissionDecisionReason ?? "", /Skill tool/);
  // The model prints the file the refusal named.
  const file = path.join(ROOT, "skills", "commit", "SKILL.md");
  await hook({ ...fixture("PostToolUse-Bash"), tool_input: { command: `cat ${file}` }, tool_response: fs.readFileSync(file, "utf8") }, env);
  assert.equal((await hook(commit, env)).out, undefined, "allowed after the load");
  // A compaction empties the context, and the gate comes back.
  await hook(fixture("PreCompact"), env);
  assert.equal(((await hook(commit, env)).out?.hookSpecificOutput as Record<string, string>).permissionDecision, "deny");
});

test("through the runner: apply_patch to a paired doc is refused", async () => {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "sg-codex-"));
  const { out } = await hook(fixture("PreToolUse-apply-patch"), { SKILLGATE_STATE: state, HOME: state, SKILLGATE_CODEX_CWD: "/tmp/cx/repo" });
  const hso = out?.hookSpecificOutput as Record<string, string>;
  assert.equal(hso.permissionDecision, "deny");
  assert.match(hso.permissionDecisionReason ?? "", /paired-docs/);
});

test("install: hooks.json gains one group per event, idempotently; uninstall leaves others' hooks", () => {
  const cmd = codexCommand("/usr/bin/node", "/opt/sg/dist/hook-codex.cjs");
  assert.equal(cmd, "/usr/bin/node /opt/sg/dist/hook-codex.cjs");
  assert.equal(codexCommand("node", "/a b/it's.mjs"), `node '/a b/it'\\''s.mjs'`);
  const theirs = { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "their-guard" }] }] } };
  const once = addToHooksJson(theirs, cmd, "/opt/sg/dist/hook-codex.cjs");
  assert.deepEqual(addToHooksJson(once, cmd, "/opt/sg/dist/hook-codex.cjs"), once);
  const pre = (once.hooks as Record<string, unknown[]>).PreToolUse;
  assert.equal(pre?.length, 2);
  assert.deepEqual(removeFromHooksJson(once, "/opt/sg/dist/hook-codex.cjs"), theirs);
});

test("trust: hashes follow the definition; config.toml keeps everything but our [hooks.state] tables", () => {
  const h = { type: "command", command: "node /x.mjs", timeout: 10 };
  assert.match(trustHash("PreToolUse", "^Bash$", h), /^sha256:[0-9a-f]{64}$/);
  assert.notEqual(trustHash("PreToolUse", "^Bash$", h), trustHash("PreToolUse", "^Bash$", { ...h, command: "node /y.mjs" }));
  assert.notEqual(trustHash("PreToolUse", "^Bash$", h), trustHash("PostToolUse", "^Bash$", h));
  // Codex drops the matcher of Stop and UserPromptSubmit before hashing.
  assert.equal(trustHash("Stop", "x", h), trustHash("Stop", undefined, h));
  const file = addToHooksJson({}, "node /x.mjs", "/x.mjs");
  const entries = trustEntries("/p/.codex/hooks.json", file, "/x.mjs");
  assert.equal(entries.length, 7);
  assert.ok(entries.some((e) => e.key === "/p/.codex/hooks.json:pre_tool_use:0:0"));
  const before = 'model = "o3"\n\n[hooks.state."/other/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:1"\n\n[projects."/p"]\ntrust_level = "trusted"\n';
  const after = withTrust(before, "/p/.codex/hooks.json", entries);
  assert.equal(withTrust(after, "/p/.codex/hooks.json", entries), after, "idempotent");
  assert.equal(withTrust(after, "/p/.codex/hooks.json", []), before, "removal restores the file");
  assert.match(after, /\[hooks\.state\."\/p\/\.codex\/hooks\.json:pre_tool_use:0:0"\]\nenabled = true\ntrusted_hash = "sha256:/);
});

test("install/uninstall on disk: project hooks.json and user config.toml", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-codex-inst-"));
  const env = { CODEX_HOME: path.join(dir, "home") };
  const project = path.join(dir, "proj");
  const written = installCodex({ project, runtime: "node", hookPath: "/x/hook-codex.cjs", trust: true, env });
  assert.deepEqual(written, [path.join(project, ".codex", "hooks.json"), path.join(dir, "home", "config.toml")]);
  assert.match(fs.readFileSync(path.join(dir, "home", "config.toml"), "utf8"), /trusted_hash/);
  uninstallCodex({ project, hookPath: "/x/hook-codex.cjs", env });
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(project, ".codex", "hooks.json"), "utf8")), { hooks: {} });
  assert.equal(fs.readFileSync(path.join(dir, "home", "config.toml"), "utf8"), "");
});

test("codexInstallMain: flags, errors, the trust advice; the table's skills go to .agents/skills with --with-skills, else nothing is written", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-codex-main-"));
  const lines: string[] = [];
  const env = { CODEX_HOME: path.join(dir, "home"), HOME: dir, SKILLGATE_TABLE: path.join(ROOT, "triggers.json") };
  // The shipped table names skills Codex does not have: refused, nothing written, the flag named.
  assert.equal(await codexInstallMain("install", ["--project", dir], "/opt/sg", env, (s) => lines.push(s)), 3);
  assert.match(lines.join("\n"), /names skills Codex cannot load: .*commit.*--with-skills.*\.agents\/skills/s);
  assert.ok(!fs.existsSync(path.join(dir, ".codex", "hooks.json")), "nothing written");
  lines.length = 0;
  assert.equal(await codexInstallMain("install", ["--project", dir, "--with-skills"], "/opt/sg", env, (s) => lines.push(s)), 0, lines.join("\n"));
  assert.equal(
    fs.readFileSync(path.join(dir, ".agents", "skills", "commit", "SKILL.md"), "utf8"),
    fs.readFileSync(path.join(ROOT, "skills", "commit", "SKILL.md"), "utf8"),
  );
  assert.ok(
    lines.some((l) => /copied skills into .*\.agents\/skills: .*commit/.test(l)),
    lines.join("\n"),
  );
  assert.ok(
    lines.some((l) => l.includes("/hooks")),
    lines.join("\n"),
  );
  const hooks = JSON.parse(fs.readFileSync(path.join(dir, ".codex", "hooks.json"), "utf8")) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  assert.match(hooks.hooks.PreToolUse?.[0]?.hooks[0]?.command ?? "", /\/opt\/sg\/dist\/hook-codex\.cjs$/);
  // Now loadable: a plain install passes and copies nothing.
  lines.length = 0;
  assert.equal(await codexInstallMain("install", ["--project", dir], "/opt/sg", env, (s) => lines.push(s)), 0);
  assert.ok(!lines.some((l) => l.includes("copied")), lines.join("\n"));
  assert.equal(await codexInstallMain("install", ["--project", dir, "--user"], "/opt/sg", env, () => {}), 2);
  assert.equal(await codexInstallMain("install", ["--bogus"], "/opt/sg", env, () => {}), 2);
  assert.equal(await codexInstallMain("uninstall", ["--project", dir, "--with-skills"], "/opt/sg", env, () => {}), 2, "--with-skills is an install flag");
  assert.equal(await codexInstallMain("uninstall", ["--project", dir], "/opt/sg", env, () => {}), 0);
  // Nothing else changed it since install created it: uninstall puts back no file, as Claude Code's does.
  assert.equal(fs.existsSync(path.join(dir, ".codex", "hooks.json")), false);
});

test("codexDoctorMain: reports missing trust and an untrusted project; passes once both are there", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sg-codex-doc-root-"));
  // A stand-in package root whose dist/hook-codex.cjs is the real built hook.
  copyBuiltHook(root, "codex");
  fs.cpSync(path.join(ROOT, "triggers.json"), path.join(root, "triggers.json"));
  fs.cpSync(path.join(ROOT, "package.json"), path.join(root, "package.json"));
  fs.cpSync(path.join(ROOT, "skills"), path.join(root, "skills"), { recursive: true });
  const proj = fs.mkdtempSync(path.join(os.tmpdir(), "sg-codex-doc-proj-"));
  const env = { CODEX_HOME: path.join(proj, "home"), HOME: proj, PATH: process.env.PATH ?? "" };
  const lines: string[] = [];
  assert.equal(await codexInstallMain("install", ["--project", proj, "--with-skills"], root, env, () => {}), 0);
  assert.equal(await codexDoctorMain(["--project", proj], root, env, (s) => lines.push(s)), 1);
  assert.ok(
    lines.some((l) => l.includes("not trusted")),
    lines.join("\n"),
  );
  assert.ok(
    lines.some((l) => l.includes("is not marked trusted")),
    lines.join("\n"),
  );
  // skillgate is not the project's dependency: the committed hooks.json names this machine's paths.
  assert.ok(
    lines.some((l) => l.includes("name absolute paths") && l.includes(path.join(root, "dist", "hook-codex.cjs"))),
    lines.join("\n"),
  );
  // Once it is, the install writes the portable command.
  fs.mkdirSync(path.join(proj, "node_modules"));
  fs.symlinkSync(root, path.join(proj, "node_modules", "skillgate"));
  fs.mkdirSync(path.join(proj, "home"), { recursive: true });
  fs.appendFileSync(path.join(proj, "home", "config.toml"), `\n[projects.${JSON.stringify(proj)}]\ntrust_level = "trusted"\n`);
  assert.equal(await codexInstallMain("install", ["--project", proj, "--trust"], root, env, () => {}), 0);
  lines.length = 0;
  assert.equal(await codexDoctorMain(["--project", proj], root, env, (s) => lines.push(s)), 0, lines.join("\n"));
  assert.match(lines.join("\n"), /7 Codex hook events/);
});
