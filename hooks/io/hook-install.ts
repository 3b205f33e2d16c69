// Install, uninstall and doctor plumbing that is the same for every host whose
// hook is a command in a JSON settings file (Codex, Gemini CLI, Copilot CLI,
// Cursor): the command line, the settings file's read and write, the
// `--project DIR | --user [--runtime PATH]` arguments, and doctor's "does the
// hook start and answer". What each file looks like stays in the host's folder.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
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
    const handlers = (g: unknown): unknown[] | undefined =>
      g && typeof g === "object" && Array.isArray((g as Json).hooks) ? ((g as Json).hooks as unknown[]) : undefined;
    const groups = list
      .map((g) => {
        const hs = handlers(g);
        return hs ? { ...(g as Json), hooks: hs.filter((h) => !isOurs(h)) } : g;
      })
      .filter((g) => (handlers(g)?.length ?? 1) > 0);
    if (groups.length) out[event] = groups;
    else delete out[event];
  }
  return out;
}

/**
 * Where a host's install goes: a project folder, or (user) the user's own
 * configuration. Parsed once by the CLI (cli/args.ts) for every host.
 */
export interface InstallTarget {
  /** The project folder; absent with --user. */
  project?: string;
  user: boolean;
  /** The runtime the hook command names (an absolute path). */
  runtime: string;
  /** Codex only: also record the hooks as trusted. */
  trust: boolean;
  /** Copy the skills the table names into the host's skill folder when the host cannot load them. */
  withSkills: boolean;
  /** Claude Code only: the personal settings file (.claude/settings.local.json). */
  local?: boolean;
  /** --runtime as given ("bun" or "node"); undefined: the host's default. */
  runtimeGiven?: "bun" | "node";
  /** --table: the table whose skills must be loadable (else the one the host's hook will use). */
  table?: string;
  env: NodeJS.ProcessEnv;
}

/** One file an install or uninstall changes: its text now and after (null: no file). */
export interface FileChange {
  file: string;
  before: string | null;
  after: string | null;
  /**
   * Before this change the file held nothing of skillgate's: an install records
   * `before`, so an uninstall with nothing else changed puts back these exact bytes.
   */
  fresh?: boolean;
  /** A file of skillgate's own (a launcher): a dry run names it instead of showing its text, and it gets no backup. */
  what?: string;
  /** What the report says once the change is written, after the file's name (default: written, updated, removed). */
  says?: string;
}

/** What a host wants done: the file changes, the notes to print after them, and the skills its table needs. */
export interface InstallPlan {
  changes: FileChange[];
  notes: string[];
  /** install only: where the table's skills must be loadable (ensureSkills). */
  skills?: SkillsTarget;
  /** Said on stderr before anything is written (the install works, but not as the user may think). */
  warnings?: string[];
  /** Folders to remove once the changes are written, when they are empty. */
  emptyDirs?: string[];
}

/** One line of a doctor's report. */
export interface DoctorCheck {
  ok: boolean;
  text: string;
}

/** Everything the CLI needs from one host to install, uninstall and check it. */
export interface HostInstaller {
  /** The --host name. */
  id: string;
  /** The name users know. */
  label: string;
  /** The command on PATH that tells the host is installed (install --host all). */
  binary: string;
  /** The project folders or files that tell the project uses this host (install --host all). */
  markers: readonly string[];
  /** Where --with-skills copies skills, in words, for --help. */
  skillsHelp: string;
  plan(verb: "install" | "uninstall", t: InstallTarget, packageRoot: string): InstallPlan;
  /** undefined: this host has no doctor. */
  doctor?(t: InstallTarget, packageRoot: string): Promise<DoctorCheck[]> | DoctorCheck[];
}

/** A file's text, or null when it does not exist. */
export function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

/** The text writeJsonObject writes. */
export const jsonText = (v: Json): string => JSON.stringify(v, null, 2) + "\n";

/** A settings file as JSON (readJsonObject) and as text, for a FileChange. */
export function readJsonFile(file: string, hint = ""): { json: Json; text: string | null } {
  return { json: readJsonObject(file, hint), text: readText(file) };
}

/**
 * Write a plan's changes as they are (no backup, no record): for test harnesses
 * that set a host up directly. `skillgate install` applies plans with backups (cli/install.ts).
 */
export function writeChanges(changes: readonly FileChange[]): string[] {
  const done: string[] = [];
  for (const c of changes) {
    if (c.after === c.before) continue;
    if (c.after === null) fs.rmSync(c.file, { force: true });
    else {
      makeDir(path.dirname(c.file));
      fs.writeFileSync(c.file, c.after);
    }
    done.push(c.file);
  }
  return done;
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
  const copied: string[] = [],
    unknown: string[] = [];
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
  /** What else fixes a missing skill, said after the --with-skills advice (Claude Code: skillgate init). */
  advice?: string;
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
  if (!missing.length)
    return { ok: true, lines: t.withSkills && names.length ? [`the table's skills are loadable by ${t.host} already: nothing to copy`] : [] };
  if (!t.withSkills) {
    return {
      ok: false,
      error:
        `the table ${t.tableFile} names skills ${t.host} cannot load: ${missing.join(", ")} (not in ${roots.join(" or ")}); ` +
        `a refusal would tell the model to load a skill the client does not know. Install again with --with-skills to copy them into ${t.dest}${t.advice ? `, or ${t.advice}` : ""}. Nothing was written.`,
    };
  }
  if (dryRun) return { ok: true, lines: [`would copy skills into ${t.dest}: ${missing.join(", ")}`] };
  const sources = [table.compiled.skillsDir, path.join(t.packageRoot, "skills")];
  const c = copySkills(missing, sources, t.dest);
  if (c.unknown.length)
    return { ok: false, error: `no source for skills ${c.unknown.join(", ")} (looked in ${sources.join(" and ")}); write them into ${t.dest}/<name>/SKILL.md` };
  return { ok: true, lines: [`copied skills into ${t.dest}: ${c.copied.join(", ")}`] };
}

/**
 * Doctor's last check: the installed hook starts, exits 0 and prints JSON (or
 * nothing) for a session-start payload, with a throwaway state folder.
 * Returns the problem, or undefined when it answers.
 */
export function hookProblem(hookPath: string, args: string[], payload: Json, env: NodeJS.ProcessEnv, timeoutMs: number): string | undefined {
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-doctor-"));
  const state = path.join(probe, "state");
  // The probe's temp folder is inside the throwaway one too, so an output folder the hook makes goes with it.
  const tmp = path.join(probe, "tmp");
  fs.mkdirSync(tmp);
  let run: SpawnSyncReturns<string>;
  try {
    run = spawnSync(process.execPath, [hookPath, ...args], {
      input: JSON.stringify(payload),
      encoding: "utf8",
      env: { ...env, SKILLGATE_STATE: state, TMPDIR: tmp, TMP: tmp, TEMP: tmp },
      timeout: timeoutMs,
    });
  } finally {
    for (const dir of [outputFolderNamedIn(state), probe]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
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
