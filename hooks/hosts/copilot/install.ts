// Registers skillgate with Copilot CLI: `<project>/.github/hooks/skillgate.json`
// (a file of its own: Copilot reads every *.json in that folder), or with
// --user the `hooks` key of `$COPILOT_HOME/config.json`. One command per event,
// the event name as its argument (Copilot's payload does not name its event).
//
// Copilot loads a repository's hooks only in a trusted folder: the user trusts
// it when Copilot asks, or passes --trust-folder (-p mode); COPILOT_ALLOW_ALL=true
// also trusts the working directory.
import path from "node:path";
import {
  hookCommand,
  hookProblem,
  hostTableFile,
  jsonText,
  listOf,
  readJsonObject,
  readText,
  runsHook,
  writeChanges,
  type DoctorCheck,
  type FileChange,
  type HostInstaller,
  type InstallPlan,
  type InstallTarget,
  type SkillsTarget,
} from "../../io/hook-install.js";
import type { Json } from "../../io/payload.js";
import { absolutePathsInCommand, absolutePathsProblem, packageDirInProject } from "../../io/project-package.js";
import { COPILOT_EVENTS } from "./adapter.js";
import { copilotHome, environment, HOOKS_FILE } from "./env.js";

export const COPILOT_HOOK_TIMEOUT_S = 10;

/** The hook a Copilot install runs: the Node route's loader for Copilot (scripts/build.mjs, buildForNode; hooks/entries/copilot.ts `main`). */
export function copilotHookPathOf(root: string): string {
  return path.join(root, "dist", "hook-copilot.cjs");
}

/** The command Copilot runs for one event (the `bash` field goes through bash). */
export const copilotCommand = (runtime: string, hookPath: string, event: string): string => hookCommand(runtime, hookPath, event);

/** Copilot runs a command hook with COPILOT_PROJECT_DIR set to the project root (seen in the captures, env.ts). */
export const PROJECT_DIR_VAR = "$COPILOT_PROJECT_DIR";

/**
 * The command every clone can run for one event: the runtime from PATH and the
 * project's own skillgate by a path under $COPILOT_PROJECT_DIR (pkgDir: packageDirInProject).
 */
export function portableCopilotCommand(pkgDir: string, event: string, runtime: "node" | "bun" = "node"): string {
  return `${runtime} "${PROJECT_DIR_VAR}/${pkgDir === "." ? "" : `${pkgDir}/`}dist/hook-copilot.cjs" ${event}`;
}

/** Ours: runs this skillgate's hook (or an older install's), or the portable command under $COPILOT_PROJECT_DIR. */
const isOurs = (h: unknown, hookPath: string): boolean => {
  if (runsHook(h, hookPath, "bash")) return true;
  const c = h && typeof h === "object" ? (h as Json).bash : undefined;
  return typeof c === "string" && c.includes(`"${PROJECT_DIR_VAR}/`) && /dist\/hook-copilot\.[cm]js"/.test(c);
};

/** The command Copilot runs for one event. */
export type CommandFor = (event: string) => string;

/** skillgate's entry for every event, added to a hooks object (other hooks kept, an older skillgate entry replaced). */
export function withSkillgate(hooks: Json, runtime: string, hookPath: string, commandFor: CommandFor = (e) => copilotCommand(runtime, hookPath, e)): Json {
  const out: Json = { ...hooks };
  for (const event of COPILOT_EVENTS) {
    const list = listOf(out, event, "the hooks file");
    out[event] = [...list.filter((h) => !isOurs(h, hookPath)), { type: "command", bash: commandFor(event), timeoutSec: COPILOT_HOOK_TIMEOUT_S }];
  }
  return out;
}

export function withoutSkillgate(hooks: Json, hookPath: string): Json {
  const out: Json = {};
  for (const [event, list] of Object.entries(hooks)) {
    const kept = Array.isArray(list) ? list.filter((h) => !isOurs(h, hookPath)) : list;
    if (!Array.isArray(kept) || kept.length) out[event] = kept;
  }
  return out;
}

const readJson = (file: string): Json => readJsonObject(file);

export interface Where {
  project?: string;
  user?: boolean;
  env?: NodeJS.ProcessEnv;
}

export function hooksFileOf(w: Where): string {
  if (w.user) {
    const home = copilotHome(w.env ?? process.env);
    if (!home) throw new Error("neither COPILOT_HOME nor HOME is set");
    return path.join(home, "config.json");
  }
  return path.join(path.resolve(w.project ?? "."), ".github", "hooks", HOOKS_FILE);
}

const runsOn = (hooks: Json, hookPath: string): boolean => Object.values(hooks).some((l) => Array.isArray(l) && l.some((h) => isOurs(h, hookPath)));

/** The change that registers skillgate: the project's own hooks file, or the `hooks` key of the user's config.json. */
export function copilotInstallChange(w: Where & { runtime: string; hookPath: string; commandFor?: CommandFor }): FileChange {
  const file = hooksFileOf(w);
  const cur = readJson(file);
  const hooks = cur.hooks ?? {};
  if (!hooks || typeof hooks !== "object" || Array.isArray(hooks)) throw new Error(`${file}: "hooks" is not an object`);
  const next = withSkillgate(hooks as Json, w.runtime, w.hookPath, w.commandFor);
  // A project hooks file needs "version": 1; the user config keeps its other keys.
  return {
    file,
    before: readText(file),
    after: jsonText(w.user ? { ...cur, hooks: next } : { version: 1, ...cur, hooks: next }),
    fresh: !runsOn(hooks as Json, w.hookPath),
  };
}

export function copilotUninstallChanges(w: Where & { hookPath: string }): FileChange[] {
  const file = hooksFileOf(w);
  const before = readText(file);
  if (before === null) return [];
  // The project file is skillgate's own.
  if (!w.user) return [{ file, before, after: null }];
  const cur = readJson(file);
  if (!runsOn((cur.hooks ?? {}) as Json, w.hookPath)) return [{ file, before, after: before }];
  const hooks = withoutSkillgate((cur.hooks ?? {}) as Json, w.hookPath);
  const { hooks: _old, ...rest } = cur;
  return [{ file, before, after: jsonText(Object.keys(hooks).length ? { ...rest, hooks } : rest) }];
}

/** Register skillgate directly, no backup (test harnesses). */
export function installCopilot(w: Where & { runtime: string; hookPath: string }): string[] {
  const c = copilotInstallChange(w);
  writeChanges([c]);
  return [c.file];
}

export function uninstallCopilot(w: Where & { hookPath: string }): string[] {
  const changes = copilotUninstallChanges(w);
  writeChanges(changes);
  return changes.map((c) => c.file);
}

/**
 * Where Copilot CLI 1.0.102 loads the table's skills from for this target, and where --with-skills
 * copies them: the project's .github/skills (the `skill` tool knows them; `view` reaches them, they
 * are in the repository), or with --user $COPILOT_HOME/skills.
 */
export function copilotSkills(o: { project?: string; user: boolean; env: NodeJS.ProcessEnv; withSkills: boolean }, root: string): SkillsTarget {
  const project = o.user ? undefined : path.resolve(o.project ?? ".");
  const hostEnv = environment({ ...o.env, COPILOT_PROJECT_DIR: project });
  const home = copilotHome(o.env);
  const dest = project ? path.join(project, ".github", "skills") : home ? path.join(home, "skills") : "";
  if (!dest) throw new Error("neither COPILOT_HOME nor HOME is set");
  return {
    host: "Copilot CLI",
    tableFile: hostTableFile(hostEnv.projectTable, o.env, root),
    roots: hostEnv.skillRoots,
    dest,
    withSkills: o.withSkills,
    packageRoot: root,
    env: o.env,
  };
}

const whereOf = (t: InstallTarget): Where => ({ ...(t.project !== undefined ? { project: t.project } : {}), user: t.user, env: t.env });

/** `skillgate install | uninstall --host copilot`: the hooks file change, the trust note, the skills to check. */
export function copilotPlan(verb: "install" | "uninstall", t: InstallTarget, root: string): InstallPlan {
  const hookPath = copilotHookPathOf(root);
  if (verb === "uninstall") return { changes: copilotUninstallChanges({ ...whereOf(t), hookPath }), notes: [] };
  const notes = t.user ? [] : ["Copilot CLI loads a repository's hooks only in a trusted folder: trust it when copilot asks (or pass --trust-folder with -p)."];
  const skills = copilotSkills({ ...whereOf(t), user: t.user, env: t.env, withSkills: t.withSkills }, root);
  // The project's hooks file gets the portable command when skillgate is the project's dependency.
  const pkgDir = t.user ? undefined : packageDirInProject(t.project ?? ".", root);
  const runtime = t.runtimeGiven === "bun" ? "bun" : "node";
  const commandFor: CommandFor = pkgDir !== undefined ? (e) => portableCopilotCommand(pkgDir, e, runtime) : (e) => copilotCommand(t.runtime, hookPath, e);
  const change = copilotInstallChange({ ...whereOf(t), runtime: t.runtime, hookPath, commandFor });
  const form = `${pkgDir !== undefined ? "portable" : "absolute paths, this machine only"}: ${commandFor("<event>")}`;
  return {
    changes: [{ ...change, says: `skillgate hooks installed for ${COPILOT_EVENTS.length} events (${form})` }],
    notes,
    skills: t.table ? { ...skills, tableFile: t.table } : skills,
  };
}

/** `skillgate doctor --host copilot [--project DIR | --user]`: every event registered, and the hook answers. */
export function copilotDoctor(t: InstallTarget, root: string): DoctorCheck[] {
  const hookPath = copilotHookPathOf(root);
  const problems: string[] = [];
  let file: string;
  let hooks: Json;
  try {
    file = hooksFileOf(whereOf(t));
    const cur = readJson(file);
    hooks = (cur.hooks ?? {}) as Json;
    if (!t.user && cur.version !== 1) problems.push(`${file} has no "version": 1 (Copilot refuses it)`);
  } catch (e) {
    return [{ ok: false, text: (e as Error).message }];
  }
  const commands = new Set<string>();
  for (const event of COPILOT_EVENTS) {
    const list = hooks[event];
    const ours = Array.isArray(list) ? (list as Json[]).filter((h) => isOurs(h, hookPath)) : [];
    if (!ours.length) problems.push(`${file} does not run skillgate on ${event} (run skillgate install --host copilot)`);
    for (const h of ours) if (typeof h.bash === "string") commands.add(h.bash);
  }
  // The project's hooks file is committed: it must run on every clone.
  if (!t.user) {
    const abs = [...new Set([...commands].flatMap(absolutePathsInCommand))];
    if (abs.length) problems.push(absolutePathsProblem(file, abs, "copilot"));
  }
  const start = { sessionId: "skillgate-doctor", timestamp: Date.now(), cwd: t.project ?? process.cwd(), source: "new" };
  const hookFails = hookProblem(hookPath, ["sessionStart"], start, t.env, COPILOT_HOOK_TIMEOUT_S * 1000);
  if (hookFails) problems.push(hookFails);
  if (!problems.length) return [{ ok: true, text: `skillgate runs on ${COPILOT_EVENTS.length} Copilot CLI hook events from ${file}; the hook answers` }];
  return problems.map((text) => ({ ok: false, text }));
}

export const copilotInstaller: HostInstaller = {
  id: "copilot",
  label: "Copilot CLI",
  binary: "copilot",
  markers: [".github/hooks", ".github/copilot-instructions.md", ".github/skills"],
  skillsHelp: "copilot: .github/skills ($COPILOT_HOME/skills with --user)",
  plan: copilotPlan,
  doctor: copilotDoctor,
};
