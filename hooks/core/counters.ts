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

/** One counter of `stats` kept by append (see onlyCountsChanged): a finished tool call, a refusal. */
export type CountIncrement = { counter: "toolCalls" | "denials"; key: string; by: number };

/**
 * Is `after` exactly `before` with some tool calls or refusals counted, nothing
 * else? Then the edge counts them with an append instead of rewriting the state
 * under its lock: most PostToolUse events and every repeated refusal change
 * nothing else. Shallow: states are copied by spreading. Undefined otherwise.
 */
export function onlyCountsChanged(before: SessionState, after: SessionState): CountIncrement[] | undefined {
  if (after === before || !sameExcept(before, after, ["stats", "denials"]) || !sameExcept(before.stats, after.stats, ["toolCalls"])) return undefined;
  const calls = increments(before.stats.toolCalls, after.stats.toolCalls, "toolCalls");
  const denials = increments(before.denials, after.denials, "denials");
  return calls && denials && calls.length + denials.length > 0 ? [...calls, ...denials] : undefined;
}

/** Each key that grew (never one that shrank or vanished: that is not a count). */
function increments(b: Record<string, number>, a: Record<string, number>, counter: CountIncrement["counter"]): CountIncrement[] | undefined {
  if (a === b) return [];
  const out: CountIncrement[] = [];
  for (const k of Object.keys(b)) if (!Object.hasOwn(a, k)) return undefined;
  for (const k of Object.keys(a)) {
    const was = Object.hasOwn(b, k) ? (b[k] ?? 0) : 0;
    const now = a[k] ?? 0;
    if (now < was) return undefined;
    if (now > was) out.push({ counter, key: k, by: now - was });
  }
  return out;
}

function sameExcept<T extends object>(x: T, y: T, keys: string[]): boolean {
  const kx = Object.keys(x).filter((k) => !keys.includes(k));
  const ky = Object.keys(y).filter((k) => !keys.includes(k));
  return kx.length === ky.length && kx.every((k) => Object.hasOwn(y, k) && (x as Record<string, unknown>)[k] === (y as Record<string, unknown>)[k]);
}
