// Gate and block rows: refuse a tool call, or a stop, that needs a skill not
// loaded in this context (gate) or that no skill lifts (block).
import type { Hit } from "../types.js";
import type { CompiledTable } from "../table/compile.js";
import { bump } from "../counters.js";
import { howToLoad, isLoaded } from "../skills.js";
import type { Policy, Refusal } from "./proposal.js";

export const refusals: Policy = ({ event, table, state, hits }) => {
  if (event.kind !== "tool-call" && event.kind !== "stop") return undefined;
  const refused = hits.filter((h) => h.row.kind === "block" || (h.row.kind === "gate" && !isLoaded(state, h.row.skill)));
  if (refused.length === 0) return undefined;
  if (event.kind === "stop") {
    // The host goes on after a refused stop and says so (`continuing`) — maybe
    // because of another hook. Letting the stop through only after *we* refused
    // in this turn prevents a loop without letting others open our gate.
    const weRefusedThisTurn = event.continuing && (event.promptId === undefined || state.stopBlockedPrompt === event.promptId);
    if (weRefusedThisTurn) return undefined;
  }
  const rows = refused.map((h) => h.row.id);
  return {
    refuse: refused.map((h): Refusal => ({ row: h.row.id, line: `skillgate[${h.row.id}]: ${refusalLine(table, h)}` })),
    mark: (s) => {
      let denials = s.denials;
      for (const r of rows) denials = bump(denials, r);
      return event.kind === "stop" ? { ...s, denials, stopBlockedPrompt: event.promptId } : { ...s, denials };
    },
  };
};

function refusalLine(table: CompiledTable, h: Hit): string {
  const why = h.row.why ? ` Why: ${h.row.why}` : "";
  const row = h.row;
  if (row.kind !== "gate") {
    return h.opaque
      ? `This command cannot be checked (${h.detail}); write the command literally, without eval, variables or strings built from pieces.${why}`
      : `Refused by rule ${row.id} (${h.detail}); no skill lifts this rule.${why}`;
  }
  const load = howToLoad(table, row.skill);
  return h.opaque
    ? `This command cannot be checked (${h.detail}): write the command literally, or ${load} first.${why}`
    : `Load skill "${row.skill}" first (${h.detail}): ${load}, then retry.${why}`;
}
