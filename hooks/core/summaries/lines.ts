// Shared by every summary type: clean lines in, a ranked selection of lines out.

export type Confidence = "low" | "medium" | "high";

/** 0: never dropped (failure, error, the runner's summary); 1: key context; 2: useful; 3: filler. */
export type Rank = 0 | 1 | 2 | 3;

/** One line of the output kept by a summary; `text` replaces the line (a shorter or rewritten form). */
export interface Pick {
  at: number;
  rank: Rank;
  /** Kept before other lines of its rank when even rank 0 overflows (the runner's totals). */
  pin?: boolean;
  text?: string;
}

/** What a summary type chose; render() turns it into text within the profile's budget. */
export interface Selection {
  /** "test:jest", "diff", "grep"... */
  type: string;
  /** Lines the type computed (counts, a stat), shown before the picked lines. */
  preface: { rank: Rank; text: string }[];
  picks: Pick[];
  confidence: Confidence;
  /** Why confidence is not high (said in the header). */
  why?: string;
  /** "read the raw file if …" for this type. */
  fallback: string;
}

// CSI sequences (colors, cursor moves) and OSC sequences (hyperlinks, titles).
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export function stripAnsi(s: string): string {
  return s.replace(ANSI, "");
}

/** Lines as a terminal would show them: no colors, and a progress line shows only its last repaint. */
export function toLines(output: string): string[] {
  const lines = stripAnsi(output).split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => {
    const line = l.endsWith("\r") ? l.slice(0, -1) : l;
    const cr = line.lastIndexOf("\r");
    return cr >= 0 ? line.slice(cr + 1) : line;
  });
}

export function clipLine(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, Math.max(0, max - 1))}…` : s;
}

/** Lines that say something failed whatever the tool: compiler errors, panics, uncaught exceptions. */
export const ERROR_LINE = new RegExp(
  [
    /^\s*(?:error(?:\[[A-Z]?\d+\])?:|ERROR\b|FATAL\b|fatal:|panic:|PANIC\b|Traceback \(most recent call last\)|Uncaught\b|npm ERR!|npm error\b|Segmentation fault)/
      .source,
    // file.ts(12,3): error TS2322 / file.c:12:5: error: / file.py:3: error: (tsc, gcc, clang, mypy)
    /^\S+(?:\(\d+,\d+\)|:\d+(?::\d+)?):? (?:fatal )?error\b/.source,
  ].join("|"),
);

/** Error lines anywhere in the output, as rank-0 picks (added by every type: an error line is never dropped). */
export function errorPicks(lines: readonly string[]): Pick[] {
  const picks: Pick[] = [];
  lines.forEach((l, at) => {
    if (ERROR_LINE.test(l)) picks.push({ at, rank: 0 });
  });
  return picks;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
