// Registers skillgate in Codex's hooks.json (project `.codex/hooks.json` or
// `$CODEX_HOME/hooks.json`) and, when asked, marks those hooks trusted.
//
// Codex runs an unmanaged hook only after the user trusted it: `/hooks` in the
// TUI records `[hooks.state."<hooks.json path>:<event>:<group>:<handler>"]
// trusted_hash = "sha256:…"` in $CODEX_HOME/config.toml; the hash covers the
// hook's definition, so any edit of it needs trust again. `--trust` writes the
// same entries (the user asked for skillgate's hooks, so this is their consent);
// without it the user trusts them in `/hooks`. Automation can instead pass
// `codex exec --dangerously-bypass-hook-trust`.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
  hookCommand,
  hookProblem,
  hooksOf,
  hostTableFile,
  jsonText,
  listOf,
  readJsonObject,
  readText,
  runsHook,
  withoutHandlers,
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
import { codexHome, environment } from "./env.js";

export const CODEX_HOOK_TIMEOUT_S = 10;

/** The events skillgate answers, with the tool matcher where Codex matches on tools. */
export const CODEX_EVENTS: Readonly<Record<string, string | undefined>> = {
  SessionStart: undefined,
  UserPromptSubmit: undefined,
  // MCP tools too (`mcp__<server>__<tool>`): an MCP server's write_file writes as apply_patch does.
  PreToolUse: "^(Bash|apply_patch|mcp__.*)$",
  PostToolUse: "^Bash$",
  PreCompact: undefined,
  PostCompact: undefined,
  Stop: undefined,
};

/** Codex's snake_case label of an event (the trust key and the hash use it). */
const EVENT_LABEL: Record<string, string> = {
  SessionStart: "session_start",
  UserPromptSubmit: "user_prompt_submit",
  PreToolUse: "pre_tool_use",
  PostToolUse: "post_tool_use",
  PreCompact: "pre_compact",
  PostCompact: "post_compact",
  Stop: "stop",
};
/** Events whose matcher Codex ignores (and leaves out of the hash). */
const NO_MATCHER = new Set(["UserPromptSubmit", "Stop"]);

/** The shell command Codex runs (hooks.json commands go through `sh -c`). */
export const codexCommand = (runtime: string, hookPath: string): string => hookCommand(runtime, hookPath);

/**
 * The command every clone can run: Codex names no project folder to a hook (no
 * variable; it runs in the session's working folder, codex-rs/hooks command_runner.rs),
 * so Node finds the project's own skillgate the way `require` does, from that
 * folder up through each node_modules, and runs Codex's hook from the loader
 * (hooks/node-loader.cjs `run`: a required loader does not start by itself).
 * The same text on every machine, so its trust hash is too.
 */
export const PORTABLE_CODEX_COMMAND = `node -e "require('skillgate/dist/hook-codex.cjs').run('codex')"`;

/** Ours: runs this skillgate's hook (or an older install's), or the portable command. */
export const isSkillgateCommand = (h: unknown, hookPath: string): boolean => {
  if (runsHook(h, hookPath)) return true;
  const c = h && typeof h === "object" ? (h as Json).command : undefined;
  return typeof c === "string" && c.includes("require('skillgate/dist/hook-codex.cjs')");
};

const groupsOf = (hooks: Json, event: string): Json[] => listOf(hooks, event, "hooks.json") as Json[];
const hooksObject = (file: Json): Json => hooksOf(file, "hooks.json");

/** hooks.json without any skillgate handler (groups left empty are dropped). */
export function removeFromHooksJson(file: Json, hookPath: string): Json {
  return { ...file, hooks: withoutHandlers(hooksObject(file), (h) => isSkillgateCommand(h, hookPath)) };
}

/** hooks.json with skillgate's handlers (any old ones replaced), each in its own group at the end. */
export function addToHooksJson(file: Json, command: string, hookPath: string): Json {
  const cleaned = removeFromHooksJson(file, hookPath);
  const hooks = { ...hooksObject(cleaned) };
  for (const [event, matcher] of Object.entries(CODEX_EVENTS)) {
    const group: Json = { ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command, timeout: CODEX_HOOK_TIMEOUT_S }] };
    hooks[event] = [...groupsOf(hooks, event), group];
  }
  return { ...cleaned, hooks };
}

/** Sort object keys recursively (Codex hashes canonical JSON). */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Json)[k])]),
    );
  return v;
}

/**
 * The trust hash Codex computes for one command handler: sha256 of the canonical
 * JSON of {event_name, matcher?, hooks: [the handler with its timeout filled in]}.
 * Checked against the real binary by the e2e suite (the hooks run with no bypass flag).
 */
export function trustHash(event: string, matcher: string | undefined, handler: Json): string {
  const label = EVENT_LABEL[event];
  if (!label) throw new Error(`no Codex label for event ${event}`);
  const timeout = typeof handler.timeout === "number" ? Math.max(1, handler.timeout) : 600;
  const normalized: Json = { type: "command", command: handler.command, timeout, async: handler.async === true };
  if (typeof handler.statusMessage === "string") normalized.statusMessage = handler.statusMessage;
  const identity: Json = { event_name: label, ...(matcher !== undefined && !NO_MATCHER.has(event) ? { matcher } : {}), hooks: [normalized] };
  return `sha256:${createHash("sha256")
    .update(JSON.stringify(canonical(identity)))
    .digest("hex")}`;
}

/** The `[hooks.state]` keys and hashes for skillgate's handlers in a hooks.json file. */
export function trustEntries(hooksFile: string, file: Json, hookPath: string): { key: string; hash: string }[] {
  const out: { key: string; hash: string }[] = [];
  const hooks = hooksObject(file);
  for (const event of Object.keys(hooks)) {
    const label = EVENT_LABEL[event];
    if (!label) continue;
    groupsOf(hooks, event).forEach((g, gi) => {
      const handlers = Array.isArray(g.hooks) ? (g.hooks as Json[]) : [];
      handlers.forEach((h, hi) => {
        if (!isSkillgateCommand(h, hookPath)) return;
        out.push({ key: `${hooksFile}:${label}:${gi}:${hi}`, hash: trustHash(event, typeof g.matcher === "string" ? g.matcher : undefined, h) });
      });
    });
  }
  return out;
}

const tomlKey = (s: string): string => JSON.stringify(s);
const STATE_HEADER = /^\[hooks\.state\.("(?:[^"\\]|\\.)*")\]\s*$/;

/**
 * config.toml without the `[hooks.state."<hooksFile>:…"]` tables of that
 * hooks.json, then (when given) with fresh ones. Edits only those tables: the
 * rest of the file is kept line for line.
 */
export function withTrust(configToml: string, hooksFile: string, entries: { key: string; hash: string }[]): string {
  const lines = configToml.split("\n");
  const kept: string[] = [];
  let skipping = false;
  for (const line of lines) {
    const m = STATE_HEADER.exec(line.trim());
    if (m) {
      const key = JSON.parse(m[1] ?? '""') as string;
      skipping = key.startsWith(`${hooksFile}:`);
      if (skipping) continue;
    } else if (/^\s*\[/.test(line)) skipping = false;
    if (!skipping) kept.push(line);
  }
  let text = kept.join("\n").replace(/\n+$/, "");
  for (const e of entries) text += `${text ? "\n\n" : ""}[hooks.state.${tomlKey(e.key)}]\nenabled = true\ntrusted_hash = ${tomlKey(e.hash)}`;
  return text ? text + "\n" : "";
}

export interface CodexInstallOptions {
  /** Project folder (hooks go to <project>/.codex/hooks.json); undefined with user: $CODEX_HOME/hooks.json. */
  project?: string;
  user?: boolean;
  runtime: string;
  hookPath: string;
  /** The command to write (default: runtime and hookPath, absolute). */
  command?: string;
  /** Also record the hooks as trusted in $CODEX_HOME/config.toml. */
  trust?: boolean;
  env: NodeJS.ProcessEnv;
}

export function hooksFileOf(o: { project?: string; user?: boolean; env: NodeJS.ProcessEnv }): string {
  if (o.project !== undefined) return path.join(path.resolve(o.project), ".codex", "hooks.json");
  const home = codexHome(o.env);
  if (!home) throw new Error("neither CODEX_HOME nor HOME is set: cannot find Codex's folder");
  return path.join(home, "hooks.json");
}

const readJson = (file: string): Json => readJsonObject(file);

function configTomlOf(env: NodeJS.ProcessEnv): string {
  const home = codexHome(env);
  if (!home) throw new Error("neither CODEX_HOME nor HOME is set: cannot find Codex's config.toml");
  return path.join(home, "config.toml");
}

/** The file changes that put skillgate's hooks (and, with trust, their trust entries) into Codex's files. */
export function codexInstallChanges(o: CodexInstallOptions): FileChange[] {
  const file = hooksFileOf(o);
  const cur = readJson(file);
  const next = addToHooksJson(cur, o.command ?? codexCommand(o.runtime, o.hookPath), o.hookPath);
  const config = configTomlOf(o.env);
  const before = readText(config);
  const after = withTrust(before ?? "", file, o.trust ? trustEntries(file, next, o.hookPath) : []);
  const changes: FileChange[] = [{ file, before: readText(file), after: jsonText(next), fresh: trustEntries(file, cur, o.hookPath).length === 0 }];
  // No config.toml and nothing to trust: nothing to say about it either.
  if (before !== null || after !== "") changes.push({ file: config, before, after, fresh: before === null || recordedTrust(before).size === 0 });
  return changes;
}

/** The file changes that take skillgate's hooks and their trust entries out again. */
export function codexUninstallChanges(o: Omit<CodexInstallOptions, "runtime" | "trust">): FileChange[] {
  const file = hooksFileOf(o);
  const changes: FileChange[] = [];
  const text = readText(file);
  if (text !== null) {
    const cur = readJson(file);
    const cleaned = removeFromHooksJson(cur, o.hookPath);
    changes.push({ file, before: text, after: trustEntries(file, cur, o.hookPath).length ? jsonText(cleaned) : text });
  }
  const config = configTomlOf(o.env);
  const before = readText(config);
  if (before !== null) changes.push({ file: config, before, after: withTrust(before, file, []) });
  return changes;
}

/** Write skillgate's hooks (and trust) for Codex directly, no backup (test harnesses). Returns the files written. */
export function installCodex(o: CodexInstallOptions): string[] {
  return writeChanges(codexInstallChanges(o));
}

/** Remove skillgate's hooks and their trust entries directly. Returns the files changed. */
export function uninstallCodex(o: Omit<CodexInstallOptions, "runtime" | "trust">): string[] {
  return writeChanges(codexUninstallChanges(o));
}

/** The hook a Codex install runs: the Node route's loader for Codex (scripts/build.mjs, buildForNode; hooks/entries/codex.ts `main`). */
export function codexHookPathOf(root: string): string {
  return path.join(root, "dist", "hook-codex.cjs");
}

/**
 * Where Codex 0.171 loads the table's skills from for this target, and where --with-skills copies them:
 * the project's .agents/skills (listed in Codex's skills instructions; a `$name` mention injects it),
 * or with --user ~/.agents/skills.
 */
export function codexSkills(o: { project?: string; env: NodeJS.ProcessEnv; withSkills: boolean }, root: string): SkillsTarget {
  const project = o.project !== undefined ? path.resolve(o.project) : undefined;
  const hostEnv = environment({ ...o.env, ...(project ? { SKILLGATE_CODEX_CWD: project } : {}) });
  const dest = project ? path.join(project, ".agents", "skills") : o.env.HOME ? path.join(o.env.HOME, ".agents", "skills") : "";
  if (!dest) throw new Error("HOME is not set: cannot find ~/.agents/skills");
  return {
    host: "Codex",
    tableFile: hostTableFile(hostEnv.projectTable, o.env, root),
    roots: hostEnv.skillRoots,
    dest,
    withSkills: o.withSkills,
    packageRoot: root,
    env: o.env,
  };
}

const targetOf = (t: InstallTarget) => ({ ...(t.project !== undefined ? { project: t.project } : {}), user: t.user, env: t.env });

/** `skillgate install | uninstall --host codex`: the file changes, the trust advice, the skills to check. */
export function codexPlan(verb: "install" | "uninstall", t: InstallTarget, root: string): InstallPlan {
  const hookPath = codexHookPathOf(root);
  if (verb === "uninstall") return { changes: codexUninstallChanges({ ...targetOf(t), hookPath }), notes: [] };
  const notes: string[] = [];
  if (!t.trust) notes.push("Codex runs new hooks only once trusted: open /hooks in codex and trust skillgate's entries, or re-run with --trust.");
  if (t.project !== undefined)
    notes.push(`The project's .codex/ folder loads only for a trusted project (run \`codex --trust\` in ${path.resolve(t.project)} once).`);
  const skills = codexSkills({ ...targetOf(t), withSkills: t.withSkills }, root);
  // The project's hooks.json gets the portable command when skillgate is in the project's node_modules
  // (node -e resolves through node_modules only, so not in skillgate's own checkout; nor with Bun, which -e would not pick).
  const pkgDir = t.user || t.project === undefined ? undefined : packageDirInProject(t.project, root);
  const portable = pkgDir !== undefined && pkgDir !== "." && t.runtimeGiven !== "bun";
  const command = portable ? PORTABLE_CODEX_COMMAND : codexCommand(t.runtime, hookPath);
  const [hooksChange, ...rest] = codexInstallChanges({ ...targetOf(t), runtime: t.runtime, hookPath, command, trust: t.trust });
  const form = `${portable ? "portable" : "absolute paths, this machine only"}: ${command}`;
  const changes = hooksChange
    ? [{ ...hooksChange, says: `skillgate hooks installed for ${Object.keys(CODEX_EVENTS).length} events (${form})` }, ...rest]
    : rest;
  return { changes, notes, skills: t.table ? { ...skills, tableFile: t.table } : skills };
}

/** trusted_hash values recorded in config.toml, by [hooks.state] key. */
export function recordedTrust(configToml: string): Map<string, string> {
  const out = new Map<string, string>();
  let key: string | undefined;
  for (const line of configToml.split("\n")) {
    const m = STATE_HEADER.exec(line.trim());
    if (m) {
      key = JSON.parse(m[1] ?? '""') as string;
      continue;
    }
    if (/^\s*\[/.test(line)) key = undefined;
    const h = /^\s*trusted_hash\s*=\s*"([^"]*)"/.exec(line);
    if (key && h?.[1]) out.set(key, h[1]);
  }
  return out;
}

/**
 * `skillgate doctor --host codex [--project DIR | --user]`: is skillgate registered for every event,
 * is each handler trusted with the hash Codex computes now (an untrusted hook is skipped silently),
 * is the project trusted, and does the hook command start and answer?
 */
export function codexDoctor(t: InstallTarget, root: string): DoctorCheck[] {
  const { project, env } = t;
  const problems: string[] = [];
  const hookPath = codexHookPathOf(root);
  let file: string;
  let hooks: Json;
  try {
    file = hooksFileOf(targetOf(t));
    hooks = readJson(file);
  } catch (e) {
    return [{ ok: false, text: (e as Error).message }];
  }
  const entries = trustEntries(file, hooks, hookPath);
  const events = new Set(entries.map((e) => e.key.split(":").at(-3)));
  for (const [event] of Object.entries(CODEX_EVENTS))
    if (!events.has(EVENT_LABEL[event])) problems.push(`${file} does not run skillgate on ${event} (run skillgate install --host codex)`);
  // The project's hooks.json is committed: it must run on every clone.
  if (project !== undefined) {
    const commands = Object.keys(CODEX_EVENTS).flatMap((e) =>
      (Array.isArray(hooksObject(hooks)[e]) ? groupsOf(hooksObject(hooks), e) : []).flatMap((g) => (Array.isArray(g.hooks) ? (g.hooks as Json[]) : [])),
    );
    const abs = [
      ...new Set(
        commands.filter((h) => isSkillgateCommand(h, hookPath) && typeof h.command === "string").flatMap((h) => absolutePathsInCommand(h.command as string)),
      ),
    ];
    if (abs.length) problems.push(absolutePathsProblem(file, abs, "codex"));
  }
  const config = configTomlOf(env);
  const toml = fs.existsSync(config) ? fs.readFileSync(config, "utf8") : "";
  const trusted = recordedTrust(toml);
  const untrusted = entries.filter((e) => trusted.get(e.key) !== e.hash);
  if (untrusted.length)
    problems.push(
      `${untrusted.length} of skillgate's hooks are not trusted (or changed since): Codex skips them without a word; open /hooks in codex, or run skillgate install --host codex --trust`,
    );
  if (project !== undefined) {
    const dir = path.resolve(project);
    const re = new RegExp(`^\\[projects\\.${JSON.stringify(dir).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\]\\s*\\n\\s*trust_level\\s*=\\s*"trusted"`, "m");
    if (!re.test(toml))
      problems.push(`the project ${dir} is not marked trusted in ${config}: its .codex/hooks.json is not loaded (run \`codex --trust\` there once)`);
  }
  const start = {
    session_id: "skillgate-doctor",
    cwd: project ?? process.cwd(),
    hook_event_name: "SessionStart",
    source: "startup",
    model: "doctor",
    permission_mode: "default",
    transcript_path: null,
  };
  const hookFails = hookProblem(hookPath, [], start, env, CODEX_HOOK_TIMEOUT_S * 1000);
  if (hookFails) problems.push(hookFails);
  if (!problems.length) return [{ ok: true, text: `skillgate runs on ${entries.length} Codex hook events from ${file}, all trusted; the hook answers` }];
  return problems.map((text) => ({ ok: false, text }));
}

export const codexInstaller: HostInstaller = {
  id: "codex",
  label: "Codex",
  binary: "codex",
  markers: [".codex", ".agents"],
  skillsHelp: "codex: .agents/skills (~/.agents/skills with --user)",
  plan: codexPlan,
  doctor: codexDoctor,
};
