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
}

/**
 * `[--project DIR | --user] [--runtime PATH]` (and `--trust` where the host has it) after
 * `skillgate <verb> --host <host>`; neither flag: the project in the current folder.
 * Returns the target, or the exit code (2) after saying what is wrong.
 */
export function parseInstallTarget(host: string, verb: string, args: string[], out: (s: string) => void, o: { trust?: boolean } = {}): InstallTarget | 2 {
  let project: string | undefined;
  let user = false;
  let trust = false;
  let runtime = process.execPath;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--host") i++;
    else if (a === "--project") project = args[++i] ?? ".";
    else if (a === "--user") user = true;
    else if (a === "--trust" && o.trust && verb === "install") trust = true;
    else if (a === "--runtime" && verb === "install") runtime = args[++i] ?? runtime;
    else {
      out(`skillgate ${verb} --host ${host}: unknown argument ${a}`);
      return 2;
    }
  }
  if (project !== undefined && user) {
    out(`skillgate ${verb} --host ${host}: give --project DIR or --user, not both`);
    return 2;
  }
  return { ...(user ? {} : { project: project ?? "." }), user, runtime, trust };
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
