// How the Cursor hook process reads its event; hooks/entries/cursor.ts runs it
// (dist/hook-cursor.cjs, from the Node bundle every host shares). Cursor starts project hooks in the
// project: that is where the skills and the table are.
import type { HostProcess } from "../../core/host.js";
import { cursor } from "./adapter.js";

/** How Cursor's hook process reads its event (the code-cache build runs these in-process). */
export function hookOptions(): HostProcess {
  return { host: cursor, project: { dir: process.cwd(), cwdVar: "SKILLGATE_CURSOR_CWD", table: ".cursor/triggers.json" } };
}
