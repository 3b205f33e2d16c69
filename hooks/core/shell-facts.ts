// Facts of any event, Bash included. Importing this loads the shell parser.
import type { Event } from "./types.js";
import { analyzeCommand } from "./shell/analyze.js";
import { toolFacts, type Facts } from "./facts.js";

export function factsOf(event: Event): Facts {
  return toolFacts(event, event.command !== undefined && event.kind === "PreToolUse" ? analyzeCommand(event.command) : undefined);
}
