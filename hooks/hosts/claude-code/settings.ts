// Does a Claude Code settings file register skillgate's hook? Read by the
// runner at session start and on ConfigChange (the core only sees the answer).
import fs from "node:fs";
import { deficitsOf, describeDeficit, newDeficits, type Ours } from "./registration.js";

/** A hook handler whose command or args name skillgate's hook (a bundle per runtime, the launcher or the CLI's hook verb). */
const OURS = /skillgate|[/\\]dist[/\\]hook(\.bun)?\.(mjs|cjs)$/;

export function registersSkillgate(file: string): boolean {
  let settings: unknown;
  try {
    settings = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return false;
  }
  const hooks = (settings as { hooks?: unknown } | null)?.hooks;
  if (!hooks || typeof hooks !== "object") return false;
  for (const groups of Object.values(hooks as Record<string, unknown>)) {
    for (const g of Array.isArray(groups) ? groups : []) {
      for (const h of Array.isArray((g as { hooks?: unknown })?.hooks) ? (g as { hooks: unknown[] }).hooks : []) {
        const handler = h as { command?: unknown; args?: unknown };
        const words = [handler.command, ...(Array.isArray(handler.args) ? handler.args : [])].filter((w): w is string => typeof w === "string");
        if (words.some((w) => OURS.test(w))) return true;
      }
    }
  }
  return false;
}

/**
 * Does a settings file switch skillgate off without touching its hook: `disableAllHooks`
 * (any file: hooks of every file stop), or an `env` that redirects skillgate (SKILLGATE_*:
 * another table, state folder or fail mode)?
 */
export function weakensSkillgate(file: string): boolean {
  let settings: unknown;
  try {
    settings = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return false;
  }
  if (!settings || typeof settings !== "object") return false;
  const s = settings as { disableAllHooks?: unknown; env?: unknown };
  if (s.disableAllHooks === true) return true;
  return !!s.env && typeof s.env === "object" && Object.keys(s.env).some((k) => k.toUpperCase().startsWith("SKILLGATE_"));
}

/**
 * What a settings file lacks of skillgate's registration (registration.ts keys).
 * A missing file, or one Claude Code cannot read, registers nothing.
 */
export function settingsDeficits(file: string, ours: Ours): string[] {
  if (!file.endsWith(".json")) return [];
  let settings: unknown = {};
  try {
    settings = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    /* absent or unreadable: nothing registered */
  }
  return deficitsOf(settings, ours);
}

/** The deficits of a file now that it did not have at session start (`before`), described. */
export function settingsWeakenings(file: string, before: string[] | undefined, ours: Ours): string[] {
  return newDeficits(before, settingsDeficits(file, ours)).map(describeDeficit);
}
