// Registers skillgate in Gemini CLI's settings.json `hooks` (project
// `.gemini/settings.json` or the user's `~/.gemini/settings.json`).
//
// Gemini loads a project's settings (and so its hooks) only in a trusted folder:
// trust it once in the interactive CLI, or run headless with
// GEMINI_CLI_TRUST_WORKSPACE=true. It then warns that project hooks will run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { geminiHome } from "./env.js";

type Json = Record<string, unknown>;

export const GEMINI_HOOK_TIMEOUT_MS = 10_000;
export const HOOK_NAME = "skillgate";

/** The events skillgate answers, with the tool matcher (a regex on the tool name) where Gemini matches tools. */
export const GEMINI_EVENTS: Readonly<Record<string, string | undefined>> = {
  SessionStart: undefined,
  BeforeAgent: undefined,
  // Every tool a row can gate or block (shell, writes, edits, reads, the skill tool, fetches).
  BeforeTool: "^(run_shell_command|write_file|replace|read_file|activate_skill|web_fetch)$",
  // Loads (activate_skill, a SKILL.md read) and caps (shell, read, fetch outputs).
  AfterTool: "^(run_shell_command|read_file|activate_skill|web_fetch)$",
  AfterAgent: undefined,
  PreCompress: undefined,
};

const shQuote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The shell command Gemini runs (hook commands go through a shell). */
export function geminiCommand(runtime: string, hookPath: string): string {
  return `${shQuote(runtime)} ${shQuote(hookPath)}`;
}

export function isSkillgateHook(h: unknown, hookPath: string): boolean {
  return !!h && typeof h === "object" && typeof (h as Json).command === "string" && ((h as Json).command as string).includes(hookPath);
}

function groupsOf(hooks: Json, event: string): Json[] {
  const g = hooks[event];
  if (g === undefined) return [];
  if (!Array.isArray(g)) throw new Error(`hooks.${event} in settings.json is not a list`);
  return g as Json[];
}

function hooksObject(settings: Json): Json {
  const h = settings.hooks ?? {};
  if (typeof h !== "object" || Array.isArray(h)) throw new Error("`hooks` in settings.json is not an object");
  return h as Json;
}

/** settings.json without any skillgate hook (groups left empty are dropped; other settings kept). */
export function removeFromSettings(settings: Json, hookPath: string): Json {
  const hooks = { ...hooksObject(settings) };
  for (const event of Object.keys(hooks)) {
    // `hooks.enabled`/`hooks.disabled` style keys are not event lists: leave them alone.
    if (!Array.isArray(hooks[event])) continue;
    const groups = groupsOf(hooks, event)
      .map((g) => ({ ...g, hooks: Array.isArray(g.hooks) ? (g.hooks as unknown[]).filter((h) => !isSkillgateHook(h, hookPath)) : g.hooks }))
      .filter((g) => !Array.isArray(g.hooks) || g.hooks.length > 0);
    if (groups.length) hooks[event] = groups;
    else delete hooks[event];
  }
  return { ...settings, hooks };
}

/** settings.json with skillgate's hooks (any old ones replaced), each in its own group at the end. */
export function addToSettings(settings: Json, command: string, hookPath: string): Json {
  const cleaned = removeFromSettings(settings, hookPath);
  const hooks = { ...hooksObject(cleaned) };
  for (const [event, matcher] of Object.entries(GEMINI_EVENTS)) {
    const group: Json = { ...(matcher ? { matcher } : {}), hooks: [{ type: "command", name: HOOK_NAME, command, timeout: GEMINI_HOOK_TIMEOUT_MS }] };
    hooks[event] = [...groupsOf(hooks, event), group];
  }
  return { ...cleaned, hooks };
}

export interface GeminiTarget {
  /** Project folder (<project>/.gemini/settings.json); with user: ~/.gemini/settings.json. */
  project?: string;
  user?: boolean;
  env: NodeJS.ProcessEnv;
}

export function settingsFileOf(o: GeminiTarget): string {
  if (o.project !== undefined) return path.join(path.resolve(o.project), ".gemini", "settings.json");
  const home = geminiHome(o.env);
  if (!home) throw new Error("neither GEMINI_CLI_HOME nor HOME is set: cannot find Gemini's folder");
  return path.join(home, "settings.json");
}

function readJson(file: string): Json {
  if (!fs.existsSync(file)) return {};
  let v: unknown;
  try {
    v = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    // Gemini accepts comments in settings.json; skillgate will not rewrite what it cannot parse exactly.
    throw new Error(`${file} is not plain JSON (${(e as Error).message}); add skillgate's hooks by hand or remove the comments`);
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error(`${file} is not a JSON object`);
  return v as Json;
}

/** Write skillgate's hooks for Gemini CLI. Returns the file written. */
export function installGemini(o: GeminiTarget & { runtime: string; hookPath: string }): string {
  const file = settingsFileOf(o);
  const next = addToSettings(readJson(file), geminiCommand(o.runtime, o.hookPath), o.hookPath);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(next, null, 2) + "\n");
  return file;
}

/** Remove skillgate's hooks. Returns the file changed, if any. */
export function uninstallGemini(o: GeminiTarget & { hookPath: string }): string | undefined {
  const file = settingsFileOf(o);
  if (!fs.existsSync(file)) return undefined;
  fs.writeFileSync(file, JSON.stringify(removeFromSettings(readJson(file), o.hookPath), null, 2) + "\n");
  return file;
}

/** The bundled hook a Gemini install runs (scripts/build.mjs: "hook-gemini": "hooks/hosts/gemini/hook.ts"). */
export function geminiHookPathOf(root: string): string {
  return path.join(root, "dist", "hook-gemini.mjs");
}

function parseTarget(verb: string, args: string[], out: (s: string) => void): { project?: string; user: boolean; runtime: string } | undefined {
  let project: string | undefined;
  let user = false;
  let runtime = process.execPath;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--host") i++;
    else if (a === "--project") project = args[++i] ?? ".";
    else if (a === "--user") user = true;
    else if (a === "--runtime" && verb === "install") runtime = args[++i] ?? runtime;
    else {
      out(`skillgate ${verb} --host gemini: unknown argument ${a}`);
      return undefined;
    }
  }
  if (project !== undefined && user) {
    out(`skillgate ${verb} --host gemini: give --project DIR or --user, not both`);
    return undefined;
  }
  // Neither flag: the project in the current folder.
  if (project === undefined && !user) project = ".";
  return { ...(project !== undefined ? { project } : {}), user, runtime };
}

/**
 * `skillgate install --host gemini [--project DIR | --user] [--runtime PATH]`
 * and `skillgate uninstall --host gemini [--project DIR | --user]`. Returns the exit code.
 */
export function geminiInstallMain(verb: "install" | "uninstall", args: string[], root: string, env: NodeJS.ProcessEnv = process.env, out: (s: string) => void = (s) => process.stdout.write(s + "\n")): number {
  const t = parseTarget(verb, args, out);
  if (!t) return 2;
  const hookPath = geminiHookPathOf(root);
  const target = { ...(t.project !== undefined ? { project: t.project } : {}), user: t.user, env };
  try {
    const file = verb === "install" ? installGemini({ ...target, runtime: t.runtime, hookPath }) : uninstallGemini({ ...target, hookPath });
    out(file ? `wrote ${file}` : "nothing to remove");
    if (verb === "install" && t.project !== undefined) out(`Gemini loads ${path.resolve(t.project)}/.gemini/settings.json only in a trusted folder (trust it once in gemini, or GEMINI_CLI_TRUST_WORKSPACE=true headless).`);
    return 0;
  } catch (e) {
    out(`skillgate ${verb} --host gemini: ${(e as Error).message}`);
    return 1;
  }
}

/** `skillgate doctor --host gemini [--project DIR | --user]`: registered on every event, and the hook answers? */
export function geminiDoctorMain(args: string[], root: string, env: NodeJS.ProcessEnv = process.env, out: (s: string) => void = (s) => process.stdout.write(s + "\n")): number {
  const t = parseTarget("doctor", args, out);
  if (!t) return 2;
  const hookPath = geminiHookPathOf(root);
  const problems: string[] = [];
  let file: string;
  let hooks: Json;
  try {
    file = settingsFileOf({ ...(t.project !== undefined ? { project: t.project } : {}), user: t.user, env });
    hooks = hooksObject(readJson(file));
  } catch (e) {
    out(`✗ ${(e as Error).message}`);
    return 1;
  }
  for (const event of Object.keys(GEMINI_EVENTS)) {
    const has = Array.isArray(hooks[event]) && groupsOf(hooks, event).some((g) => Array.isArray(g.hooks) && (g.hooks as unknown[]).some((h) => isSkillgateHook(h, hookPath)));
    if (!has) problems.push(`${file} does not run skillgate on ${event} (run skillgate install --host gemini)`);
  }
  const run = spawnSync(process.execPath, [hookPath], {
    input: JSON.stringify({ session_id: "skillgate-doctor", transcript_path: "", cwd: path.resolve(t.project ?? "."), hook_event_name: "SessionStart", timestamp: new Date().toISOString(), source: "startup" }),
    encoding: "utf8",
    env: { ...env, SKILLGATE_STATE: fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-doctor-")) },
    timeout: GEMINI_HOOK_TIMEOUT_MS,
  });
  if (run.error || run.status !== 0) problems.push(`the hook ${hookPath} does not run: ${run.error?.message ?? run.stderr.slice(0, 300)}`);
  else if (run.stdout.trim() && !run.stdout.trim().startsWith("{")) problems.push(`the hook printed something that is not JSON: ${run.stdout.slice(0, 200)}`);
  for (const p of problems) out(`✗ ${p}`);
  if (!problems.length) out(`✓ skillgate runs on ${Object.keys(GEMINI_EVENTS).length} Gemini CLI hook events from ${file}; the hook answers`);
  return problems.length ? 1 : 0;
}
