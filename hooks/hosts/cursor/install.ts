// Registers skillgate in Cursor's hooks.json (`<project>/.cursor/hooks.json` or
// `~/.cursor/hooks.json`): `{"version":1,"hooks":{"<event>":[{"command":…}]}}`.
// DOCUMENTED SHAPE ONLY: not loaded by a real Cursor here.
import fs from "node:fs";
import path from "node:path";
import { hookCommand, hooksOf, listOf, parseInstallTarget, readJsonObject, runsHook, writeJsonObject } from "../../io/hook-install.js";
import type { Json } from "../../io/payload.js";
import { CURSOR_EVENTS } from "./adapter.js";

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

export function installCursor(w: { project?: string; user?: boolean; env?: NodeJS.ProcessEnv; runtime: string; hookPath: string }): string {
  const file = hooksFileOf(w);
  const cur = read(file);
  const hooks: Json = { ...((cur.hooks ?? {}) as Json) };
  for (const event of CURSOR_EVENTS) {
    hooks[event] = [...listOf(hooks, event, file).filter((h) => !isOurs(h, w.hookPath)), { command: hookCommand(w.runtime, w.hookPath), ...(CURSOR_FAIL_CLOSED.has(event) ? { failClosed: true } : {}) }];
  }
  writeJsonObject(file, { ...cur, version: 1, hooks });
  return file;
}

export function uninstallCursor(w: { project?: string; user?: boolean; env?: NodeJS.ProcessEnv; hookPath: string }): string | undefined {
  const file = hooksFileOf(w);
  if (!fs.existsSync(file)) return undefined;
  const cur = read(file);
  const hooks: Json = {};
  for (const [event, list] of Object.entries((cur.hooks ?? {}) as Json)) {
    const kept = Array.isArray(list) ? list.filter((h) => !isOurs(h, w.hookPath)) : list;
    if (!Array.isArray(kept) || kept.length) hooks[event] = kept;
  }
  writeJsonObject(file, { ...cur, hooks });
  return file;
}

/** `skillgate install|uninstall --host cursor [--project DIR | --user] [--runtime PATH]`. Returns the exit code. */
export function cursorInstallMain(verb: "install" | "uninstall", args: string[], root: string, env: NodeJS.ProcessEnv = process.env, out: (s: string) => void = (s) => process.stdout.write(s + "\n")): number {
  const t = parseInstallTarget("cursor", verb, args, out);
  if (t === 2) return 2;
  const { runtime } = t;
  const w = { ...(t.project !== undefined ? { project: t.project } : {}), user: t.user, env };
  const hookPath = cursorHookPathOf(root);
  try {
    const file = verb === "install" ? installCursor({ ...w, runtime, hookPath }) : uninstallCursor({ ...w, hookPath });
    out(file ? `${verb === "install" ? "wrote" : "removed skillgate from"} ${file}` : "nothing to remove");
    if (verb === "install") out("Cursor support follows Cursor's hooks documentation; it has not been run under a real Cursor.");
    return 0;
  } catch (e) {
    out(`skillgate ${verb} --host cursor: ${(e as Error).message}`);
    return 1;
  }
}
