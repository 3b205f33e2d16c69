// What test/docs.test.ts checks in Markdown: headings and their GitHub anchors,
// relative links, and words that speak of the project's history.
import fs from "node:fs";
import path from "node:path";

/** Lines outside fenced code blocks, with their 1-based line numbers. */
function proseLines(text: string): { line: string; n: number }[] {
  const out: { line: string; n: number }[] = [];
  let fence: string | undefined;
  text.split("\n").forEach((line, i) => {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (m) {
      if (fence === undefined) fence = m[1]![0]!.repeat(m[1]!.length);
      else if (line.trim().startsWith(fence)) fence = undefined;
      return;
    }
    if (fence === undefined) out.push({ line, n: i + 1 });
  });
  return out;
}

/** A heading's anchor as GitHub makes it: the rendered text, lower case, punctuation dropped, spaces as hyphens. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link or image: its text
    .replace(/<[^>]+>/g, "") // inline HTML
    .replace(/`([^`]*)`/g, "$1") // code spans keep their text
    .replace(/\*+/g, ""); // emphasis
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc} -]/gu, "") // as github-slugger: letters, marks, digits, connectors, "-" and " " stay
    .replace(/ /g, "-");
}

/** Every anchor a Markdown file offers: its headings' slugs, repeated ones numbered -1, -2 as GitHub does. */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { line } of proseLines(text)) {
    const m = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = githubSlug(m[1]!);
    const k = seen.get(base) ?? 0;
    seen.set(base, k + 1);
    anchors.add(k === 0 ? base : `${base}-${k}`);
  }
  return anchors;
}

export type Link = { target: string; n: number };

/** Inline links and images outside code, `[text](target)`; a title after the target is dropped. */
export function linksOf(text: string): Link[] {
  const out: Link[] = [];
  for (const { line, n } of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, "");
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ target: m[1]!, n });
  }
  return out;
}

/** Problems with the relative links of one Markdown file: a missing file, or an anchor no heading makes. */
export function brokenLinks(file: string, text: string, root: string): string[] {
  const problems: string[] = [];
  for (const { target, n } of linksOf(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: — not checked here
    const [rawPath, anchor] = target.split("#", 2) as [string, string | undefined];
    const where = `${path.relative(root, file)}:${n}: ${target}`;
    if (rawPath === "") {
      // An anchor in the same page: its headings are in the text itself.
      if (!anchorsOf(text).has(anchor ?? "")) problems.push(`${where}: no heading makes the anchor #${anchor}`);
      continue;
    }
    const dest = path.resolve(path.dirname(file), decodeURIComponent(rawPath));
    if (!dest.startsWith(root + path.sep) && dest !== root) {
      problems.push(`${where}: points outside the repository`);
      continue;
    }
    if (!fs.existsSync(dest)) {
      problems.push(`${where}: no such file`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!dest.endsWith(".md")) {
      problems.push(`${where}: an anchor into a file that is not Markdown`);
      continue;
    }
    if (!anchorsOf(fs.readFileSync(dest, "utf8")).has(anchor)) problems.push(`${where}: no heading makes the anchor #${anchor}`);
  }
  return problems;
}

/**
 * Words that speak of how the project was made rather than what it does: numbered issues,
 * seeds and rounds, waves of work. "issue", "round" or "seed" in plain English pass.
 */
export const HISTORY: RegExp[] = [
  /\bissues? #?\d+/i,
  /\bseeds? 0\d\d\b/i,
  /\bthe seed's\b/i,
  /\bround[- ]?\d\b/i,
  /\b(?:first|second|third|next) round\b/i,
  /\bwaves?\b/i,
  /\bphase \d\b/i,
  /\bPR #\d+/,
];

/** Each history word in a text, with its line: `line N: "match"`. */
export function historyWords(text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, i) => {
    for (const re of HISTORY) {
      const m = re.exec(line);
      if (m) found.push(`line ${i + 1}: "${m[0]}"`);
    }
  });
  return found;
}

/** Every string in a JSON document (keys left out): the text fields of triggers.json. */
export function jsonStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(jsonStrings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(jsonStrings);
  return [];
}

/** Files under `dir` (recursive) whose name ends with one of `exts`. */
export function filesUnder(dir: string, exts: string[]): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && exts.some((x) => e.name.endsWith(x)))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}
