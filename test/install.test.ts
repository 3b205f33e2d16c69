// install / uninstall / doctor on temp settings files. Needs dist/hook.mjs
// (npm test builds first). Run: node --import tsx --test test/install.test.ts
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  HOOK_EVENTS, addSkillgate, doctorMain, hookPathOf, installMain, isSkillgateHandler, lineDiff, makeHandler, pickRuntime, removeSkillgate, uninstallMain,
} from "../cli/install.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const HOOK = hookPathOf(ROOT);
const handler = makeHandler("/usr/bin/node", HOOK);

const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), `skillgate-install-${p}-`));

/** A project dir with .claude/settings.json holding `settings` (a string is written as is). */
function project(settings?: unknown): { dir: string; file: string; read: () => unknown; backups: () => string[] } {
  const dir = tmp("proj");
  const file = path.join(dir, ".claude", "settings.json");
  if (settings !== undefined) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof settings === "string" ? settings : JSON.stringify(settings, null, 2));
  }
  return {
    dir,
    file,
    read: () => JSON.parse(fs.readFileSync(file, "utf8")),
    backups: () => (fs.existsSync(path.dirname(file)) ? fs.readdirSync(path.dirname(file)).filter((f) => f.includes("skillgate-backup-")) : []),
  };
}

/** process.env[name] = value for this test only. */
function setEnv(t: TestContext, name: string, value: string): void {
  const old = process.env[name];
  process.env[name] = value;
  t.after(() => (old === undefined ? delete process.env[name] : (process.env[name] = old)));
}

/** Runs a verb with console output captured. */
async function run(t: TestContext, fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  t.mock.method(console, "log", (...a: unknown[]) => lines.push(a.join(" ")));
  t.mock.method(console, "error", (...a: unknown[]) => lines.push(a.join(" ")));
  const code = await fn();
  t.mock.restoreAll();
  return { code, out: lines.join("\n") };
}

const USER_SETTINGS = {
  model: "opus",
  permissions: { allow: ["Bash(ls:*)"] },
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo theirs" }] }],
    Stop: [{ hooks: [{ type: "command", command: "/usr/bin/true" }] }],
    Notification: [{ hooks: [{ type: "command", command: "notify-send hi" }] }],
  },
};

test("addSkillgate: one handler per event with our matcher, other hooks and settings kept", () => {
  const s = addSkillgate(structuredClone(USER_SETTINGS), handler) as typeof USER_SETTINGS & { hooks: Record<string, { matcher?: string; hooks: unknown[] }[]> };
  assert.equal(s.model, "opus");
  assert.deepEqual(s.permissions, USER_SETTINGS.permissions);
  assert.deepEqual(s.hooks.Notification, USER_SETTINGS.hooks.Notification);
  for (const [event, matcher] of Object.entries(HOOK_EVENTS)) {
    const ours = s.hooks[event]!.filter((g) => g.hooks.some((h) => isSkillgateHandler(h, HOOK)));
    assert.equal(ours.length, 1, event);
    assert.equal(ours[0]!.matcher, matcher, event);
    assert.deepEqual(ours[0]!.hooks, [handler]);
  }
  // Theirs come first, untouched.
  assert.deepEqual(s.hooks.PreToolUse![0], USER_SETTINGS.hooks.PreToolUse[0]);
  assert.deepEqual(s.hooks.Stop![0], USER_SETTINGS.hooks.Stop[0]);
});

test("addSkillgate is idempotent and updates a moved or stale handler in place", () => {
  const once = addSkillgate(USER_SETTINGS, handler);
  assert.deepEqual(addSkillgate(once, handler), once);
  // The user moved our PreToolUse group before theirs: a reinstall keeps that order.
  const moved = structuredClone(once) as { hooks: Record<string, unknown[]> };
  moved.hooks.PreToolUse!.reverse();
  assert.deepEqual(addSkillgate(moved, handler), moved);
  // A new runtime replaces the command in place; no second handler appears.
  const bun = makeHandler("/opt/bun", HOOK);
  const re = addSkillgate(once, bun) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  assert.equal(JSON.stringify(re).includes("/usr/bin/node"), false);
  assert.equal(re.hooks.SessionStart!.length, 1);
  // An install from another skillgate checkout is recognised as ours and replaced.
  const old = addSkillgate({}, makeHandler("/usr/bin/node", "/old/place/skillgate/dist/hook.mjs"));
  assert.deepEqual(addSkillgate(old, handler), addSkillgate({}, handler));
});

test("removeSkillgate removes exactly what add put in", () => {
  assert.deepEqual(removeSkillgate(addSkillgate(USER_SETTINGS, handler), HOOK), USER_SETTINGS);
  assert.deepEqual(removeSkillgate(addSkillgate({ a: 1 }, handler), HOOK), { a: 1 });
  // Someone else's dist/hook.mjs is not ours.
  const foreign = { hooks: { Stop: [{ hooks: [{ type: "command", command: "node", args: ["/x/other-tool/dist/hook.mjs"] }] }] } };
  assert.deepEqual(removeSkillgate(foreign, HOOK), foreign);
  // Our handler inside a user's group: only the handler goes.
  const mixed = { hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }, handler] }] } };
  assert.deepEqual(removeSkillgate(mixed, HOOK), { hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] } });
});

test("the plugin's hooks/hooks.json registers the same events and matchers as install", () => {
  const plugin = JSON.parse(fs.readFileSync(path.join(ROOT, "hooks", "hooks.json"), "utf8")) as { hooks: Record<string, { matcher?: string; hooks: { command: string; args: string[] }[] }[]> };
  assert.deepEqual(Object.keys(plugin.hooks).sort(), Object.keys(HOOK_EVENTS).sort());
  for (const [event, groups] of Object.entries(plugin.hooks)) {
    assert.equal(groups.length, 1);
    assert.equal(groups[0]!.matcher, HOOK_EVENTS[event], event);
    assert.deepEqual(groups[0]!.hooks[0]!.args, ["${CLAUDE_PLUGIN_ROOT}/dist/hook.mjs"]);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, ".claude-plugin", "plugin.json"), "utf8")) as { name: string; version: string };
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
  assert.equal(manifest.name, "skillgate");
  assert.equal(manifest.version, pkg.version);
});

test("install writes a backup, keeps the rest, and a second run changes nothing", async (t) => {
  const p = project(USER_SETTINGS);
  const first = await run(t, () => installMain(["--project", p.dir, "--runtime", "node"], ROOT));
  assert.equal(first.code, 0, first.out);
  assert.deepEqual(p.read(), addSkillgate(USER_SETTINGS, makeHandler(process.execPath, HOOK)));
  assert.equal(p.backups().length, 1);
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(path.dirname(p.file), p.backups()[0]!), "utf8")), USER_SETTINGS);
  const bytes = fs.readFileSync(p.file, "utf8");
  const second = await run(t, () => installMain(["--project", p.dir, "--runtime", "node"], ROOT));
  assert.equal(second.code, 0);
  assert.match(second.out, /already installed; nothing to change/);
  assert.equal(fs.readFileSync(p.file, "utf8"), bytes);
  assert.equal(p.backups().length, 1, "no backup when nothing changes");

  const un = await run(t, () => uninstallMain(["--project", p.dir], ROOT));
  assert.equal(un.code, 0, un.out);
  assert.deepEqual(p.read(), USER_SETTINGS);
  assert.equal(p.backups().length, 2);
});

test("install creates a missing settings file; the default runtime is bun when installed, node otherwise", async (t) => {
  const p = project();
  const r = await run(t, () => installMain(["--project", p.dir], ROOT));
  assert.equal(r.code, 0, r.out);
  const cmd = (p.read() as { hooks: { Stop: { hooks: { command: string }[] }[] } }).hooks.Stop[0]!.hooks[0]!.command;
  const rt = pickRuntime(undefined, ROOT);
  assert.ok(rt.ok);
  assert.equal(cmd, rt.path);
  assert.ok(path.isAbsolute(cmd));
  assert.equal(p.backups().length, 0, "nothing to back up");
});

test("--runtime bun without bun installed is a clear error; unknown runtimes are refused", async (t) => {
  const fakeRoot = tmp("root");
  fs.mkdirSync(path.join(fakeRoot, "dist"));
  fs.writeFileSync(path.join(fakeRoot, "dist", "hook.mjs"), "");
  fs.writeFileSync(path.join(fakeRoot, "package.json"), JSON.stringify({ name: "skillgate" }));
  const p = project();
  const r = await run(t, () => installMain(["--project", p.dir, "--runtime", "bun"], fakeRoot));
  assert.equal(r.code, 3);
  assert.match(r.out, /--runtime bun: no working bun binary/);
  assert.equal(fs.existsSync(p.file), false);
  // Default without bun: this node.
  const d = pickRuntime(undefined, fakeRoot);
  assert.deepEqual(d, { ok: true, path: process.execPath, name: "node" });
  // A usage error (exit 2, printed by cli/main.ts), checked against the spec before anything runs.
  await assert.rejects(() => installMain(["--project", p.dir, "--runtime", "deno"], ROOT), /--runtime must be one of: bun, node/);
});

test("a settings file that is not valid JSON is refused: message names file and error, nothing written", async (t) => {
  const p = project('{ "model": "opus", }');
  for (const verb of [installMain, uninstallMain]) {
    const r = await run(t, () => verb(["--project", p.dir], ROOT));
    assert.equal(r.code, 3);
    assert.ok(r.out.includes(p.file), r.out);
    assert.match(r.out, /not valid JSON \(.+\)/);
    assert.match(r.out, /Nothing was written/);
  }
  assert.equal(fs.readFileSync(p.file, "utf8"), '{ "model": "opus", }');
  assert.deepEqual(p.backups(), []);
  const shape = project({ hooks: { Stop: { hooks: [] } } });
  const r = await run(t, () => installMain(["--project", shape.dir], ROOT));
  assert.equal(r.code, 3);
  assert.match(r.out, /"hooks.Stop" is not an array/);
});

test("--dry-run prints a diff and writes nothing", async (t) => {
  const p = project(USER_SETTINGS);
  const before = fs.readFileSync(p.file, "utf8");
  const r = await run(t, () => installMain(["--project", p.dir, "--runtime", "node", "--dry-run"], ROOT));
  assert.equal(r.code, 0);
  assert.match(r.out, /^\+\+\+ .*\(after install\)$/m);
  assert.match(r.out, /^\+ +"matcher": "Bash\|Write\|Edit\|MultiEdit\|NotebookEdit\|Agent\|Task",$/m);
  assert.match(r.out, /dry run: nothing written/);
  assert.equal(fs.readFileSync(p.file, "utf8"), before);
  assert.deepEqual(p.backups(), []);
});

test("lineDiff marks removed and added lines and folds far context", () => {
  const a = ["1", "2", "3", "4", "5", "6", "7", "8"].join("\n");
  const b = ["1", "2", "3", "4", "5", "6", "x", "8"].join("\n");
  assert.deepEqual(lineDiff(a, b), ["  ...", "  5", "  6", "- 7", "+ x", "  8"]);
});

test("--user edits ~/.claude/settings.json", async (t) => {
  const home = tmp("home");
  setEnv(t, "HOME", home);
  const r = await run(t, () => installMain(["--user", "--runtime", "node"], ROOT));
  assert.equal(r.code, 0, r.out);
  assert.ok(fs.existsSync(path.join(home, ".claude", "settings.json")));
  await assert.rejects(() => installMain(["--user", "--project", home], ROOT), /--project and --user cannot be used together/);
});

test("doctor: all good on an installed project; plain-words problems otherwise", async (t) => {
  setEnv(t, "SKILLGATE_STATE", tmp("state"));
  setEnv(t, "HOME", tmp("home"));
  const p = project();
  await run(t, () => installMain(["--project", p.dir, "--runtime", "node"], ROOT));
  const good = await run(t, () => doctorMain(["--project", p.dir], ROOT));
  assert.equal(good.code, 0, good.out);
  assert.match(good.out, /hook command starts and answers/);
  assert.match(good.out, /all good/);

  // A lost event, a runtime that is gone, a broken table: each named.
  const s = p.read() as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  delete s.hooks.Stop;
  for (const groups of Object.values(s.hooks)) groups[0]!.hooks[0]!.command = "/nonexistent/node";
  fs.writeFileSync(p.file, JSON.stringify(s));
  const broken = path.join(tmp("table"), "triggers.json");
  fs.writeFileSync(broken, "{ nope");
  setEnv(t, "SKILLGATE_TABLE", broken);
  const sick = await run(t, () => doctorMain(["--project", p.dir], ROOT));
  assert.equal(sick.code, 1);
  assert.match(sick.out, /no skillgate hook for Stop/);
  assert.match(sick.out, /hook command does not start \(\/nonexistent\/node/);
  assert.match(sick.out, /trigger table does not validate: .*not valid JSON/);

  const none = await run(t, () => doctorMain(["--project", project().dir], ROOT));
  assert.equal(none.code, 1);
  assert.match(none.out, /no skillgate hooks in .*run skillgate install/);
});
