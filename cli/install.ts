// `skillgate install | uninstall | doctor`: put skillgate's hooks into a
// Claude Code settings file, take exactly those out again, and check that an
// installation works. What a registration looks like and where the client
// looks lives in hooks/hosts/claude-code/install.ts; this file does the I/O.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { colours, EXIT, parseArgs, UserError, type ArgsOf } from "./args.js";
import { compiledTable, tableFileOf, tableHeader, tableJson } from "./table-file.js";
import { contentHash, resolveTable, type TableResolution } from "../hooks/io/table-load.js";
import { stateDirOf } from "../hooks/io/state-dir.js";
import {
  FAIL_CLOSED_EVENTS, HOOK_EVENTS, HOOK_TIMEOUT_S, ON_FAILURE_SINCE, SettingsShapeError, honoursOnFailure, absolutePathsIn, clientSkillFile, clientSkillRoots, expandArgs, hookPathOf, inspectSettings,
  installIntoText, launcherFileOf, launcherSourceOf, makeHandler, portableHandler, projectSettingsFiles, settingsFileFor,
  uninstallFromText, type Handler, type Scope,
} from "../hooks/hosts/claude-code/install.js";
import { JsonTextError } from "../hooks/hosts/claude-code/settings-text.js";
import type { CompiledTable } from "../hooks/core/table/compile.js";
import { gitHooksVerb } from "./git-hooks.js";

export {
  FAIL_CLOSED_EVENTS, HOOK_EVENTS, HOOK_TIMEOUT_S, ON_FAILURE_SINCE, SettingsShapeError, honoursOnFailure, addSkillgate, hookPathOf, inspectSettings, isSkillgateHandler, makeHandler, portableHandler, removeSkillgate,
  type Handler,
} from "../hooks/hosts/claude-code/install.js";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined);
const home = (): string => process.env.HOME || os.homedir();

// ---------------------------------------------------------------- runtime

/** How to get a Bun when none is found (skillgate does not download one: it is ~100 MB). */
export const GET_BUN = "install Bun (npm install --global bun) or set SKILLGATE_BUN to its binary";

/** `exe --version` answers with a version: a working bun (npm's bun/bin/bun.exe is a placeholder until its postinstall ran). */
function runsBun(exe: string): boolean {
  const r = spawnSync(exe, ["--version"], { encoding: "utf8", timeout: 5000 });
  return r.status === 0 && /^\d+\.\d+/.test(r.stdout.trim());
}

/**
 * A working bun, or undefined: $SKILLGATE_BUN when set (it alone: an explicit choice
 * that does not run is not replaced by another bun), else `bun` on PATH, else a bun
 * package the project installed itself (node_modules/bun, or its platform package).
 */
export function findBun(root: string): string | undefined {
  const exe = process.platform === "win32" ? "bun.exe" : "bun";
  const pinned = process.env.SKILLGATE_BUN;
  if (pinned) return runsBun(pinned) ? fs.realpathSync(pinned) : undefined;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const c = dir && path.join(dir, exe);
    if (c && fs.existsSync(c) && runsBun(c)) return fs.realpathSync(c);
  }
  let pkgDir: string;
  try {
    pkgDir = path.dirname(createRequire(path.join(root, "package.json")).resolve("bun/package.json"));
  } catch {
    return undefined;
  }
  const candidates = [path.join(pkgDir, "bin", "bun.exe"), path.join(pkgDir, "bin", "bun")];
  try {
    // Without postinstall the native binary is still in the platform package.
    const plat = createRequire(path.join(pkgDir, "package.json"));
    for (const name of Object.keys((JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")) as Json).optionalDependencies ?? {})) {
      try {
        candidates.push(path.join(path.dirname(plat.resolve(`${name}/package.json`)), "bin", exe));
      } catch {
        /* not this platform */
      }
    }
  } catch {
    /* unreadable package.json: the bin/ candidates remain */
  }
  for (const c of candidates) if (fs.existsSync(c) && runsBun(c)) return fs.realpathSync(c);
  return undefined;
}

/** Absolute runtime for the handler: node unless Bun is asked for (--runtime bun), then the bun findBun finds. */
export function pickRuntime(wanted: string | undefined, root: string): { ok: true; path: string; name: string } | { ok: false; error: string } {
  if (wanted === undefined || wanted === "node") return { ok: true, path: process.execPath, name: "node" };
  if (wanted !== "bun") return { ok: false, error: `--runtime must be "bun" or "node", not "${wanted}"` };
  const bun = findBun(root);
  if (bun) return { ok: true, path: bun, name: "bun" };
  const pinned = process.env.SKILLGATE_BUN;
  return {
    ok: false,
    error: pinned
      ? `--runtime bun: SKILLGATE_BUN=${pinned} is not a working bun (\`${pinned} --version\` did not answer with a version); point it at a bun binary, unset it to use the bun on PATH, or use --runtime node`
      : `--runtime bun: no bun on PATH (nor SKILLGATE_BUN, nor a bun package in the project): ${GET_BUN}, then run this again; or use --runtime node`,
  };
}


// ---------------------------------------------------------------- where

export type Where = { ok: true; file: string; projectDir: string; scope: Scope } | { ok: false; error: string };

/**
 * --project DIR (default: here) → .claude/settings.json; --local → .claude/settings.local.json;
 * --user → ~/.claude/settings.json. Exclusive options are already refused by the verb's spec.
 */
export function settingsFileOf(o: { project: string | undefined; local: boolean; user: boolean }): Where {
  if (o.user) return { ok: true, file: settingsFileFor("user", process.cwd(), home()), projectDir: process.cwd(), scope: "user" };
  const dir = path.resolve(o.project ?? ".");
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return { ok: false, error: `--project ${dir}: no such directory` };
  const scope: Scope = o.local ? "local" : "project";
  return { ok: true, file: settingsFileFor(scope, dir, home()), projectDir: dir, scope };
}

const whereOf = (f: ArgsOf<"install" | "uninstall" | "doctor">): Where => settingsFileOf({ project: f.get("project"), local: f.has("local"), user: f.has("user") });

/**
 * Is this skillgate the project's own dependency (node_modules/skillgate here
 * or in a parent), or the project itself? Only then can committed settings
 * point at it by a path every clone has.
 */
export function isProjectDependency(projectDir: string, root: string): boolean {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  if (real(projectDir) === real(root)) return true;
  for (let dir = path.resolve(projectDir); ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "node_modules", "skillgate");
    if (fs.existsSync(pkg)) return real(pkg) === real(root);
    if (path.dirname(dir) === dir) return false;
  }
}

// ---------------------------------------------------------------- settings file I/O

type Read = { ok: true; settings: Json; text: string | undefined } | { ok: false; error: string };

export function readSettings(file: string): Read {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, settings: {}, text: undefined };
    return { ok: false, error: `cannot read ${file}: ${(e as Error).message}` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `${file} is not valid JSON (${(e as Error).message})` };
  }
  const settings = obj(parsed);
  if (!settings) return { ok: false, error: `${file} does not hold a JSON object` };
  return { ok: true, settings, text };
}

/** Minimal line diff (LCS) with 2 lines of context; settings files are small. */
export function lineDiff(before: string, after: string): string[] {
  const a = before.split("\n"), b = after.split("\n");
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: string[] = [];
  let i = 0, j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push(`  ${a[i++]}`), j++;
    // Removals before additions, like diff(1).
    else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push(`- ${a[i++]}`);
    else ops.push(`+ ${b[j++]}`);
  }
  const near = (k: number) => ops.slice(Math.max(0, k - 2), k + 3).some((l) => !l.startsWith("  "));
  const out: string[] = [];
  ops.forEach((l, k) => (near(k) ? out.push(l) : out.at(-1) !== "  ..." && out.push("  ...")));
  return out;
}


/** Per settings file: a folder name in the state folder (backups, install records). */
function keyOf(file: string): string {
  return `${path.basename(path.dirname(path.dirname(file)))}-${path.basename(file, ".json")}-${contentHash(path.resolve(file))}`.replace(/[^\w.-]/g, "_");
}

export const BACKUPS_KEPT = 3;

/** A copy of the file before we change it, in the state folder (never beside the user's settings); the last 3 are kept. */
function backup(file: string, text: string, stateDir: string): string {
  const dir = path.join(stateDir, "backups", keyOf(file));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const b = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}.json`);
  fs.writeFileSync(b, text, { mode: 0o600 });
  const all = fs.readdirSync(dir).sort();
  for (const old of all.slice(0, Math.max(0, all.length - BACKUPS_KEPT))) fs.rmSync(path.join(dir, old), { force: true });
  return b;
}

/**
 * What an install changed, so an uninstall with nothing else changed puts back
 * the exact bytes (or no file) that were there. Kept in the state folder.
 */
interface InstallRecord {
  file: string;
  /** The file's text before the first install; null: there was no file. */
  before: string | null;
  /** The text install wrote. */
  after: string;
  /** Folders and files install created (deepest last), removed again when empty / unchanged. */
  created: string[];
}

const recordFileOf = (file: string, stateDir: string) => path.join(stateDir, "installs", `${keyOf(file)}.json`);

function readRecord(file: string, stateDir: string): InstallRecord | undefined {
  try {
    const r = JSON.parse(fs.readFileSync(recordFileOf(file, stateDir), "utf8")) as InstallRecord;
    return r.file === path.resolve(file) && typeof r.after === "string" ? r : undefined;
  } catch {
    return undefined;
  }
}

function writeRecord(r: InstallRecord, stateDir: string): void {
  try {
    const f = recordFileOf(r.file, stateDir);
    fs.mkdirSync(path.dirname(f), { recursive: true, mode: 0o700 });
    fs.writeFileSync(f, JSON.stringify(r, null, 2), { mode: 0o600 });
  } catch {
    /* without a record uninstall still removes our entries by minimal edits */
  }
}

/** Temp file + rename: Claude Code never reads a half-written settings file. */
function writeAtomicKeepMode(file: string, text: string): void {
  const mode = fs.existsSync(file) ? fs.statSync(file).mode & 0o777 : 0o644;
  const tmp = `${file}.skillgate-${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode });
  fs.renameSync(tmp, file);
}

/** mkdir -p, returning the folders it created (outermost first). */
function mkdirs(dir: string): string[] {
  const made: string[] = [];
  for (let d = path.resolve(dir); !fs.existsSync(d); d = path.dirname(d)) made.unshift(d);
  fs.mkdirSync(dir, { recursive: true });
  return made;
}

/** Remove the given paths (deepest first) when they are empty folders. */
function removeEmptyDirs(dirs: string[]): void {
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    try {
      fs.rmdirSync(d);
    } catch {
      /* not empty, or gone: leave it */
    }
  }
}

/** A configuration problem: one line, exit 3. */
function fail(verb: string, error: string): number {
  console.error(`skillgate ${verb}: ${error.split("\n").join(" ")}`);
  return EXIT.config;
}

// ---------------------------------------------------------------- skills

export interface SkillCheck {
  /** Rows whose skill Claude Code cannot load, with the skill's name. */
  missing: { row: string; skill: string }[];
  roots: string[];
}

/** Every row's skill must be loadable by the client's Skill tool, or the deny's advice ends in "Unknown skill". */
export function checkSkills(t: CompiledTable, projectDir: string | undefined): SkillCheck {
  const roots = clientSkillRoots(projectDir, home());
  const missing = t.rows.flatMap((r) => (r.row.skill && !clientSkillFile(r.row.skill, roots) ? [{ row: r.row.id, skill: r.row.skill }] : []));
  return { missing, roots };
}

/**
 * Copy skills into `dest` (never over the user's own): from the table's
 * skillsDir, else skillgate's own skills. Returns what was copied and what no
 * source has.
 */
export function copySkills(names: string[], sources: string[], dest: string): { copied: string[]; unknown: string[]; created: string[] } {
  const copied: string[] = [], unknown: string[] = [], created: string[] = [];
  for (const name of [...new Set(names)]) {
    const to = path.join(dest, name);
    if (fs.existsSync(path.join(to, "SKILL.md"))) continue;
    const from = sources.map((s) => path.join(s, name)).find((d) => fs.existsSync(path.join(d, "SKILL.md")));
    if (!from) {
      unknown.push(name);
      continue;
    }
    created.push(...mkdirs(dest));
    fs.cpSync(from, to, { recursive: true, errorOnExist: false, force: false });
    copied.push(name);
  }
  return { copied, unknown, created };
}

function tableFor(projectDir: string, root: string, flag?: string): TableResolution {
  return resolveTable({ env: { ...process.env, CLAUDE_PROJECT_DIR: projectDir }, packageRoot: root, flag });
}

// ---------------------------------------------------------------- verbs

/** Another host's verb, then the project's git hooks (hooks/io/git-hooks.ts), which every host shares. */
async function otherHost(verb: "install" | "uninstall" | "doctor", f: { get(name: string): string | undefined; has(name: string): boolean }, args: string[], root: string): Promise<number | undefined> {
  const r = await otherHostVerb(verb, f, args, root);
  if (r === undefined || r !== EXIT.ok) return r;
  const problems = gitHooksVerb({ verb, project: f.has("user") ? undefined : (f.get("project") ?? "."), root, dryRun: f.has("dry-run"), say: (l) => console.log(l) });
  return problems ? EXIT.findings : r;
}

/** Another host's install lives in its own folder (hooks/hosts/<host>/install.ts). */
async function otherHostVerb(verb: "install" | "uninstall" | "doctor", f: { get(name: string): string | undefined; has(name: string): boolean }, args: string[], root: string): Promise<number | undefined> {
  if (f.get("host") === "opencode") return opencodeVerb(verb, f, root);
  if (f.get("host") === "copilot") {
    const c = await import("../hooks/hosts/copilot/install.js");
    return verb === "doctor" ? c.copilotDoctorMain(args, root) : c.copilotInstallMain(verb, args, root);
  }
  if (f.get("host") === "cursor") {
    if (verb === "doctor") throw new UserError("skillgate doctor --host cursor: not available (the Cursor adapter is proven on documented payloads only)");
    return (await import("../hooks/hosts/cursor/install.js")).cursorInstallMain(verb, args, root);
  }
  if (f.get("host") === "gemini") {
    const gemini = await import("../hooks/hosts/gemini/install.js");
    return verb === "doctor" ? gemini.geminiDoctorMain(args, root) : gemini.geminiInstallMain(verb, args, root);
  }
  if (f.get("host") !== "codex") return undefined;
  const codex = await import("../hooks/hosts/codex/install.js");
  return verb === "doctor" ? codex.codexDoctorMain(args, root) : codex.codexInstallMain(verb, args, root);
}

async function opencodeVerb(verb: "install" | "uninstall" | "doctor", f: { get(name: string): string | undefined; has(name: string): boolean }, root: string): Promise<number> {
  const oc = await import("../hooks/hosts/opencode/install.js");
  const project = f.get("project");
  const target = { ...(project !== undefined ? { project } : {}), user: f.has("user") };
  try {
    if (verb === "doctor") {
      const d = await oc.doctorOpencode(target, root);
      for (const line of d.lines) console.log(line);
      return d.ok ? EXIT.ok : EXIT.findings;
    }
    if (verb === "install") for (const line of await oc.opencodeSkills(target, root, f.has("with-skills"), f.has("dry-run"))) console.log(line);
    const r = verb === "install" ? oc.installOpencode(target, root, f.has("dry-run")) : oc.uninstallOpencode(target, f.has("dry-run"));
    console.log(`${r.action}: ${r.file}`);
    return EXIT.ok;
  } catch (e) {
    return fail(verb, (e as Error).message);
  }
}

export async function installMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("install", args);
  const other = await otherHost("install", f, args, root);
  if (other !== undefined) return other;
  const where = whereOf(f);
  if (!where.ok) return fail("install", where.error);
  const rt = pickRuntime(f.get("runtime"), root);
  if (!rt.ok) return fail("install", rt.error);
  const hookPath = hookPathOf(root, rt.name === "bun" ? "bun" : "node");
  if (!fs.existsSync(hookPath)) return fail("install", `${hookPath} does not exist; build skillgate first (npm run build)`);
  const dryRun = f.has("dry-run");
  const json = f.has("json");
  // With --json, stdout holds one JSON document and the notes go to stderr.
  const say = (line: string): void => (json ? console.error(line) : console.log(line));

  // The settings file first: a broken one is the first thing to fix.
  const r = readSettings(where.file);
  if (!r.ok) return fail("install", `${r.error}.\nNothing was written. Fix the file (or move it away) and run again.`);

  // Project settings get the portable form when skillgate is the project's dependency.
  const portable = where.scope !== "user" && isProjectDependency(where.projectDir, root);
  const handler: Handler = portable ? portableHandler(f.get("runtime") === "bun" ? "bun" : "node") : makeHandler(rt.path, hookPath);
  if (where.scope === "project" && !portable) {
    console.error(
      `skillgate install: warning: skillgate is not installed in this project (${path.join(where.projectDir, "node_modules", "skillgate")}), so the hooks point at ${root} by absolute paths: they work on this machine only.\n` +
        `For settings the team can commit: npm install --save-dev skillgate, then npx skillgate install. For a personal install: skillgate install --local.`,
    );
  } else if (root.split(path.sep).includes("_npx")) {
    // The hooks would point into npx's cache, which npm may clear at any time.
    console.error(`skillgate install: warning: skillgate runs from npx's cache (${root}); the hooks break when that cache is cleared. Install skillgate (npm i -D skillgate, or -g) and run its install instead.`);
  }

  let next: string;
  try {
    next = installIntoText(r.text, handler, hookPath);
  } catch (err) {
    if (!(err instanceof SettingsShapeError) && !(err instanceof JsonTextError)) throw err;
    return fail("install", `${where.file}: ${(err as Error).message}, which Claude Code does not accept either.\nNothing was written. Fix the file and run again.`);
  }

  // The skills the table's rows name must be where the Skill tool finds them.
  const table = tableFor(where.projectDir, root, f.get("table"));
  let compiled: CompiledTable;
  try {
    compiled = await compiledTable(table.file, root);
  } catch (e) {
    return fail("install", `the trigger table (${table.file}, ${table.why}) does not validate: ${(e as Error).message}\nFix it first (skillgate lint).`);
  }
  const skillsDest = where.scope === "user" ? path.join(home(), ".claude", "skills") : path.join(where.projectDir, ".claude", "skills");
  const skills = checkSkills(compiled, where.scope === "user" ? undefined : where.projectDir);
  const created: string[] = [];
  if (skills.missing.length) {
    const list = [...new Set(skills.missing.map((m) => m.skill))];
    if (!f.has("with-skills")) {
      return fail(
        "install",
        `the table ${table.file} (${table.why}) names skills Claude Code cannot load: ${list.join(", ")} (not in ${skills.roots.join(" or ")}).\n` +
          `A deny would tell the model to call the Skill tool, and the client would answer "Unknown skill".\n` +
          `Run skillgate init (it writes a table and copies its skills into .claude/skills/), or install again with --with-skills to copy them into ${skillsDest}.\nNothing was written.`,
      );
    }
    if (dryRun) say(`would copy skills into ${skillsDest}: ${list.join(", ")}`);
    else {
      const c = copySkills(list, [compiled.skillsDir, path.join(root, "skills")], skillsDest);
      if (c.unknown.length) return fail("install", `no source for skills ${c.unknown.join(", ")} (looked in ${compiled.skillsDir} and ${path.join(root, "skills")}); write them into ${skillsDest}/<name>/SKILL.md`);
      created.push(...c.created);
      if (c.copied.length) say(`copied skills into ${skillsDest}: ${c.copied.join(", ")}`);
    }
  }

  const launcher = launcherFileOf(where.projectDir);
  const launcherText = fs.readFileSync(launcherSourceOf(root), "utf8");
  const launcherStale = portable && (!fs.existsSync(launcher) || fs.readFileSync(launcher, "utf8") !== launcherText);
  if (dryRun && json) {
    console.log(JSON.stringify({ file: where.file, changed: next !== r.text, dryRun: true, exists: r.text !== undefined, portable, launcher: launcherStale ? launcher : null, diff: next === r.text ? [] : lineDiff(r.text ?? "", next) }, null, 2));
    return EXIT.ok;
  }
  if (dryRun) {
    if (launcherStale) say(`would write the launcher ${launcher}`);
    if (next === r.text) say(`${where.file}: skillgate hooks are already installed; nothing to change`);
    else {
      say(`--- ${where.file} (${r.text === undefined ? "does not exist" : "now"})\n+++ ${where.file} (after install)`);
      say(lineDiff(r.text ?? "", next).join("\n"));
    }
    say("dry run: nothing written");
    return EXIT.ok;
  }
  if (launcherStale) {
    const existed = fs.existsSync(launcher);
    created.push(...mkdirs(path.dirname(launcher)));
    fs.writeFileSync(launcher, launcherText);
    if (!existed) created.push(launcher);
    say(`${launcher}: launcher written (commit it with ${path.basename(where.file)})`);
  }
  const stateDir = stateDirOf({ env: process.env, packageRoot: root });
  let savedTo: string | null = null;
  if (next === r.text) say(`${where.file}: skillgate hooks are already installed; nothing to change`);
  else {
    const rec = readRecord(where.file, stateDir);
    const fresh = r.text === undefined || uninstallFromText(r.text, hookPath) === r.text;
    const before = rec && rec.after === r.text ? rec.before : fresh ? (r.text ?? null) : undefined;
    const dirsMade = mkdirs(path.dirname(where.file));
    savedTo = r.text !== undefined ? backup(where.file, r.text, stateDir) : null;
    const saved = savedTo ? `; backup: ${savedTo}` : "";
    writeAtomicKeepMode(where.file, next);
    if (before !== undefined) writeRecord({ file: path.resolve(where.file), before, after: next, created: [...(rec?.created ?? []), ...dirsMade, ...created] }, stateDir);
    const how = portable ? `${handler.command} ${handler.args.join(" ")}` : `${rt.name}: ${rt.path} ${hookPath}`;
    say(`${where.file}: skillgate hooks installed for ${Object.keys(HOOK_EVENTS).length} events (${how})${saved}`);
  }
  // Another settings file that registers skillgate too: Claude Code merges them, so every event would run it twice.
  for (const other of otherRegistrations(where, hookPath)) {
    console.error(`skillgate install: warning: skillgate is also installed in ${other.file}: every event now runs it twice; remove one (skillgate uninstall ${other.flags})`);
  }
  gitHooksVerb({ verb: "install", project: where.scope === "user" ? undefined : where.projectDir, root, say });
  if (json) {
    console.log(JSON.stringify({ file: where.file, changed: next !== r.text, dryRun: false, portable, launcher: launcherStale ? launcher : null, backup: savedTo }));
    return EXIT.ok;
  }
  if (portable) {
    // skillgate is the project's dependency: not on PATH, so npx, run from the project (npx resolves from the cwd).
    const here = path.resolve(process.cwd()) === path.resolve(where.projectDir);
    const dir = /[\s'"$`\\]/.test(where.projectDir) ? `'${where.projectDir.replaceAll("'", `'\\''`)}'` : where.projectDir;
    say(`check it with: ${here ? "" : `cd ${dir} && `}npx skillgate doctor${where.scope === "local" ? " --local" : ""}`);
  } else {
    const scopeFlag = where.scope === "user" ? " --user" : ` --project ${where.projectDir}${where.scope === "local" ? " --local" : ""}`;
    say(`check it with: skillgate doctor${scopeFlag}`);
  }
  return EXIT.ok;
}

/** The other settings files Claude Code reads for this project that already hold skillgate's hooks, with the uninstall flags for each. */
function otherRegistrations(where: { file: string; projectDir: string; scope: string }, hookPath: string): { file: string; flags: string }[] {
  const [projectFile, localFile] = projectSettingsFiles(where.projectDir);
  const candidates = [
    { file: projectFile ?? "", flags: `--project ${where.projectDir}` },
    { file: localFile ?? "", flags: `--project ${where.projectDir} --local` },
    { file: settingsFileFor("user", where.projectDir, home()), flags: "--user" },
  ];
  return candidates.filter((c) => {
    if (!c.file || path.resolve(c.file) === path.resolve(where.file)) return false;
    const s = readSettings(c.file);
    return s.ok && s.text !== undefined && inspectSettings(s.settings, hookPath).handlers.size > 0;
  });
}

export async function uninstallMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("uninstall", args);
  const other = await otherHost("uninstall", f, args, root);
  if (other !== undefined) return other;
  const where = whereOf(f);
  if (!where.ok) return fail("uninstall", where.error);
  const dryRun = f.has("dry-run");
  const json = f.has("json");
  const say = (line: string): void => (json ? console.error(line) : console.log(line));
  gitHooksVerb({ verb: "uninstall", project: where.scope === "user" ? undefined : where.projectDir, root, dryRun, say });
  const done = (o: { changed: boolean; diff?: string[]; backup?: string | null; removedFile?: boolean }) => {
    // The report is stdout's one JSON document (say() sends notes to stderr under --json).
    if (json) console.log(JSON.stringify({ file: where.file, dryRun, ...o }, null, o.diff ? 2 : undefined));
    return EXIT.ok;
  };
  const hookPath = hookPathOf(root);
  const r = readSettings(where.file);
  if (!r.ok) return fail("uninstall", `${r.error}.\nNothing was written. Fix the file (or move it away) and run again.`);
  if (r.text === undefined) {
    say(`${where.file} does not exist: no skillgate hooks in it`);
    return done({ changed: false });
  }
  const stateDir = stateDirOf({ env: process.env, packageRoot: root });
  const rec = readRecord(where.file, stateDir);
  // Nothing changed since our install: the exact bytes (or absence) from before it.
  const exact = rec && rec.after === r.text;
  let next: string | null;
  try {
    next = exact ? rec.before : uninstallFromText(r.text, hookPath);
  } catch (err) {
    return fail("uninstall", `${where.file}: ${(err as Error).message}.\nNothing was written. Fix the file and run again.`);
  }
  if (next === r.text) {
    say(`${where.file}: no skillgate hooks in it; nothing to change`);
    return done({ changed: false });
  }
  if (dryRun && json) return done({ changed: true, removedFile: next === null, diff: lineDiff(r.text, next ?? "") });
  if (dryRun) {
    say(`--- ${where.file} (now)\n+++ ${where.file} (after uninstall${next === null ? ": removed, it did not exist before install" : ""})`);
    say(lineDiff(r.text, next ?? "").join("\n"));
    say("dry run: nothing written");
    return EXIT.ok;
  }
  const saved = backup(where.file, r.text, stateDir);
  if (next === null) fs.rmSync(where.file);
  else writeAtomicKeepMode(where.file, next);
  say(`${where.file}: skillgate hooks removed (${next === null ? "the file did not exist before install, so it is gone" : "everything else kept"}); backup: ${saved}`);

  // The launcher goes when no project settings file runs it any more.
  if (where.scope !== "user") {
    const launcher = launcherFileOf(where.projectDir);
    const stillUsed = projectSettingsFiles(where.projectDir).some((file) => {
      const s = readSettings(file);
      return s.ok && inspectSettings(s.settings, hookPath).handlers.size > 0;
    });
    const ours = fs.existsSync(launcher) && fs.readFileSync(launcher, "utf8").startsWith("// skillgate launcher.");
    if (!stillUsed && ours) {
      fs.rmSync(launcher);
      say(`${launcher}: removed`);
      removeEmptyDirs([path.dirname(launcher)]);
    }
  }
  if (exact) removeEmptyDirs(rec.created.filter((p) => p !== launcherFileOf(where.projectDir) && !p.includes(`${path.sep}skills`)));
  try {
    fs.rmSync(recordFileOf(where.file, stateDir), { force: true });
  } catch {
    /* a stale record is only ignored later */
  }
  return done({ changed: true, removedFile: next === null, backup: saved });
}

/** The project's skillgate dependency when it is a `file:` path (a tarball or folder) outside the project. */
function tarballOutside(projectDir: string): { spec: string; file: string } | undefined {
  let pkg: { dependencies?: Record<string, unknown>; devDependencies?: Record<string, unknown> };
  try {
    pkg = JSON.parse(fs.readFileSync(path.join(projectDir, "package.json"), "utf8")) as typeof pkg;
  } catch {
    return undefined;
  }
  const spec = pkg?.devDependencies?.skillgate ?? pkg?.dependencies?.skillgate;
  if (typeof spec !== "string" || !spec.startsWith("file:")) return undefined;
  const file = path.resolve(projectDir, spec.slice("file:".length));
  const rel = path.relative(projectDir, file);
  return rel.startsWith("..") || path.isAbsolute(rel) ? { spec, file } : undefined;
}

/** The probe's session is not the user's: `stats` would report it as the latest one (state, counts, lock). */
function forgetProbeSession(stateDir: string, sessionId: string): void {
  try {
    for (const name of fs.readdirSync(stateDir)) if (name.startsWith(`${sessionId}.json`)) fs.rmSync(path.join(stateDir, name), { force: true });
  } catch {
    /* no state folder: nothing was left */
  }
}

/** The captured SessionStart payload; cases/ is not in the npm package, so an equivalent one there. */
function sessionStartFixture(root: string): Json {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, "cases", "fixtures", "session-start-startup.json"), "utf8")) as Json;
  } catch {
    return { transcript_path: "", hook_event_name: "SessionStart", source: "startup" };
  }
}

/**
 * Fail closed or open: do the gate's handlers carry onFailure "block", and does
 * the `claude` on PATH honour it (a crash or timeout of the hook then refuses the call)?
 */
function failClosedCheck(handlers: Map<string, Json>, sg: string, ok: (s: string) => void, bad: (s: string) => void, note: (s: string) => void): void {
  if (handlers.size === 0) return;
  const open = [...handlers].filter(([k, h]) => FAIL_CLOSED_EVENTS.has(k.split("#").pop() ?? "") && h.onFailure !== "block").map(([k]) => k.replace("#", ": "));
  if (open.length) return bad(`${open.join(", ")}: the hook has no "onFailure": "block", so a crash or timeout of the hook lets the call through; run ${sg} install again`);
  const r = spawnSync("claude", ["--version"], { encoding: "utf8", timeout: 10_000 });
  const honours = r.status === 0 ? honoursOnFailure(r.stdout) : undefined;
  const version = r.stdout?.trim().split(/\s/)[0];
  if (honours === true) ok(`Claude Code ${version} honours onFailure: a PreToolUse hook that crashes or times out refuses the call (fail closed)`);
  else if (honours === false) note(`Claude Code ${version} is older than ${ON_FAILURE_SINCE}, the first seen honouring onFailure: a crash or timeout of the hook may let the call through (fail open); update Claude Code`);
  else note(`no \`claude\` on PATH answered --version: whether the client honours onFailure is unknown (${ON_FAILURE_SINCE} and later do; older ones let the call through when the hook crashes or times out)`);
}

export async function doctorMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("doctor", args);
  const other = await otherHost("doctor", f, args, root);
  if (other !== undefined) return other;
  const problems: string[] = [];
  const checks: { ok: boolean; text: string }[] = [];
  const c = colours();
  const json = f.has("json");
  const ok = (s: string) => (checks.push({ ok: true, text: s }), json || console.log(`${c.green("ok")}       ${s}`));
  const bad = (s: string) => (problems.push(s), checks.push({ ok: false, text: s }), json || console.log(`${c.red("PROBLEM")}  ${s}`));
  const note = (s: string) => (checks.push({ ok: true, text: s }), json || console.log(`note     ${s}`));
  const hookPath = hookPathOf(root);

  // 1. Hooks in settings: the named file, or (no flag) the project's two and the user's.
  const where = whereOf(f);
  if (!where.ok) return fail("doctor", where.error);
  // The table the hook will use in this project: named first, checked in 3.
  const table: TableResolution = f.get("table") ? { file: tableFileOf(f.get("table"), root), source: "flag", why: "--table" } : tableFor(where.projectDir, root);
  const tableRows = await compiledTable(table.file, root).then((t) => t.rows.length, () => undefined);
  if (!json) console.log(tableHeader(table.file, tableRows));
  // The command to tell the user: a project's own skillgate is not on PATH, npx finds it.
  const sg = where.scope !== "user" && isProjectDependency(where.projectDir, root) && path.resolve(where.projectDir) !== path.resolve(root) ? "npx skillgate" : "skillgate";
  const userFile = settingsFileFor("user", where.projectDir, home());
  const files = f.has("user") || f.has("local") ? [where.file] : f.has("project") ? projectSettingsFiles(where.projectDir) : [...new Set([...projectSettingsFiles(where.projectDir), userFile])];
  let handler: Json | undefined;
  const handlersSeen = new Map<string, Json>();
  const installedIn: string[] = [];
  let asPlugin = false;
  for (const file of files) {
    const r = readSettings(file);
    if (!r.ok) {
      bad(`${r.error}: Claude Code cannot read it either`);
      continue;
    }
    const plugins = obj(r.settings.enabledPlugins) ?? {};
    if (Object.keys(plugins).some((k) => k.startsWith("skillgate@") && plugins[k])) asPlugin = true;
    const { handlers, problems: p } = inspectSettings(r.settings, hookPath);
    if (handlers.size === 0) continue;
    for (const [e, h] of handlers) handlersSeen.set(`${file}#${e}`, h);
    installedIn.push(file);
    handler ??= handlers.values().next().value;
    const missing = Object.keys(HOOK_EVENTS).filter((e) => !handlers.has(e));
    if (missing.length) bad(`${file} has no skillgate hook for ${missing.join(", ")}: run ${sg} install again`);
    else ok(`${file}: skillgate hooks on all ${handlers.size} events`);
    p.forEach(bad);
    // The committed file must run on every clone.
    if (file === settingsFileFor("project", where.projectDir, home())) {
      const abs = [...new Set([...handlers.values()].flatMap(absolutePathsIn))];
      if (abs.length) bad(`${file} is committed with the project but its skillgate hooks name absolute paths (${abs.join(", ")}): they break on a teammate's clone; npm install --save-dev skillgate, then run npx skillgate install again`);
    }
  }
  failClosedCheck(handlersSeen, sg, ok, bad, note);
  if (installedIn.length > 1) bad(`skillgate is installed in both ${installedIn.join(" and ")}: every event runs it twice; uninstall one`);
  if (where.scope !== "user") {
    // Committed settings run the project's skillgate, so every clone must be able to npm ci it.
    const spec = tarballOutside(where.projectDir);
    if (spec) {
      const say = installedIn.includes(settingsFileFor("project", where.projectDir, "")) ? bad : note;
      say(`${path.join(where.projectDir, "package.json")} installs skillgate from ${spec.spec}, outside the project: a teammate's npm ci fails unless the tarball is at that path on their machine too; copy it into the repository (vendor/), npm install --save-dev ./vendor/${path.basename(spec.file)} and commit it`);
    }
  }
  if (installedIn.length === 0) {
    if (asPlugin) ok("skillgate is enabled as a plugin (its hooks come from hooks/hooks.json)");
    else bad(`no skillgate hooks in ${files.join(" or ")}: run ${sg} install${f.has("user") ? " --user" : ""} (or load skillgate as a plugin)`);
  }

  // 2. The hook command starts and answers a SessionStart like Claude Code would send it.
  const command = typeof handler?.command === "string" ? handler.command : process.execPath;
  const rawArgs = Array.isArray(handler?.args) ? (handler.args as unknown[]).map(String) : [hookPath];
  const hargs = expandArgs(rawArgs, where.projectDir);
  if (rawArgs.some((a) => a.includes("CLAUDE_PROJECT_DIR")) && !fs.existsSync(hargs[0] ?? "")) {
    bad(`the launcher ${hargs[0]} named in the settings is missing: run ${sg} install again (and commit .claude/hooks/skillgate.mjs)`);
  }
  const launcher = hargs[0] ?? "";
  if (rawArgs.some((a) => a.includes("CLAUDE_PROJECT_DIR")) && fs.existsSync(launcher) && fs.readFileSync(launcher, "utf8") !== fs.readFileSync(launcherSourceOf(root), "utf8")) {
    note(`${launcher} differs from this skillgate's launcher: skillgate install updates it (commit the change)`);
  }
  const payload = { ...sessionStartFixture(root), session_id: `skillgate-doctor-${process.pid}`, cwd: where.projectDir };
  const env = { ...process.env, CLAUDE_PROJECT_DIR: where.projectDir };
  const t0 = Date.now();
  const run = spawnSync(command, hargs, { input: JSON.stringify(payload), encoding: "utf8", cwd: where.projectDir, env, timeout: HOOK_TIMEOUT_S * 1000 });
  forgetProbeSession(stateDirOf({ env, packageRoot: root }), payload.session_id);
  const shown = `${command} ${rawArgs.join(" ")}`;
  if (run.error) bad(`the hook command does not start (${shown}): ${run.error.message}`);
  else if (run.status !== 0) bad(`the hook command exited with ${run.status ?? run.signal} (${shown}): ${run.stderr.trim().slice(0, 300)}`);
  else {
    let answer: Json | undefined;
    try {
      answer = run.stdout.trim() ? obj(JSON.parse(run.stdout)) : {};
    } catch {
      /* reported below */
    }
    if (!answer) bad(`the hook command printed something that is not JSON (${shown}): ${run.stdout.slice(0, 200)}`);
    else {
      // A session start announces the active table (information); anything else it says is a problem.
      const said = typeof answer.systemMessage === "string" ? answer.systemMessage.split("\n").filter(Boolean) : [];
      const info = said.filter((l) => / is active \(\d+ rows?\)$/.test(l));
      const worries = said.filter((l) => !info.includes(l));
      if (worries.length) bad(`the hook runs but says: ${worries.join("; ")}`);
      else ok(`the hook command starts and answers (${Date.now() - t0} ms): ${shown}${info.length ? ` — ${info.join("; ")}` : ""}`);
    }
  }

  // 3. The table the hook will use in this project validates, and its skills are loadable.
  try {
    const t = await compiledTable(table.file, root);
    ok(`trigger table ${table.file} (${table.why}): ${t.rows.length} rows`);
    if (installedIn.length === 0 && asPlugin && table.source === "default") ok("the plugin's own skills are loadable as skillgate:<name>");
    else {
      const s = checkSkills(t, where.scope === "user" ? undefined : where.projectDir);
      if (s.missing.length) {
        // One line for all: the default table without its skills would otherwise print a problem per row.
        const rowsOf = new Map<string, string[]>();
        for (const m of s.missing) rowsOf.set(m.skill, [...(rowsOf.get(m.skill) ?? []), m.row]);
        const list = [...rowsOf].map(([skill, rows]) => `${skill} (row${rows.length > 1 ? "s" : ""} ${rows.join(", ")})`).join(", ");
        bad(`the table names skills Claude Code cannot load (no <skill>/SKILL.md in ${s.roots.join(" or ")}): ${list}; the Skill tool would answer "Unknown skill": run ${sg} init or ${sg} install --with-skills`);
      }
      if (!s.missing.length) ok(`every skill the table names is loadable by the Skill tool (${s.roots.join(", ")})`);
    }
  } catch (e) {
    bad(`the trigger table ${table.file} does not validate: ${(e as Error).message}`);
  }

  // 4. The hook can keep per-session state, outside the package.
  const stateDir = stateDirOf({ env: process.env, packageRoot: root });
  try {
    fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    const probe = path.join(stateDir, `.doctor-${process.pid}`);
    fs.writeFileSync(probe, "");
    fs.rmSync(probe);
    ok(`state folder ${stateDir} is writable`);
  } catch (e) {
    bad(`the state folder ${stateDir} is not writable (${(e as Error).message}): set SKILLGATE_STATE to a folder the hook can write`);
  }
  if (path.resolve(stateDir).startsWith(path.resolve(root) + path.sep)) bad(`the state folder ${stateDir} is inside the skillgate package: npm ci wipes it; unset SKILLGATE_STATE or point it elsewhere`);

  // 5. The git hooks that check an agent's commits and pushes where git makes them.
  gitHooksVerb({ verb: "doctor", project: where.scope === "user" ? undefined : where.projectDir, root, say: ok, bad });

  if (json) console.log(JSON.stringify({ table: tableJson(table.file, tableRows), problems: problems.length, checks }, null, 2));
  else console.log(problems.length ? `\n${problems.length} problem(s): skillgate will not work as intended until they are fixed` : "\nall good");
  return problems.length ? EXIT.findings : EXIT.ok;
}
