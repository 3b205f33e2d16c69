// A shell call's facts for the hook, with the pre-filter (hooks/core/shell-prefilter.ts)
// in front of the parser: a command of allow-listed read-only programs that no
// row names gets its facts without loading unbash and the shell model.
// Phase 1 (syntax, allow-list) runs before the table is loaded, phase 2 (does
// a row name a word of it?) after; a decline at either runs the full analysis.
import type { Event } from "../core/types.js";
import type { CompiledTable } from "../core/table/compile.js";
import { shellCommandOf, toolFacts, type Facts } from "../core/facts.js";
import { plainCommands, tableConcerns } from "../core/shell-prefilter.js";

export interface CallFacts {
  /** The shell facts so far (undefined for an event without a shell command). */
  facts: Facts | undefined;
  /** Phase 1 passed: the facts stand only if the table names none of the command's words (afterTable). */
  pending: boolean;
}

/** Before the table: the pre-filter's facts when its phase 1 passes, else the full analysis. */
export async function shellFactsBeforeTable(event: Event, env: NodeJS.ProcessEnv): Promise<CallFacts> {
  const command = shellCommandOf(event);
  if (command === undefined) return { facts: undefined, pending: false };
  if (env.SKILLGATE_PREFILTER !== "off") {
    const plain = plainCommands(command);
    if (plain.skip) return { facts: toolFacts(event, plain.analysis), pending: true };
  }
  return { facts: await fullShellFacts(event, env), pending: false };
}

/** With the table: a row (or disabled row) naming a word of the command sends it to the full analysis after all. */
export async function shellFactsWithTable(event: Event, env: NodeJS.ProcessEnv, before: CallFacts, table: CompiledTable): Promise<Facts | undefined> {
  const command = shellCommandOf(event);
  if (!before.pending || command === undefined || !tableConcerns(command, table, before.facts?.analysis)) return before.facts;
  return fullShellFacts(event, env);
}

/** Does matching these facts need the write globs (picomatch)? */
export function needsWriteGlobs(facts: Facts | undefined): boolean {
  return facts !== undefined && (facts.writes.length > 0 || facts.mentions !== undefined);
}

/** The parser, with the world that lets it read git config, scripts and links at decision time. */
async function fullShellFacts(event: Event, env: NodeJS.ProcessEnv): Promise<Facts> {
  const [{ factsOf }, { shellWorld }] = await Promise.all([import("../core/shell-facts.js"), import("../io/shell-files.js")]);
  return factsOf(event, shellWorld(event.cwd || "/", env));
}
