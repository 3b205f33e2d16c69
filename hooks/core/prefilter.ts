// The shell analysis of the commands agents run most (`ls -la`, `git status`,
// `npm test 2>&1 | tail -5`, `cd x && git commit -m 'msg'`) without loading the
// shell parser. A small lexer accepts only a plain subset of bash — words,
// single and double quotes without expansions, `&& || ; |`, newlines,
// fd duplication and redirects to /dev/null — and refuses everything else
// (undefined: the caller runs the full analysis). For an accepted command the
// result is what analyzeCommand() returns, built with the same helpers
// (unwrap, verbIndex, writesOf, readsOf), so every row and the self-protection
// policy decide exactly as they would after the parser: test/prefilter.test.ts
// checks that over the corpus and a fuzzed set. Imports nothing that loads unbash.
import type { Event } from "./types.js";
import type { ShellAnalysis, ShellCommand, ShellRead, ShellWrite } from "./shell/analyze.js";
import { basename, gitAliasVerb, isInterpreter, isProgramFlag, unwrap, verbIndex, type Arg } from "./shell/wrappers.js";
import { isRealFile, writesOf, type PathArg } from "./shell/writes.js";
import { readsOf } from "./shell/reads.js";
import { shellCommandOf, toolFacts, type Facts } from "./facts.js";

/** Longer commands go to the parser: agents' everyday commands are short, and the lexer need not be fast on megabytes. */
export const MAX_PREFILTER_CHARS = 4096;

/** Facts of a shell call computed without the parser, or undefined when the full analysis is needed. */
export function prefilteredFacts(event: Event): Facts | undefined {
  const command = shellCommandOf(event);
  if (command === undefined) return undefined;
  const analysis = quickAnalysis(command);
  return analysis && toolFacts(event, analysis);
}

/** analyzeCommand(source) for the plain subset; undefined for anything else. */
export function quickAnalysis(source: string): ShellAnalysis | undefined {
  if (source.length > MAX_PREFILTER_CHARS) return undefined;
  const segments = lex(source);
  if (!segments) return undefined;
  const out: ShellAnalysis = { commands: [], writes: [], reads: [], opaque: [] };
  for (const words of segments) if (!visit(words, out)) return undefined;
  const written = new Set(out.writes.map((w) => w.path));
  return { ...out, reads: out.reads.filter((r) => !written.has(r.path)) };
}

interface Word {
  /** The value after quote removal. */
  text: string;
  /** The source text, quotes included. */
  raw: string;
  quoted: boolean;
  /** An unquoted `*` or `?`: a glob, as the parser reports it. */
  pattern: boolean;
}

/** Unquoted characters that are literal in bash wherever they stand (plus the glob characters `*` and `?`). */
const PLAIN = /[A-Za-z0-9_./:@%+,=^*?-]/;
/** Characters that end the double-quoted subset: expansions, escapes, history. */
const DQ_SPECIAL = /[$`\\!]/;
/** Words that open a compound command where a command starts. */
const RESERVED = new Set(["if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for", "in", "function", "select", "time", "coproc", "{", "}", "!", "[[", "]]"]);
const SEPARATOR_END = /[ \t\n;&|]/;

type Sep = "start" | ";" | "\n" | "&&" | "||" | "|" | "end";

/** Simple commands (their words), or undefined when the text leaves the subset. */
function lex(src: string): Word[][] | undefined {
  const segments: Word[][] = [];
  let words: Word[] = [];
  let before: Sep = "start";
  let redirects = 0;
  let cur: Word | undefined;
  const endWord = () => {
    if (cur) words.push(cur);
    cur = undefined;
  };
  /** Close the current simple command; an empty one is a syntax error except at the very end after `;` or a newline. */
  const endSegment = (sep: Sep): boolean => {
    endWord();
    if (words.length === 0) {
      if (redirects > 0) return false;
      const trailing = sep === "end" && (before === ";" || before === "\n");
      const blankLine = sep === "\n" && (before === "start" || before === "\n" || before === ";");
      if (!trailing && !blankLine) return false;
    } else segments.push(words);
    words = [];
    redirects = 0;
    before = sep;
    return true;
  };
  let i = 0;
  while (i < src.length) {
    const ch = src.charAt(i);
    if (ch === " " || ch === "\t") {
      endWord();
      i++;
    } else if (ch === "\n") {
      if (!endSegment("\n")) return undefined;
      i++;
    } else if (ch === "'" || ch === '"') {
      const close = src.indexOf(ch, i + 1);
      if (close < 0) return undefined;
      const body = src.slice(i + 1, close);
      if (ch === '"' && DQ_SPECIAL.test(body)) return undefined;
      cur ??= { text: "", raw: "", quoted: false, pattern: false };
      cur.text += body;
      cur.raw += src.slice(i, close + 1);
      cur.quoted = true;
      i = close + 1;
    } else if (ch === ";") {
      if (src[i + 1] === ";" || src[i + 1] === "&") return undefined;
      if (!endSegment(";")) return undefined;
      i++;
    } else if (ch === "|") {
      if (src[i + 1] === "&") return undefined;
      const two = src[i + 1] === "|";
      if (!endSegment(two ? "||" : "|")) return undefined;
      i += two ? 2 : 1;
    } else if (ch === "&") {
      if (src[i + 1] === "&") {
        if (!endSegment("&&")) return undefined;
        i += 2;
      } else if (src[i + 1] === ">") {
        endWord();
        const next = redirectTarget(src, i + 2, "file");
        if (next < 0) return undefined;
        redirects++;
        i = next;
      } else return undefined; // background jobs
    } else if (ch === ">") {
      // `2>&1`: a word of digits right before `>` is the fd, not an argument.
      if (cur && !cur.quoted && /^\d+$/.test(cur.raw)) cur = undefined;
      endWord();
      const op = src[i + 1];
      if (op === "|") return undefined;
      const next = op === "&" ? redirectTarget(src, i + 2, "fd") : redirectTarget(src, op === ">" ? i + 2 : i + 1, "file");
      if (next < 0) return undefined;
      redirects++;
      i = next;
    } else if (PLAIN.test(ch)) {
      cur ??= { text: "", raw: "", quoted: false, pattern: false };
      cur.text += ch;
      cur.raw += ch;
      if (ch === "*" || ch === "?") cur.pattern = true;
      i++;
    } else {
      return undefined; // $ ` \ < ( ) { } [ ] # ! ~ and anything not plain ASCII
    }
  }
  // `a &&` or `a |` at the end waits for more input: endSegment declines it.
  if (!endSegment("end")) return undefined;
  return segments.length > 0 ? segments : undefined;
}

/**
 * The one redirect target each form may have here: `/dev/null` for a file
 * redirect, digits for `>&N`. Returns the index after it, or -1.
 */
function redirectTarget(src: string, from: number, kind: "file" | "fd"): number {
  let i = from;
  while (src[i] === " " || src[i] === "\t") i++;
  let j = i;
  if (kind === "fd") while (j < src.length && /\d/.test(src.charAt(j))) j++;
  else if (src.startsWith("/dev/null", i)) j = i + "/dev/null".length;
  if (j === i) return -1;
  return j === src.length || SEPARATOR_END.test(src.charAt(j)) ? j : -1;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const FIND_ACTIONS = new Set(["-delete", "-exec", "-execdir", "-ok", "-okdir"]);

/** One simple command, as analyze.ts visitCommand() records it; false when only the parser can say. */
function visit(words: Word[], out: ShellAnalysis): boolean {
  let k = 0;
  // `CI=1 npm test`: leading assignments are not argv.
  while (k < words.length && ASSIGNMENT.test(words[k]?.raw ?? "")) k++;
  const rest = words.slice(k);
  const head = rest[0];
  if (head && /^[A-Za-z_][A-Za-z0-9_]*\+=/.test(head.raw)) return false;
  if (!head || RESERVED.has(head.raw) || RESERVED.has(head.text)) return false;
  const argv: Arg[] = rest.map((w) => (w.pattern ? { text: w.text, dynamic: false, pattern: true } : { text: w.text, dynamic: false }));

  const u = unwrap(argv);
  if (u.opaque || u.script || u.readsProgramFromStdin) return false;
  recordWrappers(argv, u.via, out);
  const program = u.argv[0];
  if (!program) return true;
  const name = basename(program.text);
  const args = u.argv.slice(1);
  // Interpreters may take their program inline or from stdin: the parser follows those.
  if (isInterpreter(name) && (isStdinProgram(u.argv) || args.some((a) => isProgramFlag(name, a.text)))) return false;
  if (name === "find" && args.some((a) => FIND_ACTIONS.has(a.text))) return false;
  record(u.argv, u.via, out);
  if (name === "find") return true;
  pushPaths(writesOf(program.text, args), name, out.writes);
  pushPaths(readsOf(name, args), name, out.reads);
  return true;
}

/** As in analyze.ts: one entry per wrapper peeled off argv, each with the words from itself on. */
function recordWrappers(argv: Arg[], wrappers: string[], out: ShellAnalysis): void {
  let from = 0;
  for (const [i, w] of wrappers.entries()) {
    while (from < argv.length && basename(argv[from]?.text ?? "") !== w) from++;
    record(argv.slice(from), wrappers.slice(0, i), out);
    from++;
  }
}

function record(argv: Arg[], via: string[], out: ShellAnalysis): void {
  const first = argv[0];
  if (!first) return;
  const name = basename(first.text);
  if (name === "[" || name === "[[") return;
  const verb = verbIndex(name, argv);
  const dynamic = argv.map((a) => a.dynamic);
  if (name === "git" && gitAliasVerb(argv, verb)) dynamic[verb] = true;
  const c: ShellCommand = { name, argv: argv.map((a) => a.text), dynamic, verb, via };
  out.commands.push(c);
}

function pushPaths(paths: PathArg[], by: string, into: (ShellWrite | ShellRead)[]): void {
  for (const p of paths) {
    if (p.dynamic && /^[<>]\(/.test(p.path)) continue;
    if (p.dynamic || isRealFile(p.path)) into.push({ ...p, by });
  }
}

/** `python3 -` or `python3` with no script: the program comes on stdin. */
function isStdinProgram(argv: Arg[]): boolean {
  const rest = argv.slice(1).filter((a) => !a.text.startsWith("-") || a.text === "-");
  return rest.length === 0 || rest[0]?.text === "-";
}
