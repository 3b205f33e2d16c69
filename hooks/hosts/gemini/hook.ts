// The Gemini CLI hook: one hook event on stdin, the answer on stdout, exit 0
// always (exit 2 would block with stderr as the reason, regardless of our JSON).
// `main` is what dist/hook-gemini.cjs runs (hooks/node-loader.cjs, from the Node
// bundle every host shares), which settings.json runs.
import { hookMain, type HookMainOptions } from "../../runner/process.js";
import { COMPRESSES, gemini } from "./adapter.js";
import { autoCompresses } from "./compression.js";
import { geminiHome } from "./env.js";

/** An `auto` PreCompress that will compress gets COMPRESSES (the adapter then resets); anything else passes unchanged. */
function markCompression(text: string, cwd: string, env: NodeJS.ProcessEnv): string {
  if (!/"hook_event_name"\s*:\s*"PreCompress"/.test(text)) return text;
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return text; // the runner reports the bad JSON
  }
  if (p.trigger !== "auto" || !autoCompresses(typeof p.transcript_path === "string" ? p.transcript_path : undefined, cwd, geminiHome(env))) return text;
  return JSON.stringify({ ...p, [COMPRESSES]: true });
}

/** How Gemini's hook process reads its event (the code-cache build runs these in-process). */
export function hookOptions(): HookMainOptions {
  // Gemini names the project in GEMINI_PROJECT_DIR; the hook also runs there.
  const project = process.env.GEMINI_PROJECT_DIR || process.cwd();
  return { host: gemini, project: { dir: project, cwdVar: "SKILLGATE_GEMINI_CWD", table: ".gemini/triggers.json" }, input: (text, env) => markCompression(text, project, env) };
}

export function main(o: Pick<HookMainOptions, "loadStartedAt"> = {}): Promise<void> {
  return hookMain({ ...hookOptions(), ...o });
}
