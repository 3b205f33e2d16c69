// Facts of any event, Bash included. Importing this loads the shell parser.
import type { Event } from "./types.js";
import { analyzeCommand } from "./shell/analyze.js";
import { shellCommandOf, toolFacts, type Facts } from "./facts.js";

export function factsOf(event: Event): Facts {
  const command = shellCommandOf(event);
  return toolFacts(event, command !== undefined ? analyzeCommand(command) : undefined);
}
