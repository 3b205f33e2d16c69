// Gate and block rows: refuse a tool call, or a stop, that needs a skill not
// loaded in this context (gate) or that no skill lifts (block).
import type { Hit } from "../types.js";
import type { CompiledTable } from "../table/compile.js";
import { bump } from "../counters.js";
import { howToLoad, isLoaded } from "../skills.js";
import { contextOf, ownAgent, withContext } from "../agent-context.js";
import type { Policy, Refusal } from "./proposal.js";

export const refusals: Policy = ({ event, table, state, hits }) => {
  if (event.kind !== "tool-call" && event.kind !== "stop") return undefined;
  const agent = ownAgent(event, table);
  const context = contextOf(state, agent);
  const refused = hits.filter((h) => h.row.kind === "block" || (h.row.kind === "gate" && h.row.skill !== undefined && !isLoaded(context, h.row.skill)));
  if (refused.length === 0) return undefined;
  if (event.kind === "stop") {
    // The host goes on after a refused stop and says so (`continuing`) — maybe
    // because of another hook. Letting the stop through only after *we* refused
    // in this turn (of this agent) prevents a loop without letting others open our gate. A stop that names
    // no turn (no id, or an empty one) cannot be told apart: it passes.
    const weRefusedThisTurn = event.continuing && (!event.promptId || context.stopBlockedPrompt === event.promptId);
    if (weRefusedThisTurn) return undefined;
  }
  const rows = refused.map((h) => h.row.id);
  return {
    refuse: refused.map((h): Refusal => ({ row: h.row.id, line: `skillgate[${h.row.id}]: ${refusalLine(table, h, agent !== undefined)}` })),
    mark: (s) => {
      let denials = s.denials;
      for (const r of rows) denials = bump(denials, r);
      const counted = { ...s, denials };
      if (event.kind !== "stop") return counted;
      return withContext(counted, agent, (c) => (!event.promptId ? c : { ...c, stopBlockedPrompt: event.promptId }));
    },
  };
};

function refusalLine(table: CompiledTable, h: Hit, inSubagent: boolean): string {
  const why = h.row.why ? ` Why: ${h.row.why}` : "";
  const row = h.row;
  if (row.kind !== "gate" || row.skill === undefined) {
    return h.opaque
      ? `This command cannot be checked (${h.detail}); write the command literally, without eval, variables or strings built from pieces.${why}`
      : `Refused by rule ${row.id} (${h.detail}); no skill lifts this rule.${why}`;
  }
  if (table.missingSkills.includes(row.skill)) {
    return `Skill "${row.skill}" is needed here (${h.detail}) but is not installed where you can load it; do not retry: tell the user that skill "${row.skill}" is missing (skillgate init installs it).${why}`;
  }
  // A subagent loads for itself: the main thread's loads are not in its context.
  const load = `${howToLoad(table, row.skill)}${inSubagent ? " yourself (a skill loaded by the main thread is not in your context)" : ""}`;
  return h.opaque
    ? `This command cannot be checked (${h.detail}): write the command literally, or ${load} first.${why}`
    : `Load skill "${row.skill}" first (${h.detail}): ${load}, then retry.${why}`;
}
