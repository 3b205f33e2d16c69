// git log: the first N commits (header and subject) and how many there are.
import { errorPicks, plural, type Pick, type Selection } from "./lines.js";
import type { Profile } from "./profiles.js";

const COMMIT = /^commit [0-9a-f]{7,40}\b/;
// --oneline, --pretty=oneline, --graph --oneline
const ONELINE = /^[*|\\/ ]*[0-9a-f]{7,40} \S/;

export function looksLikeLog(lines: readonly string[]): boolean {
  const commits = lines.filter((l) => COMMIT.test(l)).length;
  if (commits > 0) return true;
  const nonEmpty = lines.filter((l) => l.trim() !== "");
  return nonEmpty.length > 0 && nonEmpty.filter((l) => ONELINE.test(l)).length >= nonEmpty.length * 0.9;
}

export function summarizeLog(lines: readonly string[], profile: Profile): Selection {
  const picks: Pick[] = [...errorPicks(lines)];
  const heads = lines.flatMap((l, at) => (COMMIT.test(l) ? [at] : []));
  let count: number;
  if (heads.length > 0) {
    count = heads.length;
    // One line per commit: short hash, date, author, subject (the header line carries it).
    heads.forEach((head, k) => {
      const end = heads[k + 1] ?? lines.length;
      let date = "";
      let author = "";
      let subject = "";
      for (let at = head + 1; at < end && !subject; at++) {
        const l = lines[at] ?? "";
        if (l.startsWith("Date:")) date = l.slice(5).trim();
        else if (l.startsWith("Author:"))
          author = l
            .slice(7)
            .trim()
            .replace(/\s*<.*>$/, "");
        else if (l.startsWith("    ") && l.trim() !== "") subject = l.trim();
      }
      const sha = (lines[head] ?? "").slice(7, 17);
      const text = [sha, date, author && `(${author})`, subject].filter(Boolean).join(" ");
      picks.push({ at: head, rank: k < profile.items ? 1 : k < profile.items * 3 ? 2 : 3, text });
    });
  } else {
    const commits = lines.flatMap((l, at) => (ONELINE.test(l) ? [at] : []));
    count = commits.length;
    commits.forEach((at, k) => picks.push({ at, rank: k < profile.items ? 1 : k < profile.items * 3 ? 2 : 3 }));
  }
  return {
    type: "git-log",
    preface: [{ rank: 0, text: `${plural(count, "commit")}; the first ${Math.min(count, profile.items)} with their subjects:` }],
    picks,
    confidence: "high",
    fallback: "read raw_evidence for later commits, full messages and stats",
  };
}
