// What Cursor's environment says about where skills live and which files
// register the hook. DOCUMENTED ONLY (no Cursor binary here). Cursor passes the
// project in the payload (workspace_roots), not in the environment: the entry
// (hook.ts) records the hook's working directory as SKILLGATE_CURSOR_CWD.
import path from "node:path";
import type { Env, HostEnvironment } from "../../core/host.js";

export function environment(env: Env): HostEnvironment {
  const cwd = env.SKILLGATE_CURSOR_CWD;
  const root = cwd ? path.resolve(cwd) : undefined;
  // Skill folders Cursor's docs name (.cursor/skills) and the ones it reads for compatibility.
  const skillRoots = [
    ...(root ? [".cursor", ".claude", ".agents"].map((d) => path.join(root, d, "skills")) : []),
    ...(env.HOME ? [".cursor", ".claude"].map((d) => path.join(env.HOME as string, d, "skills")) : []),
  ];
  const settingsFiles = [...(root ? [path.join(root, ".cursor", "hooks.json")] : []), ...(env.HOME ? [path.join(env.HOME, ".cursor", "hooks.json")] : [])];
  return {
    skillRoots: [...new Set(skillRoots)],
    settingsFiles: [...new Set(settingsFiles)],
    ...(root ? { projectTable: path.join(root, ".cursor", "triggers.json") } : {}),
  };
}
