// What Claude Code's environment says about where skills live. Read once per
// hook run by the runner (runner/context.ts) and folded into the table.
import path from "node:path";
import type { Env, HostEnvironment } from "../../core/host.js";
import type { ProjectTables } from "../../io/table-load.js";

/** Where a Claude Code project keeps its trigger table, relative to the project folder. */
export const PROJECT_TABLE = path.join(".claude", "triggers.json");

/**
 * The project's table for a verb: in projectDir when it is known ($CLAUDE_PROJECT_DIR, --project),
 * else the nearest folder above the verb's cwd that has one (resolveTable).
 */
export function projectTables(projectDir: string | undefined): ProjectTables {
  return projectDir ? { files: [path.join(projectDir, PROJECT_TABLE)] } : { files: [], relative: PROJECT_TABLE };
}

export function environment(env: Env): HostEnvironment {
  // The user's and the project's .claude/skills: where the client itself finds skills.
  // $CLAUDE_CONFIG_DIR moves the user's folder (settings, skills) away from ~/.claude.
  const userDirs = [
    ...new Set([env.HOME && path.join(env.HOME, ".claude"), env.CLAUDE_CONFIG_DIR && path.resolve(env.CLAUDE_CONFIG_DIR)].filter((x): x is string => !!x)),
  ];
  const skillRoots = [...userDirs.map((d) => path.join(d, "skills")), env.CLAUDE_PROJECT_DIR && path.join(env.CLAUDE_PROJECT_DIR, ".claude", "skills")].filter(
    (x): x is string => !!x,
  );
  const project = env.CLAUDE_PROJECT_DIR;
  const settingsFiles = [
    ...userDirs.flatMap((d) => [path.join(d, "settings.json"), path.join(d, "settings.local.json")]),
    ...(project ? [path.join(project, ".claude", "settings.json"), path.join(project, ".claude", "settings.local.json")] : []),
    // The launcher the project's settings run (skillgate install): rewriting it would switch the hook off.
    ...(project ? [path.join(project, ".claude", "hooks", "skillgate.mjs")] : []),
  ];
  return {
    skillRoots,
    settingsFiles,
    ...(project ? { projectTable: path.join(project, ".claude", "triggers.json") } : {}),
    ...(env.CLAUDE_PLUGIN_ROOT ? { pluginRoot: env.CLAUDE_PLUGIN_ROOT } : {}),
    ...(env.CLAUDE_PLUGIN_DATA ? { dataDir: env.CLAUDE_PLUGIN_DATA } : {}),
    ...(project ? { projectDir: project } : {}),
  };
}
