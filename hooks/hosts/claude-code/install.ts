// What installing skillgate into Claude Code means: which settings file, the
// shape of a hook registration, how ours are recognised, and where the client
// looks for skills. The verbs (cli/install.ts, cli/init.ts) do the I/O around it.
// Handlers use the exec form (command + args, no shell): Claude Code 2.1.328
// runs them verbatim and substitutes ${CLAUDE_PROJECT_DIR} inside `args`
// (e2e/FINDINGS.md, "Exec form and placeholders").
import fs from "node:fs";
import path from "node:path";
import { environment } from "./env.js";
import { appendItem, memberOf, parseJsonText, removeItem, replaceValue, type Node } from "./settings-text.js";

type Json = Record<string, unknown>;

export interface Handler {
  type: "command";
  command: string;
  args: string[];
  timeout: number;
  /** "block": a crash, a timeout or an answer that is not JSON refuses the call instead of letting it through (FAIL_CLOSED_EVENTS). */
  onFailure?: "block";
}

/**
 * The tools PreToolUse is sent: every tool that runs a command, writes a file or starts a
 * subagent, MCP tools included (an MCP server's write_file writes as Write does). With `.*`
 * this is an unanchored regex, so a few more tools (TodoWrite) reach the hook too; it answers
 * nothing for them. doctor checks coverage name by name, split on `|`.
 */
export const PRE_TOOL_USE_MATCHER = "Bash|Write|Edit|MultiEdit|NotebookEdit|Agent|Task|mcp__.*";

/**
 * Every event the engine reads, with the matcher that limits it to the tools it
 * cares about (undefined: no matcher, i.e. every source/tool). hooks/hooks.json
 * must register the same set; test/install.test.ts checks that.
 */
export const HOOK_EVENTS: Readonly<Record<string, string | undefined>> = {
  PreToolUse: PRE_TOOL_USE_MATCHER,
  // Every tool: skill loads (Skill, Read), output caps (Bash, WebFetch), budget reminders and tool-call stats.
  PostToolUse: undefined,
  PostToolUseFailure: undefined,
  UserPromptSubmit: undefined,
  UserPromptExpansion: undefined,
  SessionStart: undefined,
  PreCompact: undefined,
  PostCompact: undefined,
  Stop: undefined,
  SubagentStop: undefined,
  // Hints for a subagent from the task it was given (subagents have the Skill tool).
  SubagentStart: undefined,
  // A settings change that removes skillgate's own hook is refused (self-protection).
  ConfigChange: undefined,
};

/** Seconds; the hook takes ~0.1 s, this only bounds a hung process. */
export const HOOK_TIMEOUT_S = 10;

/**
 * Events whose handler is written with `"onFailure": "block"`: when the hook
 * crashes, times out or prints something that is not its answer, Claude Code
 * (2.1.328 and later; e2e/config-change.test.ts) refuses the tool call or the
 * settings change instead of letting it through. The other events only
 * inform (hints, loads, caps): a failure there must not block the user's prompt.
 */
export const FAIL_CLOSED_EVENTS: ReadonlySet<string> = new Set(["PreToolUse", "ConfigChange"]);

export const failsClosed = (event: string): boolean => FAIL_CLOSED_EVENTS.has(event);

/** The oldest Claude Code seen honouring a handler's onFailure (e2e/fail-closed.test.ts: 2.1.328 and 2.1.332). */
export const ON_FAILURE_SINCE = "2.1.328";

/** Does a `claude --version` answer ("2.1.332 (Claude Code)") name a client that honours onFailure? undefined: not a version. */
export function honoursOnFailure(versionText: string): boolean | undefined {
  const v = /^(\d+)\.(\d+)\.(\d+)/.exec(versionText.trim());
  if (!v) return undefined;
  const since = ON_FAILURE_SINCE.split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    const d = Number(v[i + 1]) - (since[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/** The handler as written under one event: the fail-closed ones carry onFailure. */
export function handlerFor(event: string, handler: Handler): Handler {
  const { onFailure: _, ...base } = handler;
  return failsClosed(event) ? { ...base, onFailure: "block" } : base;
}

/** project: .claude/settings.json (committed); local: .claude/settings.local.json (personal); user: ~/.claude/settings.json. */
export type Scope = "project" | "local" | "user";

export function settingsFileFor(scope: Scope, projectDir: string, home: string): string {
  if (scope === "user") return path.join(home, ".claude", "settings.json");
  return path.join(projectDir, ".claude", scope === "local" ? "settings.local.json" : "settings.json");
}

/** Both project-level settings files Claude Code reads, committed one first. */
export function projectSettingsFiles(projectDir: string): string[] {
  return [settingsFileFor("project", projectDir, ""), settingsFileFor("local", projectDir, "")];
}

export const PROJECT_DIR_VAR = "${CLAUDE_PROJECT_DIR}";

/** The launcher inside the project (committed with the settings): it finds the installed package or says it is missing. */
export const LAUNCHER_IN_PROJECT = [".claude", "hooks", "skillgate.mjs"] as const;

export function launcherFileOf(projectDir: string): string {
  return path.join(projectDir, ...LAUNCHER_IN_PROJECT);
}

/** The launcher's source shipped in the package. */
export function launcherSourceOf(packageRoot: string): string {
  return path.join(packageRoot, "hooks", "launcher.mjs");
}

/**
 * Bun reads a bunfig.toml in the folder it starts in (the project) and preloads the modules it names, before the
 * hook's own code: a Bun hook names its own (no) config. Node reads no such file.
 */
export const BUN_OWN_CONFIG = "--config=/dev/null";

/** The runtime's own arguments before the hook's file. */
function runtimeArgs(command: string): string[] {
  return /^bun(\.exe)?$/i.test(path.basename(command)) ? [BUN_OWN_CONFIG] : [];
}

/**
 * The hook's file among a handler's arguments: the first, past the one runtime argument install writes. Any other
 * (`--config=<a file with a preload>`) leaves the handler not ours: a changed registration, as settings protection sees it.
 */
export function hookArgOf(args: unknown): string | undefined {
  if (!Array.isArray(args)) return undefined;
  const a = args[0] === BUN_OWN_CONFIG ? args[1] : args[0];
  return typeof a === "string" ? a : undefined;
}

/**
 * A handler every teammate's clone can run: `node` from PATH (exec form looks
 * it up) and the project's launcher by a path relative to ${CLAUDE_PROJECT_DIR}.
 */
export function portableHandler(command = "node"): Handler {
  return { type: "command", command, args: [...runtimeArgs(command), `${PROJECT_DIR_VAR}/${LAUNCHER_IN_PROJECT.join("/")}`], timeout: HOOK_TIMEOUT_S };
}

/** A handler with absolute paths, for the user's own settings (nothing there is shared). */
export function makeHandler(runtime: string, hookPath: string): Handler {
  return { type: "command", command: runtime, args: [...runtimeArgs(runtime), hookPath], timeout: HOOK_TIMEOUT_S };
}

/** The hook build for a runtime (scripts/build.mjs): Bun starts from its bytecode build when it was built, Node from dist/hook.cjs (its code cache). */
export function hookPathOf(packageRoot: string, runtime: "bun" | "node" = "node"): string {
  const bun = path.join(packageRoot, "dist", "hook.bun.cjs");
  return runtime === "bun" && fs.existsSync(bun) ? bun : path.join(packageRoot, "dist", "hook.cjs");
}

/** ${CLAUDE_PROJECT_DIR} in a handler's args as the client substitutes it. */
export function expandArgs(args: string[], projectDir: string): string[] {
  return args.map((a) => a.split(PROJECT_DIR_VAR).join(projectDir).split("$CLAUDE_PROJECT_DIR").join(projectDir));
}

const obj = (v: unknown): Json | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined);

/**
 * Ours: an exec-form handler whose first argument is this skillgate's hook,
 * any other skillgate's dist/hook.{cjs,mjs,bun.cjs} (a reinstall from a new place replaces the
 * old entries instead of running the hook twice), or a project launcher.
 * No marker key is added to the handler: Claude Code's settings schema is not ours to extend.
 */
export function isSkillgateHandler(h: unknown, hookPath: string): boolean {
  const first = hookArgOf(obj(h)?.args);
  if (typeof first !== "string") return false;
  if (/[/\\]\.claude[/\\]hooks[/\\]skillgate\.mjs$/.test(first)) return true;
  if (!first.includes("$") && path.resolve(first) === path.resolve(hookPath)) return true;
  if (!/[/\\]dist[/\\]hook\.(mjs|cjs|bun\.cjs)$/.test(first)) return false;
  const pkgRoot = path.dirname(path.dirname(first));
  if (path.basename(pkgRoot) === "skillgate") return true;
  try {
    return (JSON.parse(fs.readFileSync(path.join(pkgRoot, "package.json"), "utf8")) as Json).name === "skillgate";
  } catch {
    return false;
  }
}

export class SettingsShapeError extends Error {}

function groupFor(event: string, handler: Handler): Json {
  const matcher = HOOK_EVENTS[event];
  const h = handlerFor(event, handler);
  return matcher === undefined ? { hooks: [h] } : { matcher, hooks: [h] };
}

// ---------------------------------------------------------------- settings as objects (the meaning)

function hooksOf(settings: Json): Json {
  if (settings.hooks === undefined) return {};
  const h = obj(settings.hooks);
  if (!h) throw new SettingsShapeError(`"hooks" is not an object`);
  return h;
}

/** settings with every skillgate handler taken out, and the groups/events that only we had emptied. */
export function removeSkillgate(settings: Json, hookPath: string): Json {
  const out = structuredClone(settings);
  const hooks = hooksOf(out);
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept = groups.flatMap((g: unknown) => {
      const group = obj(g);
      if (!group || !Array.isArray(group.hooks)) return [g];
      const rest = group.hooks.filter((h: unknown) => !isSkillgateHandler(h, hookPath));
      if (rest.length === group.hooks.length) return [g];
      return rest.length ? [{ ...group, hooks: rest }] : [];
    });
    if (kept.length) hooks[event] = kept;
    else if (groups.length) delete hooks[event];
  }
  // Drop "hooks" only when we are the ones who emptied it.
  if (Object.keys(hooks).length === 0 && Object.keys(obj(settings.hooks) ?? {}).length > 0) delete out.hooks;
  return out;
}

/**
 * settings with exactly one skillgate handler per event, in a group of its own
 * with our matcher. An existing one is updated in place (so a second install
 * changes nothing, wherever the user moved it); duplicates are dropped.
 */
export function addSkillgate(settings: Json, handler: Handler, hookPath = hookArgOf(handler.args) ?? ""): Json {
  const out = structuredClone(settings);
  const hooks = hooksOf(out);
  for (const event of Object.keys(HOOK_EVENTS)) {
    const groups = hooks[event] ?? [];
    if (!Array.isArray(groups)) throw new SettingsShapeError(`"hooks.${event}" is not an array`);
    let placed = false;
    const next = groups.flatMap((g: unknown) => {
      const group = obj(g);
      if (!group || !Array.isArray(group.hooks) || !group.hooks.some((h) => isSkillgateHandler(h, hookPath))) return [g];
      const mine = !placed && group.matcher === HOOK_EVENTS[event];
      const rest = group.hooks.flatMap((h: unknown) =>
        !isSkillgateHandler(h, hookPath) ? [h] : mine && !placed ? ((placed = true), [handlerFor(event, handler)]) : [],
      );
      return rest.length ? [{ ...group, hooks: rest }] : [];
    });
    if (!placed) next.push(groupFor(event, handler));
    hooks[event] = next;
  }
  out.hooks = hooks;
  return out;
}

// ---------------------------------------------------------------- the same, as minimal edits of the file's text

/** Key order does not make two handlers different. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  const o = obj(v);
  if (o)
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

const valueAt = (text: string, n: Node): unknown => JSON.parse(text.slice(n.start, n.end));

/** Where our handlers sit in one event's group list. */
function oursIn(text: string, groups: Node, hookPath: string): { group: number; handler: number; groupNode: Node; handlersNode: Node; node: Node }[] {
  if (groups.kind !== "array") return [];
  return groups.elements.flatMap((g, gi) => {
    const hs = memberOf(g, "hooks")?.value;
    if (!hs || hs.kind !== "array") return [];
    return hs.elements.flatMap((h, hi) =>
      isSkillgateHandler(valueAt(text, h), hookPath) ? [{ group: gi, handler: hi, groupNode: g, handlersNode: hs, node: h }] : [],
    );
  });
}

function rootOf(text: string): Node {
  const root = parseJsonText(text);
  if (root.kind !== "object") throw new SettingsShapeError("the file does not hold a JSON object");
  return root;
}

/** One edit towards "installed", or the text unchanged when there is nothing left to do. */
function installStep(text: string, handler: Handler, hookPath: string): string {
  const root = rootOf(text);
  const hooks = memberOf(root, "hooks");
  if (!hooks) return appendItem(text, root, Object.fromEntries(Object.keys(HOOK_EVENTS).map((e) => [e, [groupFor(e, handler)]])), "hooks");
  if (hooks.value.kind !== "object") throw new SettingsShapeError(`"hooks" is not an object`);
  for (const [event, matcher] of Object.entries(HOOK_EVENTS)) {
    const m = memberOf(hooks.value, event);
    if (!m) return appendItem(text, hooks.value, [groupFor(event, handler)], event);
    if (m.value.kind !== "array") throw new SettingsShapeError(`"hooks.${event}" is not an array`);
    const ours = oursIn(text, m.value, hookPath);
    const matcherOf = (g: Node): unknown => {
      const mm = memberOf(g, "matcher");
      return mm ? valueAt(text, mm.value) : undefined;
    };
    const keeper = ours.find((o) => matcherOf(o.groupNode) === matcher);
    const extra = ours.find((o) => o !== keeper);
    if (extra)
      return extra.handlersNode.kind === "array" && extra.handlersNode.elements.length === 1
        ? removeItem(text, m.value, extra.group)
        : removeItem(text, extra.handlersNode, extra.handler);
    if (!keeper) return appendItem(text, m.value, groupFor(event, handler));
    const want = handlerFor(event, handler);
    if (canonical(valueAt(text, keeper.node)) !== canonical(want)) return replaceValue(text, keeper.node, want);
  }
  return text;
}

/** One edit towards "not installed". */
function uninstallStep(text: string, hookPath: string): string {
  const root = rootOf(text);
  const hooks = memberOf(root, "hooks");
  if (!hooks || hooks.value.kind !== "object") return text;
  for (const [mi, m] of hooks.value.members.entries()) {
    const o = oursIn(text, m.value, hookPath)[0];
    if (!o || m.value.kind !== "array") continue;
    const onlyHandler = o.handlersNode.kind === "array" && o.handlersNode.elements.length === 1;
    if (!onlyHandler) return removeItem(text, o.handlersNode, o.handler);
    if (m.value.elements.length > 1) return removeItem(text, m.value, o.group);
    if (hooks.value.members.length > 1) return removeItem(text, hooks.value, mi);
    return removeItem(text, root, root.kind === "object" ? root.members.indexOf(hooks) : -1);
  }
  return text;
}

function untilStable(text: string, step: (t: string) => string): string {
  // Each step makes one edit; a settings file has at most a few dozen handlers.
  for (let i = 0; i < 1000; i++) {
    const next = step(text);
    if (next === text) return text;
    text = next;
  }
  throw new Error("settings edit did not converge");
}

/** The settings text with skillgate installed; a missing file becomes a new two-space-indented one. */
export function installIntoText(text: string | undefined, handler: Handler, hookPath = hookArgOf(handler.args) ?? ""): string {
  if (text === undefined) return JSON.stringify(addSkillgate({}, handler, hookPath), null, 2) + "\n";
  return untilStable(text, (t) => installStep(t, handler, hookPath));
}

export function uninstallFromText(text: string, hookPath: string): string {
  return untilStable(text, (t) => uninstallStep(t, hookPath));
}

// ---------------------------------------------------------------- checking an installation

/** What an installed settings file provides: our handler per event, and problems found. */
export function inspectSettings(settings: Json, hookPath: string): { handlers: Map<string, Json>; problems: string[] } {
  const handlers = new Map<string, Json>();
  const problems: string[] = [];
  const hooks = obj(settings.hooks) ?? {};
  for (const [event, want] of Object.entries(HOOK_EVENTS)) {
    const groups = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    for (const g of groups) {
      const group = obj(g);
      const h = Array.isArray(group?.hooks) ? obj(group.hooks.find((x) => isSkillgateHandler(x, hookPath))) : undefined;
      if (!h) continue;
      handlers.set(event, h);
      const m = typeof group?.matcher === "string" ? group.matcher : "";
      const missed = (want ?? "").split("|").filter((tool) => tool && !matcherCovers(m, tool));
      if (missed.length)
        problems.push(
          `the ${event} hook's matcher "${m}" leaves out ${missed.join(", ")}: skillgate will not see those tool calls (run skillgate install again)`,
        );
    }
  }
  return { handlers, problems };
}

/** Claude Code matchers: empty or "*" is everything; otherwise a regex (a plain "A|B" list is one too). */
export function matcherCovers(matcher: string, tool: string): boolean {
  if (matcher === "" || matcher === "*") return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(tool);
  } catch {
    return matcher === tool;
  }
}

/** Absolute paths in a handler (what makes a committed settings file break on a teammate's clone). */
export function absolutePathsIn(h: Json): string[] {
  const parts = [h.command, ...(Array.isArray(h.args) ? h.args : [])].filter((x): x is string => typeof x === "string");
  return parts.filter((p) => !p.startsWith("$") && (path.isAbsolute(p) || /^[A-Za-z]:[\\/]/.test(p)));
}

// ---------------------------------------------------------------- skills the client can load

/** Folders the Skill tool looks in (outside plugins): the user's and the project's .claude/skills, as the hook sees them. */
export function clientSkillRoots(projectDir: string | undefined, home: string): string[] {
  return environment({ HOME: home, ...(projectDir ? { CLAUDE_PROJECT_DIR: projectDir } : {}) }).skillRoots;
}

/** The SKILL.md the client would load for `name`, or undefined. */
export function clientSkillFile(name: string, roots: string[]): string | undefined {
  return roots.map((r) => path.join(r, name, "SKILL.md")).find((f) => fs.existsSync(f));
}
