// A selection of ranked lines → summary text within a character budget.
// Rank 0 lines always go in (up to the hard cap, past which the summary says what it lost);
// other ranks fill what the budget leaves, best rank first; lines show in their original order
// with "… N lines" where lines were left out, so the model sees where the raw file has more.
import { clipLine, type Rank, type Selection } from "./lines.js";
import { MUST_LINE_CHARS } from "./profiles.js";

export interface Rendered {
  body: string;
  /** Rank-0 lines that did not fit under the hard cap (the summary then says: read the raw file). */
  cut: number;
  /** Rank-1 lines left out for the budget (key context the model may miss). */
  omittedKey: number;
}

/** What a "… N lines" marker costs, charged to each kept output line (an upper bound in practice). */
const GAP_COST = 14;
const RANKS: readonly Rank[] = [0, 1, 2, 3];
const UNPICKED = 9;

export function render(lines: readonly string[], sel: Selection, opts: { budget: number; hardMax: number; lineChars: number }): Rendered {
  // One pick per line, best rank wins; kept in arrays indexed by line (outputs run to megabytes).
  const rank = new Uint8Array(lines.length).fill(UNPICKED);
  const pinned = new Uint8Array(lines.length);
  const text = new Map<number, string>();
  for (const p of sel.picks) {
    if (p.at < 0 || p.at >= lines.length) continue;
    if (p.rank < (rank[p.at] ?? UNPICKED)) rank[p.at] = p.rank;
    if (p.pin) pinned[p.at] = 1;
    if (p.text !== undefined && !text.has(p.at)) text.set(p.at, p.text);
  }

  const keptLine = new Uint8Array(lines.length);
  const keptPreface = new Set<number>();
  let used = 0;
  let cut = 0;
  let omittedKey = 0;
  const take = (r: Rank, s: string, isLine: boolean): boolean => {
    const cost = s.length + 1 + (isLine ? GAP_COST : 0);
    const limit = r === 0 ? opts.hardMax : Math.min(opts.budget, opts.hardMax);
    if (used + cost > limit) {
      if (r === 0) cut++;
      else if (r === 1) omittedKey++;
      return false;
    }
    used += cost;
    return true;
  };
  const lineText = (at: number, r: Rank): string =>
    clipLine(text.get(at) ?? lines[at] ?? "", r === 0 ? Math.max(MUST_LINE_CHARS, opts.lineChars) : opts.lineChars);

  // Within a rank: computed lines, then pinned lines, then the rest, each in output order.
  for (const r of RANKS) {
    sel.preface.forEach((p, i) => {
      if (p.rank === r && take(r, p.text, false)) keptPreface.add(i);
    });
    for (const pin of [1, 0]) {
      for (let at = 0; at < lines.length; at++) {
        if (rank[at] === r && pinned[at] === pin && take(r, lineText(at, r), true)) keptLine[at] = 1;
      }
    }
  }

  const out: string[] = sel.preface.filter((_, i) => keptPreface.has(i)).map((p) => p.text);
  let next = 0;
  let any = false;
  for (let at = 0; at < lines.length; at++) {
    if (!keptLine[at]) continue;
    // A one-line gap whose line is no longer than its marker: show the line instead.
    const only = at === next + 1 ? lines[next] : undefined;
    if (only !== undefined && only.length <= GAP_COST) out.push(only);
    else if (at > next) out.push(gap(at - next));
    out.push(lineText(at, (rank[at] ?? 3) as Rank));
    next = at + 1;
    any = true;
  }
  if (any && lines.length > next) out.push(gap(lines.length - next));
  if (cut > 0) out.push(`[${cut} failure/error lines did not fit: read raw_evidence]`);
  return { body: out.join("\n"), cut, omittedKey };
}

function gap(n: number): string {
  return `  … ${n.toLocaleString("en-US")} line${n === 1 ? "" : "s"}`;
}
