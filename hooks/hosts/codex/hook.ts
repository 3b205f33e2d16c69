// The Codex hook executable (dist/hook-codex.mjs, which hooks.json runs).
// Codex starts the hook in the session's directory: that is the project the
// skills and the table come from.
import { hookMain } from "../../runner/process.js";
import { codex } from "./adapter.js";

await hookMain({ host: codex, project: { dir: process.cwd(), cwdVar: "SKILLGATE_CODEX_CWD", table: ".codex/triggers.json" } });
