// Small pure helpers for the hosts' transcript readers (Host.promptSize): a line
// parsed only when it can be the one asked for, numbers that are really numbers.

/** A transcript line as JSON when it holds every one of `needles` (a cheap test before the parse). */
export function jsonLineWith(line: string, needles: readonly string[]): Record<string, unknown> | undefined {
  for (const n of needles) if (!line.includes(n)) return undefined;
  try {
    const v = JSON.parse(line) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A number field, 0 when absent or not a number. */
export const count = (o: unknown, k: string): number => {
  const v = o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined;
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0;
};
