// cap rows: a long tool output is summarized under the session's budget
// profile (the edge saves the raw text first and decides, from the shell
// analysis, whether the command only read). Risk and audit pass it raw here.
import type { ToolKind } from "../types.js";
import type { Policy } from "./proposal.js";
import { PROFILES } from "../summaries/profiles.js";
import { recordRawPass } from "../counters.js";
import { sessionProfile } from "./budget-profile.js";

/** Tool kinds never capped: their output is the work itself. */
const NEVER_CAP = new Set<ToolKind>(["read", "write", "edit", "skill"]);
export const DEFAULT_MAX_CHARS = 20_000;
export const DEFAULT_HEAD_CHARS = 4_000;

export const outputCap: Policy = ({ event, table, state }) => {
  if (event.kind !== "tool-result" || !event.output || NEVER_CAP.has(event.tool.kind)) return undefined;
  const { name, kind } = event.tool;
  const { profile, chosen, risk } = sessionProfile(state, table.table);
  for (const { row } of table.rows) {
    const o = row.when.output;
    // A row names tools by the host's name (Bash) or by kind (shell), so one table serves every host.
    if (row.kind !== "cap" || !o || !(o.tools.includes(name) || o.tools.includes(kind))) continue;
    // The row's maxChars is the balanced profile's threshold; the other profiles bring their own.
    // Under audit (chosen or raised by risk) "long" is what the chosen profile, or balanced, would summarize: those passes are counted.
    const measure = PROFILES[chosen].strategy === "raw" ? "balanced" : chosen;
    const threshold = measure === "balanced" ? (o.maxChars ?? DEFAULT_MAX_CHARS) : PROFILES[measure].thresholdChars;
    if (event.output.chars <= threshold) return undefined;
    // High risk or audit: conclusions rest on the raw text, counted so `stats` shows it.
    if (risk) return { mark: (s) => recordRawPass(s, "risk") };
    if (PROFILES[profile].strategy === "raw") return { mark: (s) => recordRawPass(s, "audit") };
    return { cap: { row: row.id, headChars: o.headChars ?? DEFAULT_HEAD_CHARS, profile } };
  }
  return undefined;
};
