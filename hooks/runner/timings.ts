// Where one run of the real hook spends its time, for `npm run bench`: with
// SKILLGATE_TIMINGS=1 the hook adds one stderr line `skillgate-timings {…}`
// of milliseconds per stage (start, load, read, parse, facts, table, state,
// decide, save, answer). Off, a lap is one comparison.
const on = process.env.SKILLGATE_TIMINGS === "1";
const laps: Record<string, number> = {};
let last = 0;

/** First lap: the runtime's start until the hook's first line; `load` from there until the bundle ran (when the loader says when it began). */
export function startTimings(loadStartedAt?: number): void {
  if (!on) return;
  last = performance.now();
  laps.start = loadStartedAt ?? last;
  if (loadStartedAt !== undefined) laps.load = last - loadStartedAt;
}

export function lap(stage: string): void {
  if (!on) return;
  const now = performance.now();
  laps[stage] = (laps[stage] ?? 0) + now - last;
  last = now;
}

/** A value that is not a time (`skip`: 1 when the shell pre-filter spared the parser, 0 when the parser ran). */
export function note(name: string, value: number): void {
  if (on) laps[name] = value;
}

export function timingsLine(): string {
  return on ? `skillgate-timings ${JSON.stringify(laps)}\n` : "";
}
