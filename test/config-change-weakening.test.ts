// A settings change that weakens skillgate's registration, per event, is
// refused at ConfigChange: real 2.1.328 payload shapes (cases/fixtures/)
// through the hook's own entry point, in a project whose settings hold what
// `skillgate install` writes. Unrelated edits and strengthenings pass.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runHook } from "../hooks/entries/claude-code.ts";
import { installIntoText, portableHandler } from "../hooks/hosts/claude-code/install.ts";
import { casesDir, root } from "./helpers.ts";

type Json = Record<string, any>;

interface World {
  project: string;
  settings: string;
  local: string;
  user: string;
  env: NodeJS.ProcessEnv;
  session: string;
}

/** A project with skillgate installed by install's own code into .claude/settings.json, and a session started. */
async function installed(): Promise<World> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "sg-weaken-"));
  const home = path.join(base, "home");
  const project = path.join(base, "project");
  const state = path.join(base, "state");
  for (const d of [home, project, state]) fs.mkdirSync(d, { recursive: true });
  fs.mkdirSync(path.join(project, ".claude", "skills", "commit"), { recursive: true });
  fs.copyFileSync(path.join(root, "skills", "commit", "SKILL.md"), path.join(project, ".claude", "skills", "commit", "SKILL.md"));
  const settings = path.join(project, ".claude", "settings.json");
  fs.writeFileSync(settings, installIntoText(undefined, portableHandler()));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_PROJECT_DIR: project,
    SKILLGATE_STATE: state,
    SKILLGATE_OUTPUT_DIR: path.join(state, "out"),
  };
  const w = {
    project,
    settings,
    local: path.join(project, ".claude", "settings.local.json"),
    user: path.join(home, ".claude", "settings.json"),
    env,
    session: `weaken-${path.basename(base)}`,
  };
  await send(w, "session-start-startup", {});
  return w;
}

const fixture = (name: string): Json => JSON.parse(fs.readFileSync(path.join(casesDir, "fixtures", `${name}.json`), "utf8"));

async function send(w: World, name: string, over: Json): Promise<{ verdict: string; out: Json }> {
  const r = await runHook(JSON.stringify({ ...fixture(name), session_id: w.session, cwd: w.project, ...over }), { env: w.env, packageRoot: root });
  return { verdict: r.trace?.verdict ?? "none", out: r.stdout ? (JSON.parse(r.stdout) as Json) : {} };
}

/** The ConfigChange Claude Code sends after a settings file changed (no file_path when `file` is null). */
function configChange(w: World, file: string | null, source = "project_settings") {
  return send(w, "session-start-startup", { hook_event_name: "ConfigChange", source, ...(file === null ? {} : { file_path: file }) });
}

function edit(file: string, change: (s: Json) => void): void {
  const s: Json = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
  change(s);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(s, null, 2));
}

const preToolUse = (s: Json): Json => s.hooks.PreToolUse[0];

async function refused(w: World, file: string | null, what: RegExp): Promise<void> {
  const r = await configChange(w, file);
  assert.equal(r.verdict, "block", JSON.stringify(r.out));
  assert.equal(r.out.decision, "block");
  assert.match(String(r.out.reason), what);
}

describe("ConfigChange refuses a weakening of the installed registration", () => {
  test("removing only the PreToolUse entry", async () => {
    const w = await installed();
    edit(w.settings, (s) => delete s.hooks.PreToolUse);
    await refused(w, w.settings, /PreToolUse: skillgate's hook is removed/);
  });

  test("narrowing the PreToolUse matcher to a tool that does not exist", async () => {
    const w = await installed();
    edit(w.settings, (s) => (preToolUse(s).matcher = "NoSuchTool"));
    await refused(w, w.settings, /PreToolUse: the matcher no longer covers Bash/);
  });

  test("narrowing the matcher by dropping one tool (Bash only: Write is no longer seen)", async () => {
    const w = await installed();
    edit(w.settings, (s) => (preToolUse(s).matcher = "Bash"));
    await refused(w, w.settings, /PreToolUse: the matcher no longer covers Write/);
  });

  test("lowering the PreToolUse timeout to 0.001 s", async () => {
    const w = await installed();
    edit(w.settings, (s) => (preToolUse(s).hooks[0].timeout = 0.001));
    await refused(w, w.settings, /PreToolUse: timeout lowered to 0\.001 s/);
  });

  test('"async": true on the PreToolUse hook', async () => {
    const w = await installed();
    edit(w.settings, (s) => (preToolUse(s).hooks[0].async = true));
    await refused(w, w.settings, /PreToolUse: async/);
  });

  test('an "if" condition or "once" on the PreToolUse hook', async () => {
    const w = await installed();
    edit(w.settings, (s) => (preToolUse(s).hooks[0].if = "Bash(nothing *)"));
    await refused(w, w.settings, /PreToolUse: an "if" condition/);
    const v = await installed();
    edit(v.settings, (s) => (preToolUse(s).hooks[0].once = true));
    await refused(v, v.settings, /PreToolUse: once/);
  });

  test("removing every hook, when the event carries no file_path: every settings file is read again", async () => {
    const w = await installed();
    edit(w.settings, (s) => (s.hooks = {}));
    await refused(w, null, /PreToolUse: skillgate's hook is removed/);
  });

  test("replacing the handler by one that only names skillgate (it runs nothing of ours)", async () => {
    const w = await installed();
    edit(w.settings, (s) => (preToolUse(s).hooks[0] = { type: "command", command: "echo", args: ["skillgate"] }));
    await refused(w, w.settings, /PreToolUse: skillgate's hook is removed/);
  });

  test("a second, async copy of the handler in settings.local.json (the client runs one copy of identical handlers)", async () => {
    const w = await installed();
    const copy = JSON.parse(fs.readFileSync(w.settings, "utf8")).hooks.PreToolUse[0];
    edit(w.local, (s) => (s.hooks = { PreToolUse: [{ ...copy, hooks: [{ ...copy.hooks[0], async: true }] }] }));
    await refused(w, w.local, /settings\.local\.json: PreToolUse: async/);
  });

  test("a refused change left on disk does not become the baseline at a compaction: the next change to the file is refused too", async () => {
    const w = await installed();
    edit(w.settings, (s) => (preToolUse(s).matcher = "NoSuchTool"));
    await refused(w, w.settings, /PreToolUse: the matcher no longer covers Bash/);
    await send(w, "session-start-startup", { source: "compact" });
    edit(w.settings, (s) => (s.env = { EDITOR: "vim" }));
    await refused(w, w.settings, /PreToolUse: the matcher no longer covers Bash/);
  });

  test("disableAllHooks in the user's settings, a layer that switches the project's hooks off", async () => {
    const w = await installed();
    edit(w.user, (s) => (s.disableAllHooks = true));
    await refused(w, w.user, /disableAllHooks/);
  });
});

describe("ConfigChange keeps allowing what does not weaken skillgate", () => {
  test("an unrelated edit of the same file, with or without file_path", async () => {
    const w = await installed();
    edit(w.settings, (s) => {
      s.env = { EDITOR: "vim" };
      s.permissions = { allow: ["Bash(npm test)"] };
    });
    assert.equal((await configChange(w, w.settings)).verdict, "allow");
    assert.equal((await configChange(w, null)).verdict, "allow");
  });

  test("a strengthening: every tool to PreToolUse, a longer timeout", async () => {
    const w = await installed();
    edit(w.settings, (s) => {
      preToolUse(s).matcher = "*";
      preToolUse(s).hooks[0].timeout = 30;
    });
    assert.equal((await configChange(w, w.settings)).verdict, "allow");
  });

  test("another hook added beside skillgate's, in another file", async () => {
    const w = await installed();
    edit(w.local, (s) => (s.hooks = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo", args: ["hi"] }] }] }));
    assert.equal((await configChange(w, w.local, "local_settings")).verdict, "allow");
  });
});
