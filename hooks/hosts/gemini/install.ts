// Registers skillgate in Gemini CLI's settings.json `hooks` (project
// `.gemini/settings.json` or the user's `~/.gemini/settings.json`).
//
// Gemini loads a project's settings (and so its hooks) only in a trusted folder:
// trust it once in the interactive CLI, or run headless with
// GEMINI_CLI_TRUST_WORKSPACE=true. It then warns that project hooks will run.
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
import { environment, geminiHome } from "./env.js";

export const GEMINI_HOOK_TIMEOUT_MS = 10_000;
export const HOOK_NAME = "skillgate";

/** The events skillgate answers, with the tool matcher (a regex on the tool name) where Gemini matches tools. */
export const GEMINI_EVENTS: Readonly<Record<string, string | undefined>> = {
  SessionStart: undefined,
  BeforeAgent: undefined,
  // Every tool a row can gate or block (shell, writes, edits, reads, the skill tool, fetches, MCP tools:
  // `mcp_<server>_<tool>`), and invoke_agent, which starts a subagent (hook.ts tracks it).
  BeforeTool: "^(run_shell_command|write_file|replace|read_file|activate_skill|web_fetch|invoke_agent|mcp_.*)$",
  // Loads (activate_skill, a SKILL.md read), caps (shell, read, fetch outputs) and a subagent's end (invoke_agent).
  AfterTool: "^(run_shell_command|read_file|activate_skill|web_fetch|invoke_agent)$",
  AfterAgent: undefined,
  PreCompress: undefined,
};

/** The shell command Gemini runs (hook commands go through a shell). */
export const geminiCommand = (runtime: string, hookPath: string): string => hookCommand(runtime, hookPath);

/** Gemini runs a hook with GEMINI_PROJECT_DIR set to the project (e2e-gemini/FINDINGS.md 1; its docs' examples use it in `command`). */
export const PROJECT_DIR_VAR = "$GEMINI_PROJECT_DIR";

/**
 * The command every clone can run: the runtime from PATH and the project's own
 * skillgate by a path under $GEMINI_PROJECT_DIR (pkgDir: packageDirInProject).
 */
export function portableGeminiCommand(pkgDir: string, runtime: "node" | "bun" = "node"): string {
  return `${runtime} "${PROJECT_DIR_VAR}/${pkgDir === "." ? "" : `${pkgDir}/`}dist/hook-gemini.cjs"`;
}

/** Ours: a command that runs this skillgate's hook (or an older install's), or the portable one under $GEMINI_PROJECT_DIR. */
export const isSkillgateHook = (h: unknown, hookPath: string): boolean => {
  if (runsHook(h, hookPath)) return true;
  const c = h && typeof h === "object" ? (h as Json).command : undefined;
  return typeof c === "string" && c.includes(`"${PROJECT_DIR_VAR}/`) && /dist\/hook-gemini\.[cm]js"/.test(c);
};

const groupsOf = (hooks: Json, event: string): Json[] => listOf(hooks, event, "settings.json") as Json[];
const hooksObject = (settings: Json): Json => hooksOf(settings, "settings.json");

/** settings.json without any skillgate hook (groups left empty are dropped; other settings, `hooks.enabled` too, kept). */
export function removeFromSettings(settings: Json, hookPath: string): Json {
  return { ...settings, hooks: withoutHandlers(hooksObject(settings), (h) => isSkillgateHook(h, hookPath)) };
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

// Gemini accepts comments in settings.json; skillgate will not rewrite what it cannot parse exactly.
const readJson = (file: string): Json => readJsonObject(file, "add skillgate's hooks by hand or remove the comments");

/** Does this settings.json run skillgate on any event? */
const runsSkillgate = (settings: Json, hookPath: string): boolean =>
  JSON.stringify(removeFromSettings(settings, hookPath).hooks) !== JSON.stringify(hooksObject(settings));

/** The change that puts skillgate's hooks into Gemini CLI's settings.json. */
export function geminiInstallChange(o: GeminiTarget & { runtime: string; hookPath: string; command?: string }): FileChange {
  const file = settingsFileOf(o);
  const cur = readJson(file);
  return {
    file,
    before: readText(file),
    after: jsonText(addToSettings(cur, o.command ?? geminiCommand(o.runtime, o.hookPath), o.hookPath)),
    fresh: !runsSkillgate(cur, o.hookPath),
  };
}

/** The change that takes them out (none when there is no settings file). */
export function geminiUninstallChanges(o: GeminiTarget & { hookPath: string }): FileChange[] {
  const file = settingsFileOf(o);
  const before = readText(file);
  if (before === null) return [];
  const cur = readJson(file);
  return [{ file, before, after: runsSkillgate(cur, o.hookPath) ? jsonText(removeFromSettings(cur, o.hookPath)) : before }];
}

/** Write skillgate's hooks for Gemini CLI directly, no backup (test harnesses). Returns the file. */
export function installGemini(o: GeminiTarget & { runtime: string; hookPath: string }): string {
  const c = geminiInstallChange(o);
  writeChanges([c]);
  return c.file;
}

/** Remove skillgate's hooks directly. Returns the file changed, if any. */
export function uninstallGemini(o: GeminiTarget & { hookPath: string }): string | undefined {
  return writeChanges(geminiUninstallChanges(o))[0];
}

/** The hook a Gemini install runs: the Node route's loader for Gemini (scripts/build.mjs, buildForNode; hooks/entries/gemini.ts `main`). */
export function geminiHookPathOf(root: string): string {
  return path.join(root, "dist", "hook-gemini.cjs");
}

/**
 * Where Gemini 0.61 loads the table's skills from for this target, and where --with-skills copies them:
 * the project's .gemini/skills (activate_skill then offers them; read_file reaches them, they are in the
 * workspace), or with --user ~/.gemini/skills.
 */
export function geminiSkills(o: GeminiTarget & { withSkills: boolean }, root: string): SkillsTarget {
  const project = o.project !== undefined ? path.resolve(o.project) : undefined;
  const hostEnv = environment({ ...o.env, ...(project ? { SKILLGATE_GEMINI_CWD: project } : {}) });
  const home = geminiHome(o.env);
  const dest = project ? path.join(project, ".gemini", "skills") : home ? path.join(home, "skills") : "";
  if (!dest) throw new Error("neither GEMINI_CLI_HOME nor HOME is set: cannot find Gemini's folder");
  return {
    host: "Gemini CLI",
    tableFile: hostTableFile(hostEnv.projectTable, o.env, root),
    roots: hostEnv.skillRoots,
    dest,
    withSkills: o.withSkills,
    packageRoot: root,
    env: o.env,
  };
}

const targetOf = (t: InstallTarget): GeminiTarget => ({ ...(t.project !== undefined ? { project: t.project } : {}), user: t.user, env: t.env });

/** `skillgate install | uninstall --host gemini`: the settings change, the trust note, the skills to check. */
export function geminiPlan(verb: "install" | "uninstall", t: InstallTarget, root: string): InstallPlan {
  const hookPath = geminiHookPathOf(root);
  if (verb === "uninstall") return { changes: geminiUninstallChanges({ ...targetOf(t), hookPath }), notes: [] };
  const notes =
    t.project !== undefined
      ? [
          `Gemini loads ${path.resolve(t.project)}/.gemini/settings.json only in a trusted folder (trust it once in gemini, or GEMINI_CLI_TRUST_WORKSPACE=true headless).`,
        ]
      : [];
  const skills = geminiSkills({ ...targetOf(t), withSkills: t.withSkills }, root);
  // A project's settings get the portable command when skillgate is the project's dependency.
  const pkgDir = t.user || t.project === undefined ? undefined : packageDirInProject(t.project, root);
  const command = pkgDir !== undefined ? portableGeminiCommand(pkgDir, t.runtimeGiven === "bun" ? "bun" : "node") : geminiCommand(t.runtime, hookPath);
  const change = geminiInstallChange({ ...targetOf(t), runtime: t.runtime, hookPath, command });
  const form = pkgDir !== undefined ? `portable: ${command}` : `absolute paths, this machine only: ${command}`;
  return {
    changes: [{ ...change, says: `skillgate hooks installed for ${Object.keys(GEMINI_EVENTS).length} events (${form})` }],
    notes,
    skills: t.table ? { ...skills, tableFile: t.table } : skills,
  };
}

/** `skillgate doctor --host gemini [--project DIR | --user]`: registered on every event, and the hook answers? */
export function geminiDoctor(t: InstallTarget, root: string): DoctorCheck[] {
  const hookPath = geminiHookPathOf(root);
  const problems: string[] = [];
  let file: string;
  let hooks: Json;
  try {
    file = settingsFileOf(targetOf(t));
    hooks = hooksObject(readJson(file));
  } catch (e) {
    return [{ ok: false, text: (e as Error).message }];
  }
  const commands = new Set<string>();
  for (const event of Object.keys(GEMINI_EVENTS)) {
    const ours = (Array.isArray(hooks[event]) ? groupsOf(hooks, event) : []).flatMap((g) =>
      Array.isArray(g.hooks) ? (g.hooks as Json[]).filter((h) => isSkillgateHook(h, hookPath)) : [],
    );
    if (!ours.length) problems.push(`${file} does not run skillgate on ${event} (run skillgate install --host gemini)`);
    for (const h of ours) if (typeof h.command === "string") commands.add(h.command);
  }
  // The project's settings are committed: they must run on every clone.
  if (!t.user) {
    const abs = [...new Set([...commands].flatMap(absolutePathsInCommand))];
    if (abs.length) problems.push(absolutePathsProblem(file, abs, "gemini"));
  }
  const start = {
    session_id: "skillgate-doctor",
    transcript_path: "",
    cwd: path.resolve(t.project ?? "."),
    hook_event_name: "SessionStart",
    timestamp: new Date().toISOString(),
    source: "startup",
  };
  const hookFails = hookProblem(hookPath, [], start, t.env, GEMINI_HOOK_TIMEOUT_MS);
  if (hookFails) problems.push(hookFails);
  if (!problems.length)
    return [{ ok: true, text: `skillgate runs on ${Object.keys(GEMINI_EVENTS).length} Gemini CLI hook events from ${file}; the hook answers` }];
  return problems.map((text) => ({ ok: false, text }));
}

export const geminiInstaller: HostInstaller = {
  id: "gemini",
  label: "Gemini CLI",
  binary: "gemini",
  markers: [".gemini"],
  skillsHelp: "gemini: .gemini/skills (~/.gemini/skills with --user)",
  plan: geminiPlan,
  doctor: geminiDoctor,
};
