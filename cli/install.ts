// `skillgate install | uninstall | doctor`: put skillgate's hooks into a
// Claude Code settings.json, take exactly those out again, and check that an
// installation works. Handlers use the exec form (command + args, no shell),
// which Claude Code 2.1.328 runs verbatim: nothing to quote, no shell start-up,
// no npx/tsx on the hot path.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { colours, EXIT, parseArgs } from "./args.js";
import { compiledTable, tableFileOf, tableHeader, tableJson } from "./table-file.js";
import { stateDirOf } from "../hooks/runner/hook.js";

type Json = Record<string, unknown>;

export interface Handler {
  type: "command";
  command: string;
  args: string[];
  timeout: number;
}

/**
 * Every event the engine reads, with the matcher that limits it to the tools it
 * cares about (undefined: no matcher, i.e. every source/tool). hooks/hooks.json
 * must register the same set; test/install.test.ts checks that.
 */
export const HOOK_EVENTS: Readonly<Record<string, string | undefined>> = {
  PreToolUse: "Bash|Write|Edit|MultiEdit|NotebookEdit|Agent|Task",
  // Every tool: skill loads (Skill, Read), output caps (Bash, WebFetch), budget reminders and tool-call stats.
  PostToolUse: undefined,
  PostToolUseFailure: undefined,
  UserPromptSubmit: undefined,
  UserPromptExpansion: undefined,
  SessionStart: undefined,
  PreCompact: undefined,
  PostCompact: undefined,
  Stop: undefined,
  SubagentStop: undefined,
};

/** Seconds; the hook takes ~0.1 s, this only bounds a hung process. */
export const HOOK_TIMEOUT_S = 10;

const obj = (v: unknown): Json | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined);

// ---------------------------------------------------------------- runtime

/**
 * The bun binary from the optional dependency, or undefined. node_modules/bun/bin/bun.exe
 * is a placeholder until bun's postinstall replaces it with the native binary, so
 * a candidate counts only if it actually answers --version.
 */
export function findBun(root: string): string | undefined {
  let pkgDir: string;
  try {
    pkgDir = path.dirname(createRequire(path.join(root, "package.json")).resolve("bun/package.json"));
  } catch {
    return undefined;
  }
  const exe = process.platform === "win32" ? "bun.exe" : "bun";
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
  for (const c of candidates) {
    if (!fs.existsSync(c)) continue;
    const r = spawnSync(c, ["--version"], { encoding: "utf8", timeout: 5000 });
    if (r.status === 0 && /^\d+\.\d+/.test(r.stdout.trim())) return fs.realpathSync(c);
  }
  return undefined;
}

/** Absolute runtime for the handler: --runtime wins, else bun when installed, else this node. */
export function pickRuntime(wanted: string | undefined, root: string): { ok: true; path: string; name: string } | { ok: false; error: string } {
  if (wanted === "node") return { ok: true, path: process.execPath, name: "node" };
  if (wanted !== undefined && wanted !== "bun") return { ok: false, error: `--runtime must be "bun" or "node", not "${wanted}"` };
  const bun = findBun(root);
  if (bun) return { ok: true, path: bun, name: "bun" };
  if (wanted === "bun") {
    return { ok: false, error: `--runtime bun: no working bun binary under ${root}/node_modules (the optional dependency "bun" is missing or its postinstall did not run); install it or use --runtime node` };
  }
  return { ok: true, path: process.execPath, name: "node" };
}

export function hookPathOf(root: string): string {
  return path.join(root, "dist", "hook.mjs");
}

export function makeHandler(runtime: string, hookPath: string): Handler {
  return { type: "command", command: runtime, args: [hookPath], timeout: HOOK_TIMEOUT_S };
}

// ---------------------------------------------------------------- settings edits (pure)

/**
 * Ours: an exec-form handler whose first argument is this skillgate's hook, or
 * any other skillgate checkout's dist/hook.mjs (a reinstall from a new place
 * replaces the old entries instead of running the hook twice). No marker key is
 * added to the handler: Claude Code's settings schema is not ours to extend.
 */
export function isSkillgateHandler(h: unknown, hookPath: string): boolean {
  const a = obj(h)?.args;
  const first = Array.isArray(a) ? a[0] : undefined;
  if (typeof first !== "string") return false;
  if (path.resolve(first) === path.resolve(hookPath)) return true;
  if (!/[/\\]dist[/\\]hook\.mjs$/.test(first)) return false;
  const pkgRoot = path.dirname(path.dirname(first));
  if (path.basename(pkgRoot) === "skillgate") return true;
  try {
    return (JSON.parse(fs.readFileSync(path.join(pkgRoot, "package.json"), "utf8")) as Json).name === "skillgate";
  } catch {
    return false;
  }
}

export class SettingsShapeError extends Error {}

/** settings.hooks as an object, refusing shapes we would have to overwrite. */
function hooksOf(settings: Json): Json {
  if (settings.hooks === undefined) return {};
  const h = obj(settings.hooks);
  if (!h) throw new SettingsShapeError(`"hooks" is not an object`);
  return h;
}

/** settings with every skillgate handler taken out, and the groups/events that only we had emptied. */
export function removeSkillgate(settings: Json, hookPath: string): Json {
  const out = structuredClone(settings);
  const hooks = hooksOf(out);
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept = groups.flatMap((g: unknown) => {
      const group = obj(g);
      if (!group || !Array.isArray(group.hooks)) return [g];
      const rest = group.hooks.filter((h: unknown) => !isSkillgateHandler(h, hookPath));
      if (rest.length === group.hooks.length) return [g];
      return rest.length ? [{ ...group, hooks: rest }] : [];
    });
    if (kept.length) hooks[event] = kept;
    else if (groups.length) delete hooks[event];
  }
  // Drop "hooks" only when we are the ones who emptied it.
  if (Object.keys(hooks).length === 0 && Object.keys(obj(settings.hooks) ?? {}).length > 0) delete out.hooks;
  return out;
}

/**
 * settings with exactly one skillgate handler per event, in a group of its own
 * with our matcher. An existing one is updated in place (so a second install
 * changes nothing, wherever the user moved it); duplicates are dropped.
 */
export function addSkillgate(settings: Json, handler: Handler): Json {
  const hookPath = handler.args[0]!;
  const out = structuredClone(settings);
  const hooks = hooksOf(out);
  for (const [event, matcher] of Object.entries(HOOK_EVENTS)) {
    const groups = hooks[event] ?? [];
    if (!Array.isArray(groups)) throw new SettingsShapeError(`"hooks.${event}" is not an array`);
    let placed = false;
    const next = groups.flatMap((g: unknown) => {
      const group = obj(g);
      if (!group || !Array.isArray(group.hooks) || !group.hooks.some((h) => isSkillgateHandler(h, hookPath))) return [g];
      const mine = !placed && group.matcher === matcher;
      const rest = group.hooks.flatMap((h: unknown) => (!isSkillgateHandler(h, hookPath) ? [h] : mine && !placed ? ((placed = true), [handler]) : []));
      return rest.length ? [{ ...group, hooks: rest }] : [];
    });
    if (!placed) next.push(matcher === undefined ? { hooks: [handler] } : { matcher, hooks: [handler] });
    hooks[event] = next;
  }
  out.hooks = hooks;
  return out;
}

// ---------------------------------------------------------------- settings file I/O

/** --project DIR or --user, already checked by the verb's spec (a value given, not both). */
export function settingsFileOf(o: { project: string | undefined; user: boolean }): { ok: true; file: string; projectDir: string } | { ok: false; error: string } {
  const project = o.project;
  if (o.user) return { ok: true, file: path.join(os.homedir(), ".claude", "settings.json"), projectDir: process.cwd() };
  const dir = path.resolve(project ?? ".");
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return { ok: false, error: `--project ${dir}: no such directory` };
  return { ok: true, file: path.join(dir, ".claude", "settings.json"), projectDir: dir };
}

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

/** Same indentation as the file had (two spaces for a new file). */
function render(settings: Json, before: string | undefined): string {
  const indent = /^[ \t]+(?=")/m.exec(before ?? "")?.[0] ?? "  ";
  return JSON.stringify(settings, null, indent) + "\n";
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

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, "-");
}

interface Edit {
  verb: "install" | "uninstall";
  file: string;
  dryRun: boolean;
  /** Report as one JSON document: {file, changed, dryRun, diff?, backup?}. */
  json: boolean;
  change: (s: Json) => Json;
  /** Printed when the file changed (or would change). */
  done: string;
  unchanged: string;
}

/** Read → change → (diff | backup + atomic write). Nothing is written on any error. */
function editSettings(e: Edit): number {
  const r = readSettings(e.file);
  if (!r.ok) {
    console.error(`skillgate ${e.verb}: ${r.error}. Nothing was written; fix the file (or move it away) and run again.`);
    return EXIT.config;
  }
  if (e.verb === "uninstall" && r.text === undefined) {
    console.log(e.json ? JSON.stringify({ file: e.file, changed: false, dryRun: e.dryRun }) : `${e.file} does not exist: ${e.unchanged}`);
    return 0;
  }
  let next: Json;
  try {
    next = e.change(r.settings);
  } catch (err) {
    if (!(err instanceof SettingsShapeError)) throw err;
    console.error(`skillgate ${e.verb}: ${e.file}: ${err.message}, which Claude Code does not accept either. Nothing was written; fix the file and run again.`);
    return EXIT.config;
  }
  if (JSON.stringify(next) === JSON.stringify(r.settings)) {
    console.log(e.json ? JSON.stringify({ file: e.file, changed: false, dryRun: e.dryRun }) : `${e.file}: ${e.unchanged}; nothing to change`);
    return 0;
  }
  const text = render(next, r.text);
  if (e.dryRun && e.json) {
    console.log(JSON.stringify({ file: e.file, changed: true, dryRun: true, exists: r.text !== undefined, diff: lineDiff(r.text ?? "", text), after: next }, null, 2));
    return 0;
  }
  if (e.dryRun) {
    console.log(`--- ${e.file} (${r.text === undefined ? "does not exist" : "now"})\n+++ ${e.file} (after ${e.verb})`);
    console.log(lineDiff(r.text ?? "", text).join("\n"));
    console.log(`dry run: nothing written`);
    return 0;
  }
  fs.mkdirSync(path.dirname(e.file), { recursive: true });
  let backup = "";
  if (r.text !== undefined) {
    const b = `${e.file}.skillgate-backup-${stamp()}`;
    fs.copyFileSync(e.file, b, fs.constants.COPYFILE_EXCL);
    backup = `; backup: ${b}`;
  }
  // Temp file + rename: Claude Code never reads a half-written settings file.
  const tmp = `${e.file}.skillgate-${process.pid}.tmp`;
  const mode = r.text !== undefined ? fs.statSync(e.file).mode & 0o777 : 0o644;
  fs.writeFileSync(tmp, text, { mode });
  fs.renameSync(tmp, e.file);
  console.log(e.json ? JSON.stringify({ file: e.file, changed: true, dryRun: false, backup: backup ? backup.replace(/^; backup: /, "") : null }) : `${e.file}: ${e.done}${backup}`);
  return 0;
}

// ---------------------------------------------------------------- verbs

export async function installMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("install", args);
  const where = settingsFileOf({ project: f.get("project"), user: f.has("user") });
  if (!where.ok) return fail("install", where.error);
  const hookPath = hookPathOf(root);
  if (!fs.existsSync(hookPath)) return fail("install", `${hookPath} does not exist; build skillgate first (npm run build)`);
  const rt = pickRuntime(f.get("runtime"), root);
  if (!rt.ok) return fail("install", rt.error);
  if (root.split(path.sep).includes("_npx")) {
    // The hooks would point into npx's cache, which npm may clear at any time.
    console.error(`skillgate install: warning: skillgate runs from npx's cache (${root}); the hooks break when that cache is cleared. Install skillgate (npm i -D skillgate, or -g) and run its install instead.`);
  }
  const handler = makeHandler(rt.path, hookPath);
  const code = editSettings({
    verb: "install",
    file: where.file,
    dryRun: f.has("dry-run"),
    json: f.has("json"),
    change: (s) => addSkillgate(s, handler),
    done: `skillgate hooks installed for ${Object.keys(HOOK_EVENTS).length} events (${rt.name}: ${rt.path} ${hookPath})`,
    unchanged: "skillgate hooks are already installed",
  });
  if (code === 0 && !f.has("dry-run") && !f.has("json")) console.log("check it with: skillgate doctor" + (f.has("user") ? " --user" : ` --project ${where.projectDir}`));
  return code;
}

export async function uninstallMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("uninstall", args);
  const where = settingsFileOf({ project: f.get("project"), user: f.has("user") });
  if (!where.ok) return fail("uninstall", where.error);
  return editSettings({
    verb: "uninstall",
    file: where.file,
    dryRun: f.has("dry-run"),
    json: f.has("json"),
    change: (s) => removeSkillgate(s, hookPathOf(root)),
    done: "skillgate hooks removed (everything else kept)",
    unchanged: "no skillgate hooks in it",
  });
}

/** A configuration problem: one line, exit 3. */
function fail(verb: string, error: string): number {
  console.error(`skillgate ${verb}: ${error}`);
  return EXIT.config;
}

/** What an installed settings file provides: our handler per event, and problems found. */
export function inspectSettings(settings: Json, hookPath: string): { handlers: Map<string, Json>; problems: string[] } {
  const handlers = new Map<string, Json>();
  const problems: string[] = [];
  const hooks = obj(settings.hooks) ?? {};
  for (const [event, want] of Object.entries(HOOK_EVENTS)) {
    const groups = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    for (const g of groups) {
      const group = obj(g);
      const h = Array.isArray(group?.hooks) ? group.hooks.find((x) => isSkillgateHandler(x, hookPath)) : undefined;
      if (!h) continue;
      handlers.set(event, obj(h)!);
      const m = typeof group!.matcher === "string" ? group!.matcher : "";
      const missed = (want ?? "").split("|").filter((tool) => tool && !matcherCovers(m, tool));
      if (missed.length) problems.push(`the ${event} hook's matcher "${m}" leaves out ${missed.join(", ")}: skillgate will not see those tool calls (run skillgate install again)`);
    }
  }
  return { handlers, problems };
}

/** The captured SessionStart payload; cases/ is not in the npm package, so an equivalent one there. */
function sessionStartFixture(root: string): Json {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, "cases", "fixtures", "session-start-startup.json"), "utf8")) as Json;
  } catch {
    return { transcript_path: "", hook_event_name: "SessionStart", source: "startup" };
  }
}

/** Claude Code matchers: empty or "*" is everything; otherwise a regex (a plain "A|B" list is one too). */
function matcherCovers(matcher: string, tool: string): boolean {
  if (matcher === "" || matcher === "*") return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(tool);
  } catch {
    return matcher === tool;
  }
}

export async function doctorMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("doctor", args);
  const problems: string[] = [];
  const checks: { ok: boolean; text: string }[] = [];
  const c = colours();
  const json = f.has("json");
  const ok = (s: string) => (checks.push({ ok: true, text: s }), json || console.log(`${c.green("ok")}       ${s}`));
  const bad = (s: string) => (problems.push(s), checks.push({ ok: false, text: s }), json || console.log(`${c.red("PROBLEM")}  ${s}`));
  const hookPath = hookPathOf(root);

  // 1. Hooks in settings: the named file, or (no flag) the project's and the user's.
  const where = settingsFileOf({ project: f.get("project"), user: f.has("user") });
  if (!where.ok) return fail("doctor", where.error);
  // The table the hook will use in this project: named first, checked in 3.
  const tableFile = tableFileOf(f.get("table"), root, where.projectDir);
  const tableRows = await compiledTable(tableFile).then((t) => t.rows.length, () => undefined);
  if (!json) console.log(tableHeader(tableFile, tableRows));
  const userFile = path.join(os.homedir(), ".claude", "settings.json");
  const files = f.has("user") || f.has("project") ? [where.file] : [...new Set([where.file, userFile])];
  let handler: Json | undefined;
  const installedIn: string[] = [];
  let asPlugin = false;
  for (const file of files) {
    const r = readSettings(file);
    if (!r.ok) {
      bad(`${r.error}: Claude Code cannot read it either`);
      continue;
    }
    if (Object.keys(obj(r.settings.enabledPlugins) ?? {}).some((k) => k.startsWith("skillgate@") && obj(r.settings.enabledPlugins)![k])) asPlugin = true;
    const { handlers, problems: p } = inspectSettings(r.settings, hookPath);
    if (handlers.size === 0) continue;
    installedIn.push(file);
    handler ??= handlers.values().next().value;
    const missing = Object.keys(HOOK_EVENTS).filter((e) => !handlers.has(e));
    if (missing.length) bad(`${file} has no skillgate hook for ${missing.join(", ")}: run skillgate install again`);
    else ok(`${file}: skillgate hooks on all ${handlers.size} events`);
    p.forEach(bad);
  }
  if (installedIn.length > 1) bad(`skillgate is installed in both ${installedIn.join(" and ")}: every event runs it twice; uninstall one`);
  if (installedIn.length === 0) {
    if (asPlugin) ok("skillgate is enabled as a plugin (its hooks come from hooks/hooks.json)");
    else bad(`no skillgate hooks in ${files.join(" or ")}: run skillgate install${f.has("user") ? " --user" : ""} (or load skillgate as a plugin)`);
  }

  // 2. The hook command starts and answers a SessionStart like Claude Code would send it.
  const command = typeof handler?.command === "string" ? handler.command : process.execPath;
  const hargs = Array.isArray(handler?.args) ? (handler.args as unknown[]).map(String) : [hookPath];
  const payload = { ...sessionStartFixture(root), session_id: `skillgate-doctor-${process.pid}`, cwd: where.projectDir };
  const env = { ...process.env, CLAUDE_PROJECT_DIR: where.projectDir };
  const t0 = Date.now();
  const run = spawnSync(command, hargs, { input: JSON.stringify(payload), encoding: "utf8", cwd: where.projectDir, env, timeout: HOOK_TIMEOUT_S * 1000 });
  const shown = `${command} ${hargs.join(" ")}`;
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
    else if (typeof answer.systemMessage === "string") bad(`the hook runs but says: ${answer.systemMessage}`);
    else ok(`the hook command starts and answers (${Date.now() - t0} ms): ${shown}`);
  }

  // 3. The table the hook will use in this project validates.
  try {
    const t = await compiledTable(tableFile);
    ok(`trigger table ${tableFile}: ${t.rows.length} rows`);
  } catch (e) {
    bad(`the trigger table does not validate: ${(e as Error).message}`);
  }

  // 4. The hook can keep per-session state.
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

  if (json) console.log(JSON.stringify({ table: tableJson(tableFile, tableRows), problems: problems.length, checks }, null, 2));
  else console.log(problems.length ? `\n${problems.length} problem(s): skillgate will not work as intended until they are fixed` : "\nall good");
  return problems.length ? EXIT.findings : EXIT.ok;
}
