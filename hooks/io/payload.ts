// Reading a host's JSON payload field by field, the same way in every adapter:
// a field of the wrong type reads as absent, never as a crash.
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
