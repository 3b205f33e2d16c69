// Listings (ls -R, find, tree, fd): entries per folder and the first N entries.
import { errorPicks, plural, type Pick, type Rank, type Selection } from "./lines.js";
import type { Profile } from "./profiles.js";

const TREE_BRANCH = /^((?:[│|]\s{3}| {4})*)(?:├──|└──|\|--|`--) (.*)$/;
const TREE_TOTAL = /^\d+ director(y|ies)(, \d+ files?)?$/;
const LS_HEADER = /^(\S.*):$/;
const PROBLEM = /^(ls|find|tree|fd|du): |Permission denied|No such file/;

export function looksLikeListing(lines: readonly string[]): boolean {
  const nonEmpty = lines.filter((l) => l.trim() !== "");
  if (nonEmpty.length === 0) return false;
  if (nonEmpty.some((l) => TREE_TOTAL.test(l)) || nonEmpty.filter((l) => TREE_BRANCH.test(l)).length >= nonEmpty.length * 0.5) return true;
  // ls -R: "dir:" headers over entries that never start with a blank (help texts indent theirs)
  const headers = nonEmpty.filter((l) => LS_HEADER.test(l)).length;
  const flush = nonEmpty.filter((l) => !LS_HEADER.test(l) && !/^\s/.test(l)).length;
  if (headers >= 2 && flush >= (nonEmpty.length - headers) * 0.9) return true;
  // find / fd: one path per line
  return nonEmpty.filter((l) => /^\.{0,2}\/?[^\s:]+(\/[^\s:]*)*$/.test(l) && l.includes("/")).length >= nonEmpty.length * 0.8;
}

export function summarizeListing(lines: readonly string[], profile: Profile): Selection {
  const picks: Pick[] = [...errorPicks(lines)];
  const perFolder = new Map<string, number>();
  const count = (folder: string) => perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
  let entries = 0;
  const isTree = lines.some((l) => TREE_BRANCH.test(l));
  const isLsR = !isTree && lines.filter((l) => LS_HEADER.test(l)).length >= 1;
  const stack: string[] = [];
  let folder = ".";
  lines.forEach((l, at) => {
    if (l.trim() === "") return;
    if (PROBLEM.test(l) || TREE_TOTAL.test(l)) {
      picks.push({ at, rank: 0 });
      return;
    }
    let parent: string;
    if (isTree) {
      const m = TREE_BRANCH.exec(l);
      if (!m) {
        stack.length = 0; // a root given on the command line
        stack.push(l);
        picks.push({ at, rank: 1 });
        return;
      }
      const depth = (m[1] ?? "").length / 4 + 1;
      stack.length = depth;
      parent = stack.slice(0, depth).join("/");
      stack[depth] = m[2] ?? "";
    } else if (isLsR) {
      const h = LS_HEADER.exec(l);
      if (h) {
        folder = h[1] ?? ".";
        picks.push({ at, rank: 2 });
        return;
      }
      parent = folder;
    } else {
      const slash = l.replace(/\/$/, "").lastIndexOf("/");
      parent = slash > 0 ? l.slice(0, slash) : ".";
    }
    count(parent);
    entries++;
    picks.push({ at, rank: entries <= profile.items ? 1 : entries <= profile.items * 3 ? 2 : 3 });
  });
  const folders = [...perFolder.entries()].sort((a, b) => b[1] - a[1]);
  const preface: { rank: Rank; text: string }[] = [
    { rank: 0, text: `${plural(entries, "entry", "entries")} in ${plural(folders.length, "folder")}; entries per folder, most first:` },
  ];
  folders.forEach(([name, n], k) => preface.push({ rank: k < profile.items ? 0 : k < profile.items * 3 ? 2 : 3, text: ` ${n}\t${name}` }));
  return {
    type: "listing",
    preface,
    picks,
    confidence: "high",
    fallback: `read raw_evidence for entries past the first ${profile.items}`,
  };
}
