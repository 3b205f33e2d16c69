// Reading a host's JSON payload field by field, the same way in every adapter:
// a field of the wrong type reads as absent, never as a crash.
import type { Normalized } from "../core/host.js";
import { fastHash } from "./fast-hash.js";

export type Json = Record<string, unknown>;

export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** An object field, or `{}` when the value is not a plain object. */
export const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

/** A record's own entry (a tool named "constructor" or "__proto__" is no kind). */
export const own = <T>(rec: Record<string, T>, key: string): T | undefined => (Object.hasOwn(rec, key) ? rec[key] : undefined);

/** `{ key: value }` when value is defined, else `{}` (exactOptionalPropertyTypes-friendly spreading). */
export function optional<K extends string, V>(key: K, value: V | undefined): { [k in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [k in K]?: V });
}

/**
 * The head of a Claude-style payload (Claude Code; Codex and Gemini CLI took the protocol):
 * `hook_event_name` among the events handled, and `session_id`. Otherwise the answer to give:
 * an event not handled is ignored, a missing name or session is a clear error.
 */
export function payloadHead(p: Json, events: ReadonlySet<string>): { name: string; sessionId: string } | Exclude<Normalized, { ok: true }> {
  const name = str(p.hook_event_name);
  if (!name) return { ok: false, ignored: false, error: "the event has no hook_event_name" };
  if (!events.has(name)) return { ok: false, ignored: true };
  const sessionId = str(p.session_id);
  if (sessionId === undefined) return { ok: false, ignored: false, error: `${name} event has no session_id` };
  return { name, sessionId };
}

/**
 * For a host whose hook payloads carry no tool call id (Gemini CLI 0.61, Copilot CLI 1.0.102): an id made
 * from what a call's before and after events both carry, so the after event finds what the before event
 * left for it (the effects audit's snapshot, the git hooks' ticket, the evidence record). Two identical
 * calls running at the same time share it: the first to finish takes the snapshot, the other is audited
 * at the next event (docs/git-hooks.md).
 */
export function contentCallId(sessionId: string, agentId: string | undefined, tool: string, input: unknown): string {
  return `k${fastHash(JSON.stringify([sessionId, agentId ?? "", tool, input ?? null]))}`;
}
