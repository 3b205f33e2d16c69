// What a policy returns: what it would do to the answer, and the state change
// that holds only if its proposal survives the merge (merge.ts).
import type { CapOrder, Event, Hit, SessionState } from "../types.js";
import type { CompiledTable } from "../table/compile.js";
import type { Facts } from "../facts.js";

export interface PolicyInput {
  event: Event;
  table: CompiledTable;
  /** The state after observe(): loads, resets and counters already applied. */
  state: SessionState;
  /** Every row whose trigger matched this event (match.ts), in table order. */
  hits: Hit[];
  /** What a tool call runs and writes (shell analysis and tool paths); absent for other events. */
  facts?: Facts;
}

export interface Refusal {
  row: string;
  /** One sentence (or two) for the model, starting with `skillgate[<row>]:`. */
  line: string;
}

export interface Reminder {
  row: string;
  text: string;
  /** A fact about what already happened (a file put back): said even when the event itself is refused. */
  evenWhenRefused?: true;
}

export interface Proposal {
  refuse?: Refusal[];
  cap?: CapOrder;
  remind?: Reminder[];
  /** Applied, in policy order, when the proposal survives the merge (a refusal discards the others). */
  mark?: (s: SessionState) => SessionState;
}

export type Policy = (input: PolicyInput) => Proposal | undefined;
