// git diff / git show: a stat computed from the diff, commit headers, and the first hunk of each file.
import { errorPicks, plural, type Pick, type Rank, type Selection } from "./lines.js";
import type { Profile } from "./profiles.js";

const FILE_HEAD = /^diff --git a\/(.*) b\/(.*)$|^diff --(?:cc|combined) (.*)$/;

// git diff --stat / git show --stat: " path | 12 +++--" and " 3 files changed, ..."
const STAT_LINE = /^ \S.* \| +(\d+ ?[-+]*|Bin .*)$/;
const STAT_TOTAL = /^ \d+ files? changed(, \d+ insertions?\(\+\))?(, \d+ deletions?\(-\))?$/;

export function looksLikeDiff(lines: readonly string[]): boolean {
  // a stat alone is a diff --stat; a stat under "commit" headers is git log --stat
  if (lines.some((l) => STAT_TOTAL.test(l)) && !lines.some((l) => /^commit [0-9a-f]{7,40}\b/.test(l))) return true;
  return (
    lines.some((l) => FILE_HEAD.test(l)) ||
    (lines.some((l) => l.startsWith("--- ")) && lines.some((l) => l.startsWith("+++ ")) && lines.some((l) => l.startsWith("@@ ")))
  );
}

interface FileDiff {
  name: string;
  /** "new", "deleted", "renamed from x", "mode 100644 → 100755"... */
  note?: string;
  head: number;
  added: number;
  removed: number;
  binary: boolean;
  hunks: number[];
}

export function summarizeDiff(lines: readonly string[], profile: Profile): Selection {
  const files: FileDiff[] = [];
  const picks: Pick[] = [...errorPicks(lines)];
  let file: FileDiff | undefined;
  let inCommit = false;
  let stats = 0;
  lines.forEach((l, at) => {
    const head = FILE_HEAD.exec(l);
    // Plain unified diffs (diff -u, patches) have no "diff --git": a new file starts at "--- / +++ / @@"
    // once the current file has hunks (in a git diff the "---" line comes before any hunk).
    const plainHead = l.startsWith("--- ") && lines[at + 1]?.startsWith("+++ ") && lines[at + 2]?.startsWith("@@") && (!file || file.hunks.length > 0);
    if (head || plainHead) {
      const name = head ? (head[2] ?? head[3] ?? "") : (lines[at + 1] ?? "").slice(4).replace(/^b\//, "");
      file = { name, head: at, added: 0, removed: 0, binary: false, hunks: [] };
      files.push(file);
      inCommit = false;
      return;
    }
    // git show / git log -p: commit header and message (rank 1: the subject; rank 2: the rest).
    if (/^commit [0-9a-f]{7,40}\b/.test(l)) {
      inCommit = true;
      file = undefined;
      picks.push({ at, rank: 0 });
      return;
    }
    if (inCommit) {
      if (/^(Author|Date|Merge):/.test(l)) picks.push({ at, rank: 2 });
      else if (l.trim() !== "") picks.push({ at, rank: l.startsWith("    ") && !lines[at - 1]?.startsWith("    ") ? 1 : 3 });
      return;
    }
    if (STAT_TOTAL.test(l)) picks.push({ at, rank: 0 });
    else if (STAT_LINE.test(l)) picks.push({ at, rank: stats++ < profile.items * 2 ? 1 : 3 });
    if (!file) return;
    if (file.hunks.length === 0 && /^(new file|deleted file) mode /.test(l)) file.note = l.startsWith("new") ? "new" : "deleted";
    else if (file.hunks.length === 0 && l.startsWith("rename from ")) file.note = `renamed from ${l.slice(12)}`;
    else if (l.startsWith("@@")) file.hunks.push(at);
    else if (/^Binary files .* differ$/.test(l)) file.binary = true;
    else if (l.startsWith("+") && !l.startsWith("+++ ")) file.added++;
    else if (l.startsWith("-") && !l.startsWith("--- ")) file.removed++;
  });

  // First hunk of each file: its header, then its changed lines with a little context.
  files.forEach((f, k) => {
    const first = f.hunks[0];
    if (first === undefined) return;
    const end = f.hunks[1] ?? nextHead(files, k, lines.length);
    picks.push({ at: f.head, rank: 1 }, { at: first, rank: 1 });
    let changed = 0;
    for (let at = first + 1; at < end; at++) {
      const l = lines[at] ?? "";
      const isChange = l.startsWith("+") || l.startsWith("-");
      if (isChange) changed++;
      const rank: Rank = changed <= profile.windowLines ? 2 : 3;
      picks.push({ at, rank: isChange ? rank : 3 });
    }
  });

  const added = files.reduce((s, f) => s + f.added, 0);
  const removed = files.reduce((s, f) => s + f.removed, 0);
  const preface: { rank: Rank; text: string }[] =
    files.length === 0 ? [] : [{ rank: 0, text: `${plural(files.length, "file")} changed, +${added} -${removed} (first hunk of each file below)` }];
  files.forEach((f, k) => {
    const stat = f.binary ? "binary" : f.hunks.length === 0 ? "no content change" : `+${f.added} -${f.removed}, ${plural(f.hunks.length, "hunk")}`;
    preface.push({ rank: k < profile.items * 2 ? 0 : 2, text: ` ${f.name} | ${f.note ? `${f.note}, ` : ""}${stat}` });
  });
  return {
    type: "diff",
    preface,
    picks,
    confidence: files.length > 0 || stats > 0 ? "high" : "medium",
    why: files.length > 0 || stats > 0 ? undefined : "no file headers found",
    fallback: "read raw_evidence (or git diff -- <file>) for hunks after the first of each file",
  };
}

function nextHead(files: readonly FileDiff[], k: number, end: number): number {
  return files[k + 1]?.head ?? end;
}
