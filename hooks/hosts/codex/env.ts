// What Codex's environment says about where skills live and which files
// register the hook. Read once per hook run by the runner (runner/context.ts).
//
// Codex runs a hook in the session's working directory and passes CODEX_HOME
// only; the entry (hook.ts) records that directory as SKILLGATE_CODEX_CWD, so
// this stays a function of the environment.
import path from "node:path";
import type { Env, HostEnvironment } from "../../core/host.js";

/** Folder levels searched upwards for a project's `.agents/skills` (Codex scans from cwd to the repo root). */
const MAX_LEVELS = 12;

export function codexHome(env: Env): string | undefined {
  return env.CODEX_HOME || (env.HOME ? path.join(env.HOME, ".codex") : undefined);
}

export function environment(env: Env): HostEnvironment {
  const home = codexHome(env);
  const cwd = env.SKILLGATE_CODEX_CWD;
  const ancestors: string[] = [];
  for (let dir = cwd ? path.resolve(cwd) : undefined, i = 0; dir && i < MAX_LEVELS; i++) {
    ancestors.push(dir);
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  // Where Codex 0.171 finds skills: $CODEX_HOME/skills, ~/.agents/skills, and .agents/skills from cwd up.
  const skillRoots = [
    ...(home ? [path.join(home, "skills")] : []),
    ...(env.HOME ? [path.join(env.HOME, ".agents", "skills")] : []),
    ...ancestors.map((d) => path.join(d, ".agents", "skills")),
  ];
  // hooks.json and config.toml (its [hooks] and the trust in [hooks.state]) can register or unregister the hook.
  const settingsFiles = [
    ...(home ? [path.join(home, "hooks.json"), path.join(home, "config.toml")] : []),
    ...ancestors.flatMap((d) => [path.join(d, ".codex", "hooks.json"), path.join(d, ".codex", "config.toml")]),
  ];
  return {
    skillRoots: [...new Set(skillRoots)],
    settingsFiles: [...new Set(settingsFiles)],
    ...(cwd ? { projectTable: path.join(path.resolve(cwd), ".codex", "triggers.json") } : {}),
  };
}
