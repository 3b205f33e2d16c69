// Facts of any event, Bash included. Importing this loads the shell parser; the
// hook asks the pre-filter (shell-prefilter.ts) first and comes here only when it declines.
import type { Event } from "./types.js";
import { analyzeCommand } from "./shell/analyze.js";
import type { ShellWorld } from "./shell/world.js";
import { shellCommandOf, toolFacts, type Facts } from "./facts.js";

/**
 * `world` (hooks/io/shell-files.ts) lets the analysis read git config, package.json,
 * Makefiles, scripts and symlinks at decision time; without it nothing is read.
 */
export function factsOf(event: Event, world?: ShellWorld): Facts {
  const command = shellCommandOf(event);
  const analysis = command !== undefined ? analyzeCommand(command, world) : undefined;
  return toolFacts(event, analysis, world);
}
