// Bash command line → what it runs, what it writes and what it only reads.
// Parse with unbash, walk every node (substitutions, subshells, here-docs
// included), peel wrappers, recurse into `bash -c` strings. Anything the walk
// cannot see through is reported as opaque: never silently "no match".
import { parse, forEachChild, type Assignment, type Command, type SyntaxNode, type Redirection, type ParsedScript } from "unbash";
import { evalWord } from "./words.js";
import { unwrap, basename, clip, verbIndex, gitAliasVerb, isProgramFlag, isInterpreter, SHELLS, type Arg } from "./wrappers.js";
import { writesOf, isRealFile, type PathArg } from "./writes.js";
import { inlineWrites, inlineCommands } from "./inline.js";
import { readsOf } from "./reads.js";

export interface ShellCommand {
  /** Program name (basename of argv[0]). */
  name: string;
  argv: string[];
  /** Per argv word: its value is only known at run time. */
  dynamic: boolean[];
  /** Index in argv of the subcommand (`commit` in `git -C x commit`), -1 if none. */
  verb: number;
  /** Wrappers this command was found inside (sudo, env, bash -c, xargs...). */
  via: string[];
}

export interface ShellWrite extends PathArg {
  /** The program or redirect that writes. */
  by: string;
}

/** A path the command only reads (never a reason to gate; shown by `explain`). */
export interface ShellRead extends PathArg {
  by: string;
}

export interface Opaque {
  reason: string;
  text: string;
}

export interface ShellAnalysis {
  commands: ShellCommand[];
  writes: ShellWrite[];
  /** Paths only read: a path also written is in `writes` only. */
  reads: ShellRead[];
  opaque: Opaque[];
}

/** Commands longer than this are not analysed; they are reported opaque. */
export const MAX_COMMAND_BYTES = 1_048_576;
/** `bash -c "bash -c '...'"` nesting we follow before giving up (opaque). */
export const MAX_SCRIPT_DEPTH = 16;
/**
 * Every `$( )`, `<( )` and `bash -c` string is parsed again on its own, so
 * `$($($(...)))` costs depth × length. Past this many characters parsed again
 * the rest is opaque: the time stays linear in the input, whatever its shape.
 */
export const MAX_REPARSE_BYTES = 1_048_576;

interface Work extends ShellAnalysis {
  /** Characters parsed a second time so far (see MAX_REPARSE_BYTES). */
  reparsed: number;
}

export function analyzeCommand(source: string): ShellAnalysis {
  const work: Work = { commands: [], writes: [], reads: [], opaque: [], reparsed: 0 };
  if (source.length > MAX_COMMAND_BYTES) {
    work.opaque.push({ reason: `the command is longer than ${MAX_COMMAND_BYTES} characters`, text: clip(source) });
    markUnknownEffects(work);
    return finish(work);
  }
  analyzeScript(source, 0, [], work);
  return finish(work);
}

function finish({ reparsed: _, ...out }: Work): ShellAnalysis {
  // `sed -i s/a/b/ "$f"` reads "$f" too, but it is a write: compare the words as written.
  const written = new Set(out.writes.map((w) => w.path));
  return { ...out, reads: out.reads.filter((r) => !written.has(r.path)) };
}

/** Charge a nested parse to the budget; false (and opaque once) when it is spent. */
function reparse(length: number, text: string, out: Work): boolean {
  out.reparsed += length;
  if (out.reparsed <= MAX_REPARSE_BYTES) return true;
  if (!out.opaque.some((o) => o.reason.startsWith("nested"))) {
    out.opaque.push({ reason: `nested substitutions and shell strings exceed ${MAX_REPARSE_BYTES} characters to re-read`, text: clip(text) });
    markUnknownEffects(out);
  }
  return false;
}

function analyzeScript(source: string, depth: number, via: string[], out: Work): void {
  if (depth > MAX_SCRIPT_DEPTH) {
    out.opaque.push({ reason: "shell strings nested too deep to follow", text: clip(source) });
    return markUnknownEffects(out);
  }
  if (depth > 0 && !reparse(source.length, source, out)) return;
  let script: ParsedScript;
  try {
    script = parse(source);
  } catch (e) {
    out.opaque.push({ reason: `the command does not parse: ${(e as Error).message}`, text: clip(source) });
    return;
  }
  if (script.errors?.length) {
    out.opaque.push({ reason: `the command does not parse: ${script.errors[0]!.message}`, text: clip(source) });
  }
  walk(script, source, depth, via, out);
}

/** Iterative walk (no recursion limit to hit on deeply nested input). */
function walk(root: SyntaxNode, source: string, depth: number, via: string[], out: Work): void {
  const piped = new Set<SyntaxNode>();
  const stack: SyntaxNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === "Pipeline") node.commands.slice(1).forEach((c) => piped.add(c));
    if (node.type === "Command") visitCommand(node, source, piped.has(node), depth, via, out);
    if (node.type === "Redirected") for (const r of node.redirects) redirectEffect(r, "redirect", out);
    // unbash parses a substitution's body when first asked for it: charge it first.
    const nested = node.type === "CommandExpansion" || node.type === "ProcessSubstitution" || node.type === "ArithmeticCommandExpansion";
    if (nested && !reparse(node.text.length, node.text, out)) continue;
    // Children go on the stack in reverse so commands come out in source order.
    const children: SyntaxNode[] = [];
    forEachChild(node, (child) => children.push(child));
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

function visitCommand(cmd: Command, source: string, piped: boolean, depth: number, via: string[], out: Work): void {
  // `alias g=git`, `export A=1`: unbash gives NAME=VALUE arguments as assignments; they are still argv.
  const argv: Arg[] = [cmd.name, ...cmd.suffix].flatMap((w) =>
    w?.type === "Word" ? [evalWord(w)] : w?.type === "Assignment" ? [assignmentArg(w)] : [],
  );
  const redirects = [...cmd.prefix, ...cmd.suffix].filter((r): r is Redirection => r.type === "Redirect" || r.type === "HereDoc" || r.type === "HereString");
  for (const r of redirects) redirectEffect(r, clip(argv[0]?.text ?? "redirect", 40), out);
  if (argv.length === 0) return; // assignments and redirects only

  const u = unwrap(argv);
  const allVia = [...via, ...u.via];
  const text = source.slice(cmd.pos, cmd.end);
  // Wrappers run too (`sudo`, `xargs`, `timeout`): a row may be about them.
  recordWrappers(argv, u.via, via, out);
  if (u.opaque) return markOpaque(u.opaque, text, out, true);
  // The program text handed to a shell or interpreter through stdin, if we can see it.
  const stdinText = heredocText(redirects);

  if (u.script) {
    const shell = basename(u.argv[0]?.text ?? "sh");
    record(u.argv, allVia, out);
    if (u.script.dynamic) markOpaque(`${shell} runs a string computed at run time`, text, out);
    else analyzeScript(u.script.text, depth + 1, [...allVia, shell === "eval" ? "eval" : `${shell} -c`], out);
    return;
  }
  if (u.argv.length === 0) return;
  const name = basename(u.argv[0]!.text);
  record(u.argv, allVia, out);

  if (u.readsProgramFromStdin || (isInterpreter(name) && isStdinProgram(u.argv))) {
    if (stdinText !== undefined) {
      if (SHELLS.has(name)) analyzeScript(stdinText.text, depth + 1, [...allVia, `${name} <<`], out);
      else {
        pushWrites(inlineWrites(stdinText.text), name, out);
        visitInline(stdinText.text, name, text, depth, allVia, out);
      }
      if (stdinText.dynamic && SHELLS.has(name)) markOpaque(`${name} runs a here-doc with run-time expansions`, text, out);
    } else if (piped) {
      markOpaque(`${name} reads its program from a pipe`, text, out);
    }
    return;
  }

  const args = u.argv.slice(1);
  if (name === "find") return visitFind(args, allVia, depth, out);
  const program = inlineProgram(name, args);
  // `python3 -c "$CODE"`: the whole program is a run-time value. (`$f` spliced into a literal program is data.)
  if (program?.dynamic && /^\s*(\$\w+|\$\{[^}]*\}|\$\([\s\S]*\)|`[\s\S]*`)\s*$/.test(program.text)) {
    return markOpaque(`${name} runs a program computed at run time`, text, out);
  }
  pushWrites(writesOf(u.argv[0]!.text, args, program?.text), name, out);
  pushReads(readsOf(name, args), name, out);
  if (program !== undefined) visitInline(program.text, name, text, depth, allVia, out);
}

/** `python -c "os.system('git commit')"`: the commands an inline program runs. */
function visitInline(code: string, name: string, text: string, depth: number, via: string[], out: Work): void {
  const found = inlineCommands(code);
  for (const line of found.scripts) analyzeScript(line, depth + 1, [...via, name], out);
  if (found.opaque) markOpaque(found.opaque, text, out);
}

function assignmentArg(a: Assignment): Arg {
  if (a.value.type === "Word") {
    const v = evalWord(a.value);
    return { text: `${a.name}=${v.text}`, dynamic: v.dynamic };
  }
  return { text: a.text, dynamic: a.value.elements.some((e) => evalWord(e).dynamic) };
}

/** What we cannot see may run anything and write anything. */
function markOpaque(reason: string, text: string, out: ShellAnalysis, unknownProgram = false): void {
  out.opaque.push({ reason, text: clip(text) });
  if (unknownProgram) out.commands.push({ name: "<dynamic>", argv: [clip(text)], dynamic: [true], verb: -1, via: [] });
  markUnknownEffects(out);
}

function markUnknownEffects(out: ShellAnalysis): void {
  if (!out.writes.some((w) => w.by === "opaque command")) out.writes.push({ path: "<dynamic>", dynamic: true, by: "opaque command" });
}

/** One entry per wrapper peeled off argv, each with the words from itself on. */
function recordWrappers(argv: Arg[], wrappers: string[], via: string[], out: ShellAnalysis): void {
  let from = 0;
  for (const [i, w] of wrappers.entries()) {
    while (from < argv.length && basename(argv[from]!.text) !== w) from++;
    record(argv.slice(from), [...via, ...wrappers.slice(0, i)], out);
    from++;
  }
}

/** `[` is the test builtin: it runs nothing and no row is about it. */
const NOT_PROGRAMS = new Set(["[", "[["]);

function record(argv: Arg[], via: string[], out: ShellAnalysis): void {
  if (argv.length === 0) return;
  const name = basename(argv[0]!.text);
  if (NOT_PROGRAMS.has(name)) return;
  const verb = verbIndex(name, argv);
  const dynamic = argv.map((a) => a.dynamic);
  if (name === "git" && gitAliasVerb(argv, verb)) dynamic[verb] = true;
  out.commands.push({ name, argv: argv.map((a) => a.text), dynamic, verb, via });
}

/** `find . -exec rm {} +` runs rm; `-delete` removes what it finds (known only at run time). */
function visitFind(args: Arg[], via: string[], depth: number, out: Work): void {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === "-delete") out.writes.push({ path: "<found>", dynamic: true, by: "find -delete" });
    if (t === "-exec" || t === "-execdir" || t === "-ok" || t === "-okdir") {
      let j = i + 1;
      while (j < args.length && args[j]!.text !== ";" && args[j]!.text !== "+") j++;
      // `{}` stands for each path found: `find -name commit -exec git {} \;` is no literal subcommand.
      const inner = args.slice(i + 1, j).map((a) => (a.text.includes("{}") ? { ...a, dynamic: true } : a));
      if (inner.length > 0) {
        const u = unwrap(inner);
        if (u.opaque) markOpaque(u.opaque, inner.map((a) => a.text).join(" "), out, true);
        else if (u.script) analyzeScript(u.script.text, depth + 1, [...via, "find -exec"], out);
        else if (u.argv.length > 0) {
          record(u.argv, [...via, "find -exec", ...u.via], out);
          const name = basename(u.argv[0]!.text);
          pushWrites(writesOf(u.argv[0]!.text, u.argv.slice(1)), name, out);
          pushReads(readsOf(name, u.argv.slice(1)), name, out);
        }
      }
      i = j;
    }
  }
}

function pushWrites(paths: PathArg[], by: string, out: ShellAnalysis): void {
  for (const p of paths) {
    // `tee >(gzip > out.gz)`: the process substitution is a pipe; its own redirect is recorded when walked.
    if (p.dynamic && /^[<>]\(/.test(p.path)) continue;
    if (p.dynamic || isRealFile(p.path)) out.writes.push({ ...p, by });
  }
}

function pushReads(paths: PathArg[], by: string, out: ShellAnalysis): void {
  for (const p of paths) {
    if (p.dynamic && /^[<>]\(/.test(p.path)) continue;
    if (p.dynamic || isRealFile(p.path)) out.reads.push({ ...p, by });
  }
}

function redirectEffect(r: Redirection, by: string, out: ShellAnalysis): void {
  if (r.type !== "Redirect" || !r.target) return;
  const op = r.operator;
  if (op === "<&") return;
  const target = evalWord(r.target);
  const file = { path: target.text, dynamic: target.dynamic };
  if (op === "<") return pushReads([file], `< (${by})`, out);
  // `2>&1`, `>&-`: fd duplication, not a file.
  if (op === ">&" && !target.dynamic && /^(\d+|-)$/.test(target.text)) return;
  pushWrites([file], `${op} (${by})`, out);
}

function heredocText(redirects: Redirection[]): Arg | undefined {
  for (const r of redirects) {
    if (r.type === "HereDoc") return { text: r.body.text, dynamic: !r.delimiter?.quoted && !!r.body.parts?.some((p) => p.type !== "Literal") };
    if (r.type === "HereString" && r.target) return evalWord(r.target);
  }
  return undefined;
}

/** `python3 -` or `python3` with no script: the program comes on stdin. */
function isStdinProgram(argv: Arg[]): boolean {
  const rest = argv.slice(1).filter((a) => !a.text.startsWith("-") || a.text === "-");
  return rest.length === 0 || rest[0]!.text === "-";
}

/** The program of `python -c CODE`, `node -e CODE`, `perl -e CODE`. */
function inlineProgram(name: string, args: Arg[]): Arg | undefined {
  if (!isInterpreter(name)) return undefined;
  const i = args.findIndex((a) => isProgramFlag(name, a.text));
  return i >= 0 ? args[i + 1] : undefined;
}

