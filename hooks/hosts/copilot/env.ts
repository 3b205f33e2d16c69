// What Copilot CLI's environment says about where skills live and which files
// register the hook. Copilot 1.0.102 runs a command hook with
// COPILOT_PROJECT_DIR (the project root) and COPILOT_HOOK_DIR set (seen in
// the captures), so this stays a function of the environment.
import path from "node:path";
import type { Env, HostEnvironment } from "../../core/host.js";

/** The file `skillgate install --host copilot` writes into <project>/.github/hooks/. */
export const HOOKS_FILE = "skillgate.json";

export function copilotHome(env: Env): string | undefined {
  return env.COPILOT_HOME || (env.HOME ? path.join(env.HOME, ".copilot") : undefined);
}

export function environment(env: Env): HostEnvironment {
  const home = copilotHome(env);
  const project = env.COPILOT_PROJECT_DIR || env.SKILLGATE_COPILOT_CWD;
  const root = project ? path.resolve(project) : undefined;
  // Skill folders Copilot CLI reads: .github/skills, .claude/skills, .agents/skills in the project, and the user's.
  const skillRoots = [
    ...(root ? [".github", ".claude", ".agents"].map((d) => path.join(root, d, "skills")) : []),
    ...(home ? [path.join(home, "skills")] : []),
    ...(env.HOME ? [path.join(env.HOME, ".claude", "skills"), path.join(env.HOME, ".agents", "skills")] : []),
  ];
  // The hooks file registers skillgate; the user config can hold hooks or `disableAllHooks`.
  const settingsFiles = [
    ...(root ? [path.join(root, ".github", "hooks", HOOKS_FILE)] : []),
    ...(home ? [path.join(home, "config.json"), path.join(home, "settings.json")] : []),
  ];
  return {
    skillRoots: [...new Set(skillRoots)],
    settingsFiles: [...new Set(settingsFiles)],
    ...(root ? { projectTable: path.join(root, ".github", "skillgate", "triggers.json") } : {}),
  };
}
