// The Codex hook: `main` is what dist/hook-codex.cjs runs (hooks/node-loader.cjs,
// from the Node bundle every host shares). Codex starts the hook in the
// session's directory: that is the project the skills and the table come from.
import { hookMain, type HookMainOptions } from "../../runner/process.js";
import { codex } from "./adapter.js";

/** How Codex's hook process reads its event (the code-cache build runs these in-process). */
export function hookOptions(): HookMainOptions {
  return { host: codex, project: { dir: process.cwd(), cwdVar: "SKILLGATE_CODEX_CWD", table: ".codex/triggers.json" } };
}

export function main(o: Pick<HookMainOptions, "loadStartedAt"> = {}): Promise<void> {
  return hookMain({ ...hookOptions(), ...o });
}
