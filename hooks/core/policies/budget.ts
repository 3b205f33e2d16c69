// budget rows: one reminder when the prompt size crosses a level upwards. The
// text depends only on the level, so the prompt cache stays warm.
import type { Event } from "../types.js";
import type { Policy, Reminder } from "./proposal.js";

/** Budget reminders ride on the main thread's prompts and tool results (where the host's added context reaches the model). */
export function carriesBudgetReminder(event: Event): boolean {
  return (event.kind === "prompt" || event.kind === "tool-result") && event.agentId === undefined;
}

export const budget: Policy = ({ event, table, state }) => {
  if (!carriesBudgetReminder(event) || (event.kind !== "prompt" && event.kind !== "tool-result")) return undefined;
  const tokens = event.contextTokens;
  if (tokens === undefined) return undefined;
  const remind: Reminder[] = [];
  let level = state.budgetLevel;
  for (const { row } of table.rows) {
    const levels = row.kind === "budget" ? row.when.context?.levels : undefined;
    if (!levels) continue;
    const sorted = [...levels].sort((a, b) => a - b);
    const now = sorted.filter((l) => tokens >= l).length;
    const crossed = sorted[now - 1];
    if (now > state.budgetLevel && crossed !== undefined) {
      remind.push({
        row: row.id,
        text: `skillgate[${row.id}]: the context is past ${crossed.toLocaleString("en-US")} tokens. Finish the current step, keep tool output small (files and pointers, not dumps), and plan the handoff: write it and start a new session before the next compaction.${row.why ? ` ${row.why}` : ""}`,
      });
    }
    level = now;
  }
  if (level === state.budgetLevel && tokens <= state.stats.maxContextTokens && remind.length === 0) return undefined;
  return {
    remind,
    mark: (s) => ({ ...s, budgetLevel: level, stats: { ...s.stats, maxContextTokens: Math.max(s.stats.maxContextTokens, tokens) } }),
  };
};
