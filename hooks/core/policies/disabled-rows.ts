// Invalid rows are off, and the user is told at every session start. With
// failMode "closed", the tool calls such a row would have governed (as far as
// its broken text still shows: a program, any write, a subagent call) are
// refused, naming the row's error.
import type { Policy } from "./proposal.js";

export const disabledRows: Policy = ({ event, table, facts }) => {
  if (event.kind !== "tool-call" || table.table.failMode !== "closed" || table.disabled.length === 0 || !facts) return undefined;
  const programs = new Set(facts.analysis?.commands.map((c) => c.name) ?? []);
  const opaque = (facts.analysis?.opaque.length ?? 0) > 0;
  const governed = table.disabled.find(
    (d) =>
      (d.governs.program !== undefined && (programs.has(d.governs.program) || opaque)) ||
      (d.governs.writes && facts.writes.length > 0) ||
      (d.governs.subagent && event.tool.kind === "subagent"),
  );
  if (!governed) return undefined;
  return {
    refuse: [
      {
        row: governed.id,
        line: `skillgate[${governed.id}]: refused because this row of the table is invalid and the table fails closed: ${governed.error}. Ask the user to fix the table.`,
      },
    ],
  };
};
