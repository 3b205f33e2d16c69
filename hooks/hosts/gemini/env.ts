// What Gemini CLI's environment says about where skills live and which files
// register the hook. Read once per hook run by the runner (runner/context.ts).
//
// Gemini runs a hook with GEMINI_PROJECT_DIR set to the project; the entry
// (hook.ts) falls back to the working directory and records it as
// SKILLGATE_GEMINI_CWD, so this stays a function of the environment.
import path from "node:path";
import type { Env, HostEnvironment } from "../../core/host.js";

/** The user's Gemini folder: $GEMINI_CLI_HOME/.gemini, else ~/.gemini (core/utils/paths.ts homedir()). */
export function geminiHome(env: Env): string | undefined {
  const home = env.GEMINI_CLI_HOME || env.HOME;
  return home ? path.join(home, ".gemini") : undefined;
}

export function environment(env: Env): HostEnvironment {
  const userGemini = geminiHome(env);
  const userHome = env.GEMINI_CLI_HOME || env.HOME;
  const cwd = env.SKILLGATE_GEMINI_CWD;
  const project = cwd ? path.resolve(cwd) : undefined;
  // Where Gemini CLI 0.61 finds skills (config/storage.ts): ~/.gemini/skills, ~/.agents/skills, and the project's two.
  const skillRoots = [
    ...(userGemini ? [path.join(userGemini, "skills")] : []),
    ...(userHome ? [path.join(userHome, ".agents", "skills")] : []),
    ...(project ? [path.join(project, ".gemini", "skills"), path.join(project, ".agents", "skills")] : []),
  ];
  // settings.json (user and project) holds the `hooks` that register skillgate.
  const settingsFiles = [...(userGemini ? [path.join(userGemini, "settings.json")] : []), ...(project ? [path.join(project, ".gemini", "settings.json")] : [])];
  return {
    skillRoots: [...new Set(skillRoots)],
    settingsFiles: [...new Set(settingsFiles)],
    ...(project ? { projectTable: path.join(project, ".gemini", "triggers.json") } : {}),
  };
}
