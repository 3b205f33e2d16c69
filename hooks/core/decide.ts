// The whole policy in one pure function: (event, table, state) → (decision, new state).
//   observe (resets, loads, counters) → match rows → policies propose → merge.
// No I/O here; hooks/runner/hook.ts does the reading and writing around it.
import type { Decision, Event, SessionState } from "./types.js";
import type { CompiledTable } from "./table/compile.js";
import { toolFacts, type Facts } from "./facts.js";
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

export function decide(given: Event, table: CompiledTable, before: SessionState, facts?: Facts): Outcome {
  const event = withSubagentTask(given, before);
  const f = event.kind === "tool-call" ? (facts ?? toolFacts(event)) : facts;
  const state = observe(event, table, before, f);
  const hits = matchRows(event, table, f);
  const proposals: Proposal[] = [];
  // one input for every policy (they only read it)
  const input = { event, table, state, hits, ...(f ? { facts: f } : {}) };
  for (const policy of POLICIES) {
    const p = policy(input);
    if (p) proposals.push(p);
  }
  const { decision, state: after } = merge(event, proposals, state);
  return { decision, state: after, matched: hits.map((h) => h.row.id), opaque: hits.filter((h) => h.opaque).map((h) => h.row.id) };
}

/** A starting subagent's task (from the main thread's call that started it) is what its hints match. */
function withSubagentTask(event: Event, s: SessionState): Event {
  if (event.kind !== "subagent-start" || event.task !== undefined) return event;
  const task = s.pendingSubagents?.find((p) => p.type === event.agentType)?.prompt;
  return task === undefined ? event : { ...event, task };
}
