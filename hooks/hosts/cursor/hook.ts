// The Cursor hook executable (dist/hook-cursor.mjs). Cursor starts project
// hooks in the project: that is where the skills and the table are.
import { hookMain } from "../../runner/process.js";
import { cursor } from "./adapter.js";

await hookMain({ host: cursor, project: { dir: process.cwd(), cwdVar: "SKILLGATE_CURSOR_CWD", table: ".cursor/triggers.json" } });
