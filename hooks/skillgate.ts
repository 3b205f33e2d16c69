// The hook executable: one Claude Code hook event on stdin, the answer on
// stdout, exit 0 always (exit 2 would block regardless of our JSON).
// Built to dist/hook.mjs, which is what settings.json runs.
import { hookMain } from "./runner/process.js";

await hookMain();
