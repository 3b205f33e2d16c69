// How the Codex hook process reads its event; hooks/entries/codex.ts runs it
// (dist/hook-codex.cjs, from the Node bundle every host shares). Codex starts the hook in the
// session's directory: that is the project the skills and the table come from.
import type { HostProcess } from "../../core/host.js";
import { codex, skillMentions } from "./adapter.js";
import { environment } from "./env.js";
import { injectedSkills, INJECTS } from "./mentions.js";

/**
 * A UserPromptSubmit gets INJECTS: the `$name` mentions Codex answers with the skill's text
 * (mentions.ts). Whatever the payload said under that key is replaced; other events pass unchanged.
 */
export function markInjections(text: string, env: NodeJS.ProcessEnv): string {
  if (!/"hook_event_name"\s*:\s*"UserPromptSubmit"/.test(text)) return text;
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return text; // the runner reports the bad JSON
  }
  if (!p || typeof p !== "object" || Array.isArray(p)) return text;
  const mentioned = typeof p.prompt === "string" ? skillMentions(p.prompt) : [];
  return JSON.stringify({ ...p, [INJECTS]: injectedSkills(mentioned, environment(env).skillRoots) });
}

/** How Codex's hook process reads its event (the code-cache build runs these in-process). */
export function hookOptions(): HostProcess {
  return { host: codex, project: { dir: process.cwd(), cwdVar: "SKILLGATE_CODEX_CWD", table: ".codex/triggers.json" }, input: markInjections };
}
