// The package as a user gets it: `npm pack`, install the tarball into a fresh
// project (offline: skillgate's dependencies are copied from this checkout's
// node_modules, nothing comes from a registry), then init, install, doctor, a
// hook event through the installed settings' own command, the project's cases
// and mutation, uninstall. Run: node --import tsx --test test/pack.test.ts
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";

const ROOT = path.resolve(import.meta.dirname, "..");
const WORK = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-pack-"));
const HOME = path.join(WORK, "home");
const XDG = path.join(WORK, "xdg-state");
const PROJECT = path.join(WORK, "project");
const PKG = path.join(PROJECT, "node_modules", "skillgate");
const SETTINGS = path.join(PROJECT, ".claude", "settings.json");

/** The user's settings before skillgate, hand formatted: uninstall must give these bytes back. */
const USER_SETTINGS =
  '{\n    "model": "opus",\n    "permissions": { "allow": ["Bash(ls:*)"] },\n    "hooks": {\n        "Stop": [ { "hooks": [ { "type": "command", "command": "true" } ] } ]\n    }\n}\n';

/** A clean environment: private HOME, npm cache and state; no skillgate variables from the caller. */
const ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME,
  XDG_STATE_HOME: XDG,
  npm_config_cache: path.join(WORK, "npm-cache"),
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
};

function sh(cmd: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}, input?: string): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env: { ...ENV, ...extra }, encoding: "utf8", input, timeout: 120_000 });
}
const show = (r: SpawnSyncReturns<string>) => `exit ${r.status}\n${r.stdout}\n${r.stderr}`;
/** The installed CLI, as `npx skillgate` would run it. */
const skillgate = (...args: string[]) => sh(path.join(PROJECT, "node_modules", ".bin", "skillgate"), args, PROJECT);

// ~1 MB of temp files; SKILLGATE_KEEP_PACK=1 keeps them for a look after a failure.
after(() => process.env.SKILLGATE_KEEP_PACK || fs.rmSync(WORK, { recursive: true, force: true }));

let tarball = "";
let files: string[] = [];

before(() => {
  fs.mkdirSync(HOME, { recursive: true });
  // Pack a copy without dist/: prepack must build it (and the checkout's own dist/, which other tests use, stays put).
  const src = path.join(WORK, "src");
  // (the e2e folders, the registry test and .ci hold the client binaries and Bun: hundreds of MB nothing packs)
  const skip = /^(node_modules|dist|dist\.tmp-.*|dist\.old-.*|\.git|state|e2e.*|registry|\.ci|\.tmp)$/;
  fs.cpSync(ROOT, src, { recursive: true, filter: (f) => !skip.test(path.relative(ROOT, f).split(path.sep)[0] ?? "") });
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(src, "node_modules"));
  assert.equal(fs.existsSync(path.join(src, "dist")), false);
  const pack = spawnSync("npm", ["pack", "--json", "--pack-destination", WORK], {
    cwd: src,
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false" },
    timeout: 180_000,
  });
  assert.equal(pack.status, 0, show(pack));
  const info = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("["))) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(WORK, info[0]?.filename ?? "");
  files = info[0]?.files.map((f) => f.path) ?? [];

  // A fresh project with skillgate's dependencies already in node_modules (copied, not fetched).
  fs.mkdirSync(path.join(PROJECT, ".claude"), { recursive: true });
  fs.writeFileSync(path.join(PROJECT, "package.json"), JSON.stringify({ name: "team-project", version: "1.0.0", private: true }, null, 2));
  fs.writeFileSync(SETTINGS, USER_SETTINGS);
  const deps = Object.keys((JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies);
  for (const d of deps)
    fs.cpSync(fs.realpathSync(path.join(ROOT, "node_modules", d)), path.join(PROJECT, "node_modules", d), { recursive: true, dereference: true });
  // As the README says for a team: the tarball in the repository (vendor/), so every clone's npm ci finds it.
  fs.mkdirSync(path.join(PROJECT, "vendor"));
  fs.copyFileSync(tarball, path.join(PROJECT, "vendor", path.basename(tarball)));
  const inst = sh("npm", ["install", "--save-dev", "--offline", "--no-audit", "--no-fund", `./vendor/${path.basename(tarball)}`], PROJECT);
  assert.equal(inst.status, 0, show(inst));
  assert.doesNotMatch(inst.stderr, /Cannot find module|ERR_MODULE_NOT_FOUND|npm error/, "no failing prepare on a tarball install");
  const spec = (JSON.parse(fs.readFileSync(path.join(PROJECT, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies
    .skillgate;
  assert.equal(spec, `file:vendor/${path.basename(tarball)}`, "a path inside the project, which every clone has");
});

test("the tarball holds what a user needs and nothing from the checkout's workshop", () => {
  for (const f of [
    "LICENSE",
    "package.json",
    "bin/skillgate.mjs",
    "dist/hook.mjs",
    "dist/hook-codex.cjs",
    "dist/hook-gemini.cjs",
    "dist/hook-copilot.cjs",
    "dist/hook-cursor.cjs",
    "dist/cli.mjs",
    "hooks/hooks.json",
    "hooks/launcher.mjs",
    "triggers.json",
    "triggers.schema.json",
    ".claude-plugin/plugin.json",
    "templates/starter/triggers.json",
    "skills/commit/SKILL.md",
    "cases/fixtures/pre-tool-use-bash.json",
  ]) {
    assert.ok(files.includes(f), `${f} is in the tarball`);
  }
  for (const f of files) assert.doesNotMatch(f, /^(state|test|scripts|e2e|node_modules|docs)\/|\.ts$/, `${f} does not belong in the tarball`);
  assert.match(fs.readFileSync(path.join(PKG, "LICENSE"), "utf8"), /MIT License[\s\S]*skillgate contributors/);
  // prepare is a no-op outside a git checkout (scripts/ is not shipped).
  const prep = sh("npm", ["run", "prepare"], PKG);
  assert.equal(prep.status, 0, show(prep));
  assert.equal(fs.existsSync(path.join(PKG, "dist.tmp")), false);
});

test("init, install, doctor, a hook event, cases, mutate, uninstall — from the installed package", () => {
  // init: the project's own table, skills where the Skill tool looks, starter cases.
  const init = skillgate("init");
  assert.equal(init.status, 0, show(init));
  const table = JSON.parse(fs.readFileSync(path.join(PROJECT, ".claude", "triggers.json"), "utf8")) as {
    $schema: string;
    rows: { id: string; skill?: string }[];
  };
  assert.ok(fs.existsSync(path.resolve(PROJECT, ".claude", table.$schema)), `$schema ${table.$schema} resolves`);
  for (const s of new Set(table.rows.flatMap((r) => (r.skill ? [r.skill] : []))))
    assert.ok(fs.existsSync(path.join(PROJECT, ".claude", "skills", s, "SKILL.md")), `skill ${s} copied to .claude/skills/`);

  // install: portable, committable settings.
  const inst = skillgate("install");
  assert.equal(inst.status, 0, show(inst));
  const text = fs.readFileSync(SETTINGS, "utf8");
  assert.equal(text.includes(WORK), false, "no temp path in the committed settings");
  assert.doesNotMatch(text, /"(\/|[A-Za-z]:\\\\)/, "no absolute path in the committed settings");
  assert.ok(text.startsWith('{\n    "model": "opus",\n    "permissions": { "allow": ["Bash(ls:*)"] },'), "the user's formatting is kept");

  const doctor = skillgate("doctor");
  assert.equal(doctor.status, 0, show(doctor));
  assert.match(doctor.stdout, /all good/);

  // One event through the settings' own PreToolUse command, as Claude Code runs it (exec form, ${CLAUDE_PROJECT_DIR} substituted).
  const settings = JSON.parse(text) as { hooks: Record<string, { matcher?: string; hooks: { command: string; args: string[] }[] }[]> };
  const pre = settings.hooks.PreToolUse?.find((g) => g.matcher?.includes("Bash"))?.hooks[0];
  assert.ok(pre, "a PreToolUse handler for Bash");
  const args = pre.args.map((a) => a.split("${CLAUDE_PROJECT_DIR}").join(PROJECT));
  const event = (e: Record<string, unknown>) =>
    JSON.stringify({ session_id: "pack-test-1", transcript_path: "", cwd: PROJECT, permission_mode: "default", ...e });
  const hook = (e: Record<string, unknown>) => {
    const r = sh(pre.command, args, PROJECT, { CLAUDE_PROJECT_DIR: PROJECT }, event(e));
    assert.equal(r.status, 0, show(r));
    return r.stdout;
  };
  const commit = { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git commit -m x" }, tool_use_id: "t1" };
  const denied = hook(commit);
  assert.match(denied, /"permissionDecision":"deny"/);
  assert.match(denied, /Skill/, "the deny tells the model to call the Skill tool");
  hook({
    hook_event_name: "PostToolUse",
    tool_name: "Skill",
    tool_input: { skill: "commit" },
    tool_response: { success: true, commandName: "commit" },
    tool_use_id: "t2",
  });
  assert.doesNotMatch(hook(commit), /deny/, "the Skill call lifted the gate");

  // State outside the package, in the per-user folder, private.
  assert.ok(fs.existsSync(path.join(XDG, "skillgate", "pack-test-1.json")), "session state in $XDG_STATE_HOME/skillgate");
  assert.equal(fs.statSync(path.join(XDG, "skillgate")).mode & 0o777, 0o700);
  assert.equal(fs.existsSync(path.join(PKG, "state")), false, "nothing written inside the package");

  // The project's own cases, named explicitly and found by default (.claude/skillgate/cases beside a project
  // table, fixtures from the package); then the mutation proof on that table, once (it replays every case per row).
  for (const args of [["--dir", ".claude/skillgate/cases", "--table", ".claude/triggers.json"], []]) {
    const cases = skillgate("cases", ...args);
    assert.equal(cases.status, 0, show(cases));
    assert.match(cases.stdout, /(\d+)\/\1 cases pass/);
  }
  const mutate = skillgate("mutate");
  assert.equal(mutate.status, 0, show(mutate));
  assert.match(mutate.stdout, new RegExp(`on claude-code, every one of ${table.rows.length} rows its cases can reach turns at least one case red\n`));
  assert.doesNotMatch(mutate.stdout, /rows that turn no case red/);

  // uninstall: the user's bytes back, the launcher gone, the rest of .claude kept.
  const un = skillgate("uninstall");
  assert.equal(un.status, 0, show(un));
  assert.equal(fs.readFileSync(SETTINGS, "utf8"), USER_SETTINGS, "settings byte-identical after uninstall");
  assert.equal(fs.existsSync(path.join(PROJECT, ".claude", "hooks")), false);
  assert.deepEqual(fs.readdirSync(path.join(PROJECT, ".claude")).sort(), ["settings.json", "skillgate", "skills", "triggers.json"]);
});

test("init --extends from the installed package: a table extending the default, its cases green, lint clean", () => {
  // A second project sharing the first one's node_modules (skillgate installed there).
  const other = path.join(WORK, "extends-project");
  fs.mkdirSync(other);
  fs.symlinkSync(path.join(PROJECT, "node_modules"), path.join(other, "node_modules"));
  const run = (...args: string[]) => sh(path.join(other, "node_modules", ".bin", "skillgate"), args, other);
  const init = run("init", "--extends");
  assert.equal(init.status, 0, show(init));
  const table = JSON.parse(fs.readFileSync(path.join(other, ".claude", "triggers.json"), "utf8")) as { $schema: string; extends: string; rows: unknown[] };
  assert.deepEqual([table.$schema, table.extends, table.rows], ["../node_modules/skillgate/triggers.schema.json", "default", []]);
  const casesDir = path.join(other, ".claude", "skillgate", "cases");
  const first = fs.readdirSync(casesDir).find((f) => f.endsWith(".json")) ?? "";
  const ref = (JSON.parse(fs.readFileSync(path.join(casesDir, first), "utf8")) as { $schema: string }).$schema;
  assert.ok(fs.existsSync(path.resolve(casesDir, ref)), `case $schema ${ref} resolves`);
  // On Claude Code: what this adds is the installed package (the table, the cases and their fixtures found through
  // node_modules/skillgate); the same extending table's cases on every host are test/init.test.ts's (~4 s of CPU here).
  const cases = run("cases", "--host", "claude-code");
  assert.equal(cases.status, 0, show(cases));
  assert.match(cases.stdout, /(\d+)\/\1 cases pass/);
  const lint = run("lint");
  assert.equal(lint.status, 0, show(lint));
  assert.match(lint.stdout, /0 errors/);
});
