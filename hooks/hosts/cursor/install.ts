// Registers skillgate in Cursor's hooks.json (`<project>/.cursor/hooks.json` or
// `~/.cursor/hooks.json`): `{"version":1,"hooks":{"<event>":[{"command":…}]}}`.
// DOCUMENTED SHAPE ONLY: not loaded by a real Cursor here.
import fs from "node:fs";
import path from "node:path";
import {
  hookCommand,
  hooksOf,
  hostTableFile,
  jsonText,
  listOf,
  readJsonObject,
  readText,
  runsHook,
  writeChanges,
  type FileChange,
  type HostInstaller,
  type InstallPlan,
  type InstallTarget,
  type SkillsTarget,
} from "../../io/hook-install.js";
import type { Json } from "../../io/payload.js";
import { CURSOR_EVENTS } from "./adapter.js";
import { environment } from "./env.js";

/** The hook a Cursor install runs: the Node route's loader for Cursor (scripts/build.mjs, buildForNode; hooks/entries/cursor.ts `main`). */
export function cursorHookPathOf(root: string): string {
  return path.join(root, "dist", "hook-cursor.cjs");
}

const isOurs = (h: unknown, hookPath: string): boolean => runsHook(h, hookPath);

/**
 * The events that refuse a call get `"failClosed": true` (Cursor's hooks
 * documentation): a hook that crashes, times out or answers something
 * unreadable then blocks the call instead of letting it through. Not run under
 * a real Cursor here (DOCUMENTED SHAPE ONLY, as the rest of this file).
 */
export const CURSOR_FAIL_CLOSED: ReadonlySet<string> = new Set(["beforeShellExecution", "beforeReadFile", "preToolUse"]);

export function hooksFileOf(w: { project?: string; user?: boolean; env?: NodeJS.ProcessEnv }): string {
  if (w.user) {
    const home = (w.env ?? process.env).HOME;
    if (!home) throw new Error("HOME is not set");
    return path.join(home, ".cursor", "hooks.json");
  }
  return path.join(path.resolve(w.project ?? "."), ".cursor", "hooks.json");
}

function read(file: string): Json {
  if (!fs.existsSync(file)) return { version: 1, hooks: {} };
  const v = readJsonObject(file);
  hooksOf(v, file);
  return v;
}

const runsOn = (hooks: Json, hookPath: string): boolean => Object.values(hooks).some((l) => Array.isArray(l) && l.some((h) => isOurs(h, hookPath)));

type Where = { project?: string; user?: boolean; env?: NodeJS.ProcessEnv };

export function cursorInstallChange(w: Where & { runtime: string; hookPath: string }): FileChange {
  const file = hooksFileOf(w);
  const cur = read(file);
  const hooks: Json = { ...((cur.hooks ?? {}) as Json) };
  const fresh = !runsOn(hooks, w.hookPath);
  for (const event of CURSOR_EVENTS) {
    hooks[event] = [
      ...listOf(hooks, event, file).filter((h) => !isOurs(h, w.hookPath)),
      { command: hookCommand(w.runtime, w.hookPath), ...(CURSOR_FAIL_CLOSED.has(event) ? { failClosed: true } : {}) },
    ];
  }
  return { file, before: readText(file), after: jsonText({ ...cur, version: 1, hooks }), fresh };
}

export function cursorUninstallChanges(w: Where & { hookPath: string }): FileChange[] {
  const file = hooksFileOf(w);
  const before = readText(file);
  if (before === null) return [];
  const cur = read(file);
  if (!runsOn((cur.hooks ?? {}) as Json, w.hookPath)) return [{ file, before, after: before }];
  const hooks: Json = {};
  for (const [event, list] of Object.entries((cur.hooks ?? {}) as Json)) {
    const kept = Array.isArray(list) ? list.filter((h) => !isOurs(h, w.hookPath)) : list;
    if (!Array.isArray(kept) || kept.length) hooks[event] = kept;
  }
  return [{ file, before, after: jsonText({ ...cur, hooks }) }];
}

/** Register skillgate directly, no backup (test harnesses). */
export function installCursor(w: Where & { runtime: string; hookPath: string }): string {
  const c = cursorInstallChange(w);
  writeChanges([c]);
  return c.file;
}

export function uninstallCursor(w: Where & { hookPath: string }): string | undefined {
  return writeChanges(cursorUninstallChanges(w))[0];
}

/** Where Cursor loads skills from (its documentation: .cursor/skills, and ~/.cursor/skills), and where --with-skills copies them. */
export function cursorSkills(t: InstallTarget, root: string): SkillsTarget {
  const project = t.user ? undefined : path.resolve(t.project ?? ".");
  const hostEnv = environment({ ...t.env, ...(project ? { SKILLGATE_CURSOR_CWD: project } : {}) });
  const dest = project ? path.join(project, ".cursor", "skills") : t.env.HOME ? path.join(t.env.HOME, ".cursor", "skills") : "";
  if (!dest) throw new Error("HOME is not set: cannot find ~/.cursor/skills");
  return {
    host: "Cursor",
    tableFile: t.table ?? hostTableFile(hostEnv.projectTable, t.env, root),
    roots: hostEnv.skillRoots,
    dest,
    withSkills: t.withSkills,
    packageRoot: root,
    env: t.env,
  };
}

/** `skillgate install | uninstall --host cursor`: the hooks.json change and the skills to check. */
export function cursorPlan(verb: "install" | "uninstall", t: InstallTarget, root: string): InstallPlan {
  const w = { ...(t.project !== undefined ? { project: t.project } : {}), user: t.user, env: t.env };
  const hookPath = cursorHookPathOf(root);
  if (verb === "uninstall") return { changes: cursorUninstallChanges({ ...w, hookPath }), notes: [] };
  return {
    changes: [cursorInstallChange({ ...w, runtime: t.runtime, hookPath })],
    notes: ["Cursor support follows Cursor's hooks documentation; it has not been run under a real Cursor."],
    skills: cursorSkills(t, root),
  };
}

export const cursorInstaller: HostInstaller = {
  id: "cursor",
  label: "Cursor",
  binary: "cursor-agent",
  markers: [".cursor"],
  skillsHelp: "cursor: .cursor/skills (~/.cursor/skills with --user)",
  plan: cursorPlan,
};
