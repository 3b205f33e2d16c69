// skillgate's registration in Claude Code's settings, as data: what install
// writes per event (matcher, timeout, onFailure), what one settings file
// provides of it, and which differences weaken it. Pure: the caller reads the
// files (settings.ts) and the runner compares a file now with the same file at
// session start, so a change that narrows, slows, detaches or removes the
// gate is refused by config-guard, and an unrelated edit or a strengthening is not.
import path from "node:path";
import { HOOK_EVENTS, HOOK_TIMEOUT_S, LAUNCHER_IN_PROJECT, failsClosed, hookArgOf } from "./install.js";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined);

/** What install writes for one event. */
export interface Installed {
  /** undefined: no matcher (every tool/source). */
  matcher: string | undefined;
  timeout: number;
  onFailureBlock: boolean;
}

export const INSTALLED: Readonly<Record<string, Installed>> = Object.fromEntries(
  Object.entries(HOOK_EVENTS).map(([event, matcher]) => [event, { matcher, timeout: HOOK_TIMEOUT_S, onFailureBlock: failsClosed(event) }]),
);

/** A command hook with no timeout runs up to this long (reference: 600 s for `command`). */
const DEFAULT_TIMEOUT_S = 600;

// ---------------------------------------------------------------- matchers as the client reads them

/** Only names (letters, digits, `_`, `-`, spaces, `|`, `,`): a list of exact tool names; anything else an unanchored regex. */
const NAMES_ONLY = /^[A-Za-z0-9_\- ,|]+$/;

/** Does a group's matcher send `tool` to its hooks (Claude Code's rule: empty or `*` is everything)? */
export function clientMatches(matcher: string | undefined, tool: string): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (NAMES_ONLY.test(matcher)) return matcher.split(/[|,]/).some((n) => n.trim() === tool);
  try {
    return new RegExp(matcher).test(tool);
  } catch {
    return false;
  }
}

/** A matcher that is not a string sends nothing (the client rejects it). */
const NOTHING = "(?!)";

/** Spellings of "every tool" that need no regex reasoning. */
const matchesEverything = (m: string | undefined): boolean => m === undefined || ["", "*", ".*", "^.*$", ".+", "^.+$"].includes(m);

/**
 * The pieces of the installed matcher that none of `matchers` covers. A name
 * piece is covered when some matcher sends that tool; a pattern piece (a
 * regex such as `mcp__.*`) only by a matcher that takes everything or holds
 * the same pattern as one of its alternatives: regex inclusion is not
 * decided, so an equivalent spelled differently counts as narrower.
 */
export function leftOut(installed: string | undefined, matchers: (string | undefined)[]): string[] {
  if (matchers.some(matchesEverything)) return [];
  if (installed === undefined || matchesEverything(installed)) return ["every tool"];
  return installed.split("|").filter((piece) => {
    if (/^[A-Za-z0-9_-]+$/.test(piece)) return !matchers.some((m) => clientMatches(m, piece));
    return !matchers.some((m) => m !== undefined && !NAMES_ONLY.test(m) && m.split("|").includes(piece));
  });
}

// ---------------------------------------------------------------- one settings file

/** Where the running skillgate lives: a handler counts as ours only if it runs this hook. */
export interface Ours {
  packageRoot: string;
  projectDir?: string;
}

const RUNTIME = /^(node|nodejs|bun)(\.exe)?$/i;
const PROJECT_LAUNCHER = [`\${CLAUDE_PROJECT_DIR}/${LAUNCHER_IN_PROJECT.join("/")}`, `$CLAUDE_PROJECT_DIR/${LAUNCHER_IN_PROJECT.join("/")}`];

/**
 * A handler install writes: a command hook, a JS runtime, and as first argument
 * the project's launcher or one of this package's hook builds. A handler that
 * only names skillgate somewhere (`echo skillgate`, a launcher copied to /tmp)
 * runs nothing of ours.
 */
export function isOurHandler(h: unknown, ours: Ours): boolean {
  const o = obj(h);
  if (!o || (o.type ?? "command") !== "command" || typeof o.command !== "string" || !RUNTIME.test(path.basename(o.command))) return false;
  const first = hookArgOf(o.args);
  if (typeof first !== "string") return false;
  if (PROJECT_LAUNCHER.includes(first)) return true;
  if (first.includes("$")) return false;
  const abs = path.resolve(first);
  if (ours.projectDir && abs === path.resolve(ours.projectDir, ...LAUNCHER_IN_PROJECT)) return true;
  return ["hook.cjs", "hook.mjs", "hook.bun.cjs"].some((b) => abs === path.resolve(ours.packageRoot, "dist", b));
}

/**
 * What a settings file lacks of skillgate's registration, one stable key per
 * item: `<Event>:absent`, `<Event>:matcher:<piece>`, `<Event>:timeout=<s>`,
 * `<Event>:async`, `<Event>:once`, `<Event>:if`, `<Event>:onFailure`; and what
 * it switches off for every file: `disableAllHooks`, `allowManagedHooksOnly`,
 * `env:<SKILLGATE_*>`, `plugin-off:<skillgate@…>`.
 */
export function deficitsOf(settings: unknown, ours: Ours): string[] {
  const s = obj(settings) ?? {};
  const out: string[] = [];
  if (s.disableAllHooks === true) out.push("disableAllHooks");
  if (s.allowManagedHooksOnly === true) out.push("allowManagedHooksOnly");
  for (const k of Object.keys(obj(s.env) ?? {})) if (k.toUpperCase().startsWith("SKILLGATE_")) out.push(`env:${k}`);
  for (const [k, v] of Object.entries(obj(s.enabledPlugins) ?? {})) if (k.startsWith("skillgate@") && v === false) out.push(`plugin-off:${k}`);
  const hooks = obj(s.hooks) ?? {};
  for (const [event, want] of Object.entries(INSTALLED)) {
    const groups = (Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []).map(obj).filter((g): g is Json => !!g && Array.isArray(g.hooks));
    const mine = groups.flatMap((g) => (g.hooks as unknown[]).filter((h) => isOurHandler(h, ours)).map((h) => ({ group: g, h: h as Json })));
    if (mine.length === 0) {
      out.push(`${event}:absent`);
      continue;
    }
    for (const piece of leftOut(
      want.matcher,
      mine.map(({ group }) => (typeof group.matcher === "string" ? group.matcher : group.matcher === undefined ? undefined : NOTHING)),
    ))
      out.push(`${event}:matcher:${piece}`);
    // Claude Code runs one copy of identical handlers (command + args), so the weakest copy may be the one that runs.
    const timeouts = mine.map(({ h }) => (typeof h.timeout === "number" && Number.isFinite(h.timeout) ? h.timeout : DEFAULT_TIMEOUT_S));
    const lowest = Math.min(...timeouts);
    if (lowest < want.timeout) out.push(`${event}:timeout=${lowest}`);
    if (mine.some(({ h }) => h.async === true || h.asyncRewake === true)) out.push(`${event}:async`);
    if (mine.some(({ h }) => h.once === true)) out.push(`${event}:once`);
    if (mine.some(({ h }) => h.if !== undefined)) out.push(`${event}:if`);
    if (want.onFailureBlock && mine.some(({ h }) => h.onFailure !== "block")) out.push(`${event}:onFailure`);
  }
  return out;
}

// ---------------------------------------------------------------- what a change weakened

const timeoutOf = (key: string): number | undefined => {
  const m = /:timeout=(.+)$/.exec(key);
  return m ? Number(m[1]) : undefined;
};

/**
 * The deficits of a file now that it did not have before (at session start):
 * each one a weakening. `before` undefined: the file's state at session start is
 * unknown, and only what switches skillgate off for every file counts. A
 * registration added where there was none is no weakening for its matcher
 * (it adds coverage), but its timeout, async, once, if or onFailure are: the
 * client may run that copy instead of the installed one.
 */
export function newDeficits(before: string[] | undefined, now: string[]): string[] {
  const was = new Set(before ?? []);
  return now.filter((key) => {
    if (was.has(key)) return false;
    if (before === undefined) return !key.includes(":") || /^(env|plugin-off):/.test(key);
    const event = key.split(":")[0] ?? "";
    if (key.startsWith(`${event}:matcher:`)) return !was.has(`${event}:absent`);
    const t = timeoutOf(key);
    if (t !== undefined) {
      const old = [...was].map((k) => (k.startsWith(`${event}:timeout=`) ? timeoutOf(k) : undefined)).find((x) => x !== undefined);
      return old === undefined || t < old;
    }
    return true;
  });
}

/** One weakening, said so that the user sees which event and what changed. */
export function describeDeficit(key: string): string {
  if (key === "disableAllHooks") return "disableAllHooks switches every hook off";
  if (key === "allowManagedHooksOnly") return "allowManagedHooksOnly runs only managed hooks";
  if (key.startsWith("env:")) return `env ${key.slice(4)} redirects skillgate`;
  if (key.startsWith("plugin-off:")) return `enabledPlugins turns ${key.slice(11)} off`;
  const [event, what, ...rest] = key.split(":");
  const want = INSTALLED[event ?? ""];
  switch (what) {
    case "absent":
      return `${event}: skillgate's hook is removed`;
    case "matcher":
      return `${event}: the matcher no longer covers ${rest.join(":")} (installed: ${want?.matcher ?? "every tool"})`;
    case "async":
      return `${event}: async (the client no longer waits for the answer)`;
    case "once":
      return `${event}: once (the hook would run a single time)`;
    case "if":
      return `${event}: an "if" condition limits when the hook runs`;
    case "onFailure":
      return `${event}: onFailure is no longer "block" (a crash or timeout would let the call through)`;
    default:
      if (what?.startsWith("timeout=")) return `${event}: timeout lowered to ${what.slice(8)} s (installed: ${want?.timeout} s)`;
      return `${event}: ${what}`;
  }
}
