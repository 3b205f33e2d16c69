// A selection of ranked lines → summary text within a character budget.
// Rank 0 lines always go in (up to the hard cap, past which the summary says what it lost);
// other ranks fill what the budget leaves, best rank first; lines show in their original order
// with "… N lines" where lines were left out, so the model sees where the raw file has more.
import { clipLine, type Pick, type Rank, type Selection } from "./lines.js";
import { MUST_LINE_CHARS } from "./profiles.js";

export interface Rendered {
  body: string;
  /** Rank-0 lines that did not fit under the hard cap (the summary then says: read the raw file). */
  cut: number;
  /** Rank-1 lines left out for the budget (key context the model may miss). */
  omittedKey: number;
}

interface Entry {
  order: number;
  rank: Rank;
  pin: boolean;
  text: string;
  /** Line index in the output; undefined for computed lines. */
  at?: number;
}

/** What a "… N lines" marker costs, charged to each kept output line (an upper bound in practice). */
const GAP_COST = 14;

export function render(lines: readonly string[], sel: Selection, opts: { budget: number; hardMax: number; lineChars: number }): Rendered {
  const entries: Entry[] = sel.preface.map((p, i) => ({ order: i - sel.preface.length, rank: p.rank, pin: true, text: p.text }));
  for (const p of dedupe(sel.picks)) {
    const line = p.text ?? lines[p.at];
    if (line === undefined) continue;
    const max = p.rank === 0 ? Math.max(MUST_LINE_CHARS, opts.lineChars) : opts.lineChars;
    entries.push({ order: p.at, rank: p.rank, pin: p.pin === true, text: clipLine(line, max), at: p.at });
  }
  entries.sort((a, b) => a.rank - b.rank || Number(b.pin) - Number(a.pin) || a.order - b.order);

  const kept: Entry[] = [];
  let used = 0;
  let cut = 0;
  let omittedKey = 0;
  for (const e of entries) {
    const cost = e.text.length + 1 + (e.at === undefined ? 0 : GAP_COST);
    const limit = e.rank === 0 ? opts.hardMax : Math.min(opts.budget, opts.hardMax);
    if (used + cost > limit) {
      if (e.rank === 0) cut++;
      else if (e.rank === 1) omittedKey++;
      continue;
    }
    kept.push(e);
    used += cost;
  }
  kept.sort((a, b) => a.order - b.order);

  const out: string[] = [];
  let next = 0;
  for (const e of kept) {
    if (e.at !== undefined) {
      // A one-line gap whose line is no longer than its marker: show the line instead.
      const only = e.at === next + 1 ? lines[next] : undefined;
      if (only !== undefined && only.length <= GAP_COST) out.push(only);
      else if (e.at > next) out.push(gap(e.at - next));
      next = e.at + 1;
    }
    out.push(e.text);
  }
  if (lines.length > next && kept.some((e) => e.at !== undefined)) out.push(gap(lines.length - next));
  if (cut > 0) out.push(`[${cut} failure/error lines did not fit: read raw_evidence]`);
  return { body: out.join("\n"), cut, omittedKey };
}

function gap(n: number): string {
  return `  … ${n.toLocaleString("en-US")} line${n === 1 ? "" : "s"}`;
}

/** One pick per line: the best rank wins, and its replacement text if any. */
function dedupe(picks: readonly Pick[]): Pick[] {
  const best = new Map<number, Pick>();
  for (const p of picks) {
    const seen = best.get(p.at);
    if (!seen || p.rank < seen.rank) best.set(p.at, { ...p, text: p.text ?? seen?.text, pin: p.pin === true || seen?.pin === true });
    else if (p.pin && !seen.pin) seen.pin = true;
  }
  return [...best.values()];
}
