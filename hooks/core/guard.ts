// Session guard rows (seed 001 §4 and §8): keep the context small. Pure, like
// decide(): the file writing and transcript reading happen in hooks/io/.
import type { Event, Row, SessionState } from "./types.js";
import type { CompiledTable } from "./table/compile.js";

/** Tools never capped: their output is the work itself (seed 001 §4). */
export const NEVER_CAP = new Set(["Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Skill"]);
export const DEFAULT_MAX_CHARS = 20_000;
export const DEFAULT_HEAD_CHARS = 4_000;

/**
 * A copy of a counter record with one key incremented. Own keys only: a tool
 * named "toString" must not add 1 to Object.prototype.toString.
 */
export function bump(counts: Record<string, number>, key: string): Record<string, number> {
  const before = Object.hasOwn(counts, key) ? counts[key]! : 0;
  return { ...counts, [key]: before + 1 };
}

export interface Reminder {
  row: string;
  text: string;
}

/** The cap row that applies to this tool result, if its output is too long. */
export function capFor(event: Event, table: CompiledTable): { row: Row; headChars: number } | undefined {
  if (event.kind !== "PostToolUse" || !event.output || !event.tool || NEVER_CAP.has(event.tool)) return undefined;
  for (const { row } of table.rows) {
    const o = row.when.output;
    if (row.kind !== "cap" || !o?.tools.includes(event.tool)) continue;
    if (event.output.chars > (o.maxChars ?? DEFAULT_MAX_CHARS)) return { row, headChars: o.headChars ?? DEFAULT_HEAD_CHARS };
  }
  return undefined;
}

/** Count the tool call; on compaction, nothing here resets (stats outlive the context). */
export function countToolCall(event: Event, s: SessionState): SessionState {
  if ((event.kind !== "PostToolUse" && event.kind !== "PostToolUseFailure") || !event.tool) return s;
  const toolCalls = bump(s.stats.toolCalls, event.tool);
  return { ...s, stats: { ...s.stats, toolCalls } };
}

/** After the edge tried to save a capped output: count it (or the failure). */
export function recordCap(s: SessionState, tool: string, result: { ok: true; charsSaved: number } | { ok: false }): SessionState {
  const stats = { ...s.stats };
  if (result.ok) {
    stats.capped = bump(stats.capped, tool);
    stats.charsSaved += result.charsSaved;
  } else stats.capFailures += 1;
  return { ...s, stats };
}

/** Budget reminders ride on the main thread's prompts and tool results (where additionalContext reaches the model). */
export function carriesBudgetReminder(event: Event): boolean {
  return (event.kind === "UserPromptSubmit" || event.kind === "PostToolUse") && event.agentId === undefined;
}

/**
 * Budget rows: one reminder when the prompt size crosses a level upwards.
 * The text depends only on the level, so the prompt cache stays warm.
 */
export function budgetReminders(event: Event, table: CompiledTable, s: SessionState): { state: SessionState; reminders: Reminder[] } {
  const tokens = event.contextTokens;
  if (tokens === undefined || !carriesBudgetReminder(event)) return { state: s, reminders: [] };
  const reminders: Reminder[] = [];
  let level = s.budgetLevel;
  for (const { row } of table.rows) {
    const levels = row.kind === "budget" ? row.when.context?.levels : undefined;
    if (!levels) continue;
    const sorted = [...levels].sort((a, b) => a - b);
    const now = sorted.filter((l) => tokens >= l).length;
    if (now > s.budgetLevel) {
      const crossed = sorted[now - 1]!;
      reminders.push({
        row: row.id,
        text: `skillgate[${row.id}]: the context is past ${crossed.toLocaleString("en-US")} tokens. Finish the current step, keep tool output small (files and pointers, not dumps), and plan the handoff: write it and start a new session before the next compaction.${row.why ? ` ${row.why}` : ""}`,
      });
    }
    level = now;
  }
  const maxContextTokens = Math.max(s.stats.maxContextTokens, tokens);
  if (level === s.budgetLevel && maxContextTokens === s.stats.maxContextTokens) return { state: s, reminders };
  return { state: { ...s, budgetLevel: level, stats: { ...s.stats, maxContextTokens } }, reminders };
}

/** Hint rows on compactions: once per session, surviving the compaction that triggers them. */
export function compactionReminders(event: Event, table: CompiledTable, s: SessionState): { state: SessionState; reminders: Reminder[] } {
  if (!(event.kind === "SessionStart" && event.source === "compact")) return { state: s, reminders: [] };
  const reminders: Reminder[] = [];
  for (const { row } of table.rows) {
    const max = row.when.compactions?.max;
    if (row.kind !== "hint" || !max || s.compactions < max || s.remindersShown.includes(row.id)) continue;
    reminders.push({
      row: row.id,
      text: `skillgate[${row.id}]: this session has been compacted ${s.compactions} time${s.compactions === 1 ? "" : "s"}; the slice should close. Load skill "${row.skill}", write the handoff, and start a new session.${row.why ? ` ${row.why}` : ""}`,
    });
  }
  if (reminders.length === 0) return { state: s, reminders };
  return { state: { ...s, remindersShown: [...s.remindersShown, ...reminders.map((r) => r.row)] }, reminders };
}
