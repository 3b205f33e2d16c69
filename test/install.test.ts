// install / uninstall / doctor / init, the launcher, the state folder and the
// table resolution, on temp projects. Needs dist/hook.mjs (npm test builds first).
// Run: node --import tsx --test test/install.test.ts
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import {
  BACKUPS_KEPT,
  HOOK_EVENTS,
  addSkillgate,
  doctorMain,
  hookPathOf,
  installMain,
  isSkillgateHandler,
  lineDiff,
  makeHandler,
  pickRuntime,
  portableHandler,
  removeSkillgate,
  uninstallMain,
} from "../cli/install.ts";
import { initMain } from "../cli/init.ts";
import { installVerb } from "../cli/install.ts";
import { hookProblem } from "../hooks/io/hook-install.ts";
import { failsClosed, installIntoText, uninstallFromText } from "../hooks/hosts/claude-code/install.ts";
import { parseJsonText } from "../hooks/hosts/claude-code/settings-text.ts";
import { migrateOldState, stateDirOf, stateDirPath } from "../hooks/io/state-dir.ts";
import { resolveTable } from "../hooks/io/table-load.ts";
import { environment as claudeEnvironment, projectTables } from "../hooks/hosts/claude-code/env.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const HOOK = hookPathOf(ROOT);
const handler = makeHandler("/usr/bin/node", HOOK);
const LAUNCHER_ARG = "${CLAUDE_PROJECT_DIR}/.claude/hooks/skillgate.mjs";

const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), `skillgate-install-${p}-`));

/** process.env[name] = value (undefined: unset) for this test only. */
function setEnv(t: TestContext, name: string, value: string | undefined): void {
  const old = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  t.after(() => (old === undefined ? delete process.env[name] : (process.env[name] = old)));
}

/** A private HOME and state folder for the test: nothing touches the real ones. */
function isolate(t: TestContext): { home: string; state: string } {
  const home = tmp("home");
  setEnv(t, "HOME", home);
  setEnv(t, "XDG_STATE_HOME", undefined);
  setEnv(t, "SKILLGATE_TABLE", undefined);
  setEnv(t, "CLAUDE_PROJECT_DIR", undefined);
  const state = path.join(home, "state");
  setEnv(t, "SKILLGATE_STATE", state);
  return { home, state };
}

interface Proj {
  dir: string;
  file: string;
  read: () => unknown;
  text: () => string | undefined;
}

/**
 * A project dir with .claude/settings.json holding `settings` (a string is
 * written as is). `dependency`: node_modules/skillgate links to this checkout,
 * as after `npm install --save-dev skillgate`.
 */
function project(settings?: unknown, o: { dependency?: boolean; skills?: string[]; table?: "starter" } = {}): Proj {
  const dir = tmp("proj");
  const file = path.join(dir, ".claude", "settings.json");
  if (settings !== undefined) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof settings === "string" ? settings : JSON.stringify(settings, null, 2));
  }
  if (o.dependency) {
    fs.mkdirSync(path.join(dir, "node_modules"));
    fs.symlinkSync(ROOT, path.join(dir, "node_modules", "skillgate"));
  }
  if (o.table)
    fs.mkdirSync(path.join(dir, ".claude"), { recursive: true }),
      fs.copyFileSync(path.join(ROOT, "templates", "starter", "triggers.json"), path.join(dir, ".claude", "triggers.json"));
  for (const s of o.skills ?? []) fs.cpSync(path.join(ROOT, "skills", s), path.join(dir, ".claude", "skills", s), { recursive: true });
  return {
    dir,
    file,
    read: () => JSON.parse(fs.readFileSync(file, "utf8")),
    text: () => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined),
  };
}
const STARTER_SKILLS = ["commit", "paired-docs", "done-check", "logs", "handoff"];
/** A project ready for install: skillgate as a dependency, the starter table and its skills. */
const ready = (settings?: unknown) => project(settings, { dependency: true, table: "starter", skills: STARTER_SKILLS });

/** Runs a verb with console output captured. */
async function run(t: TestContext, fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  t.mock.method(console, "log", (...a: unknown[]) => lines.push(a.join(" ")));
  t.mock.method(console, "error", (...a: unknown[]) => lines.push(a.join(" ")));
  try {
    const code = await fn();
    return { code, out: lines.join("\n") };
  } finally {
    t.mock.restoreAll();
  }
}

const backupsIn = (state: string) =>
  fs.existsSync(path.join(state, "backups")) ? fs.readdirSync(path.join(state, "backups")).flatMap((d) => fs.readdirSync(path.join(state, "backups", d))) : [];

const USER_SETTINGS = {
  model: "opus",
  permissions: { allow: ["Bash(ls:*)"] },
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo theirs" }] }],
    Stop: [{ hooks: [{ type: "command", command: "/usr/bin/true" }] }],
    Notification: [{ hooks: [{ type: "command", command: "notify-send hi" }] }],
  },
};

// ---------------------------------------------------------------- the meaning of an install

test("addSkillgate: one handler per event with our matcher, other hooks and settings kept", () => {
  const s = addSkillgate(structuredClone(USER_SETTINGS), handler) as typeof USER_SETTINGS & { hooks: Record<string, { matcher?: string; hooks: unknown[] }[]> };
  assert.equal(s.model, "opus");
  assert.deepEqual(s.permissions, USER_SETTINGS.permissions);
  assert.deepEqual(s.hooks.Notification, USER_SETTINGS.hooks.Notification);
  for (const [event, matcher] of Object.entries(HOOK_EVENTS)) {
    const ours = s.hooks[event]?.filter((g) => g.hooks.some((h) => isSkillgateHandler(h, HOOK))) ?? [];
    assert.equal(ours.length, 1, event);
    assert.equal(ours[0]?.matcher, matcher, event);
    // The gate's events fail closed: a crash or timeout of the hook refuses the call instead of letting it through.
    assert.deepEqual(ours[0]?.hooks, [failsClosed(event) ? { ...handler, onFailure: "block" } : handler], event);
  }
  assert.deepEqual(s.hooks.PreToolUse?.[0], USER_SETTINGS.hooks.PreToolUse[0]);
});

test("addSkillgate is idempotent and replaces a stale handler, an old checkout's, or a launcher in place", () => {
  const once = addSkillgate(USER_SETTINGS, handler);
  assert.deepEqual(addSkillgate(once, handler), once);
  const re = addSkillgate(once, makeHandler("/opt/bun", HOOK)) as { hooks: Record<string, unknown[]> };
  assert.equal(JSON.stringify(re).includes("/usr/bin/node"), false);
  assert.equal(re.hooks.SessionStart?.length, 1);
  const old = addSkillgate({}, makeHandler("/usr/bin/node", "/old/place/skillgate/dist/hook.mjs"));
  assert.deepEqual(addSkillgate(old, handler), addSkillgate({}, handler));
  // Switching between the portable and the absolute form never leaves both.
  assert.deepEqual(addSkillgate(addSkillgate({}, portableHandler()), handler, HOOK), addSkillgate({}, handler));
});

test("removeSkillgate removes exactly what add put in; someone else's dist/hook.mjs is not ours", () => {
  assert.deepEqual(removeSkillgate(addSkillgate(USER_SETTINGS, handler), HOOK), USER_SETTINGS);
  assert.deepEqual(removeSkillgate(addSkillgate({ a: 1 }, portableHandler()), HOOK), { a: 1 });
  const foreign = { hooks: { Stop: [{ hooks: [{ type: "command", command: "node", args: ["/x/other-tool/dist/hook.mjs"] }] }] } };
  assert.deepEqual(removeSkillgate(foreign, HOOK), foreign);
  const mixed = { hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }, handler] }] } };
  assert.deepEqual(removeSkillgate(mixed, HOOK), { hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } });
});

// ---------------------------------------------------------------- minimal textual edits

/** Settings files as people write them. */
const TEXTS: Record<string, string> = {
  "empty object": "{}\n",
  "two spaces": JSON.stringify(USER_SETTINGS, null, 2) + "\n",
  "four spaces, no final newline": JSON.stringify(USER_SETTINGS, null, 4),
  tabs: JSON.stringify({ model: "opus" }, null, "\t") + "\n",
  "one line": JSON.stringify(USER_SETTINGS),
  "hand formatted":
    '{\n    "model": "opus",\n    "permissions": { "allow": ["Bash(ls:*)"] },\n    "hooks": {\n        "Stop": [ { "hooks": [ { "type": "command", "command": "true" } ] } ]\n    }\n}\n',
  "empty hooks": '{\n  "hooks": {},\n  "env": { "A": "1" }\n}\n',
  "empty event list": '{\n  "hooks": {\n    "Stop": []\n  }\n}\n',
  crlf: '{\r\n  "model": "opus",\r\n  "hooks": {\r\n    "Stop": [\r\n      { "hooks": [ { "type": "command", "command": "true" } ] }\r\n    ]\r\n  }\r\n}\r\n',
  "unicode and escapes": '{ "statusLine": "\\u00e9t\\u00e9 \\"q\\"", "model": "опус" }\n',
};

test("install → uninstall gives back the exact bytes, for every way a settings file is written", () => {
  for (const h of [handler, portableHandler()]) {
    for (const [name, text] of Object.entries(TEXTS)) {
      const installed = installIntoText(text, h, HOOK);
      assert.deepEqual(JSON.parse(installed), addSkillgate(JSON.parse(text), h, HOOK), `${name}: same meaning as addSkillgate`);
      assert.equal(installIntoText(installed, h, HOOK), installed, `${name}: a second install changes nothing`);
      // An empty `"hooks": {}` or `"Stop": []` before install cannot be told from none by the text alone (the install record covers it on disk).
      if (name.startsWith("empty ") && name !== "empty object")
        assert.deepEqual(JSON.parse(uninstallFromText(installed, HOOK)), removeSkillgate(JSON.parse(installed), HOOK));
      else assert.equal(uninstallFromText(installed, HOOK), text, `${name}: uninstall restores the bytes`);
      if (text.includes("\r\n")) assert.equal(installed.replace(/\r\n/g, "").includes("\n"), false, `${name}: CRLF stays CRLF, no mixed line endings`);
    }
  }
});

test("text edits keep the user's lines untouched, and only ours go when they added hooks after ours", () => {
  const text = TEXTS["hand formatted"] ?? "";
  const installed = installIntoText(text, handler, HOOK);
  for (const line of text.split("\n").filter((l) => !l.includes("Stop") && l.trim() !== "}")) assert.ok(installed.includes(line), `kept: ${line}`);
  // The user adds their own hook after ours; uninstall removes ours only.
  const s = JSON.parse(installed) as { hooks: Record<string, unknown[]> };
  s.hooks.PreToolUse?.push({ matcher: "Write", hooks: [{ type: "command", command: "mine" }] });
  const edited = JSON.stringify(s, null, 4);
  const un = JSON.parse(uninstallFromText(edited, HOOK)) as { hooks: Record<string, unknown[]> };
  assert.deepEqual(un.hooks.PreToolUse, [{ matcher: "Write", hooks: [{ type: "command", command: "mine" }] }]);
  assert.deepEqual(un, removeSkillgate(s, HOOK));
});

test("the position-keeping parser refuses what JSON.parse refuses", () => {
  for (const bad of ['{ "a": 1, }', "{ nope", '{"a": 1} x', "[1,]"]) assert.throws(() => parseJsonText(bad), bad);
  assert.equal(parseJsonText('{"a": [1, {"b": "}"}]}').kind, "object");
});

test("the plugin's hooks/hooks.json registers the same events through the launcher", () => {
  const plugin = JSON.parse(fs.readFileSync(path.join(ROOT, "hooks", "hooks.json"), "utf8")) as {
    hooks: Record<string, { matcher?: string; hooks: { command: string; args: string[] }[] }[]>;
  };
  assert.deepEqual(Object.keys(plugin.hooks).sort(), Object.keys(HOOK_EVENTS).sort());
  for (const [event, groups] of Object.entries(plugin.hooks)) {
    assert.equal(groups.length, 1);
    assert.equal(groups[0]?.matcher, HOOK_EVENTS[event], event);
    assert.deepEqual(groups[0]?.hooks[0]?.args, ["${CLAUDE_PLUGIN_ROOT}/hooks/launcher.mjs"]);
    assert.equal((groups[0]?.hooks[0] as { onFailure?: string } | undefined)?.onFailure, failsClosed(event) ? "block" : undefined, event);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, ".claude-plugin", "plugin.json"), "utf8")) as { name: string; version: string };
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
  assert.equal(manifest.name, "skillgate");
  assert.equal(manifest.version, pkg.version);
});

// ---------------------------------------------------------------- install / uninstall on disk

test("project install: portable handler, launcher committed beside it, no absolute path; uninstall leaves no file where none was", async (t) => {
  const { state } = isolate(t);
  const p = ready();
  const r = await run(t, () => installMain(["--project", p.dir], ROOT));
  assert.equal(r.code, 0, r.out);
  const text = p.text() ?? "";
  assert.deepEqual(JSON.parse(text), addSkillgate({}, portableHandler()));
  assert.equal(/"\/|[A-Za-z]:\\\\/.test(text), false, `no absolute path in ${text}`);
  assert.ok(text.includes(LAUNCHER_ARG));
  const launcher = path.join(p.dir, ".claude", "hooks", "skillgate.mjs");
  assert.equal(fs.readFileSync(launcher, "utf8"), fs.readFileSync(path.join(ROOT, "hooks", "launcher.mjs"), "utf8"));
  assert.deepEqual(
    fs.readdirSync(path.join(p.dir, ".claude")).filter((f) => f.includes("backup")),
    [],
    "no backups beside the settings",
  );

  const again = await run(t, () => installMain(["--project", p.dir], ROOT));
  assert.match(again.out, /already installed; nothing to change/);
  assert.equal(p.text(), text);

  const un = await run(t, () => uninstallMain(["--project", p.dir], ROOT));
  assert.equal(un.code, 0, un.out);
  assert.equal(fs.existsSync(p.file), false, "install created it, uninstall removes it");
  assert.equal(fs.existsSync(path.join(p.dir, ".claude", "hooks")), false, "launcher and its folder gone");
  assert.ok(fs.existsSync(path.join(p.dir, ".claude", "triggers.json")), "the user's table stays");
  assert.ok(backupsIn(state).length <= BACKUPS_KEPT);
});

test("uninstall restores an existing file byte for byte; backups live in the state folder, the last 3 kept", async (t) => {
  const { state } = isolate(t);
  const original = TEXTS["hand formatted"] ?? "";
  const p = ready(original);
  for (let i = 0; i < 3; i++) {
    assert.equal((await run(t, () => installMain(["--project", p.dir], ROOT))).code, 0);
    assert.notEqual(p.text(), original);
    assert.equal((await run(t, () => uninstallMain(["--project", p.dir], ROOT))).code, 0);
    assert.equal(p.text(), original, `cycle ${i + 1}: byte-identical`);
  }
  assert.equal(backupsIn(state).length, BACKUPS_KEPT, "six edits, three backups");
  assert.deepEqual(fs.readdirSync(path.join(p.dir, ".claude")).sort(), ["settings.json", "skills", "triggers.json"]);
  // The case text alone cannot restore ("hooks": {} before install) comes back exactly through the install record.
  for (const name of ["empty hooks", "empty event list"]) {
    const empty = ready(TEXTS[name]);
    await run(t, () => installMain(["--project", empty.dir], ROOT));
    await run(t, () => uninstallMain(["--project", empty.dir], ROOT));
    assert.equal(empty.text(), TEXTS[name], name);
  }
  // Without the install record (a teammate's uninstall) the textual edit still restores the bytes.
  await run(t, () => installMain(["--project", p.dir], ROOT));
  fs.rmSync(path.join(state, "installs"), { recursive: true });
  await run(t, () => uninstallMain(["--project", p.dir], ROOT));
  assert.equal(p.text(), original);
});

test("--local writes settings.local.json; the launcher stays while settings.json still runs it", async (t) => {
  isolate(t);
  const p = ready();
  const local = path.join(p.dir, ".claude", "settings.local.json");
  assert.equal((await run(t, () => installMain(["--project", p.dir, "--local"], ROOT))).code, 0);
  assert.ok(fs.existsSync(local));
  assert.equal(fs.existsSync(p.file), false, "settings.json untouched");
  const doc = await run(t, () => doctorMain(["--project", p.dir, "--local"], ROOT));
  assert.equal(doc.code, 0, doc.out);
  const second = await run(t, () => installMain(["--project", p.dir], ROOT));
  assert.equal(second.code, 0, second.out);
  // Said at install time, not only by a later doctor: every event would run skillgate twice.
  assert.match(
    second.out,
    /warning: skillgate is also installed in .*settings\.local\.json: every event now runs it twice; remove one \(skillgate uninstall --project \S+ --local\)/,
  );
  const twice = await run(t, () => doctorMain(["--project", p.dir], ROOT));
  assert.match(twice.out, /installed in both .*settings\.json and .*settings\.local\.json/);
  assert.equal((await run(t, () => uninstallMain(["--project", p.dir, "--local"], ROOT))).code, 0);
  assert.equal(fs.existsSync(local), false);
  assert.ok(fs.existsSync(path.join(p.dir, ".claude", "hooks", "skillgate.mjs")), "settings.json still needs the launcher");
});

test("install refuses a table whose skills the client cannot load; --with-skills copies them; doctor names each", async (t) => {
  isolate(t);
  const p = project(undefined, { dependency: true, table: "starter" });
  const r = await run(t, () => installMain(["--project", p.dir], ROOT));
  assert.equal(r.code, 3);
  assert.match(r.out, /names skills Claude Code cannot load: commit, paired-docs, done-check, logs, handoff/);
  assert.match(r.out, /Unknown skill/);
  assert.match(r.out, /skillgate init/);
  assert.equal(fs.existsSync(p.file), false, "nothing written");
  assert.equal(fs.existsSync(path.join(p.dir, ".claude", "hooks")), false);

  // Installed anyway (by hand), doctor sees the gap.
  fs.writeFileSync(p.file, JSON.stringify(addSkillgate({}, portableHandler()), null, 2));
  fs.mkdirSync(path.join(p.dir, ".claude", "hooks"));
  fs.copyFileSync(path.join(ROOT, "hooks", "launcher.mjs"), path.join(p.dir, ".claude", "hooks", "skillgate.mjs"));
  const doc = await run(t, () => doctorMain(["--project", p.dir], ROOT));
  assert.equal(doc.code, 1);
  // One problem line for all of them (not one per row: the default table would print 19), naming each skill and its rows.
  const gap = doc.out.split("\n").filter((l) => /cannot load/.test(l));
  assert.equal(gap.length, 1, doc.out);
  assert.match(
    gap[0] ?? "",
    /^PROBLEM +the table names skills Claude Code cannot load \(no <skill>\/SKILL\.md in .+\): commit \(row commit-gate\), paired-docs \(row paired-docs-write\), .*handoff \(row handoff-after-compaction\); the Skill tool would answer "Unknown skill": run npx skillgate init or npx skillgate install --with-skills$/,
  );

  fs.rmSync(p.file);
  const w = await run(t, () => installMain(["--project", p.dir, "--with-skills"], ROOT));
  assert.equal(w.code, 0, w.out);
  for (const s of STARTER_SKILLS) assert.ok(fs.existsSync(path.join(p.dir, ".claude", "skills", s, "SKILL.md")), s);
  // The user's own version of a skill is never overwritten.
  const mine = path.join(p.dir, ".claude", "skills", "commit", "SKILL.md");
  fs.writeFileSync(mine, "mine");
  fs.rmSync(path.join(p.dir, ".claude", "skills", "logs"), { recursive: true });
  await run(t, () => installMain(["--project", p.dir, "--with-skills"], ROOT));
  assert.equal(fs.readFileSync(mine, "utf8"), "mine");
  assert.equal((await run(t, () => doctorMain(["--project", p.dir], ROOT))).code, 0);
});

test("from a checkout that is not the project's dependency: absolute paths and a warning; doctor flags them in committed settings", async (t) => {
  isolate(t);
  const p = project(undefined, { table: "starter", skills: STARTER_SKILLS });
  const r = await run(t, () => installMain(["--project", p.dir, "--runtime", "node"], ROOT));
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /not installed in this project .* work on this machine only/s);
  assert.deepEqual(p.read(), addSkillgate({}, makeHandler(process.execPath, HOOK)));
  const doc = await run(t, () => doctorMain(["--project", p.dir], ROOT));
  assert.equal(doc.code, 1);
  assert.match(doc.out, /committed with the project but its skillgate hooks name absolute paths/);
  // --local is personal: absolute paths are fine there.
  await run(t, () => uninstallMain(["--project", p.dir], ROOT));
  await run(t, () => installMain(["--project", p.dir, "--local", "--runtime", "node"], ROOT));
  assert.equal((await run(t, () => doctorMain(["--project", p.dir], ROOT))).code, 0);
});

test("install creates a missing settings file; the default runtime is node, whatever bun is around (user route)", async (t) => {
  const { home } = isolate(t);
  setEnv(t, "PATH", `${fakeBun(t, "1.4.5")}${path.delimiter}${process.env.PATH}`);
  const r = await run(t, () => installMain(["--user", "--with-skills"], ROOT));
  assert.equal(r.code, 0, r.out);
  const file = path.join(home, ".claude", "settings.json");
  const cmd = (JSON.parse(fs.readFileSync(file, "utf8")) as { hooks: { Stop: { hooks: { command: string; args: string[] }[] }[] } }).hooks.Stop[0]?.hooks[0];
  assert.equal(cmd?.command, process.execPath);
  assert.deepEqual(cmd?.args, [hookPathOf(ROOT, "node")]);
  assert.ok(fs.existsSync(path.join(home, ".claude", "skills", "commit", "SKILL.md")), "--with-skills copied into ~/.claude/skills");
  await assert.rejects(() => installMain(["--user", "--project", home], ROOT), /--project and --user cannot be used together/);
  await assert.rejects(() => installMain(["--user", "--local"], ROOT), /--local and --user cannot be used together/);
});

/** A folder holding an executable `bun` that answers --version with `version` (empty: it fails); returns the folder. */
function fakeBun(t: TestContext, version: string): string {
  const dir = tmp("bun");
  const exe = path.join(dir, "bun");
  fs.writeFileSync(exe, version ? `#!/bin/sh\necho ${version}\n` : "#!/bin/sh\nexit 1\n", { mode: 0o755 });
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test("--runtime bun runs the bun on PATH, or $SKILLGATE_BUN when set", async (t) => {
  const { home } = isolate(t);
  const onPath = fakeBun(t, "1.4.5");
  setEnv(t, "SKILLGATE_BUN", undefined);
  setEnv(t, "PATH", `${onPath}${path.delimiter}${process.env.PATH}`);
  assert.deepEqual(pickRuntime("bun", ROOT), { ok: true, path: fs.realpathSync(path.join(onPath, "bun")), name: "bun" });
  const pinned = path.join(fakeBun(t, "1.2.0"), "bun");
  setEnv(t, "SKILLGATE_BUN", pinned);
  assert.deepEqual(pickRuntime("bun", ROOT), { ok: true, path: fs.realpathSync(pinned), name: "bun" });
  // The user route writes the runtime's absolute path (project settings name `bun`, found on PATH when the hook runs).
  const r = await run(t, () => installMain(["--user", "--with-skills", "--runtime", "bun"], ROOT));
  assert.equal(r.code, 0, r.out);
  const settings = JSON.parse(fs.readFileSync(path.join(home, ".claude", "settings.json"), "utf8")) as {
    hooks: { Stop: { hooks: { command: string; args: string[] }[] }[] };
  };
  assert.equal(settings.hooks.Stop[0]?.hooks[0]?.command, fs.realpathSync(pinned));
  // Bun reads no bunfig.toml of the project (its preload would run in every hook): test/bun-config.test.ts.
  assert.deepEqual(settings.hooks.Stop[0]?.hooks[0]?.args, ["--config=/dev/null", hookPathOf(ROOT, "bun")]);
});

test("--runtime bun without a bun is a clear error saying how to get one; a broken SKILLGATE_BUN is named; unknown runtimes are refused", async (t) => {
  isolate(t);
  const fakeRoot = tmp("root");
  fs.mkdirSync(path.join(fakeRoot, "dist"));
  fs.writeFileSync(path.join(fakeRoot, "dist", "hook.mjs"), "");
  fs.writeFileSync(path.join(fakeRoot, "package.json"), JSON.stringify({ name: "skillgate" }));
  // PATH without any bun: only the folder of this node (git and sh are not needed here).
  setEnv(t, "PATH", fakeBun(t, "") + path.delimiter + path.dirname(process.execPath));
  setEnv(t, "SKILLGATE_BUN", undefined);
  const p = ready();
  const r = await run(t, () => installMain(["--project", p.dir, "--runtime", "bun"], fakeRoot));
  assert.equal(r.code, 3);
  assert.match(r.out, /--runtime bun: no bun on PATH/);
  assert.match(r.out, /npm install --global bun/);
  assert.equal(fs.existsSync(p.file), false);
  assert.deepEqual(pickRuntime(undefined, fakeRoot), { ok: true, path: process.execPath, name: "node" });
  setEnv(t, "SKILLGATE_BUN", path.join(fakeBun(t, ""), "bun"));
  const broken = pickRuntime("bun", fakeRoot);
  assert.ok(!broken.ok && /SKILLGATE_BUN=.* is not a working bun/.test(broken.error), JSON.stringify(broken));
  // A usage error (exit 2, printed by cli/main.ts), checked against the spec before anything runs.
  await assert.rejects(() => installMain(["--project", p.dir, "--runtime", "deno"], ROOT), /--runtime must be one of: bun, node/);
});

test("a settings file that is not valid JSON, or of the wrong shape, is refused: nothing written", async (t) => {
  const { state } = isolate(t);
  const p = ready('{ "model": "opus", }');
  for (const verb of [installMain, uninstallMain]) {
    const r = await run(t, () => verb(["--project", p.dir], ROOT));
    assert.equal(r.code, 3);
    assert.ok(r.out.includes(p.file), r.out);
    assert.match(r.out, /not valid JSON \(.+\)/);
    assert.match(r.out, /Nothing was written/);
  }
  assert.equal(p.text(), '{ "model": "opus", }');
  assert.deepEqual(backupsIn(state), []);
  const shape = ready({ hooks: { Stop: { hooks: [] } } });
  const r = await run(t, () => installMain(["--project", shape.dir], ROOT));
  assert.equal(r.code, 3);
  assert.match(r.out, /"hooks.Stop" is not an array/);
});

test("--dry-run prints a diff and writes nothing", async (t) => {
  isolate(t);
  const p = ready(USER_SETTINGS);
  const before = p.text();
  const r = await run(t, () => installMain(["--project", p.dir, "--dry-run"], ROOT));
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /^\+\+\+ .*\(after install\)$/m);
  assert.match(r.out, /^\+ +"matcher": "Bash\|Write\|Edit\|MultiEdit\|NotebookEdit\|Agent\|Task\|mcp__\.\*",$/m);
  assert.match(r.out, /would write the launcher/);
  assert.match(r.out, /dry run: nothing written/);
  assert.equal(p.text(), before);
  assert.equal(fs.existsSync(path.join(p.dir, ".claude", "hooks")), false);
});

test("lineDiff marks removed and added lines and folds far context", () => {
  const a = ["1", "2", "3", "4", "5", "6", "7", "8"].join("\n");
  const b = ["1", "2", "3", "4", "5", "6", "x", "8"].join("\n");
  assert.deepEqual(lineDiff(a, b), ["  ...", "  5", "  6", "- 7", "+ x", "  8"]);
});

test("doctor: all good on an installed project; plain-words problems otherwise", async (t) => {
  isolate(t);
  const p = ready();
  await run(t, () => installMain(["--project", p.dir], ROOT));
  const good = await run(t, () => doctorMain(["--project", p.dir], ROOT));
  assert.equal(good.code, 0, good.out);
  assert.match(good.out, /hook command starts and answers/);
  assert.match(good.out, /every skill the table names is loadable/);
  assert.match(good.out, /all good/);

  // skillgate gone from node_modules (a teammate before npm ci): the launcher's message, through doctor.
  fs.rmSync(path.join(p.dir, "node_modules"), { recursive: true });
  const gone = await run(t, () => doctorMain(["--project", p.dir], ROOT));
  assert.equal(gone.code, 1);
  assert.match(gone.out, /the hook runs but says: skillgate is registered but not installed: run npm ci/);

  // A lost event, a lost launcher, a broken table: each named.
  const s = p.read() as { hooks: Record<string, unknown> };
  delete s.hooks.Stop;
  fs.writeFileSync(p.file, JSON.stringify(s));
  fs.rmSync(path.join(p.dir, ".claude", "hooks", "skillgate.mjs"));
  fs.writeFileSync(path.join(p.dir, ".claude", "triggers.json"), "{ nope");
  const sick = await run(t, () => doctorMain(["--project", p.dir], ROOT));
  assert.equal(sick.code, 1);
  assert.match(sick.out, /no skillgate hook for Stop/);
  assert.match(sick.out, /the launcher .*skillgate\.mjs named in the settings is missing/);
  assert.match(sick.out, /trigger table .* does not validate: .*not valid JSON/);

  const none = await run(t, () => doctorMain(["--project", project().dir], ROOT));
  assert.equal(none.code, 1);
  assert.match(none.out, /no skillgate hooks in .*run skillgate install/);
});

// ---------------------------------------------------------------- the launcher

function launch(projectDir: string, event: Record<string, unknown>, env: Record<string, string> = {}): Record<string, unknown> | undefined {
  const launcher = path.join(projectDir, ".claude", "hooks", "skillgate.mjs");
  fs.mkdirSync(path.dirname(launcher), { recursive: true });
  fs.copyFileSync(path.join(ROOT, "hooks", "launcher.mjs"), launcher);
  const r = spawnSync(process.execPath, [launcher], {
    input: JSON.stringify(event),
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: tmp("lhome"), CLAUDE_PROJECT_DIR: projectDir, ...env },
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim() ? (JSON.parse(r.stdout) as Record<string, unknown>) : undefined;
}

test("launcher without the package: loud on session start and every prompt, quiet (gates off) on tool calls unless the table fails closed", () => {
  const dir = tmp("bare");
  const start = launch(dir, { hook_event_name: "SessionStart", session_id: "s" });
  assert.match(String(start?.systemMessage), /skillgate is registered but not installed: run npm ci .*gates are OFF/);
  assert.match(JSON.stringify(start?.hookSpecificOutput), /additionalContext/);
  assert.match(String(launch(dir, { hook_event_name: "UserPromptSubmit", prompt: "hi" })?.systemMessage), /not installed/);
  assert.equal(launch(dir, { hook_event_name: "PostToolUse" }), undefined);
  assert.equal(launch(dir, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git commit -m x" } }), undefined);

  fs.writeFileSync(path.join(dir, ".claude", "triggers.json"), JSON.stringify({ failMode: "closed", rows: [] }));
  const denied = launch(dir, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git commit -m x" } });
  assert.equal((denied?.hookSpecificOutput as Record<string, unknown>).permissionDecision, "deny");
  assert.match(String((denied?.hookSpecificOutput as Record<string, unknown>).permissionDecisionReason), /run npm ci/);
  assert.equal(launch(dir, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "npm ci" } }), undefined, "the fix is let through");
  assert.notEqual(launch(dir, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "npm ci; git commit -m x" } }), undefined);
});

test("launcher without the package, on an event it cannot read: valid JSON saying both what is wrong and that skillgate is missing", () => {
  const dir = tmp("bare-bad");
  const launcher = path.join(dir, ".claude", "hooks", "skillgate.mjs");
  fs.mkdirSync(path.dirname(launcher), { recursive: true });
  fs.copyFileSync(path.join(ROOT, "hooks", "launcher.mjs"), launcher);
  for (const input of ["not json{", "", "[1,2]", '{"session_id":"s"}']) {
    const r = spawnSync(process.execPath, [launcher], {
      input,
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: tmp("lhome"), CLAUDE_PROJECT_DIR: dir },
    });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { systemMessage?: string };
    assert.match(String(out.systemMessage), /skillgate is registered but not installed: run npm ci/, JSON.stringify(input));
    assert.match(String(out.systemMessage), /the hook event (is not JSON|has no hook_event_name)/, JSON.stringify(input));
  }
});

test("launcher with the package installed runs the real hook", () => {
  const p = ready();
  const out = launch(
    p.dir,
    {
      hook_event_name: "PreToolUse",
      session_id: "launch-1",
      transcript_path: "",
      cwd: p.dir,
      tool_name: "Bash",
      tool_input: { command: "git commit -m x" },
      tool_use_id: "t1",
      permission_mode: "default",
    },
    { SKILLGATE_STATE: tmp("lstate") },
  );
  assert.equal((out?.hookSpecificOutput as Record<string, unknown>).permissionDecision, "deny");
  assert.match(JSON.stringify(out), /commit-gate|skill "commit"/);
  // The launcher is part of the installation: the model may not rewrite it to switch the hook off.
  const write = launch(
    p.dir,
    {
      hook_event_name: "PreToolUse",
      session_id: "launch-1",
      transcript_path: "",
      cwd: p.dir,
      tool_name: "Write",
      tool_input: { file_path: path.join(p.dir, ".claude", "hooks", "skillgate.mjs"), content: "" },
      tool_use_id: "t2",
      permission_mode: "default",
    },
    { SKILLGATE_STATE: tmp("lstate") },
  );
  assert.equal((write?.hookSpecificOutput as Record<string, unknown>).permissionDecision, "deny");
  assert.match(JSON.stringify(write), /self-protection/);
});

// ---------------------------------------------------------------- state folder and table resolution

test("state folder: $SKILLGATE_STATE, plugin data, $XDG_STATE_HOME/skillgate, ~/.local/state/skillgate; created 0700; old <package>/state moved once", () => {
  // The host's data folder for its plugin (Claude Code: $CLAUDE_PLUGIN_DATA, hooks/hosts/claude-code/env.ts dataDir).
  assert.equal(stateDirPath({ SKILLGATE_STATE: "/s", HOME: "/h" }, "/p"), path.resolve("/s"));
  assert.equal(stateDirPath({ XDG_STATE_HOME: "/x", HOME: "/h" }, "/p"), path.join("/p", "state"));
  assert.equal(claudeEnvironment({ CLAUDE_PLUGIN_DATA: "/p", HOME: "/h" }).dataDir, "/p");
  assert.equal(stateDirPath({ XDG_STATE_HOME: "/x", HOME: "/h" }), path.join("/x", "skillgate"));
  assert.equal(
    stateDirPath({ XDG_STATE_HOME: "relative", HOME: "/h" }),
    path.join("/h", ".local", "state", "skillgate"),
    "a relative XDG path is ignored, as the spec says",
  );
  assert.equal(stateDirPath({ HOME: "/h" }), path.join("/h", ".local", "state", "skillgate"));

  // Only skillgate's own folder is migrated from: a project's .claude/state is not ours.
  const other = tmp("notpkg");
  fs.mkdirSync(path.join(other, "state"));
  fs.writeFileSync(path.join(other, "state", "theirs.json"), "{}");
  const otherHome = tmp("sdhome");
  const fresh = stateDirOf({ env: { HOME: otherHome }, packageRoot: other });
  assert.deepEqual(fs.readdirSync(fresh), []);
  assert.ok(fs.existsSync(path.join(other, "state", "theirs.json")));

  const home = tmp("sdhome");
  const pkg = tmp("pkg");
  fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "skillgate" }));
  fs.mkdirSync(path.join(pkg, "state", "outputs"), { recursive: true });
  fs.writeFileSync(path.join(pkg, "state", "abc.json"), '{"loaded":["commit"]}');
  fs.writeFileSync(path.join(pkg, "state", ".gitkeep"), "");
  const dir = stateDirOf({ env: { HOME: home }, packageRoot: pkg });
  assert.equal(dir, path.join(home, ".local", "state", "skillgate"));
  assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
  assert.equal(fs.readFileSync(path.join(dir, "abc.json"), "utf8"), '{"loaded":["commit"]}');
  assert.ok(fs.existsSync(path.join(dir, "outputs")));
  assert.equal(fs.existsSync(path.join(dir, ".gitkeep")), false);
  // Once: later state in the old place is not pulled in again, newer state never overwritten.
  fs.writeFileSync(path.join(pkg, "state", "late.json"), "{}");
  stateDirOf({ env: { HOME: home }, packageRoot: pkg });
  assert.equal(fs.existsSync(path.join(dir, "late.json")), false);
  fs.writeFileSync(path.join(dir, "abc.json"), "new");
  fs.writeFileSync(path.join(pkg, "state", "abc.json"), "old");
  migrateOldState(path.join(pkg, "state"), dir);
  assert.equal(fs.readFileSync(path.join(dir, "abc.json"), "utf8"), "new");
});

test("one table resolution: --table, $SKILLGATE_TABLE, the project's (from $CLAUDE_PROJECT_DIR or above cwd, never HOME's), the default", () => {
  const home = tmp("rhome");
  const proj = path.join(home, "work", "proj");
  fs.mkdirSync(path.join(proj, ".claude"), { recursive: true });
  fs.mkdirSync(path.join(proj, "src", "deep"), { recursive: true });
  fs.writeFileSync(path.join(proj, ".claude", "triggers.json"), "{}");
  // Claude Code's project table: in $CLAUDE_PROJECT_DIR when it is set, else above the verb's cwd (hooks/hosts/claude-code/env.ts).
  const r = (env: NodeJS.ProcessEnv, o: { flag?: string; cwd?: string } = {}) =>
    resolveTable({ env: { HOME: home, ...env }, packageRoot: ROOT, project: projectTables(env.CLAUDE_PROJECT_DIR), ...o });
  assert.deepEqual([r({ SKILLGATE_TABLE: "/e.json" }, { flag: "f.json" }).source, r({ SKILLGATE_TABLE: "/e.json" }).source], ["flag", "env"]);
  assert.equal(r({ CLAUDE_PROJECT_DIR: proj }).file, path.join(proj, ".claude", "triggers.json"));
  assert.equal(
    r({}, { cwd: path.join(proj, "src", "deep") }).file,
    path.join(proj, ".claude", "triggers.json"),
    "a verb run in a subfolder finds the project's table",
  );
  assert.equal(r({}, { cwd: proj }).source, "project");
  // The home folder's .claude/ holds the user's settings, not a project table.
  fs.mkdirSync(path.join(home, ".claude"));
  fs.writeFileSync(path.join(home, ".claude", "triggers.json"), "{}");
  const other = path.join(home, "elsewhere");
  fs.mkdirSync(other);
  assert.deepEqual([r({}, { cwd: other }).source, r({}, { cwd: other }).file], ["default", path.join(ROOT, "triggers.json")]);
  // The hook (no cwd) and a verb agree when $CLAUDE_PROJECT_DIR is set.
  assert.equal(r({ CLAUDE_PROJECT_DIR: proj }, { cwd: other }).file, r({ CLAUDE_PROJECT_DIR: proj }).file);
});

// ---------------------------------------------------------------- init

test("init: starter table with a $schema that resolves from the project, its skills in .claude/skills, starter cases; never overwrites", async (t) => {
  isolate(t);
  const p = project(undefined, { dependency: true });
  const r = await run(t, () => initMain(["--project", p.dir], ROOT));
  assert.equal(r.code, 0, r.out);
  const tableFile = path.join(p.dir, ".claude", "triggers.json");
  const table = JSON.parse(fs.readFileSync(tableFile, "utf8")) as { $schema: string; rows: { id: string; skill?: string }[] };
  assert.equal(table.$schema, "../node_modules/skillgate/triggers.schema.json");
  assert.ok(fs.existsSync(path.resolve(path.dirname(tableFile), table.$schema)), "the $schema path exists");
  for (const s of new Set(table.rows.flatMap((row) => (row.skill ? [row.skill] : []))))
    assert.ok(fs.existsSync(path.join(p.dir, ".claude", "skills", s, "SKILL.md")), s);
  const cases = fs.readdirSync(path.join(p.dir, ".claude", "skillgate", "cases")).filter((f) => f.endsWith(".json"));
  assert.ok(cases.length >= table.rows.length, `${cases.length} cases for ${table.rows.length} rows`);

  fs.writeFileSync(tableFile, fs.readFileSync(tableFile, "utf8").replace('"failMode": "open"', '"failMode": "closed"'));
  const edited = fs.readFileSync(tableFile, "utf8");
  const again = await run(t, () => initMain(["--project", p.dir, "--full"], ROOT));
  assert.equal(again.code, 0, again.out);
  assert.match(again.out, /exists, left as is/);
  assert.equal(fs.readFileSync(tableFile, "utf8"), edited);

  // Installed right after init, nothing is refused.
  const inst = await run(t, () => installMain(["--project", p.dir], ROOT));
  assert.equal(inst.code, 0, inst.out);

  // --full elsewhere: the whole default table, every skill it names copied; no dependency → a relative $schema to this checkout.
  const q = project();
  const full = await run(t, () => initMain(["--project", q.dir, "--full"], ROOT));
  assert.equal(full.code, 0, full.out);
  const ft = JSON.parse(fs.readFileSync(path.join(q.dir, ".claude", "triggers.json"), "utf8")) as { $schema: string; rows: unknown[] };
  assert.ok(fs.existsSync(path.resolve(q.dir, ".claude", ft.$schema)), ft.$schema);
  assert.equal(ft.rows.length, (JSON.parse(fs.readFileSync(path.join(ROOT, "triggers.json"), "utf8")) as { rows: unknown[] }).rows.length);
  assert.equal(fs.readdirSync(path.join(q.dir, ".claude", "skills")).length, fs.readdirSync(path.join(ROOT, "skills")).length);
});

test("a project install's next step is a command that runs there: npx skillgate doctor, not a bare skillgate", async (t) => {
  isolate(t);
  const p = ready();
  const r = await run(t, () => installMain(["--project", p.dir], ROOT));
  assert.equal(r.code, 0, r.out);
  const cwd = process.cwd();
  assert.match(r.out, new RegExp(`check it with: cd ${p.dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} && npx skillgate doctor$`, "m"));
  process.chdir(p.dir);
  t.after(() => process.chdir(cwd));
  const local = await run(t, () => installMain(["--local"], ROOT));
  assert.equal(local.code, 0, local.out);
  assert.match(local.out, /check it with: npx skillgate doctor --local$/m);
});

test("doctor: skillgate installed from a tarball outside the project breaks a teammate's npm ci; one inside it (vendor/) is fine", async (t) => {
  isolate(t);
  const p = ready();
  assert.equal((await run(t, () => installMain(["--project", p.dir], ROOT))).code, 0);
  const pkg = (spec: string) =>
    fs.writeFileSync(path.join(p.dir, "package.json"), JSON.stringify({ name: "team", private: true, devDependencies: { skillgate: spec } }, null, 2));
  pkg("file:../../skillgate-0.1.0.tgz");
  const out = await run(t, () => doctorMain(["--project", p.dir], ROOT));
  assert.equal(out.code, 1, out.out);
  assert.match(
    out.out,
    /PROBLEM +.*package\.json installs skillgate from file:\.\.\/\.\.\/skillgate-0\.1\.0\.tgz, outside the project: a teammate's npm ci fails unless the tarball is at that path on their machine too; copy it into the repository \(vendor\/\), npm install --save-dev \.\/vendor\/skillgate-0\.1\.0\.tgz and commit it/,
  );
  pkg("file:vendor/skillgate-0.1.0.tgz");
  const fine = await run(t, () => doctorMain(["--project", p.dir], ROOT));
  assert.equal(fine.code, 0, fine.out);
  assert.doesNotMatch(fine.out, /outside the project/);
});

test("doctor says whether the gate fails closed: onFailure on the gate's handlers, and whether the claude on PATH honours it", async (t) => {
  isolate(t);
  const p = project(undefined, { table: "starter", skills: STARTER_SKILLS });
  assert.equal((await run(t, () => installMain(["--project", p.dir, "--local", "--runtime", "node"], ROOT))).code, 0);
  const bin = tmp("bin");
  const claude = (version: string) => {
    fs.writeFileSync(path.join(bin, "claude"), `#!/bin/sh\necho "${version} (Claude Code)"\n`, { mode: 0o755 });
  };
  const doctor = async (pathVar: string) => {
    setEnv(t, "PATH", pathVar);
    return run(t, () => doctorMain(["--project", p.dir], ROOT));
  };
  const PATH = process.env.PATH ?? "";
  claude("2.1.332");
  const closed = await doctor(`${bin}${path.delimiter}${PATH}`);
  assert.equal(closed.code, 0, closed.out);
  assert.match(closed.out, /ok +Claude Code 2\.1\.332 honours onFailure: a PreToolUse hook that crashes or times out refuses the call \(fail closed\)/);
  claude("2.1.200");
  const old = await doctor(`${bin}${path.delimiter}${PATH}`);
  assert.match(old.out, /note +Claude Code 2\.1\.200 is older than 2\.1\.328, the first seen honouring onFailure: .*\(fail open\)/);
  fs.rmSync(path.join(bin, "claude"));
  const none = await doctor(bin);
  assert.match(none.out, /note +no `claude` on PATH answered --version: whether the client honours onFailure is unknown/);
  // A handler without the field (an older install, or edited by hand) fails open: a problem that install fixes.
  const local = path.join(p.dir, ".claude", "settings.local.json");
  const s = JSON.parse(fs.readFileSync(local, "utf8"));
  delete s.hooks.PreToolUse[0].hooks[0].onFailure;
  fs.writeFileSync(local, JSON.stringify(s, null, 2));
  const openDoc = await doctor(PATH);
  assert.equal(openDoc.code, 1);
  assert.match(
    openDoc.out,
    /PROBLEM +.*settings\.local\.json: PreToolUse: the hook has no "onFailure": "block", so a crash or timeout of the hook lets the call through; run skillgate install again/,
  );
});

// ---------------------------------------------------------------- every host through one command line

/** `skillgate <verb> …` in-process with the test's environment; stdout and stderr apart. */
async function sgVerb(
  verb: "install" | "uninstall" | "doctor",
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [],
    err: string[] = [];
  const code = await installVerb(verb, args, ROOT, { env, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** A table whose skills folder is empty: every host has to copy its one skill (commit) from skillgate's own. */
function tableWithoutSkills(): string {
  const dir = tmp("table");
  fs.mkdirSync(path.join(dir, "empty"));
  const file = path.join(dir, "triggers.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      skillsDir: "empty",
      rows: [{ id: "commit-gate", kind: "gate", skill: "commit", when: { command: { name: "git", sub: ["commit"] } } }],
    }),
  );
  return file;
}

/** Where each host loads a project's skills from: --with-skills copies there. */
const SKILL_DEST: Record<string, string> = {
  "claude-code": ".claude/skills",
  codex: ".agents/skills",
  gemini: ".gemini/skills",
  copilot: ".github/skills",
  opencode: ".opencode/skills",
  cursor: ".cursor/skills",
};

test("the parser is the same for every host: --x=y and --x y; an unknown argument is exit 2 with the message and the usage line on stderr", async (t) => {
  const { home } = isolate(t);
  setEnv(t, "SKILLGATE_TABLE", tableWithoutSkills());
  for (const host of ["claude-code", "codex", "gemini", "copilot", "opencode", "cursor"]) {
    const dir = tmp(`parse-${host}`);
    const r = await sgVerb("install", [`--host=${host}`, `--project=${dir}`, "--with-skills", "--runtime=node"]);
    assert.equal(r.code, 0, `${host}: ${r.out}\n${r.err}`);
    assert.ok(fs.existsSync(path.join(dir, SKILL_DEST[host] ?? "", "commit", "SKILL.md")), `${host}: --project=DIR was read`);
    const bad = await sgVerb("install", ["--host", host, "--project", dir, "--bogus"]);
    assert.equal(bad.code, 2, host);
    assert.equal(bad.out, "", `${host}: nothing on stdout`);
    assert.match(bad.err, /^skillgate install: unknown option --bogus\nusage: skillgate install /, host);
    assert.equal((await sgVerb("uninstall", ["--host", host, "--project", dir, "--with-skills"])).code, 2, `${host}: --with-skills is an install option`);
    assert.equal((await sgVerb("uninstall", [`--host=${host}`, `--project=${dir}`])).code, 0, host);
  }
  // An option for one host only is refused for another, before anything is written.
  const dir = tmp("parse-only");
  const trust = await sgVerb("install", ["--host", "gemini", "--project", dir, "--trust"]);
  assert.equal(trust.code, 2);
  assert.match(trust.err, /--trust is for --host codex, not gemini/);
  assert.match((await sgVerb("install", ["--host", "codex", "--project", dir, "--local"])).err, /--local is for --host claude-code, not codex/);
  assert.deepEqual(fs.readdirSync(dir), []);
  // A host without a doctor says so in one line, exit 3.
  const cursorDoctor = await sgVerb("doctor", ["--host", "cursor", "--project", dir]);
  assert.equal(cursorDoctor.code, 3);
  assert.match(cursorDoctor.err, /^skillgate doctor: --host cursor: no doctor \(/);
  assert.equal(cursorDoctor.err.split("\n").length, 1);
  assert.ok(home);
});

test("--with-skills on every host: refused without it (naming the flag and the folder), copied where that host loads skills with it", async (t) => {
  isolate(t);
  setEnv(t, "SKILLGATE_TABLE", tableWithoutSkills());
  for (const [host, dest] of Object.entries(SKILL_DEST)) {
    const dir = tmp(`skills-${host}`);
    const refused = await sgVerb("install", ["--host", host, "--project", dir, "--runtime", "node"]);
    assert.equal(refused.code, 3, `${host}: ${refused.out}\n${refused.err}`);
    assert.match(
      refused.err,
      new RegExp(`cannot load: commit .*--with-skills to copy them into ${path.join(dir, dest).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "s"),
      host,
    );
    assert.equal(fs.existsSync(path.join(dir, dest)), false, `${host}: nothing copied`);
    const dry = await sgVerb("install", ["--host", host, "--project", dir, "--with-skills", "--dry-run"]);
    assert.equal(dry.code, 0, `${host}: ${dry.err}`);
    assert.match(dry.out, new RegExp(`would copy skills into .*${dest.replace(/[./]/g, "\\$&")}: commit`), host);
    assert.deepEqual(fs.readdirSync(dir), [], `${host}: a dry run writes nothing`);
    const ok = await sgVerb("install", ["--host", host, "--project", dir, "--with-skills", "--runtime", "node"]);
    assert.equal(ok.code, 0, `${host}: ${ok.out}\n${ok.err}`);
    assert.equal(
      fs.readFileSync(path.join(dir, dest, "commit", "SKILL.md"), "utf8"),
      fs.readFileSync(path.join(ROOT, "skills", "commit", "SKILL.md"), "utf8"),
      host,
    );
    // Loadable now: a plain install passes.
    assert.equal((await sgVerb("install", ["--host", host, "--project", dir, "--runtime", "node"])).code, 0, host);
  }
});

test("--host all: every host whose folder the project has or whose command is on PATH, each named with the reason; the others untouched", async (t) => {
  isolate(t);
  setEnv(t, "SKILLGATE_TABLE", tableWithoutSkills());
  const dir = tmp("all");
  fs.mkdirSync(path.join(dir, ".codex"));
  fs.mkdirSync(path.join(dir, ".gemini"));
  // A PATH with git, node and an `opencode` command, and none of the other hosts'.
  const binDir = tmp("bin");
  for (const b of ["git", "node"]) fs.symlinkSync(fs.realpathSync(process.execPath.endsWith(b) ? process.execPath : "/usr/bin/git"), path.join(binDir, b));
  fs.writeFileSync(path.join(binDir, "opencode"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  const env = { ...process.env, PATH: binDir };
  const r = await sgVerb("install", ["--host", "all", "--project", dir, "--with-skills"], env);
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, new RegExp(`^Codex \\(${path.join(dir, ".codex").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} exists\\):$`, "m"));
  assert.match(r.out, /^Gemini CLI \(\S+\.gemini exists\):$/m);
  assert.match(r.out, /^opencode \(opencode is on PATH \(\S+\/opencode\)\):$/m);
  assert.doesNotMatch(r.out, /^(Claude Code|Copilot CLI|Cursor) \(/m);
  assert.ok(fs.existsSync(path.join(dir, ".codex", "hooks.json")));
  assert.ok(fs.existsSync(path.join(dir, ".gemini", "settings.json")));
  assert.ok(fs.existsSync(path.join(dir, ".opencode", "plugins", "skillgate.js")));
  for (const d of [".claude", ".github", ".cursor"]) assert.equal(fs.existsSync(path.join(dir, d)), false, `${d} untouched`);
  const doc = await sgVerb("doctor", ["--host", "all", "--project", dir], env);
  assert.match(doc.out, /^Codex \(/m);
  assert.match(doc.out, /does not run skillgate|not trusted|skillgate runs on/, "each host's doctor ran");
  const un = await sgVerb("uninstall", ["--host=all", `--project=${dir}`], env);
  assert.equal(un.code, 0, un.out + un.err);
  // Each file install created is gone again; the folders the project had stay.
  assert.equal(fs.existsSync(path.join(dir, ".codex", "hooks.json")), false);
  assert.equal(fs.existsSync(path.join(dir, ".gemini", "settings.json")), false);
  assert.equal(fs.existsSync(path.join(dir, ".opencode", "plugins", "skillgate.js")), false);
  assert.ok(fs.existsSync(path.join(dir, ".codex")) && fs.existsSync(path.join(dir, ".gemini")));
  // Nothing to go on: a clear error, exit 3.
  const none = await sgVerb("install", ["--host", "all", "--project", tmp("none")], { ...process.env, PATH: tmp("emptybin") });
  assert.equal(none.code, 3);
  assert.match(none.err, /--host all: no host found: .*name one with --host/);
});

test("doctor's probe of a host's hook leaves nothing in the temp folder, even what the hook puts there", async (t) => {
  isolate(t);
  const tmpdir = tmp("tmpdir");
  // A hook that makes an output folder in the temp folder, as a capped output does.
  const hook = path.join(tmp("hook"), "hook.cjs");
  fs.writeFileSync(hook, `require("fs").mkdirSync(require("path").join(require("os").tmpdir(), "skillgate-out-probe")); process.stdout.write("{}");`);
  // The test's own folders first: from here on, the temp folder must stay as it is.
  setEnv(t, "SKILLGATE_TABLE", tableWithoutSkills());
  const hosts = ["claude-code", "codex", "gemini", "copilot", "opencode"];
  const dirs = Object.fromEntries(hosts.map((h) => [h, tmp(`probe-${h}`)]));
  const before = fs.readdirSync(tmpdir);
  setEnv(t, "TMPDIR", tmpdir);
  assert.equal(hookProblem(hook, [], { hook_event_name: "SessionStart" }, { ...process.env }, 10_000), undefined);
  assert.deepEqual(fs.readdirSync(tmpdir), before, "no skillgate-doctor-* or skillgate-out-* left");
  // The doctors of the hosts that probe their hook: nothing left either.
  for (const host of hosts) {
    const dir = dirs[host] ?? "";
    assert.equal((await sgVerb("install", ["--host", host, "--project", dir, "--with-skills", "--runtime", "node"])).code, 0, host);
    await sgVerb("doctor", ["--host", host, "--project", dir]);
    assert.deepEqual(fs.readdirSync(tmpdir), before, `${host}: doctor left something in the temp folder`);
  }
});

// ---------------------------------------------------------------- portable project installs for the other hosts

const fixtureOf = (host: string, name: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(path.join(ROOT, "test", "fixtures", host, `${name}.json`), "utf8")) as Record<string, unknown>;

/**
 * `install --host <host>` into a project with skillgate as its dependency, then the
 * project copied to another place (a teammate's clone) and the original removed:
 * the files the team commits hold no absolute path, and run from the copy.
 */
async function portableClone(t: TestContext, host: string, files: string[]): Promise<{ copy: string; texts: string[]; out: string }> {
  isolate(t);
  setEnv(t, "SKILLGATE_TABLE", tableWithoutSkills());
  const dir = project(undefined, { dependency: true }).dir;
  const r = await sgVerb("install", ["--host", host, "--project", dir, "--with-skills"]);
  assert.equal(r.code, 0, r.out + r.err);
  const texts = files.map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
  for (const [i, text] of texts.entries()) {
    for (const abs of [dir, ROOT, process.execPath]) assert.ok(!text.includes(abs), `${files[i]} names ${abs}:\n${text}`);
  }
  const copy = path.join(tmp("clone"), "checkout");
  fs.cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  fs.rmSync(dir, { recursive: true });
  return { copy, texts, out: r.out };
}

/** Run a hook command the way a host does: through a shell, in `cwd`, a git commit payload on stdin. */
function runCommand(
  shell: string,
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  payload: unknown,
): { status: number | null; stdout: string; stderr: string } {
  // node from PATH, as on a teammate's machine (this node's folder first: the one the tests run with).
  const PATH = [path.dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(path.delimiter);
  const r = spawnSync(shell, ["-c", command], { cwd, env: { ...process.env, PATH, ...env }, input: JSON.stringify(payload), encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.error ? String(r.error) : r.stderr };
}

test("install --host gemini in a project with skillgate as its dependency: node from PATH, the hook under $GEMINI_PROJECT_DIR; a clone elsewhere refuses a commit", async (t) => {
  const { copy, texts, out } = await portableClone(t, "gemini", [".gemini/settings.json"]);
  const settings = JSON.parse(texts[0]!) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  const command = settings.hooks.BeforeTool!.at(-1)!.hooks[0]!.command;
  assert.equal(command, `node "$GEMINI_PROJECT_DIR/node_modules/skillgate/dist/hook-gemini.cjs"`);
  assert.match(out, /portable: node "\$GEMINI_PROJECT_DIR/);
  const payload = { ...fixtureOf("gemini", "BeforeTool-run_shell_command"), cwd: copy, tool_input: { command: "git commit -m x" } };
  const r = runCommand("sh", command, copy, { GEMINI_PROJECT_DIR: copy }, payload);
  assert.equal(r.status, 0, r.stderr);
  const answer = JSON.parse(r.stdout) as { decision?: string; reason?: string };
  assert.equal(answer.decision, "deny", r.stdout);
  assert.match(String(answer.reason), /commit/);
  const doc = await sgVerb("doctor", ["--host", "gemini", "--project", copy]);
  assert.doesNotMatch(doc.out + doc.err, /absolute paths/);
});

test("install --host copilot in a project with skillgate as its dependency: the hook under $COPILOT_PROJECT_DIR; a clone elsewhere refuses a commit", async (t) => {
  const { copy, texts, out } = await portableClone(t, "copilot", [".github/hooks/skillgate.json"]);
  const file = JSON.parse(texts[0]!) as { hooks: Record<string, { bash: string }[]> };
  const command = file.hooks.preToolUse!.at(-1)!.bash;
  assert.equal(command, `node "$COPILOT_PROJECT_DIR/node_modules/skillgate/dist/hook-copilot.cjs" preToolUse`);
  assert.match(out, /portable: node "\$COPILOT_PROJECT_DIR/);
  const payload = { ...fixtureOf("copilot", "preToolUse-bash"), cwd: copy, toolArgs: { command: "git commit -m x", description: "commit" } };
  const r = runCommand("bash", command, copy, { COPILOT_PROJECT_DIR: copy }, payload);
  assert.equal(r.status, 0, r.stderr);
  const answer = JSON.parse(r.stdout) as { permissionDecision?: string; permissionDecisionReason?: string };
  assert.equal(answer.permissionDecision, "deny", r.stdout);
  assert.match(String(answer.permissionDecisionReason), /commit/);
  const doc = await sgVerb("doctor", ["--host", "copilot", "--project", copy]);
  assert.doesNotMatch(doc.out + doc.err, /absolute paths/);
});

test("install --host codex in a project with skillgate as its dependency: node resolves the project's skillgate from the session's folder; a clone elsewhere refuses a commit, from a subfolder too", async (t) => {
  const { copy, texts, out } = await portableClone(t, "codex", [".codex/hooks.json"]);
  const file = JSON.parse(texts[0]!) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  const command = file.hooks.PreToolUse!.at(-1)!.hooks[0]!.command;
  assert.equal(command, `node -e "require('skillgate/dist/hook-codex.cjs').run('codex')"`);
  assert.match(out, /portable: node -e/);
  const sub = path.join(copy, "src");
  fs.mkdirSync(sub);
  for (const cwd of [copy, sub]) {
    const payload = { ...fixtureOf("codex", "PreToolUse-Bash"), cwd, tool_input: { command: "git commit -m x" } };
    const r = runCommand("sh", command, cwd, {}, payload);
    assert.equal(r.status, 0, r.stderr);
    const answer = JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
    assert.equal(answer.hookSpecificOutput?.permissionDecision, "deny", r.stdout);
    assert.match(String(answer.hookSpecificOutput?.permissionDecisionReason), /commit/);
  }
  const doc = await sgVerb("doctor", ["--host", "codex", "--project", copy]);
  assert.doesNotMatch(doc.out + doc.err, /absolute paths/);
});

test("install --host opencode in a project with skillgate as its dependency: the plugin imports the bundle relative to itself; a clone elsewhere refuses a commit", async (t) => {
  const { copy, texts, out } = await portableClone(t, "opencode", [".opencode/plugins/skillgate.js"]);
  assert.match(texts[0]!, /from "\.\.\/\.\.\/node_modules\/skillgate\/dist\/opencode-plugin\.mjs";/);
  assert.match(out, /portable: imports \.\.\/\.\.\/node_modules\/skillgate/);
  const plugin = (await import(pathToFileURL(path.join(copy, ".opencode", "plugins", "skillgate.js")).href)) as {
    SkillgatePlugin: (ctx: { directory: string }) => Promise<Record<string, (i: unknown, o: unknown) => Promise<void>>>;
  };
  const hooks = await plugin.SkillgatePlugin({ directory: copy });
  const line = fs
    .readFileSync(path.join(ROOT, "test", "fixtures", "opencode", "tools.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { hook: string; input: unknown; output: { args?: { command?: string } } })
    .find((l) => l.hook === "tool.execute.before" && /^git commit/.test(l.output.args?.command ?? ""));
  assert.ok(line, "the fixture has a git commit call");
  await assert.rejects(hooks["tool.execute.before"]!(line.input, structuredClone(line.output)), /commit/);
  const doc = await sgVerb("doctor", ["--host", "opencode", "--project", copy]);
  assert.doesNotMatch(doc.out + doc.err, /absolute path/);
});

test("doctor flags a committed hooks file that names absolute paths, for every host that has one", async (t) => {
  isolate(t);
  setEnv(t, "SKILLGATE_TABLE", tableWithoutSkills());
  for (const host of ["codex", "gemini", "copilot", "opencode"]) {
    // No node_modules/skillgate: the install has to name this checkout's paths, and says so.
    const dir = tmp(`abs-${host}`);
    const r = await sgVerb("install", ["--host", host, "--project", dir, "--with-skills"]);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /absolute paths?, this machine only/, host);
    const doc = await sgVerb("doctor", ["--host", host, "--project", dir]);
    assert.match(
      doc.out + doc.err,
      new RegExp(
        `committed with the project but its skillgate hooks name absolute paths \\(.*${ROOT.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*npx skillgate install --host ${host}`,
      ),
      host,
    );
  }
});
