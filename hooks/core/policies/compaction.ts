// hint rows on compactions: once per session (surviving the compaction that
// triggers them), ask to load the handoff skill and start a new session.
// Said where the model reads it: the session start a compaction causes, else
// (a host whose compaction signal has no channel to the model) the main
// thread's next prompt or tool result.
import type { Event } from "../types.js";
import type { Policy, Reminder } from "./proposal.js";

function reachesModel(event: Event): boolean {
  if (event.kind === "session-start") return event.source === "compact";
  return (event.kind === "prompt" || event.kind === "tool-result") && event.agentId === undefined;
}

export const compactionReminder: Policy = ({ event, table, state }) => {
  if (!reachesModel(event)) return undefined;
  const remind: Reminder[] = [];
  for (const { row } of table.rows) {
    const max = row.when.compactions?.max;
    if (row.kind !== "hint" || !max || state.compactions < max || state.remindersShown.includes(row.id)) continue;
    remind.push({
      row: row.id,
      text: `skillgate[${row.id}]: this session has been compacted ${state.compactions} time${state.compactions === 1 ? "" : "s"}; the slice should close. Load skill "${row.skill}", write the handoff, and start a new session.${row.why ? ` ${row.why}` : ""}`,
    });
  }
  if (remind.length === 0) return undefined;
  const rows = remind.map((r) => r.row);
  return { remind, mark: (s) => ({ ...s, remindersShown: [...s.remindersShown, ...rows] }) };
};
