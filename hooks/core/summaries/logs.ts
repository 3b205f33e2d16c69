// Logs (journalctl, docker logs, tail of a server log): error and warning lines with one line of
// context, and how many lines of each level there are.
import { plural, type Pick, type Rank, type Selection } from "./lines.js";
import type { Profile } from "./profiles.js";

type Level = "error" | "warning" | "info" | "debug";

// Upper-case level words as loggers print them; lower-case only in the "level=" / JSON / bracket forms
// and as journal-style "error:" prefixes, so prose ("no error found") does not count.
const LEVELS: readonly [Level, RegExp][] = [
  [
    "error",
    /\b(EMERG|ALERT|CRIT|CRITICAL|FATAL|PANIC|ERR|ERROR|SEVERE)\b|\blevel=(error|fatal|crit\w*|panic)\b|"level":\s*"(error|fatal|critical|panic)"|\[(error|fatal|crit|critical)\]|(^|\s)(error|fatal|panic):\s|\bfailed\b|\bFailed\b|\bTraceback\b|\bException\b/,
  ],
  ["warning", /\b(WARN|WARNING)\b|\blevel=warn(ing)?\b|"level":\s*"warn(ing)?"|\[warn(ing)?\]|(^|\s)warn(ing)?:\s/i],
  ["debug", /\b(DEBUG|TRACE)\b|\blevel=(debug|trace)\b|"level":\s*"(debug|trace)"/],
  ["info", /\b(INFO|NOTICE|LOG|STATEMENT|DETAIL|HINT)\b|\blevel=info\b|"level":\s*"info"/],
];

const TIMESTAMP = /^\s*(\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}|\d{2}:\d{2}:\d{2}[.,]\d+|\{"(time|ts|timestamp|level)")/;

const MAX_KEPT_WARNINGS = 50;

export function looksLikeLogs(lines: readonly string[]): boolean {
  const nonEmpty = lines.filter((l) => l.trim() !== "");
  if (nonEmpty.length === 0) return false;
  return nonEmpty.filter((l) => TIMESTAMP.test(l)).length >= nonEmpty.length * 0.5;
}

export function levelOf(line: string): Level | undefined {
  return LEVELS.find(([, re]) => re.test(line))?.[0];
}

export function summarizeLogs(lines: readonly string[], profile: Profile): Selection {
  const context = profile.strategy === "windows" ? 3 : 1;
  const counts = new Map<string, number>();
  const picks: Pick[] = [];
  const levels = lines.map(levelOf);
  // Warnings are never dropped either while there are few; a flood of them yields to the errors.
  const warningRank: Rank = levels.filter((l) => l === "warning").length <= MAX_KEPT_WARNINGS ? 0 : 1;
  lines.forEach((l, at) => {
    const level = levels[at];
    const word = levelWord(l) ?? level ?? "other";
    counts.set(word, (counts.get(word) ?? 0) + 1);
    if (level === "error" || level === "warning") {
      const rank: Rank = level === "error" ? 0 : warningRank;
      picks.push({ at, rank });
      // Context each side (a postgres ERROR is followed by its STATEMENT); precision keeps more.
      for (let d = 1; d <= context; d++) {
        if (at - d >= 0) picks.push({ at: at - d, rank: 2 });
        if (at + d < lines.length) picks.push({ at: at + d, rank: level === "error" && d === 1 ? 1 : 2 });
      }
    }
  });
  // First and last lines date the excerpt.
  picks.push({ at: 0, rank: 1 });
  if (lines.length > 1) picks.push({ at: lines.length - 1, rank: 1 });
  const perLevel = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([w, n]) => `${w} ${n}`);
  const errors = picks.filter((p) => p.rank === 0).length;
  return {
    type: "log",
    preface: [
      { rank: 0, text: `${plural(lines.length, "line")}; per level: ${perLevel.join(", ")}; ${plural(errors, "error/warning line")} kept with context:` },
    ],
    picks,
    confidence: "high",
    fallback: "read raw_evidence for the lines between errors (info/debug) and for wider context",
  };
}

/** The level word as this log spells it (LOG, STATEMENT, W, warn...), for the per-level counts. */
function levelWord(line: string): string | undefined {
  const m =
    /\b(EMERG|ALERT|CRIT|CRITICAL|FATAL|PANIC|ERROR|ERR|SEVERE|WARNING|WARN|NOTICE|INFO|LOG|STATEMENT|DETAIL|HINT|DEBUG|TRACE)\b/.exec(line) ??
    /\blevel=(\w+)|"level":\s*"(\w+)"/.exec(line);
  return m?.[1] ?? m?.[2];
}
