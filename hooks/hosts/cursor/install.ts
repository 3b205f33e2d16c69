// Registers skillgate in Cursor's hooks.json (`<project>/.cursor/hooks.json` or
// `~/.cursor/hooks.json`): `{"version":1,"hooks":{"<event>":[{"command":…}]}}`.
// DOCUMENTED SHAPE ONLY: not loaded by a real Cursor here.
import fs from "node:fs";
import path from "node:path";
import { CURSOR_EVENTS } from "./adapter.js";

type Json = Record<string, unknown>;

const shQuote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function cursorHookPathOf(root: string): string {
  return path.join(root, "dist", "hook-cursor.mjs");
}

const isOurs = (h: unknown, hookPath: string): boolean => !!h && typeof h === "object" && typeof (h as Json).command === "string" && ((h as Json).command as string).includes(hookPath);

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
  const v = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error(`${file} is not a JSON object`);
  const hooks = (v as Json).hooks ?? {};
  if (!hooks || typeof hooks !== "object" || Array.isArray(hooks)) throw new Error(`${file}: "hooks" is not an object`);
  return v as Json;
}

export function installCursor(w: { project?: string; user?: boolean; env?: NodeJS.ProcessEnv; runtime: string; hookPath: string }): string {
  const file = hooksFileOf(w);
  const cur = read(file);
  const hooks: Json = { ...((cur.hooks ?? {}) as Json) };
  for (const event of CURSOR_EVENTS) {
    const list = hooks[event] ?? [];
    if (!Array.isArray(list)) throw new Error(`${file}: hooks.${event} is not a list`);
    hooks[event] = [...list.filter((h) => !isOurs(h, w.hookPath)), { command: `${shQuote(w.runtime)} ${shQuote(w.hookPath)}` }];
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...cur, version: 1, hooks }, null, 2) + "\n");
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
  fs.writeFileSync(file, JSON.stringify({ ...cur, hooks }, null, 2) + "\n");
  return file;
}

/** `skillgate install|uninstall --host cursor [--project DIR | --user] [--runtime PATH]`. Returns the exit code. */
export function cursorInstallMain(verb: "install" | "uninstall", args: string[], root: string, env: NodeJS.ProcessEnv = process.env, out: (s: string) => void = (s) => process.stdout.write(s + "\n")): number {
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
      out(`skillgate ${verb} --host cursor: unknown argument ${a}`);
      return 2;
    }
  }
  if (project !== undefined && user) {
    out(`skillgate ${verb} --host cursor: give --project DIR or --user, not both`);
    return 2;
  }
  const w = { ...(user ? {} : { project: project ?? "." }), user, env };
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
