// The hook executable: one Claude Code hook event on stdin, the answer on
// stdout, exit 0 always (exit 2 would block regardless of our JSON).
import { main } from "./entries/claude-code.js";

await main();
