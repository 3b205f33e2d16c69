// Counters kept in the session state for `stats`. Pure.
import type { SessionState } from "./types.js";

/**
 * A copy of a counter record with one key incremented. Own keys only: a tool
 * named "toString" must not add 1 to Object.prototype.toString.
 */
export function bump(counts: Record<string, number>, key: string): Record<string, number> {
  const before = Object.hasOwn(counts, key) ? (counts[key] ?? 0) : 0;
  return { ...counts, [key]: before + 1 };
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

/** A long output passed to the model untouched, and why (write, unknown, risk, audit, short). */
export function recordRawPass(s: SessionState, reason: string): SessionState {
  return { ...s, stats: { ...s.stats, rawPasses: bump(s.stats.rawPasses ?? {}, reason) } };
}

/** A long output replaced by its typed summary under `profile` (its characters are counted by recordCap). */
export function recordSummary(s: SessionState, profile: string): SessionState {
  return { ...s, stats: { ...s.stats, summarized: bump(s.stats.summarized ?? {}, profile) } };
}

/**
 * Is `after` exactly `before` with one more call of `tool` counted, nothing else?
 * (Then the edge counts the call with an append instead of rewriting the state:
 * most PostToolUse events change nothing else.) Shallow: states are copied by spreading.
 */
export function onlyToolCallCounted(before: SessionState, after: SessionState, tool: string): boolean {
  if (after === before || !sameExcept(before, after, "stats") || !sameExcept(before.stats, after.stats, "toolCalls")) return false;
  const b = before.stats.toolCalls;
  const a = after.stats.toolCalls;
  return a[tool] === (Object.hasOwn(b, tool) ? (b[tool] ?? 0) : 0) + 1 && sameExcept(b, a, tool);
}

function sameExcept<T extends object>(x: T, y: T, key: string): boolean {
  const kx = Object.keys(x).filter((k) => k !== key);
  const ky = Object.keys(y).filter((k) => k !== key);
  return kx.length === ky.length && kx.every((k) => Object.hasOwn(y, k) && (x as Record<string, unknown>)[k] === (y as Record<string, unknown>)[k]);
}
