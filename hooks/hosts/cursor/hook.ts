// The Cursor hook: `main` is what dist/hook-cursor.cjs runs (hooks/node-loader.cjs,
// from the Node bundle every host shares). Cursor starts project hooks in the
// project: that is where the skills and the table are.
import { hookMain, type HookMainOptions } from "../../runner/process.js";
import { cursor } from "./adapter.js";

/** How Cursor's hook process reads its event (the code-cache build runs these in-process). */
export function hookOptions(): HookMainOptions {
  return { host: cursor, project: { dir: process.cwd(), cwdVar: "SKILLGATE_CURSOR_CWD", table: ".cursor/triggers.json" } };
}

export function main(o: Pick<HookMainOptions, "loadStartedAt"> = {}): Promise<void> {
  return hookMain({ ...hookOptions(), ...o });
}
