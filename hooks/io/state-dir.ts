// Where per-session state lives. One function, used by the hook and every verb.
import path from "node:path";

/** $SKILLGATE_STATE, else the plugin's data folder (survives plugin updates), else skillgate's state/. */
export function stateDirOf(h: { env: NodeJS.ProcessEnv; packageRoot: string }): string {
  if (h.env.SKILLGATE_STATE) return path.resolve(h.env.SKILLGATE_STATE);
  if (h.env.CLAUDE_PLUGIN_DATA) return path.join(h.env.CLAUDE_PLUGIN_DATA, "state");
  return path.join(h.packageRoot, "state");
}

