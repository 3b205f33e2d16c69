// The shell pre-filter: most agent commands (`ls -la`, `cat x | head`,
// `grep -rn foo src`) cannot concern any row, yet the full analysis loads the
// parser (unbash and the shell model) for each. This module decides, WITHOUT
// the parser, that a command is only simple commands of programs that neither
// run other programs nor write files, and that no row names any of its words.
// It then builds the very analysis the parser would (commands, words, spans),
// except `reads`, which only `explain` shows (explain keeps the full analysis).
// Conservative by construction: anything it does not fully understand is
// declined, and a declined command gets the full analysis, as before.
// Proof: test/shell-prefilter.test.ts compares it with the full analysis over
// the corpus and a seeded fuzzed set, for several tables.
// Only tiny, parser-free helpers are imported here (wrappers.ts: verbIndex).
import type { ShellAnalysis, ShellCommand } from "./shell/analyze.js";
import type { RedirectRecord, ShellWord } from "./shell/model.js";
import type { CompiledTable } from "./table/compile.js";
import type { Event } from "./types.js";
import { verbIndex } from "./shell/wrappers.js";
import { shellCommandOf, toolFacts, type Facts } from "./facts.js";

/** Longer commands are not worth the risk of a hand parser: the full analysis takes them. */
export const MAX_PREFILTER_BYTES = 512;

/** Why a command was declined (for the bench and the test), or "skip". */
export type PrefilterVerdict = { skip: true; analysis: ShellAnalysis } | { skip: false; why: string };

/**
 * Allow-listed programs: what they may be given. `true`: any arguments (the
 * program has no option that runs a program or writes a file); a function:
 * whether these arguments are safe. Anything not here declines: launchers
 * (env, xargs, time, nice, find, less), interpreters, git, npm, make, editors,
 * sed/awk (their scripts write), tee, file (-C writes), hostname (sets it)…
 */
export type ProgramRules = Readonly<Record<string, true | ((args: string[]) => boolean)>>;

export const PROGRAMS: ProgramRules = {
  ls: true,
  cat: true,
  head: true,
  tail: true,
  wc: true,
  pwd: true,
  echo: true,
  grep: true,
  egrep: true,
  fgrep: true,
  cut: true,
  tr: true,
  basename: true,
  dirname: true,
  realpath: true,
  readlink: true,
  whoami: true,
  uname: true,
  id: true,
  nproc: true,
  true: true,
  false: true,
  stat: true,
  du: true,
  df: true,
  which: true,
  nl: true,
  tac: true,
  rev: true,
  paste: true,
  fold: true,
  comm: true,
  cmp: true,
  diff: true,
  md5sum: true,
  sha1sum: true,
  sha256sum: true,
  sha512sum: true,
  cksum: true,
  seq: true,
  sleep: true,
  expand: true,
  unexpand: true,
  od: true,
  cd: true,
  // bash's `printf -v VAR` assigns a variable
  printf: (args) => !args.some((a) => a.startsWith("-v")),
  // `date -s` / `--set` sets the clock
  date: (args) => !args.some((a) => shortHas(a, "s") || longIs(a, ["set"])),
  // `sort -o FILE` writes; `--compress-program=PROG` runs a program (GNU accepts abbreviations: `--out=f`)
  sort: (args) => !args.some((a) => shortHas(a, "o") || longIs(a, ["output", "compress-program"])),
  // `uniq IN OUT` writes OUT: at most one operand (an option's separate value counts as one: safe side)
  uniq: (args) => operandCount(args) <= 1,
  // `tree -o FILE` writes; `-R` (with -H) writes 00Tree.html in every folder
  tree: (args) => !args.some((a) => shortHas(a, "oR") || longIs(a, ["output"])),
  // `rg --pre CMD` and `--hostname-bin CMD` run programs; `-z` runs decompressors
  rg: (args) => !args.some((a) => shortHas(a, "z") || longIs(a, ["pre", "pre-glob", "hostname-bin", "search-zip"])),
};

/** A short-option word (`-xyz`, not `--x`) containing one of these letters (glued values included: the safe side). */
function shortHas(arg: string, letters: string): boolean {
  if (!arg.startsWith("-") || arg.startsWith("--") || arg.length < 2) return false;
  for (const ch of arg.slice(1)) if (letters.includes(ch)) return true;
  return false;
}

/** A long option that is, abbreviates or extends one of these names (`--out=x` for `--output`). */
function longIs(arg: string, names: string[]): boolean {
  if (!arg.startsWith("--")) return false;
  const typed = arg.slice(2).split("=")[0] ?? "";
  return typed !== "" && names.some((n) => n.startsWith(typed) || typed.startsWith(n));
}

/** Words that can be operands: not an option, `-` (stdin) itself, and everything after `--`. */
function operandCount(args: string[]): number {
  let n = 0;
  let end = false;
  for (const a of args) {
    if (!end && a === "--") {
      end = true;
      continue;
    }
    if (end || a === "-" || !a.startsWith("-")) n++;
  }
  return n;
}

/** Unquoted characters a word may hold: no expansion, glob, redirect, grouping, comment, escape or tilde. */
const WORD_CHAR = /^[A-Za-z0-9_\-.,/:@%+=]$/;

interface Word {
  text: string;
  start: number;
  end: number;
  /** Set for one of the REDIRECTS (then not an argument). */
  redirect?: Pick<RedirectRecord, "op" | "fd" | "target">;
}

/**
 * The only redirections handled, written exactly so as one word: output thrown
 * away, or stderr joined to stdout. None writes a file; anything else declines.
 */
const REDIRECTS: Readonly<Record<string, Pick<RedirectRecord, "op" | "fd" | "target">>> = {
  "2>/dev/null": { op: ">", fd: 2, target: "/dev/null" },
  ">/dev/null": { op: ">", fd: undefined, target: "/dev/null" },
  "&>/dev/null": { op: "&>", fd: undefined, target: "/dev/null" },
  "2>&1": { op: ">&", fd: 2, target: "1" },
};

/**
 * Phase 1, table-free: the command as a list of simple commands of
 * allow-listed programs, with the analysis the parser would give, or why not.
 */
export function plainCommands(command: string, programs: ProgramRules = PROGRAMS): PrefilterVerdict {
  if (command.length > MAX_PREFILTER_BYTES) return { skip: false, why: "long" };
  const parsed = split(command);
  if (typeof parsed === "string") return { skip: false, why: parsed };
  const commands: ShellCommand[] = [];
  const redirects: RedirectRecord[] = [];
  for (const tokens of parsed) {
    const words = tokens.filter((t) => !t.redirect);
    const head = words[0];
    if (!head) return { skip: false, why: "empty" };
    const argv = words.map((w) => w.text);
    const name = head.text;
    const rule = Object.hasOwn(programs, name) ? programs[name] : undefined;
    if (rule === undefined) return { skip: false, why: "program" };
    if (rule !== true && !rule(argv.slice(1))) return { skip: false, why: "option" };
    for (const t of tokens) if (t.redirect) redirects.push({ ...t.redirect, dynamic: false, command: commands.length, span: { start: t.start, end: t.end } });
    const first = tokens[0] ?? head;
    const last = tokens[tokens.length - 1] ?? head;
    commands.push({
      name,
      argv,
      dynamic: argv.map(() => false),
      verb: verbIndex(
        name,
        argv.map((text) => ({ text, dynamic: false })),
      ),
      via: [],
      words: words.map(
        (w): ShellWord => ({ text: w.text, provenance: "literal", span: { start: w.start, end: w.end }, shape: { kind: "exact", text: w.text } }),
      ),
      span: { start: first.start, end: last.end },
      parent: -1,
      implied: [],
    });
  }
  return { skip: true, analysis: { commands, writes: [], reads: [], opaque: [], redirects, status: "complete" } };
}

/**
 * Simple commands (lists of words) joined by `|`, `||`, `&&`, `;`, or the
 * reason to decline. Quotes: '…' holds any printable ASCII but `'`; "…" the
 * same but `$`, backquote, `\` and `!` (which would expand or escape there).
 */
function split(s: string): Word[][] | string {
  const out: Word[][] = [[]];
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c > 0x7e || (c < 0x20 && c !== 0x09)) return "character";
    const ch = s[i] ?? "";
    if (ch === " " || ch === "\t") {
      i++;
      continue;
    }
    const r = redirect(s, i);
    if (r) {
      out[out.length - 1]?.push(r);
      i = r.end;
      continue;
    }
    if (ch === "|" || ch === "&" || ch === ";") {
      const two = s.slice(i, i + 2);
      const op = two === "||" || two === "&&" ? two : ch;
      // `&` alone (background), `|&`, `;;`, `;&`: not handled
      if (op === "&" || s[i + op.length] === "&" || (op === ";" && s[i + 1] === ";")) return "operator";
      if ((out[out.length - 1] ?? []).length === 0) return "empty";
      out.push([]);
      i += op.length;
      continue;
    }
    const w = word(s, i);
    if (typeof w === "string") return w;
    // a word starting with `=` is zsh's `=cmd` expansion
    if (w.text.startsWith("=") && s[i] === "=") return "character";
    out[out.length - 1]?.push(w);
    i = w.end;
  }
  // `ls;` is fine; `ls |` or `ls &&` is not a whole command
  const last = out[out.length - 1] ?? [];
  if (last.length === 0) {
    if (out.length === 1) return "empty";
    if (!/;\s*$/.test(s)) return "empty";
    out.pop();
  }
  return out;
}

/** One of the REDIRECTS at a word's start, ending where a word would (a blank, an operator, the end). */
function redirect(s: string, start: number): Word | undefined {
  for (const [text, r] of Object.entries(REDIRECTS)) {
    if (!s.startsWith(text, start)) continue;
    const end = start + text.length;
    const next = s[end];
    if (next === undefined || next === " " || next === "\t" || next === "|" || next === ";" || next === "&") return { text, start, end, redirect: r };
  }
  return undefined;
}

/** One word from position `i`: unquoted safe characters and quoted parts, up to a blank or an operator. */
function word(s: string, start: number): Word | string {
  let text = "";
  let i = start;
  while (i < s.length) {
    const ch = s[i] ?? "";
    if (ch === " " || ch === "\t" || ch === "|" || ch === "&" || ch === ";") break;
    if (ch === "'" || ch === '"') {
      const close = s.indexOf(ch, i + 1);
      if (close < 0) return "quote";
      const inner = s.slice(i + 1, close);
      if (!/^[\x20-\x7e]*$/.test(inner)) return "character";
      if (ch === '"' && /[$`\\!]/.test(inner)) return "quote";
      text += inner;
      i = close + 1;
      continue;
    }
    if (!WORD_CHAR.test(ch)) return "character";
    text += ch;
    i++;
  }
  return { text, start, end: i };
}

/**
 * Phase 2, with the table: does any row (or disabled row, under failMode
 * closed) name a program whose name appears in the command as a word part,
 * as written or with its quotes removed (`h"ead"`)? Case-insensitive and
 * bounded only by non-alphanumerics, so `.git/x` and `GIT` count: the safe side.
 */
export function tableConcerns(command: string, table: CompiledTable, analysis?: ShellAnalysis): boolean {
  const words = analysis?.commands.flatMap((c) => c.argv) ?? [];
  const text = [command, ...words].join(" ").toLowerCase();
  const names = new Set([...table.rows.map((r) => r.row.when.command?.name), ...table.disabled.map((d) => d.governs.program)]);
  for (const n of names) {
    if (n === undefined) continue;
    const name = n.toLowerCase();
    // a row naming a path (`/usr/bin/git`) is matched by its program's basename
    const base = name.slice(name.lastIndexOf("/") + 1);
    if (base === "" || mentions(text, base)) return true;
  }
  return false;
}

function mentions(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    if (!alnum(text[at - 1]) && !alnum(text[at + name.length])) return true;
  }
  return false;
}

const alnum = (ch: string | undefined): boolean => ch !== undefined && /[a-z0-9_]/.test(ch);

/** Both phases. `programs`: the allow-list (the test swaps in a broken one to show it catches it). */
export function prefilter(command: string, table: CompiledTable, programs: ProgramRules = PROGRAMS): PrefilterVerdict {
  const v = plainCommands(command, programs);
  if (!v.skip) return v;
  return tableConcerns(command, table, v.analysis) ? { skip: false, why: "table" } : v;
}

/**
 * The facts of a shell call without the parser, or undefined when the full
 * analysis must run (shell-facts.ts). Identical to the full facts but for
 * `analysis.reads` (the paths only read, which no decision uses).
 */
export function prefilteredFacts(event: Event, table: CompiledTable): Facts | undefined {
  const command = shellCommandOf(event);
  if (command === undefined) return undefined;
  const v = prefilter(command, table);
  return v.skip ? toolFacts(event, v.analysis) : undefined;
}
