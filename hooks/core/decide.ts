// The whole policy in one pure function: (event, table, state) → (decision, new state).
//   observe (resets, loads, counters) → match rows → policies propose → merge.
// No I/O here; hooks/runner/hook.ts does the reading and writing around it.
import type { Decision, Event, SessionState } from "./types.js";
import type { CompiledTable } from "./table/compile.js";
import type { Facts } from "./facts.js";
import { matchRows } from "./match.js";
import { observe } from "./observe.js";
import { merge } from "./merge.js";
import { POLICIES } from "./policies/index.js";
import type { Proposal } from "./policies/proposal.js";

export interface Outcome {
  decision: Decision;
  state: SessionState;
  /** Every row whose trigger matched, judgment rows and satisfied gates included (for traces and `explain`). */
  matched: string[];
  /** Of those, rows matched only because a command could not be seen through (not occasions of the row). */
  opaque: string[];
}

export function decide(event: Event, table: CompiledTable, before: SessionState, facts?: Facts): Outcome {
  const state = observe(event, table, before);
  const hits = matchRows(event, table, facts);
  const proposals: Proposal[] = [];
  for (const policy of POLICIES) {
    const p = policy({ event, table, state, hits });
    if (p) proposals.push(p);
  }
  return { ...merge(event, proposals, state), matched: hits.map((h) => h.row.id), opaque: hits.filter((h) => h.opaque).map((h) => h.row.id) };
}
