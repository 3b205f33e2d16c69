// grep / rg / git grep: matches per file and the first K lines of each file.
import { errorPicks, plural, type Pick, type Rank, type Selection } from "./lines.js";
import type { Profile } from "./profiles.js";

// path:line:text, path:line-text (context), path:text (no -n). A path has no spaces before the colon.
const HIT = /^((?=[^\s:]*[A-Za-z_./])[^\s:]+?)([:-])(\d+)[:-]/;
const HIT_NO_LINE = /^([^\s:]+\.[\w]+|[^\s:]*\/[^\s:]*):(?!\d+:)/;
// rg --heading / grep single file: "12:text"
const NUMBERED = /^(\d+)[:-]/;
const PROBLEM = /^(grep|rg|ag|ack|git): |Permission denied|No such file/;

export function looksLikeGrep(lines: readonly string[]): boolean {
  const nonEmpty = lines.filter((l) => l.trim() !== "" && l !== "--");
  if (nonEmpty.length === 0) return false;
  const hits = nonEmpty.filter((l) => HIT.test(l) || HIT_NO_LINE.test(l) || NUMBERED.test(l)).length;
  return hits >= nonEmpty.length * 0.7;
}

interface FileHits {
  name: string;
  lines: number[];
}

export function summarizeGrep(lines: readonly string[], profile: Profile): Selection {
  const picks: Pick[] = [...errorPicks(lines)];
  const files = new Map<string, FileHits>();
  let heading: string | undefined;
  let total = 0;
  lines.forEach((l, at) => {
    if (l.trim() === "" || l === "--") {
      heading = undefined;
      return;
    }
    if (PROBLEM.test(l)) {
      picks.push({ at, rank: 0 });
      return;
    }
    const name = HIT.exec(l)?.[1] ?? HIT_NO_LINE.exec(l)?.[1] ?? (NUMBERED.test(l) ? (heading ?? "(input)") : undefined);
    if (name === undefined) {
      heading = l; // rg --heading: a path line, then its numbered hits
      picks.push({ at, rank: 1 });
      return;
    }
    const isMatch = HIT.exec(l)?.[2] !== "-" && !/^\d+-/.test(l);
    if (isMatch) total++;
    let f = files.get(name);
    if (!f) files.set(name, (f = { name, lines: [] }));
    f.lines.push(at);
  });
  [...files.values()].forEach((f, k) => {
    f.lines.forEach((at, j) => {
      const rank: Rank = j < profile.windowLines ? (k < profile.items ? 1 : 2) : 3;
      picks.push({ at, rank });
    });
  });
  const counts = [...files.values()].sort((a, b) => b.lines.length - a.lines.length);
  const preface: { rank: Rank; text: string }[] = [
    { rank: 0, text: `${plural(total, "match", "matches")} in ${plural(files.size, "file")}; lines per file, most first:` },
  ];
  counts.forEach((f, k) => preface.push({ rank: k < profile.items ? 0 : 2, text: ` ${f.lines.length}\t${f.name}` }));
  return {
    type: "grep",
    preface,
    picks,
    confidence: "high",
    fallback: `read raw_evidence for matches past the first ${profile.windowLines} of a file`,
  };
}
