// Install, uninstall and doctor plumbing that is the same for every host whose
// hook is a command in a JSON settings file (Codex, Gemini CLI, Copilot CLI,
// Cursor): the command line, the settings file's read and write, the
// `--project DIR | --user [--runtime PATH]` arguments, and doctor's "does the
// hook start and answer". What each file looks like stays in the host's folder.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Json } from "./payload.js";
import { makeDir } from "./make-dir.js";
import { loadTable } from "./table-load.js";

/** One shell word (hook commands go through a shell). */
export const shQuote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** `<runtime> <hook> [args…]`, quoted for the shell the host runs it with. */
export function hookCommand(runtime: string, hookPath: string, ...args: string[]): string {
  return [runtime, hookPath, ...args].map(shQuote).join(" ");
}

/**
 * The paths that run the hook at hookPath: itself, and for a Node route hook
 * (dist/hook-<host>.cjs) the ES module older installs wrote (dist/hook-<host>.mjs,
 * still built as a shim), so that reinstall replaces it and uninstall removes it.
 */
export function hookPathsOf(hookPath: string): string[] {
  return hookPath.endsWith(".cjs") ? [hookPath, `${hookPath.slice(0, -".cjs".length)}.mjs`] : [hookPath];
}

/** A handler whose command field (`command`, Copilot's `bash`) runs skillgate's hook (hookPathsOf: an older install's path too). */
export function runsHook(h: unknown, hookPath: string, field = "command"): boolean {
  const v = h && typeof h === "object" ? (h as Json)[field] : undefined;
  return typeof v === "string" && hookPathsOf(hookPath).some((p) => v.includes(p));
}

/**
 * A settings file as a JSON object ({} when it does not exist). A file that
 * does not parse is never rewritten: skillgate would lose what it could not read.
 */
export function readJsonObject(file: string, hint = ""): Json {
  if (!fs.existsSync(file)) return {};
  let v: unknown;
  try {
    v = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file} is not plain JSON (${(e as Error).message})${hint ? `; ${hint}` : ""}`);
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error(`${file} is not a JSON object`);
  return v as Json;
}

export function writeJsonObject(file: string, v: Json): void {
  makeDir(path.dirname(file));
  fs.writeFileSync(file, JSON.stringify(v, null, 2) + "\n");
}

/** The `hooks` object of a settings file ({} when absent). */
export function hooksOf(settings: Json, label: string): Json {
  const h = settings.hooks ?? {};
  if (!h || typeof h !== "object" || Array.isArray(h)) throw new Error(`\`hooks\` in ${label} is not an object`);
  return h as Json;
}

/** The list under one event ([] when absent). */
export function listOf(hooks: Json, event: string, label: string): unknown[] {
  const g = hooks[event];
  if (g === undefined) return [];
  if (!Array.isArray(g)) throw new Error(`hooks.${event} in ${label} is not a list`);
  return g as unknown[];
}

/**
 * Claude-style nested hooks (`{"<event>": [{matcher?, hooks: [handler…]}]}`, Codex and Gemini):
 * every handler `isOurs` removed, groups left empty dropped, other keys (Gemini's
 * `enabled`/`disabled`, which are not event lists) left alone.
 */
export function withoutHandlers(hooks: Json, isOurs: (h: unknown) => boolean): Json {
  const out: Json = { ...hooks };
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    const handlers = (g: unknown): unknown[] | undefined => (g && typeof g === "object" && Array.isArray((g as Json).hooks) ? ((g as Json).hooks as unknown[]) : undefined);
    const groups = list
      .map((g) => { const hs = handlers(g); return hs ? { ...(g as Json), hooks: hs.filter((h) => !isOurs(h)) } : g; })
      .filter((g) => (handlers(g)?.length ?? 1) > 0);
    if (groups.length) out[event] = groups;
    else delete out[event];
  }
  return out;
}

export interface InstallTarget {
  /** The project folder; absent with --user. */
  project?: string;
  user: boolean;
  runtime: string;
  /** Codex only: also record the hooks as trusted. */
  trust: boolean;
  /** Copy the skills the table names into the host's skill folder when the host cannot load them. */
  withSkills: boolean;
}

/**
 * `[--project DIR | --user] [--runtime PATH]` (and `--trust`, `--with-skills` where the host has them) after
 * `skillgate <verb> --host <host>`; neither flag: the project in the current folder.
 * Returns the target, or the exit code (2) after saying what is wrong.
 */
export function parseInstallTarget(host: string, verb: string, args: string[], out: (s: string) => void, o: { trust?: boolean; skills?: boolean } = {}): InstallTarget | 2 {
  let project: string | undefined;
  let user = false;
  let trust = false;
  let withSkills = false;
  let runtime = process.execPath;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--host") i++;
    else if (a === "--project") project = args[++i] ?? ".";
    else if (a === "--user") user = true;
    else if (a === "--trust" && o.trust && verb === "install") trust = true;
    else if (a === "--runtime" && verb === "install") runtime = args[++i] ?? runtime;
    else if (a === "--with-skills" && o.skills && verb === "install") withSkills = true;
    else {
      out(`skillgate ${verb} --host ${host}: unknown argument ${a}`);
      return 2;
    }
  }
  if (project !== undefined && user) {
    out(`skillgate ${verb} --host ${host}: give --project DIR or --user, not both`);
    return 2;
  }
  return { ...(user ? {} : { project: project ?? "." }), user, runtime, trust, withSkills };
}

/** The table a host's hook will use for a project: its own project table, else $SKILLGATE_TABLE, else skillgate's default. */
export function hostTableFile(projectTable: string | undefined, env: NodeJS.ProcessEnv, packageRoot: string): string {
  if (projectTable && fs.existsSync(projectTable)) return projectTable;
  if (env.SKILLGATE_TABLE) return path.resolve(env.SKILLGATE_TABLE);
  return path.join(packageRoot, "triggers.json");
}

/**
 * Copy skills into `dest` (never over one already there): from the first source
 * holding `<name>/SKILL.md`. Returns what was copied and what no source has.
 */
export function copySkills(names: string[], sources: string[], dest: string): { copied: string[]; unknown: string[] } {
  const copied: string[] = [], unknown: string[] = [];
  for (const name of [...new Set(names)]) {
    const to = path.join(dest, name);
    if (fs.existsSync(path.join(to, "SKILL.md"))) continue;
    const from = sources.map((s) => path.join(s, name)).find((d) => fs.existsSync(path.join(d, "SKILL.md")));
    if (!from) {
      unknown.push(name);
      continue;
    }
    makeDir(dest);
    fs.cpSync(from, to, { recursive: true, errorOnExist: false, force: false });
    copied.push(name);
  }
  return { copied, unknown };
}

export interface SkillsTarget {
  /** The host's name as the user types it (`--host gemini`). */
  host: string;
  /** The table the hook will use (hostTableFile). */
  tableFile: string;
  /** Every folder the host loads `<skill>/SKILL.md` skills from (its environment's skillRoots). */
  roots: string[];
  /** Where --with-skills copies them: a folder the host reads. */
  dest: string;
  /** The host loads the table's skillsDir itself (opencode: the plugin adds it to the skill paths). */
  loadsSkillsDir?: boolean;
  withSkills: boolean;
  packageRoot: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Every skill the table's rows name must be loadable by the host, or a refusal's
 * advice names a skill the host does not know. Missing ones: with --with-skills,
 * copied from the table's skillsDir (else skillgate's own skills) into `dest`;
 * without, an error naming them and the flag. Returns the lines to print, or the error.
 */
export async function ensureSkills(t: SkillsTarget, dryRun = false): Promise<{ ok: true; lines: string[] } | { ok: false; error: string }> {
  const table = await loadTable(t.tableFile, undefined, t.env, { defaultTable: path.join(t.packageRoot, "triggers.json") });
  if (!table.ok) return { ok: false, error: `the table ${t.tableFile} does not validate: ${table.error} (fix it first: skillgate lint)` };
  const roots = [...new Set([...t.roots, t.dest, ...(t.loadsSkillsDir ? [table.compiled.skillsDir] : [])])];
  const names = [...new Set(table.compiled.rows.flatMap((r) => (r.row.skill ? [r.row.skill] : [])))];
  const missing = names.filter((n) => !roots.some((r) => fs.existsSync(path.join(r, n, "SKILL.md"))));
  if (!missing.length) return { ok: true, lines: t.withSkills && names.length ? [`the table's skills are loadable by ${t.host} already: nothing to copy`] : [] };
  if (!t.withSkills) {
    return {
      ok: false,
      error:
        `the table ${t.tableFile} names skills ${t.host} cannot load: ${missing.join(", ")} (not in ${roots.join(" or ")}); ` +
        `a refusal would tell the model to load a skill the client does not know. Install again with --with-skills to copy them into ${t.dest}. Nothing was written.`,
    };
  }
  if (dryRun) return { ok: true, lines: [`would copy skills into ${t.dest}: ${missing.join(", ")}`] };
  const sources = [table.compiled.skillsDir, path.join(t.packageRoot, "skills")];
  const c = copySkills(missing, sources, t.dest);
  if (c.unknown.length) return { ok: false, error: `no source for skills ${c.unknown.join(", ")} (looked in ${sources.join(" and ")}); write them into ${t.dest}/<name>/SKILL.md` };
  return { ok: true, lines: [`copied skills into ${t.dest}: ${c.copied.join(", ")}`] };
}

/**
 * Doctor's last check: the installed hook starts, exits 0 and prints JSON (or
 * nothing) for a session-start payload, with a throwaway state folder.
 * Returns the problem, or undefined when it answers.
 */
export function hookProblem(hookPath: string, args: string[], payload: Json, env: NodeJS.ProcessEnv, timeoutMs: number): string | undefined {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-doctor-"));
  const run = spawnSync(process.execPath, [hookPath, ...args], { input: JSON.stringify(payload), encoding: "utf8", env: { ...env, SKILLGATE_STATE: state }, timeout: timeoutMs });
  // The throwaway state folder goes, and the output folder the hook may have named in it.
  for (const dir of [outputFolderNamedIn(state), state]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (run.error || run.status !== 0) return `the hook ${hookPath} does not run: ${run.error?.message ?? run.stderr.slice(0, 300)}`;
  if (run.stdout.trim() && !run.stdout.trim().startsWith("{")) return `the hook printed something that is not JSON: ${run.stdout.slice(0, 200)}`;
  return undefined;
}

function outputFolderNamedIn(stateDir: string): string | undefined {
  try {
    const dir = fs.readFileSync(path.join(stateDir, ".output-root"), "utf8").trim();
    return path.basename(dir).startsWith("skillgate-out-") ? dir : undefined;
  } catch {
    return undefined;
  }
}
