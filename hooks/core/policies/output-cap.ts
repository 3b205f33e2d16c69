// cap rows: a tool output longer than maxChars goes to a private file and the
// model gets its head plus the path (the file is written at the edge).
import type { ToolKind } from "../types.js";
import type { Policy } from "./proposal.js";

/** Tool kinds never capped: their output is the work itself (seed 001 §4). */
const NEVER_CAP = new Set<ToolKind>(["read", "write", "edit", "skill"]);
export const DEFAULT_MAX_CHARS = 20_000;
export const DEFAULT_HEAD_CHARS = 4_000;

export const outputCap: Policy = ({ event, table }) => {
  if (event.kind !== "tool-result" || !event.output || NEVER_CAP.has(event.tool.kind)) return undefined;
  const { name, kind } = event.tool;
  for (const { row } of table.rows) {
    const o = row.when.output;
    // A row names tools by the host's name (Bash) or by kind (shell), so one table serves every host.
    if (row.kind !== "cap" || !o || !(o.tools.includes(name) || o.tools.includes(kind))) continue;
    if (event.output.chars > (o.maxChars ?? DEFAULT_MAX_CHARS)) return { cap: { row: row.id, headChars: o.headChars ?? DEFAULT_HEAD_CHARS } };
  }
  return undefined;
};
