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
