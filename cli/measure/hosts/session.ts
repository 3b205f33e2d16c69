// What measure keeps of one session of a host other than Claude Code: the
// hook events the host would have sent (each built as that host's payload and
// read by that host's own adapter, so history and the live hook share one
// definition of tool, path and load), and a few counters. A reader per host
// (codex.ts, gemini.ts, copilot.ts, opencode.ts) turns the files the host
// writes into these.
import type { Event } from "../../../hooks/core/types.js";
import type { Normalized } from "../../../hooks/core/host.js";

export interface HostSession {
  id: string;
  cwd: string;
  events: Event[];
  /** Model requests, and the prompt size of each that reported one (tokens). */
  requests: number;
  promptSizes: number[];
  toolCalls: number;
  compactions: number;
  /** Payloads the host's adapter did not accept (counted, never fatal). */
  rejected: number;
  /** Input (not read from the cache), output, cache read, cache write tokens, summed over requests; absent: the files carry none. */
  tokens?: [number, number, number, number];
}

/** One request's usage added to the session's. */
export function addTokens(s: HostSession, input: number, output: number, cacheRead: number, cacheWrite: number): void {
  const t = (s.tokens ??= [0, 0, 0, 0]);
  t[0] += Math.max(0, input);
  t[1] += Math.max(0, output);
  t[2] += Math.max(0, cacheRead);
  t[3] += Math.max(0, cacheWrite);
}

export function newSession(id: string, cwd = ""): HostSession {
  return { id, cwd, events: [], requests: 0, promptSizes: [], toolCalls: 0, compactions: 0, rejected: 0 };
}

/** Add what the adapter made of a payload (an ignored payload adds nothing; an error is counted). */
export function add(s: HostSession, n: Normalized): void {
  if (n.ok) s.events.push(n.event);
  else if (!n.ignored) s.rejected++;
}

export type Json = Record<string, unknown>;
export const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
export const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** JSON lines, each parsed; a line that is not JSON is counted and skipped. */
export function jsonLines(text: string): { lines: Json[]; malformed: number } {
  const lines: Json[] = [];
  let malformed = 0;
  for (const l of text.split("\n")) {
    if (!l.trim()) continue;
    try {
      lines.push(obj(JSON.parse(l)));
    } catch {
      malformed++;
    }
  }
  return { lines, malformed };
}
