// Bash command line → what it runs, what it writes and what it only reads.
// Parse with unbash, walk every node (substitutions, subshells, here-docs
// included), peel launchers, recurse into shell strings, follow git aliases
// and the scripts a command runs (read at decision time through the
// ShellWorld). Anything the walk cannot see through is reported as opaque,
// with a code: never silently "no match".
import { isGitInternal } from "../git-internals.js";
import { nth } from "./nth.js";
import { posix as path } from "node:path";
import { parse, forEachChild, type Assignment, type Command, type SyntaxNode, type Redirection, type ParsedScript, type Word } from "unbash";
import { evalWord, expandWord, globEscape, printfText, type WordContext, type WordValue } from "./words.js";
import { basename, clip, verbIndex, isProgramFlag, isInterpreter, SHELLS, STDIN_ARGS, STDIN_PATH, type Arg } from "./wrappers.js";
import { printfOutput, unwrap, type Script } from "./launchers.js";
import { resolveGit, dashedGit, fileConfig, GIT_COMMANDS, GIT_HOOK, GIT_SHELL_ENV, isShellKey, keyScript, type GitSetting } from "./git.js";
import { parseConfig } from "./gitconfig.js";
import { writesOf, isRealFile, patchWrites, optionShells } from "./writes.js";
import { inlineWrites, inlineCommands, awkProgram, sedProgram, vimCommands } from "./inline.js";
import { readsOf } from "./reads.js";
import { packageScripts, scriptRun, makeRecipes, tclCommands, shebang, LIFECYCLE, LIFECYCLE_ALIASES } from "./scripts.js";
import { finiteMatches } from "./glob.js";
import { NO_WORLD, MAX_FILE_BYTES, MAX_FILES_READ, type ShellWorld } from "./world.js";
import type { Opaque, OpaqueCode, ParseStatus, PathArg, Provenance, RedirectRecord, ShellWord, Span } from "./model.js";

export type { Opaque, OpaqueCode, ParseStatus, PathArg, RedirectRecord, ShellWord, Span } from "./model.js";
export type { ShellWorld } from "./world.js";

export interface ShellCommand {
  /** Program name (basename of argv[0]). */
  name: string;
  argv: string[];
  /** Per argv word: its value is only known at run time. */
  dynamic: boolean[];
  /** Index in argv of the subcommand (`commit` in `git -C x commit`), -1 if none. */
  verb: number;
  /** Wrappers and shells this command was found inside (sudo, env, bash -c, git alias ci...). */
  via: string[];
  /** Each argv word with its provenance, span and what its value can be. */
  words: ShellWord[];
  span: Span;
  /** Index in `commands` of the command that runs this one (a launcher, a shell string's holder); -1 at top level. */
  parent: number;
  /** Words that say what the command does beyond its literal words (git push: `--force` for `+main`, `HEAD` for `@`). */
  implied: string[];
  /** Indices in argv of words that are no argument a row is about (a push's repository name). */
  notArgs?: number[];
  /**
   * Subcommands whose effect this command has although it is not named so: `git send-pack` pushes,
   * `git fast-import` commits, `git commit-tree` whose commit the same line puts on a branch commits.
   */
  acts?: string[];
  /** As written it changes nothing (`git push --dry-run`, `git commit --dry-run`): rows about the command skip it. */
  inert?: boolean;
}

export interface ShellWrite extends PathArg {
  /** The program or redirect that writes. */
  by: string;
}

/** A path the command only reads (never a reason to gate; shown by `explain`). */
export interface ShellRead extends PathArg {
  by: string;
}

export interface ShellAnalysis {
  commands: ShellCommand[];
  writes: ShellWrite[];
  /** Paths only read: a path also written is in `writes` only. */
  reads: ShellRead[];
  opaque: Opaque[];
  redirects: RedirectRecord[];
  status: ParseStatus;
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
/**
 * The decision's budget, in analysis steps (not time: the same command always gets the same answer): one per
 * syntax node walked (words aside: they are read with their command), per command visited, per shell string or file parsed (plus one per 4 KiB of it), per inline
 * program read (plus one per KiB). An everyday command takes tens of steps, a long script a few thousand; a
 * command built to be slow to analyse (thousands of aliases or functions, tens of thousands of pipeline stages,
 * deep `$( $( … ) )`) runs out and is refused as opaque — never left to the host's timeout.
 */
export const MAX_ANALYSIS_STEPS = 20_000;
/** Variables, aliases and files remembered per command (a flood of assignments stays bounded). */
const MAX_REMEMBERED = 4096;

/** Where we are: the nesting depth, the launchers around, the span that holds a nested string, the parent command. */
interface Where {
  depth: number;
  via: string[];
  anchor?: Span;
  parent: number;
}

interface Work extends ShellAnalysis {
  world: ShellWorld;
  /** Characters parsed a second time so far (see MAX_REPARSE_BYTES). */
  reparsed: number;
  /** printf may not be the builtin: a function or alias of that name is defined somewhere in the command. */
  printfShadowed: boolean;
  limited: boolean;
  invalid: boolean;
  /** Variables assigned earlier in this command; undefined value: assigned more than once, differently. */
  vars: Map<string, WordValue | undefined>;
  /** `alias g='git commit'` earlier in this command. */
  aliases: Map<string, string>;
  /** An alias first defined by a top-level command applies from the next line on (bash reads a line before running it). */
  aliasFrom: Map<string, { from: number; prior: string | undefined }>;
  /** Names that run git under another name (`hash -p /usr/bin/git g`, `ln -s $(which git) g`). */
  programs: Map<string, string>;
  /** `git config k v` earlier in this command. */
  gitEarlier: GitSetting[];
  /** Files written earlier in this command: their text, or null when it is only known at run time. */
  files: Map<string, string | null>;
  /** Files read from the world so far (scripts, package.json, Makefiles, config). */
  filesRead: number;
  gitFiles: Map<string, ReturnType<typeof fileConfig>>;
  /** The directory commands run in, as far as `cd` lets us follow (undefined: unknown). */
  cwd: string | undefined;
  /**
   * > 0 while analysing a file that existed before the command (a script run by path, package.json, a Makefile):
   * its literal commands count, but its run-time parts are not opaque — not reading it would be no better.
   */
  lenient: number;
  /** Script files read, by path: whether analysing them found any write. */
  scriptsRead: Map<string, { wrote: boolean }>;
  /** How far `writes` has been scanned for a git config file, and whether one was found (kept incremental: linear time). */
  configScan: { upTo: number; written: boolean };
  /** Files written earlier in this command already analysed as git hooks, git config or programs found on PATH. */
  planted: Set<string>;
  /** Descriptors `exec` gave a here-doc or here-string (`exec 3<<<'…'`). */
  fds: Map<number, Arg>;
  /** GIT_TRACE* variables assigned earlier in this command (gitTraceWrites). */
  traceVars: Set<string>;
  /** Analysis steps taken so far (see MAX_ANALYSIS_STEPS). */
  steps: number;
  /** The command as given, for the reason when the budget runs out. */
  source: string;
  /** A push earlier in this command deleted a remote branch. */
  pushDeleted?: boolean;
  /** The session's environment variables read so far (envOf). */
  envRead: Map<string, string | undefined>;
  /** `g() { …; }` defined so far: every body a name was given (a branch may define it twice). */
  functions: Map<string, string[]>;
  /** Functions whose bodies were analysed at a call with that call's words. */
  functionsCalled: Set<string>;
  /** Command names run while no function of that name was defined (a trap, an earlier line: maybe the function later). */
  namesCalled: Set<string>;
  /** "$1", "$@", "$#" of the function body being analysed; undefined: not known (the top level, a new shell). */
  positional: WordValue[] | undefined;
  /** `a=(git log -1)`, `read -ra a <<< '…'` earlier in this command; null: changed in a way not followed. */
  arrays: Map<string, WordValue[] | null>;
}

/** The analysis steps a command takes (MAX_ANALYSIS_STEPS bounds them): for tests and the bench. */
export function analysisSteps(source: string, world: ShellWorld = NO_WORLD): number {
  return run(source, world).steps;
}

export function analyzeCommand(source: string, world: ShellWorld = NO_WORLD): ShellAnalysis {
  return finish(run(source, world));
}

function run(source: string, world: ShellWorld): Work {
  const work: Work = {
    commands: [],
    writes: [],
    reads: [],
    opaque: [],
    redirects: [],
    status: "complete",
    world,
    reparsed: 0,
    printfShadowed: false,
    limited: false,
    invalid: false,
    vars: new Map(),
    aliases: new Map(),
    aliasFrom: new Map(),
    programs: new Map(),
    gitEarlier: [],
    files: new Map(),
    filesRead: 0,
    gitFiles: new Map(),
    cwd: world.cwd || undefined,
    lenient: 0,
    scriptsRead: new Map(),
    configScan: { upTo: 0, written: false },
    planted: new Set(),
    fds: new Map(),
    envRead: new Map(),
    traceVars: new Set(),
    steps: 0,
    source,
    functions: new Map(),
    functionsCalled: new Set(),
    namesCalled: new Set(),
    positional: undefined,
    arrays: new Map(),
  };
  const all = { start: 0, end: source.length };
  if (source.length > MAX_COMMAND_BYTES) {
    opaque(work, "too-long", `the command is longer than ${MAX_COMMAND_BYTES} characters`, source, all);
    work.limited = true;
    markUnknownEffects(work);
    return work;
  }
  analyzeScript(source, { depth: 0, via: [], parent: -1 }, work);
  uncalledFunctions(work);
  return work;
}

/**
 * A function is analysed where it is called, with the call's words as "$@". One never called that way — not called,
 * or its name also run before it was defined (a trap set earlier runs it at exit, with words we did not see) — is
 * analysed with unknown arguments, as its text alone says: the call we did not follow may be any.
 */
function uncalledFunctions(w: Work): void {
  const done = new Set<string>();
  for (let again = true; again && !w.limited; ) {
    again = false;
    for (const [name, bodies] of w.functions) {
      if (w.functionsCalled.has(name) && !w.namesCalled.has(name) && w.namesCalled.size < MAX_REMEMBERED) continue;
      for (const body of bodies) {
        const key = `${name}\0${body}`;
        if (done.has(key)) continue;
        done.add(key);
        again = true;
        analyzeScript(body, { depth: 1, via: [`function ${name}`], parent: -1 }, w);
      }
    }
  }
}

function finish(w: Work): ShellAnalysis {
  publishedCommits(w);
  // `sed -i s/a/b/ "$f"` reads "$f" too, but it is a write: compare the words as written.
  const written = new Set(w.writes.map((x) => x.path));
  const status: ParseStatus = w.limited ? "limited" : w.invalid ? "invalid" : w.opaque.length > 0 ? "partial" : "complete";
  return { commands: w.commands, writes: w.writes, reads: w.reads.filter((r) => !written.has(r.path)), opaque: w.opaque, redirects: w.redirects, status };
}

function opaque(out: Work, code: OpaqueCode, reason: string, text: string, span: Span): void {
  if (out.lenient > 0 && code !== "nesting-depth" && code !== "reparse-budget" && code !== "step-budget") return;
  out.opaque.push({ code, reason, text: clip(text), span });
}

/** Charge `n` steps; false (and opaque once, for the whole command) when the decision's budget is spent. */
function step(out: Work, n = 1): boolean {
  if (out.steps > MAX_ANALYSIS_STEPS) return false;
  out.steps += n;
  if (out.steps <= MAX_ANALYSIS_STEPS) return true;
  if (!out.opaque.some((o) => o.code === "step-budget")) {
    opaque(
      out,
      "step-budget",
      `the command takes more than ${MAX_ANALYSIS_STEPS} analysis steps (the decision's step budget): too large or too deeply built to check, refused as opaque`,
      out.source,
      { start: 0, end: out.source.length },
    );
    out.limited = true;
    markUnknownEffects(out);
  }
  return false;
}

/** Charge a nested parse to the budget; false (and opaque once) when it is spent. */
function reparse(length: number, text: string, span: Span, out: Work): boolean {
  out.reparsed += length;
  if (out.reparsed <= MAX_REPARSE_BYTES) return true;
  if (!out.opaque.some((o) => o.code === "reparse-budget")) {
    opaque(out, "reparse-budget", `nested substitutions and shell strings exceed ${MAX_REPARSE_BYTES} characters to re-read`, text, span);
    out.limited = true;
    markUnknownEffects(out);
  }
  return false;
}

/** A shell string, in a new shell unless `positional` says whose "$@" it sees (a function body, eval, an alias). */
function analyzeScript(source: string, at: Where, out: Work, positional?: WordValue[]): void {
  const outer = out.positional;
  out.positional = positional;
  try {
    parseAndWalk(source, at, out);
  } finally {
    out.positional = outer;
  }
}

function parseAndWalk(source: string, at: Where, out: Work): void {
  const span = at.anchor ?? { start: 0, end: source.length };
  if (at.depth > MAX_SCRIPT_DEPTH) {
    opaque(out, "nesting-depth", "shell strings nested too deep to follow", source, span);
    out.limited = true;
    return markUnknownEffects(out);
  }
  if (at.depth > 0 && !reparse(source.length, source, span, out)) return;
  if (!step(out, 1 + (source.length >> 12))) return;
  if (/printf\s*\(|function\s+printf|printf=/.test(source)) out.printfShadowed = true;
  let script: ParsedScript;
  try {
    script = parse(source);
  } catch (e) {
    out.invalid = true;
    return opaque(out, "parse-error", `the command does not parse: ${(e as Error).message}`, source, span);
  }
  const err = script.errors?.[0];
  if (err) {
    out.invalid = true;
    opaque(out, "parse-error", `the command does not parse: ${err.message}`, source, span);
  }
  walk(script, source, at, out);
}

/** Iterative walk (no recursion limit to hit on deeply nested input). */
function walk(root: SyntaxNode, source: string, at: Where, out: Work): void {
  const piped = new Set<SyntaxNode>();
  const stack: SyntaxNode[] = [root];
  // one buffer and one callback for every node's children (emptied before each use)
  const children: SyntaxNode[] = [];
  const collect = (child: SyntaxNode): void => {
    children.push(child);
  };
  while (stack.length > 0) {
    const node = stack.pop() as SyntaxNode;
    // words are leaves, read with their command (which is charged): every other node is a step
    if (node.type !== "Word" && !step(out)) return;
    if (node.type === "Pipeline") node.commands.slice(1).forEach((c) => piped.add(c));
    if (node.type === "Command") visitCommand(node, source, piped.has(node), at, out);
    if (node.type === "Redirected") for (const r of node.redirects) redirectEffect(r, "redirect", -1, undefined, spanOf(node, at), out);
    if (node.type === "For") forLoop(node.name, node.wordlist, out);
    // a function's body runs where it is called (visitArgv), with that call's words
    if (node.type === "Function" && defineFunction(node, source, out)) continue;
    // unbash parses a substitution's body when first asked for it: charge it first.
    const nested = node.type === "CommandExpansion" || node.type === "ProcessSubstitution" || node.type === "ArithmeticCommandExpansion";
    if (nested && !reparse(node.text.length, node.text, spanOf(node, at), out)) continue;
    if (node.type === "ProcessSubstitution" && node.operator === ">") feedsShell(node.text, spanOf(node, at), out);
    // Children go on the stack in reverse so commands come out in source order.
    children.length = 0;
    forEachChild(node, collect);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as SyntaxNode);
  }
}

/** `g() { git "$@"; }`: remembered for its calls; false (walk the body now) when the name is not a plain word. */
function defineFunction(node: Extract<SyntaxNode, { type: "Function" }>, source: string, out: Work): boolean {
  const name = node.name.value;
  if (node.name.parts?.some((p) => p.type !== "Literal") || !/^[^\s$`'"\\=]+$/.test(name) || node.body.type === "CompoundList") return false;
  const bodies = out.functions.get(name) ?? [];
  if (!out.functions.has(name) && out.functions.size >= MAX_REMEMBERED) return false;
  const body = source.slice(node.body.pos, node.body.end);
  if (!bodies.includes(body)) bodies.push(body);
  out.functions.set(name, bodies);
  return true;
}

/**
 * `shift`, `set -- …`, `set x` and `getopts` move or replace "$@": after one, the words are not the call's.
 * (`set -e`, `set -o pipefail` and other options only leave them as they are.)
 */
const CHANGES_ARGS = /\b(shift|getopts)\b|\bset((\s+[-+][a-zA-Z]+|\s+-o\s+\w+)*)\s+(--?(\s|$)|[^-+\s;&|)])/;

/** A call of a function defined earlier: each body it may have, with the call's words as "$@". */
function callFunction(name: string, bodies: readonly string[], argv: Arg[], at: Where, out: Work, site: CommandSite): void {
  out.functionsCalled.add(name);
  out.commands.push(commandRecord(argv, -1, at.via, site.span, at.parent, name));
  const inner: Where = { depth: at.depth + 1, via: [...at.via, `function ${name}`], anchor: site.span, parent: out.commands.length - 1 };
  for (const body of bodies) {
    const words = CHANGES_ARGS.test(body) ? undefined : argv.slice(1);
    analyzeScript(body, inner, out, words);
  }
}

/**
 * `tee >(sh)`, `cat cmds > >(bash)`, `exec 3> >(sh)`: a shell or interpreter whose program is what the command
 * writes into the substitution — text known only at run time.
 */
function feedsShell(text: string, span: Span, out: Work): void {
  const words = text
    .replace(/^>\(|\)$/g, "")
    .trim()
    .split(/\s+/);
  let i = 0;
  while (i < words.length && /^(sudo|env|exec|command|nohup|nice|stdbuf|timeout)$/.test(basename(nth(words, i)))) i++;
  const name = basename(words[i] ?? "");
  if (!(SHELLS.has(name) || isInterpreter(name))) return;
  const rest = words.slice(i + 1);
  // a program given as -c/-e text or a file: analysed where it is walked
  if (rest.some((w) => !w.startsWith("-") || /^-[a-zA-Z]*c/.test(w) || (!SHELLS.has(name) && /^-[a-zA-Z]*[eEp]/.test(w)))) return;
  opaque(out, "program-from-pipe", `${name} in >(…) runs what the command writes into it`, text, span);
  markUnknownEffects(out);
}

const spanOf = (n: { pos: number; end: number }, at: Where): Span => at.anchor ?? { start: n.pos, end: n.end };

function context(out: Work, local?: Map<string, WordValue>): WordContext {
  return {
    lookup: (name) => lookupVar(out, name, local),
    positional: out.positional,
    array: (name) => out.arrays.get(name) ?? undefined,
    shadowed: (name) => out.functions.has(name) || out.aliases.has(name),
  };
}

const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The session's environment variable, read once per analysis: the environment does not change while one
 * command is analysed (the command's own assignments are in vars and local), and process.env is slow to read.
 */
function envOf(out: Work, name: string): string | undefined {
  if (out.envRead.has(name)) return out.envRead.get(name);
  const v = out.world.env[name];
  out.envRead.set(name, v);
  return v;
}

/** A variable's value as the command sees it: its own NAME=value, then the shell's, then the environment. */
function lookupVar(out: Work, name: string, local?: Map<string, WordValue>): WordValue | undefined {
  const l = local?.get(name);
  if (l) return l;
  if (out.positional && /^([1-9]\d*|[#@*])$/.test(name)) return positionalValue(out.positional, name);
  if (out.vars.has(name)) return out.vars.get(name);
  if (name === "PWD" && out.cwd) return { text: out.cwd, dynamic: false, shape: { kind: "exact", text: out.cwd } };
  const env = VAR_NAME.test(name) && !VOLATILE.has(name) ? envOf(out, name) : undefined;
  return env !== undefined ? { text: env, dynamic: false, shape: { kind: "exact", text: env } } : undefined;
}

/** "$1", "$#", "$*" of known words; "$@" inside a longer word (`"x$@"` is several words) is left to run time. */
function positionalValue(args: readonly WordValue[], name: string): WordValue | undefined {
  const exact = (text: string): WordValue => ({ text, dynamic: false, shape: { kind: "exact", text } });
  if (name === "#") return exact(String(args.length));
  if (name === "@" || name === "*") {
    if (args.some((a) => a.dynamic || a.pattern) || (name === "@" && args.length > 1)) return undefined;
    return exact(args.map((a) => a.text).join(" "));
  }
  const a = args[Number(name) - 1];
  return a ? a : exact("");
}

/**
 * `a=(…)`, `a+=(…)`: the words, as for a command's arguments; `a[1]=x` or a scalar assigned to the name: not followed.
 * Assigned twice with different words (a branch, a loop): we cannot tell which holds.
 */
function setArray(out: Work, p: Assignment, ctx: WordContext): void {
  const old = out.arrays.get(p.name);
  if (p.value.type !== "ArrayValue" || p.index || (p.append && !old)) return void out.arrays.set(p.name, null);
  if (!out.arrays.has(p.name) && out.arrays.size >= MAX_REMEMBERED) return;
  const words = p.value.elements.flatMap((w) => expandWord(w, ctx));
  const value = p.append && old ? [...old, ...words] : words;
  const same = (a: WordValue[], b: WordValue[]) => a.length === b.length && a.every((w, i) => w.text === b[i]?.text && w.dynamic === b[i]?.dynamic);
  out.arrays.set(p.name, p.append || old === undefined || (old && same(old, value)) ? value : null);
}

/** Builtins that change variables named by their arguments: an array they name is no longer followed. */
const SETS_NAMES = new Set(["read", "mapfile", "readarray", "declare", "typeset", "local", "unset", "printf", "getopts", "export", "readonly", "let", "wait"]);

/**
 * `read -ra a <<< 'git log -1'`: the words of the here-string's first line, split by the default IFS
 * (-r: backslashes stay). Any other option, a changed IFS, a pipe (read runs in a subshell) or input not known: not
 * followed.
 */
function readArray(args: Arg[], site: CommandSite, out: Work): void {
  const words = args.map((a) => a.text);
  const name = /^-r?ar?$/.test(words[0] ?? "") ? words[1] : words[0] === "-r" && words[1] === "-a" ? words[2] : undefined;
  const rest = words.slice(words[0] === "-r" ? 3 : 2);
  if (!name || args.some((a) => a.dynamic)) return;
  const input = site.givenStdin;
  const ifs = site.local.has("IFS") || lookupVar(out, "IFS") !== undefined;
  const raw = words[0]?.includes("r") || words.includes("-r");
  if (!VAR_NAME.test(name) || rest.length > 0 || input === undefined || ifs || site.piped || (!raw && input.includes("\\"))) return;
  if (out.arrays.size >= MAX_REMEMBERED) return;
  const line = input.split("\n")[0] ?? "";
  out.arrays.set(
    name,
    line
      .split(/[ \t]+/)
      .filter(Boolean)
      .map((text) => ({ text, dynamic: false, shape: { kind: "exact", text } })),
  );
}

/** Shell variables that change by themselves. */
const VOLATILE = new Set(["RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "EPOCHSECONDS", "EPOCHREALTIME", "PWD", "OLDPWD"]);

function setVar(out: Work, name: string, v: WordValue): void {
  if (!out.vars.has(name) && out.vars.size >= MAX_REMEMBERED) return;
  if (GIT_TRACE_FILE.test(name)) out.traceVars.add(name);
  const old = out.vars.get(name);
  // assigned twice with different values (a branch, a loop): we cannot tell which one holds
  if (out.vars.has(name) && (!old || old.text !== v.text || old.dynamic !== v.dynamic))
    out.vars.set(name, { text: `$${name}`, dynamic: true, shape: { kind: "any" } });
  else out.vars.set(name, v);
}

/** `for f in *_RU.md`: inside the body `$f` is one of those names. */
function forLoop(name: Word, list: readonly Word[] | undefined, out: Work): void {
  const words = (list ?? []).flatMap((w) => expandWord(w, context(out)));
  const v: WordValue =
    words.length === 1 && nth(words, 0).pattern
      ? { text: `$${name.value}`, dynamic: true, shape: { kind: "glob", glob: nth(words, 0).text } }
      : words.length === 1
        ? nth(words, 0)
        : { text: `$${name.value}`, dynamic: true, shape: { kind: "any" } };
  out.vars.delete(name.value);
  setVar(out, name.value, v);
}

function assignmentValue(a: Assignment, ctx: WordContext): WordValue {
  if (a.value.type === "Word") return evalWord(a.value, ctx);
  return { text: a.text, dynamic: true, shape: { kind: "any" } };
}

function visitCommand(cmd: Command, source: string, piped: boolean, at: Where, out: Work): void {
  const span = spanOf(cmd, at);
  const text = source.slice(cmd.pos, cmd.end);
  const ctx = context(out);
  // NAME=value before a program is that program's environment; alone it sets a shell variable.
  const local = new Map<string, WordValue>();
  for (const p of cmd.prefix) {
    if (p.type !== "Assignment") continue;
    const v = assignmentValue(p, ctx);
    if (cmd.name) local.set(p.name, v);
    else setVar(out, p.name, v);
    if (!cmd.name && (p.value.type === "ArrayValue" || p.index || out.arrays.has(p.name))) setArray(out, p, ctx);
    if (GIT_SHELL_ENV.has(p.name)) shellValue(v, p.name, text, span, at, out);
    if (PROMPTS.has(p.name)) promptValue(v, p.name, text, span, at, out);
    // a non-interactive bash sources $BASH_ENV (sh: $ENV) before running anything
    if ((p.name === "BASH_ENV" || p.name === "ENV") && cmd.name) {
      runFile(v, "shell", { ...at, depth: at.depth + 1, anchor: span }, out, { span, text, piped: false, local: new Map() });
    }
  }
  const argCtx = context(out, local);
  const argv: Arg[] = [];
  const addWord = (w: (typeof cmd.suffix)[number] | undefined): void => {
    if (w?.type === "Word") for (const x of expandWord(w, argCtx)) argv.push(x);
    else if (w?.type === "Assignment") argv.push(assignmentArg(w, argCtx));
  };
  addWord(cmd.name);
  for (const w of cmd.suffix) addWord(w);
  const redirects: Redirection[] = [];
  for (const list of [cmd.prefix, cmd.suffix])
    for (const r of list) if (r.type === "Redirect" || r.type === "HereDoc" || r.type === "HereString") redirects.push(r);
  let stdin = heredocText(redirects, argCtx);
  // `3<<<'…'`: what reading fd 3 gives (`exec 3<<<…` keeps it for the rest of the command)
  const fds = fdTexts(redirects, argCtx);
  if (fds.size && out.fds.size < MAX_REMEMBERED) for (const [n, t] of fds) if (argv.length === 0 || argv[0]?.text === "exec") out.fds.set(n, t);
  // `bash <&3`: stdin is a copy of fd 3
  const dup = redirects.find(
    (r) =>
      r.type === "Redirect" &&
      r.operator === "<&" &&
      (!r.descriptor || (r.descriptor.type === "FileDescriptor" && r.descriptor.value === 0)) &&
      /^[1-9]\d*$/.test(r.target?.text ?? ""),
  );
  if (dup?.type === "Redirect") stdin = fds.get(Number(dup.target?.text)) ?? out.fds.get(Number(dup.target?.text)) ?? { text: "", dynamic: true };
  const index = out.commands.length; // the index this command's first record will get
  for (const r of redirects) redirectEffect(r, clip(argv[0]?.text ?? "redirect", 40), index, argv, span, out, stdin);
  if (argv.length === 0) return; // assignments and redirects only
  const stdinFile = redirects.find((r): r is Extract<Redirection, { type: "Redirect" }> => r.type === "Redirect" && r.operator === "<" && !!r.target);
  // stdin given once, by a redirect: `< /dev/null` or a literal here-string (a later redirect of fd 0 would win)
  const toStdin = redirects.filter(
    (r) => (!r.descriptor || (r.descriptor.type === "FileDescriptor" && r.descriptor.value === 0)) && (r.type !== "Redirect" || r.operator.startsWith("<")),
  );
  const only = toStdin.length === 1 ? toStdin[0] : undefined;
  const givenStdin =
    only?.type === "Redirect" &&
    only.operator === "<" &&
    only.target &&
    !evalWord(only.target, argCtx).dynamic &&
    evalWord(only.target, argCtx).text === "/dev/null"
      ? ""
      : (only?.type === "HereString" || only?.type === "HereDoc") && stdin && !stdin.dynamic
        ? stdin.text
        : undefined;
  const site: CommandSite = {
    span,
    text,
    piped,
    givenStdin,
    stdin,
    local,
    stdinFile: stdinFile?.target ? evalWord(stdinFile.target, argCtx) : undefined,
    fds,
  };
  for (const words of globbed(argv, out)) visitArgv(words, at, out, site);
}

/**
 * `git comm[i]t`, `push origin HEA[D]`: a glob that can match only a few names is what bash makes of it against the
 * folder now — the names that exist, or, when none does, the word as written (or no word, under nullglob: both are
 * followed). Only names in the working folder (no `/`, no leading dot), and not when this command wrote anything
 * before the word (a file may have appeared). A file made between the decision and the run is git's hooks' to catch.
 */
function globbed(argv: Arg[], out: Work): Arg[][] {
  if (!out.cwd || out.writes.length > 0 || !argv.some((a) => a.pattern && !a.dynamic)) return [argv];
  let literal: Arg[] = [];
  let nullglob: Arg[] = [];
  let missing = false;
  for (const a of argv) {
    const names = a.pattern && !a.dynamic && a.shape?.kind === "glob" ? finiteMatches(a.shape.glob) : undefined;
    if (!names || names.some((n) => n.startsWith(".") || n.includes("/"))) {
      literal.push(a);
      nullglob.push(a);
      continue;
    }
    const found = names.filter((n) => kindNow(n, out) !== undefined).sort();
    const words = found.map((text): Arg => ({ text, dynamic: false, provenance: "glob", shape: { kind: "exact", text } }));
    if (found.length === 0) missing = true;
    literal = literal.concat(found.length ? words : [{ ...a, pattern: false, shape: { kind: "exact", text: a.text } }]);
    nullglob = nullglob.concat(words);
  }
  return missing ? [literal, nullglob] : [literal];
}

/** Here-docs and here-strings given to a descriptor other than stdin (`3<<<'…'`, `4<<EOF`). */
function fdTexts(redirects: Redirection[], ctx: WordContext): Map<number, Arg> {
  const m = new Map<number, Arg>();
  for (const r of redirects) {
    const fd = r.descriptor?.type === "FileDescriptor" ? r.descriptor.value : undefined;
    if (fd === undefined || fd === 0) continue;
    if (r.type === "HereDoc") m.set(fd, { text: r.body.text, dynamic: !r.delimiter?.quoted && !!r.body.parts?.some((p) => p.type !== "Literal") });
    else if (r.type === "HereString" && r.target) m.set(fd, evalWord(r.target, ctx));
  }
  return m;
}

interface CommandSite {
  span: Span;
  text: string;
  /** Text given to descriptors of this command (`3<<<'…'`). */
  fds?: Map<number, Arg>;
  piped: boolean;
  /** All that stdin holds, when a redirect of this command gives it whole (`< /dev/null`: ""). */
  givenStdin?: string;
  stdin?: Arg;
  stdinFile?: Arg;
  local: Map<string, WordValue>;
}

const MAX_ALIAS_EXPANSIONS = 16;

/** One argv: aliases, other names for git, launchers peeled, then what the program does. */
function visitArgv(argv0: Arg[], at: Where, out: Work, site: CommandSite, aliasDepth = 0): void {
  let argv = argv0;
  const head = argv[0];
  if (!head || !step(out)) return;
  // `env 'BASH_FUNC_f%%=() { …; }' bash -c f`: bash imports the function from the environment
  for (const a of argv) {
    const fn = a.text.startsWith("BASH_FUNC_") ? /^BASH_FUNC_([^=]+?)(?:%%|\(\))=\(\)\s*([\s\S]*)$/.exec(a.text) : null;
    if (fn) analyzeScript(`__imported() ${nth(fn, 2)}`, { ...at, depth: at.depth + 1, via: [...at.via, `BASH_FUNC_${nth(fn, 1)}`], anchor: site.span }, out);
  }
  // NODE_OPTIONS set by this command reaches every node process it starts (npm, npx, tsc…), not only `node`
  if ((site.local.has("NODE_OPTIONS") || out.vars.has("NODE_OPTIONS")) && head.text !== "export" && !/^(node|nodejs)$/.test(basename(head.text))) {
    for (const f of preloaded("node", [], undefined, out, site)) {
      if (out.planted.has(`node:${f}`)) continue;
      out.planted.add(`node:${f}`);
      runFile({ text: f, dynamic: false }, "node", { ...at, depth: at.depth + 1, via: [...at.via, "NODE_OPTIONS"], anchor: site.span }, out, site);
    }
  }
  // `alias gc='git commit'` earlier in the command: the alias text replaces the word.
  const later = at.depth === 0 ? out.aliasFrom.get(head.text) : undefined;
  const alias = head.dynamic ? undefined : later && site.span.start < later.from ? later.prior : out.aliases.get(head.text);
  if (alias !== undefined && aliasDepth < MAX_ALIAS_EXPANSIONS) {
    const line = `${alias} ${argv
      .slice(1)
      .map((a) => (a.dynamic ? a.text : shellQuote(a.text)))
      .join(" ")}`;
    return analyzeScript(line, { ...at, depth: at.depth + 1, via: [...at.via, `alias ${head.text}`], anchor: site.span }, out, out.positional);
  }
  // a function runs before any builtin or program of its name; `X=1 g` (its environment) is not followed: its text alone
  const bodies = head.dynamic ? undefined : out.functions.get(head.text);
  if (bodies && site.local.size === 0) return callFunction(head.text, bodies, argv, at, out, site);
  if (!head.dynamic && out.namesCalled.size < MAX_REMEMBERED) out.namesCalled.add(head.text);
  if (out.arrays.size > 0 && SETS_NAMES.has(head.text))
    for (const a of argv.slice(1)) {
      const m = /^[A-Za-z_]\w*/.exec(a.text);
      if (a.dynamic) for (const k of out.arrays.keys()) out.arrays.set(k, null);
      else if (m && out.arrays.has(m[0])) out.arrays.set(m[0], null);
    }
  if (head.text === "read" && !head.dynamic) readArray(argv.slice(1), site, out);
  argv = [renamed(head, out), ...argv.slice(1)];
  // `eval "$(printf 'git %s -1' log)"`: the string is known when printf is the builtin
  if (argv[0]?.text === "eval" && !argv[0].dynamic && !out.printfShadowed && argv.some((a) => a.dynamic)) {
    const known = argv.map((a) => (a.dynamic ? printfOutput(a.text) : a.text));
    if (known.every((t) => t !== undefined)) argv = known.map((text) => ({ text, dynamic: false }));
  }
  const fed = site.givenStdin !== undefined && basename(nth(argv, 0).text) === "xargs" ? xargsFed(argv, site.givenStdin) : undefined;
  if (fed) {
    out.commands.push(commandRecord(argv.slice(0, 1), -1, at.via, site.span, at.parent));
    const inner: Where = { depth: at.depth, via: [...at.via, "xargs"], anchor: at.anchor, parent: out.commands.length - 1 };
    for (const run of fed) visitArgv(run, inner, out, { ...site, givenStdin: undefined, stdin: undefined, stdinFile: undefined, piped: false }, aliasDepth);
    return;
  }

  const u = unwrap(argv);
  const via = [...at.via, ...u.via];
  const parent = recordWrappers(argv, u.via, at, site, out);
  // `env PATH=… GIT_EDITOR=… prog`: the launcher's NAME=VALUE words are the program's environment
  const start = u.argv.length ? argv.indexOf(nth(u.argv, 0)) : -1;
  if (start > 0) {
    let local: Map<string, WordValue> | undefined;
    for (const a of argv.slice(1, start)) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/.exec(a.text);
      if (!m) continue;
      const v: WordValue = { text: nth(m, 2), dynamic: a.dynamic, shape: a.dynamic ? { kind: "any" } : { kind: "exact", text: nth(m, 2) } };
      (local ??= new Map(site.local)).set(nth(m, 1), v);
      if (GIT_SHELL_ENV.has(nth(m, 1))) shellValue(v, nth(m, 1), site.text, site.span, at, out);
      if (PROMPTS.has(nth(m, 1))) promptValue(v, nth(m, 1), site.text, site.span, at, out);
    }
    if (local) site = { ...site, local };
  }
  if (u.opaque) {
    opaque(out, u.opaque.code, u.opaque.reason, site.text, site.span);
    out.commands.push(commandRecord([{ text: clip(site.text), dynamic: true }], -1, via, site.span, parent, "<dynamic>"));
    return markUnknownEffects(out);
  }
  const scripts = basename(head.text) === "trap" && trapClearedNext(argv, at, site, out) ? [] : u.scripts;
  const launched = (w: Where) => {
    for (const s of scripts) runScript(s, w, out, site);
    for (const a of u.argvs) if (a.length) visitArgv(a, w, out, { ...site, stdin: undefined, piped: false });
    for (const t of u.tcl) runTcl(t, w, out, site);
  };
  if (u.argv.length === 0) {
    const inner: Where = { depth: at.depth + 1, via, anchor: site.span, parent };
    launched(inner);
    for (const f of u.programFiles) runFile(f.file, f.lang, inner, out, site);
    if (u.readsProgramFromStdin) stdinProgram("sh", inner, out, site);
    return;
  }
  const name = basename(nth(u.argv, 0).text);
  let prog = u.argv;
  let path0 = site.local.get("PATH") ?? lookupVar(out, "PATH");
  // a program of that name written earlier in this command into a folder on PATH runs instead (`PATH=$T:$PATH git`)
  if (!nth(u.argv, 0).text.includes("/") && !nth(u.argv, 0).dynamic) {
    // (the usual command: no program written or hashed earlier, PATH as the session has it — nothing to build)
    const hashed = out.programs.size > 0 ? out.programs.get(`hash:${nth(u.argv, 0).text}`) : undefined;
    if (hashed !== undefined || !onPathIdle(path0, out, [])) {
      const inner: Where = { depth: at.depth + 1, via, anchor: site.span, parent };
      onPath(name, inner, out, site);
      if (hashed && !out.planted.has(`hash:${hashed}`)) {
        out.planted.add(`hash:${hashed}`);
        runFile({ text: hashed, dynamic: false }, "auto", { ...inner, via: [...via, `hash -p ${clip(hashed, 40)}`] }, out, site);
      }
      // what those files ran may have set PATH
      path0 = site.local.get("PATH") ?? lookupVar(out, "PATH");
    }
  }
  // `git-commit`, `/usr/lib/git-core/git-commit`: git running one subcommand.
  // a bare `git-commit` runs only if git's exec-path is on PATH (unknown PATH: assume it is)
  const reachable = nth(u.argv, 0).text.includes("/") || head.text.includes("/") || !path0 || path0.dynamic || path0.text.includes("git-core"); // (a PATH folder holding git-core: no folder boundary inside the name)
  const dashed = reachable ? dashedGit(name) : undefined;
  if (dashed) prog = [{ ...nth(prog, 0), text: "git" }, { text: dashed, dynamic: false }, ...prog.slice(1)];
  const progName = dashed ? "git" : name;
  const self = out.commands.length;
  // (Where objects are written out whole, not spread: one shape, no copy of whatever `at` was)
  if (progName === "git") visitGit(prog, { depth: at.depth, via: dashed ? [...via, name] : via, anchor: at.anchor, parent }, out, site);
  else if (!NOT_PROGRAMS.has(progName)) out.commands.push(commandRecord(prog, verbIndex(progName, prog), via, site.span, parent));
  const here: Where = { depth: at.depth + 1, via: [...via, name], anchor: site.span, parent: self };
  launched({ depth: here.depth, via, anchor: here.anchor, parent: here.parent });

  // Shell strings of the shell itself (`bash -c`) were in u.scripts; here: a shell or interpreter reading stdin or a file.
  for (const f of u.programFiles) runFile(f.file, f.lang, here, out, site);
  if (u.readsProgramFromStdin || (isInterpreter(progName) && isStdinProgram(prog))) return stdinProgram(progName, here, out, site);
  const args = prog.slice(1);
  if (progName === "find") return visitFind(args, here, out, site);
  effects(progName, prog, here, out, site);
}

/**
 * `trap '…' EXIT; trap - EXIT`: the exit trap removed by the very next top-level command, before anything else could
 * end the shell, never runs. Any command between, another signal, a pipe or a subshell around either: it may run.
 */
function trapClearedNext(argv: Arg[], at: Where, site: CommandSite, out: Work): boolean {
  if (at.depth !== 0 || at.anchor || argv.length !== 3 || argv.some((a) => a.dynamic) || !/^(EXIT|0)$/.test(nth(argv, 2).text)) return false;
  const rest = out.source.slice(site.span.end);
  return /^[ \t]*(?:;|&&|\n)[ \t\n]*trap[ \t]+(?:-|''|"")[ \t]+(?:EXIT|0)[ \t]*(?:$|;|\n|&&|\|\|)/.test(rest);
}

/**
 * What `xargs [-r] [-L1] PROG ARGS` runs when its whole input is known (`< /dev/null`, `<<< 'log -1'`): PROG
 * ARGS and the words read, once or once per line. Input with quotes, backslashes or a `_` word (an end-of-file
 * mark for some xargs), a line continued by a trailing blank, or any other option: undefined (read at run time).
 */
function xargsFed(argv: Arg[], input: string): Arg[][] | undefined {
  let i = 1;
  let empty = true;
  let perLine = false;
  for (; i < argv.length; i++) {
    const a = nth(argv, i);
    if (a.dynamic) return undefined;
    if (a.text === "-r" || a.text === "--no-run-if-empty") empty = false;
    else if (a.text === "-L1" || a.text === "--max-lines=1") perLine = true;
    else if (a.text === "-L" && argv[i + 1]?.text === "1" && !argv[i + 1]?.dynamic) {
      perLine = true;
      i++;
    } else if (a.text === "--") {
      i++;
      break;
    } else if (a.text.startsWith("-")) return undefined;
    else break;
  }
  const prog = argv.slice(i);
  if (prog.length === 0 || !/^[\w.,:=/@%+\- \t\n]*$/.test(input)) return undefined;
  const lines = input.split("\n").filter((l) => l.trim() !== "");
  if (lines.some((l) => /[ \t]$/.test(l))) return undefined;
  const words = lines.map((l) => l.trim().split(/[ \t]+/));
  if (words.some((w) => w.includes("_"))) return undefined;
  const arg = (text: string): Arg => ({ text, dynamic: false });
  if (words.length === 0) return empty ? [prog] : [];
  return perLine ? words.map((w) => [...prog, ...w.map(arg)]) : [[...prog, ...words.flat().map(arg)]];
}

/** A name that is git in disguise: `hash -p`, a link made earlier, or a path that resolves to git. */
function renamed(head: Arg, out: Work): Arg {
  const exec = /^\$\(\s*git\s+--exec-path\s*\)\/(git-[a-z-]+)$/.exec(head.text);
  if (head.dynamic && exec) return { text: `git-core/${nth(exec, 1)}`, dynamic: false };
  if (head.dynamic || head.pattern) return head;

  // (no other names for git recorded: nothing to normalize and look up)
  const mapped = out.programs.size > 0 ? (out.programs.get(head.text) ?? out.programs.get(normalize(head.text, out))) : undefined;
  if (mapped) return { ...head, text: mapped };
  if (head.text.includes("/") && !/^git(-|$)/.test(basename(head.text))) {
    const real = out.world.realpath(resolvePath(head.text, out) ?? head.text);
    if (real && /^git(-[a-z-]+)?$/.test(basename(real))) return { ...head, text: basename(real) };
  }
  return head;
}

/** Files git reads its config from (and what they usually include). */
const GIT_CONFIG_FILE = /(^|\/)(\.gitconfig|\.git\/config|git\/config|config\.worktree)$|\.(inc|gitconfig)$/;

/** Did any write so far (in this command) go to a git config file? Scans only the writes added since the last call. */
function configWrittenSoFar(out: Work): boolean {
  const scan = out.configScan;
  for (; !scan.written && scan.upTo < out.writes.length; scan.upTo++) {
    const w = nth(out.writes, scan.upTo);
    if (w.dynamic ? w.pattern === undefined || w.pattern.endsWith("**") : GIT_CONFIG_FILE.test(w.path)) scan.written = true;
  }
  return scan.written;
}

/** Variables that make git read another config file, a config file from somewhere else, or config entries. */
const GIT_CONFIG_SOURCES = ["GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG", "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"];
/** Variables naming a file git writes its trace into (an absolute path; numbers and booleans name fds or stderr). */
const GIT_TRACE_FILE = /^GIT_TRACE(2(_EVENT|_PERF)?|_[A-Z_]+)?$/;

/**
 * Doors that close git's own hooks (skillgate's reference-transaction and pre-push checks): a config source set by
 * this command (a file may set core.hooksPath), `-c core.hooksPath=`, `git config core.hooksPath`, `push --no-verify`.
 * Refused as "cannot be checked" whatever the subcommand: the effect layer behind the analysis depends on them.
 */
function gitHookDoors(argv: Arg[], verb: number, out: Work, site: CommandSite): string | undefined {
  for (const name of GIT_CONFIG_SOURCES) {
    // set by this command (on the git command, exported or assigned earlier), not the session's own
    const v = site.local.get(name) ?? (out.vars.has(name) ? (out.vars.get(name) ?? { text: "", dynamic: true }) : undefined);
    if (!v || (!v.dynamic && v.text === "/dev/null")) continue;
    if ((name === "GIT_CONFIG_PARAMETERS" || name === "GIT_CONFIG_COUNT") && !v.dynamic && !gitConfigNamesHooks(name, v.text, site, out)) continue;
    return `${name} set by the command makes git read configuration skillgate cannot check (it could set core.hooksPath and switch git's hooks off)`;
  }
  for (let i = 1; i < argv.length && (verb < 0 || i < verb); i++) {
    const a = nth(argv, i);
    // `-c k=v`, `-ck=v`, `--config-env k=ENV`, `--config-env=k=ENV`
    const kv =
      a.text === "-c" || a.text === "--config-env"
        ? argv[i + 1]
        : a.text.startsWith("--config-env=")
          ? { ...a, text: a.text.slice(13) }
          : a.text.startsWith("-c") && a.text.length > 2 && !a.text.startsWith("--")
            ? { ...a, text: a.text.slice(2) }
            : undefined;
    const how = a.text.startsWith("--config-env") ? "--config-env" : "-c";
    if (kv && (kv.dynamic || /^core\.hookspath(=|$)/i.test(kv.text))) return `${how} core.hooksPath switches git's hooks off`;
  }
  const sub = verb >= 0 ? nth(argv, verb).text : "";
  const rest = verb >= 0 ? argv.slice(verb + 1) : [];
  if (
    sub === "config" &&
    rest.some((a) => a.dynamic || /^core\.hookspath$/i.test(a.text)) &&
    !rest.some((a) => /^(--get|--get-all|--get-regexp|-l|--list|get|list)$/.test(a.text))
  )
    return "git config core.hooksPath switches git's hooks off";
  if ((sub === "push" || sub === "send-pack") && rest.some((a) => a.text === "--no-verify")) return "push --no-verify skips git's pre-push hook";
  return undefined;
}

/** Do GIT_CONFIG_PARAMETERS / GIT_CONFIG_KEY_n name core.hooksPath or an include (whose file could)? */
function gitConfigNamesHooks(name: string, text: string, site: CommandSite, out: Work): boolean {
  const keys: string[] = [];
  if (name === "GIT_CONFIG_PARAMETERS") for (const m of text.matchAll(/'([^'=]+)'(?:=|\s|$)|(?:^|\s)([\w.-]+)=/g)) keys.push(m[1] ?? m[2] ?? "");
  else {
    const n = Number(text);
    if (!Number.isInteger(n) || n > 64) return true;
    for (let i = 0; i < n; i++) {
      const k = site.local.get(`GIT_CONFIG_KEY_${i}`) ?? out.vars.get(`GIT_CONFIG_KEY_${i}`);
      if (!k || k.dynamic) return true;
      keys.push(k.text);
    }
  }
  return keys.some((k) => /^core\.hookspath$|^include(if\.[\s\S]*)?\.path$/i.test(k));
}

/** `GIT_TRACE=/abs/file git …`: git writes its trace there. */
function gitTraceWrites(out: Work, site: CommandSite): void {
  const seen = new Set<string>();
  // (the command's own NAME=value words, then the trace variables assigned earlier: never every variable)
  for (const [name, v] of [...site.local, ...[...out.traceVars].map((n) => [n, out.vars.get(n)] as const)]) {
    if (!GIT_TRACE_FILE.test(name) || !v || seen.has(name)) continue;
    seen.add(name);
    // a number or a boolean is a descriptor or stderr; a relative path is not a file for git
    if (!v.dynamic && !/^(\/|~)/.test(v.text)) continue;
    if (v.dynamic && v.shape?.kind === "exact") continue;
    pushWrites(
      [v.dynamic ? { path: v.text, dynamic: true, pattern: v.shape?.kind === "glob" ? v.shape.glob : "**" } : { path: v.text, dynamic: false }],
      `git (${name})`,
      out,
    );
  }
}

function visitGit(argv: Arg[], at: Where, out: Work, site: CommandSite): void {
  const env = (name: string): Arg | undefined => site.local.get(name) ?? context(out).lookup(name);
  const door = gitHookDoors(
    argv,
    argv.findIndex(
      (a, i) => i > 0 && !a.text.startsWith("-") && !/^(-C|-c|--git-dir|--work-tree|--namespace|--config-env|--exec-path)$/.test(argv[i - 1]?.text ?? ""),
    ),
    out,
    site,
  );
  if (door) {
    opaque(out, "git-hooks-door", door, site.text, site.span);
    markUnknownEffects(out);
  }
  gitTraceWrites(out, site);
  if (out.files.size > 0) plantedForGit({ depth: at.depth + 1, via: at.via, anchor: site.span, parent: at.parent }, out, site);
  const r = resolveGit(argv, {
    world: out.world,
    earlier: out.gitEarlier,
    env,
    read: (p) => fileText(p, out),
    configWritten: configWrittenSoFar(out),
    files: (dir) => {
      const plain = (n: string) => {
        const v = env(n);
        return v && !v.dynamic ? v.text : undefined;
      };
      const key = [
        dir,
        ...["HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_DIR", "GIT_CONFIG"].map(plain),
      ].join("\0");
      const hit = out.gitFiles.get(key);
      if (hit) return hit;
      const f = fileConfig(out.world, dir, plain);
      out.gitFiles.set(key, f);
      return f;
    },
  });
  const rec = commandRecord(r.argv, r.verb, [...at.via, ...r.via], site.span, at.parent);
  if (r.verbUnknown && r.verb >= 0) rec.dynamic[r.verb] = true;
  rec.implied = r.implied;
  if (r.remote && r.argv.indexOf(r.remote) > 0) rec.notArgs = [r.argv.indexOf(r.remote)];
  // delete a remote branch, then push it again: its history is replaced without --force
  const pushes = r.verb >= 0 && (nth(r.argv, r.verb).text === "push" || nth(r.argv, r.verb).text === "send-pack") && !r.inert;
  if (pushes && r.deletes) out.pushDeleted = true;
  else if (pushes && out.pushDeleted && !rec.implied.includes("--force")) rec.implied = [...rec.implied, "--force"];
  if (r.acts.length) rec.acts = r.acts;
  if (r.inert) rec.inert = true;
  const self = out.commands.length;
  out.commands.push(rec);
  if (r.opaque) {
    opaque(out, r.opaque.code, r.opaque.reason, site.text, site.span);
    markUnknownEffects(out);
  }
  const inner: Where = { depth: at.depth + 1, via: [...at.via, ...r.via, "git"], anchor: site.span, parent: self };
  for (const s of r.scripts) runScript(s, inner, out, site);
  for (const a of r.argvs) visitArgv(a, inner, out, { ...site, stdin: undefined });
  // `git config alias.ci commit` / `git config core.pager 'cmd'`: remembered for later git commands, shell values read now.
  const sub = r.verb >= 0 ? nth(r.argv, r.verb).text : "";
  // `git save` runs `git-save` from its exec-path or PATH (before an alias of that name): a folder this command
  // names (`PATH=bin:$PATH`, `--exec-path=tools`, `GIT_EXEC_PATH`) or a file it wrote earlier is read
  const verb0 = argv.findIndex(
    (a, i) => i > 0 && !a.text.startsWith("-") && !/^(-C|-c|--git-dir|--work-tree|--namespace|--config-env)$/.test(argv[i - 1]?.text ?? ""),
  );
  const sub0 = verb0 > 0 ? nth(argv, verb0) : undefined;
  if (sub0 && !sub0.dynamic && !GIT_COMMANDS.has(sub0.text)) {
    const execOpt = argv.slice(1, verb0).find((a) => a.text.startsWith("--exec-path="));
    const execPath = execOpt ? { ...execOpt, text: execOpt.text.slice(12) } : env("GIT_EXEC_PATH");
    onPath(`git-${sub0.text}`, inner, out, site, execPath && !execPath.dynamic ? [execPath.text] : []);
  }
  if (sub === "config") gitConfigSet(r.argv.slice(r.verb + 1), inner, out, site);
  if (sub === "remote") gitRemoteAdd(r.argv.slice(r.verb + 1), out);
}

/** `git remote add --mirror[=push] bk URL`: later pushes to bk are mirror pushes (forced). */
function gitRemoteAdd(args: Arg[], out: Work): void {
  if (args[0]?.text !== "add" || !args.some((a) => a.text === "--mirror" || a.text === "--mirror=push")) return;
  const ops = args.slice(1).filter((a, i, all) => !a.text.startsWith("-") && !/^(-t|-m|--track|--master)$/.test(all[i - 1]?.text ?? ""));
  const name = ops[0];
  if (name && !name.dynamic && out.gitEarlier.length < MAX_REMEMBERED) out.gitEarlier.push({ key: `remote.${name.text}.mirror`, value: "true" });
}

/** Plumbing that only makes a commit object (`commit-tree`) commits when the same line moves a ref to it. */
const MOVES_REFS = new Set([
  "update-ref",
  "reset",
  "branch",
  "checkout",
  "switch",
  "merge",
  "push",
  "send-pack",
  "rebase",
  "cherry-pick",
  "tag",
  "symbolic-ref",
]);

function publishedCommits(w: Work): void {
  const plumbing = w.commands.filter((c) => c.name === "git" && c.verb >= 0 && c.argv[c.verb] === "commit-tree");
  if (plumbing.length === 0) return;
  const moves =
    w.commands.some((c) => c.name === "git" && c.verb >= 0 && MOVES_REFS.has(c.argv[c.verb] ?? "")) ||
    w.writes.some((x) => /(^|\/)\.git\/(refs\/|HEAD$|packed-refs$)/.test(x.path) || (x.dynamic && x.pattern === undefined));
  if (moves) for (const c of plumbing) c.acts = [...new Set([...(c.acts ?? []), "commit"])];
}

function gitConfigSet(args: Arg[], at: Where, out: Work, site: CommandSite): void {
  const ops = args.filter((a, i) => !a.text.startsWith("-") && !(i > 0 && /^(-f|--file|--blob|--type|--default|--comment)$/.test(nth(args, i - 1).text)));
  let [k, v] = ops;
  if (k && !k.dynamic && args.some((a) => a.text === "--unset" || a.text === "--unset-all")) {
    out.gitEarlier.push({ key: k.text, value: null });
    return;
  }
  if (k?.text === "set" && ops.length >= 3) [, k, v] = ops;
  if (!k || !v) return;
  if (k.dynamic) {
    opaque(out, "git-config-dynamic", `git config sets a key computed at run time`, site.text, site.span);
    return;
  }
  if (out.gitEarlier.length < MAX_REMEMBERED) out.gitEarlier.push({ key: k.text, value: v.text });
  if (isShellKey(k.text, v.text) || (v.dynamic && isShellKey(k.text, "x"))) runScript(keyScript(k.text, v, `git config ${k.text}`), at, out, site);
  if (/^alias\./i.test(k.text) && v.text.startsWith("!")) runScript({ ...v, text: v.text.slice(1), label: `git config ${k.text}` }, at, out, site);
}

/**
 * Before a git command runs: git hooks and git config files this command wrote earlier. A hook runs on its event
 * (any git command may be one), so its text is analysed like a script; a config file's command-running keys
 * (`core.fsmonitor`, `diff.external`, …) are analysed like `-c`. Each file once.
 */
function plantedForGit(at: Where, out: Work, site: CommandSite): void {
  for (const [file, text] of out.files) {
    if (out.planted.has(file)) continue;
    if (GIT_HOOK.test(file)) {
      out.planted.add(file);
      if (text === null) {
        opaque(out, "script-written-at-run-time", `the git hook ${clip(file, 60)} is written with content known only at run time`, site.text, site.span);
        markUnknownEffects(out);
        continue;
      }
      runFile({ text: file, dynamic: false }, "auto", { ...at, via: [...at.via, `git hook ${basename(file)}`] }, out, site);
    } else if (text !== null && (GIT_CONFIG_FILE.test(file) || /\.(cfg|conf|config|ini)$/.test(file))) {
      out.planted.add(file);
      for (const [k, v] of parseConfig(text))
        if (isShellKey(k, v)) runScript(keyScript(k, { text: v, dynamic: false }, `git config file ${clip(file, 40)} (${k})`), at, out, site);
    }
  }
}

/**
 * The program `name` found on the PATH the command runs with: one written earlier in this command, or one in
 * a folder this command adds to PATH (`PATH=$PWD/bin:$PATH`) or names (`extra`), read from disk. The session's
 * own PATH is not walked (that would be a file lookup per command).
 */
function onPath(name: string, at: Where, out: Work, site: CommandSite, extra: string[] = []): void {
  const p = site.local.get("PATH") ?? lookupVar(out, "PATH");
  if (onPathIdle(p, out, extra)) return;
  const usual = new Set((out.world.env["PATH"] ?? "").split(":"));
  const dirs = [...extra, ...(p && !p.dynamic ? p.text.split(":") : [])];
  if (out.files.size === 0 && dirs.every((d) => usual.has(d))) return;
  for (const dir of dirs) {
    const key = normalize(path.join(dir || ".", name), out);
    if (out.planted.has(key)) return;
    if (!out.files.has(key) && (usual.has(dir) || fileText(key, out) === undefined)) continue;
    out.planted.add(key);
    runFile({ text: key, dynamic: false }, "auto", { ...at, via: [...at.via, `PATH ${clip(dir, 40)}`] }, out, site);
    return;
  }
}

/** The usual case, nothing written and PATH as the session has it: onPath has no work at all. */
function onPathIdle(p: WordValue | undefined, out: Work, extra: readonly string[]): boolean {
  return out.files.size === 0 && extra.length === 0 && (!p || p.dynamic || p.text === envOf(out, "PATH"));
}

/** A shell string some program runs. */
function runScript(s: Script, at: Where, out: Work, site: CommandSite): void {
  if (s.dynamic && (s.text === STDIN_ARGS.text || /^\s*(\$\w+|\$\{[^}]*\}|\$\([\s\S]*\)|`[\s\S]*`)\s*$/.test(s.text))) {
    opaque(out, "shell-string-dynamic", `${s.label.replace(/ -c$/, "")} runs a string computed at run time`, site.text, site.span);
    return markUnknownEffects(out);
  }
  // eval runs in this shell (the same "$@"); every other string in a new one
  analyzeScript(s.text, { ...at, via: [...at.via, s.label] }, out, s.label === "eval" ? out.positional : undefined);
}

/** Prompt strings bash expands later (PS4 under `set -x`, PS1/PS2/PS0 in an interactive shell); PROMPT_COMMAND runs. */
const PROMPTS = new Set(["PS0", "PS1", "PS2", "PS4", "PROMPT_COMMAND"]);

function promptValue(v: WordValue, name: string, text: string, span: Span, at: Where, out: Work): void {
  if (name === "PROMPT_COMMAND") return shellValue(v, name, text, span, at, out);
  // only substitutions in the prompt run anything
  if (!/\$\(|`/.test(v.text)) return;
  runScript({ text: `: ${v.text}`, dynamic: v.dynamic, label: name }, { ...at, depth: at.depth + 1, anchor: span }, out, {
    span,
    text,
    piped: false,
    local: new Map(),
  });
}

function shellValue(v: WordValue, name: string, text: string, span: Span, at: Where, out: Work): void {
  if (/^(true|:|cat|less|more|vi|vim|nvim|nano|emacs|code( --wait)?)?$/.test(v.text.trim()) && !v.dynamic) return;
  runScript({ ...v, label: name }, { ...at, depth: at.depth + 1, anchor: span }, out, { span, text, piped: false, local: new Map() });
}

/** expect/Tcl: `spawn` and `exec` run programs; `system` runs a shell string; `send` types into a spawned shell. */
function runTcl(src: Arg, at: Where, out: Work, site: CommandSite): void {
  if (src.dynamic && /^\s*\$/.test(src.text)) {
    opaque(out, "launcher-dynamic", "expect runs a program computed at run time", site.text, site.span);
    return markUnknownEffects(out);
  }
  let shellSpawned = false;
  pushWrites(
    inlineWrites(src.text).filter((w) => !w.dynamic),
    "tcl",
    out,
  );
  for (const c of tclCommands(src.text)) {
    const words = c.words.filter((w, i) => !(i === 0 && c.name === "spawn" && w.text.startsWith("-")));
    if (c.name === "spawn" || c.name === "exec") {
      if (words[0]?.dynamic) {
        opaque(out, "launcher-dynamic", `expect ${c.name} runs a program computed at run time`, site.text, site.span);
        markUnknownEffects(out);
        continue;
      }
      const argv = words.filter((w) => !/^[<>]@|^2>@/.test(w.text));
      if (argv.length) visitArgv(argv, { ...at, via: [...at.via, `expect ${c.name}`] }, out, { ...site, stdin: undefined });
      if (SHELLS.has(basename(argv[0]?.text ?? ""))) shellSpawned = true;
    } else if (c.name === "system") {
      runScript({ text: words.map((w) => w.text).join(" "), dynamic: words.some((w) => w.dynamic), label: "expect system" }, at, out, site);
    } else if (c.name === "send" && shellSpawned) {
      const w = words.filter((x) => !x.text.startsWith("-"));
      runScript({ text: w.map((x) => x.text).join(" "), dynamic: w.some((x) => x.dynamic), label: "expect send" }, at, out, site);
    }
  }
}

/** A shell or interpreter that reads its program on stdin: a here-doc, a here-string, a `<` file, or a pipe. */
function stdinProgram(name: string, at: Where, out: Work, site: CommandSite): void {
  const shell = !isInterpreter(name);
  if ((name === "tclsh" || name === "wish" || name === "expect") && site.stdin !== undefined) return runTcl(site.stdin, at, out, site);
  if (site.stdin !== undefined) {
    if (shell) {
      analyzeScript(site.stdin.text, { ...at, via: [...at.via, `${name} <<`] }, out);
      if (site.stdin.dynamic) {
        opaque(out, "heredoc-expansions", `${name} runs a here-doc with run-time expansions`, site.text, site.span);
        markUnknownEffects(out);
      }
    } else inlineProgram(name, site.stdin.text, at, out, site);
    return;
  }
  if (site.stdinFile) return runFile(site.stdinFile, shell ? "shell" : name, at, out, site);
  if (site.piped) {
    opaque(out, "program-from-pipe", `${name} reads its program from a pipe`, site.text, site.span);
    markUnknownEffects(out);
  }
}

/** A program file (`bash x.sh`, `./x.sh`, `. x.sh`, `at -f job`): its text from earlier in the command, or from disk. */
function runFile(file: Arg, lang: string, at: Where, out: Work, site: CommandSite): void {
  if (file.dynamic) {
    // `bash <(curl …)`: the program is another command's output
    if (/^[<>]\(/.test(file.text)) {
      const produced = producedText(file.text);
      if (produced !== undefined) return analyzeScript(produced, { ...at, via: [...at.via, "<(…)"] }, out);
      opaque(out, "program-from-substitution", `${clip(file.text, 60)} feeds a program produced at run time`, site.text, site.span);
      return markUnknownEffects(out);
    }
    opaque(out, "source-dynamic", `runs a file named at run time (${clip(file.text, 60)})`, site.text, site.span);
    return markUnknownEffects(out);
  }
  if (STDIN_PATH.test(file.text)) return stdinProgram(lang === "shell" ? "sh" : lang, at, out, site);
  // `/dev/fd/3`: what the command gave fd 3 (`3<<<'…'`, `exec 3<<EOF`), or a program produced at run time
  const fdPath = /^\/(?:dev\/fd|proc\/(?:self|thread-self)\/fd)\/([1-9]\d*)$/.exec(file.text);
  if (fdPath) {
    const t = site.fds?.get(Number(fdPath[1])) ?? out.fds.get(Number(fdPath[1]));
    if (t) return stdinProgram(lang === "shell" ? "sh" : lang === "auto" ? "sh" : lang, at, out, { ...site, stdin: t, stdinFile: undefined, piped: false });
    opaque(out, "source-dynamic", `runs what descriptor ${fdPath[1]} gives at run time`, site.text, site.span);
    return markUnknownEffects(out);
  }
  const text = fileText(file.text, out);
  if (text === null) {
    opaque(out, "script-written-at-run-time", `${clip(file.text, 60)} is written by this command with content known only at run time`, site.text, site.span);
    return markUnknownEffects(out);
  }
  if (text === undefined) return; // not readable: no worse than not looking
  const fromDisk = !out.files.has(normalize(file.text, out));
  const label = `script ${clip(file.text, 60)}`;
  const inner = { ...at, via: [...at.via, label] };
  const writesBefore = out.writes.length;
  if (fromDisk) out.lenient++;
  try {
    // "auto" (run by path): the shebang says; no shebang means a shell runs it
    const interp = lang === "auto" ? (shebang(text) ?? "sh") : lang;
    if (interp === "tcl" || interp === "tclsh" || interp === "wish") runTcl({ text, dynamic: false }, inner, out, site);
    else if (interp === "shell" || SHELLS.has(interp) || !isInterpreter(interp)) analyzeScript(text, inner, out);
    else inlineProgram(interp, text, inner, out, site);
  } finally {
    if (fromDisk) out.lenient--;
    out.scriptsRead.set(normalize(file.text, out), { wrote: out.writes.length > writesBefore });
  }
}

/** What `<(echo 'git commit')` / `<(printf …)` / `<(cat f)` print, when it is static. */
function producedText(sub: string): string | undefined {
  const body = sub.slice(2, -1);
  let script: ParsedScript;
  try {
    script = parse(body);
  } catch {
    return undefined;
  }
  if (script.commands.length !== 1) return undefined;
  const c = nth(script.commands, 0).command;
  if (c.type !== "Command" || !c.name) return undefined;
  const words = [c.name, ...c.suffix].filter((w): w is Word => w.type === "Word").map((w) => evalWord(w));
  if (words.some((w) => w.dynamic)) return undefined;
  const n = nth(words, 0).text;
  if (n === "echo")
    return words
      .slice(1)
      .filter((w) => !/^-[neE]+$/.test(w.text))
      .map((w) => w.text)
      .join(" ");
  if (n === "printf")
    return words
      .slice(1)
      .map((w) => cEscapes(w.text))
      .join("\n");
  return undefined;
}

/** The text of a file: written earlier in this command (null: content unknown), or read through the world. */
function fileText(p: string, out: Work): string | null | undefined {
  const key = normalize(p, out);
  if (out.files.has(key)) return out.files.get(key) ?? null;
  if (out.filesRead >= MAX_FILES_READ) return undefined;
  const abs = resolvePath(p, out);
  if (!abs) return undefined;
  out.filesRead++;
  const text = out.world.readFile(abs, MAX_FILE_BYTES);
  // a binary is not a script
  return text !== undefined && text.includes("\0") ? undefined : text;
}

/** The key for a path within this command (relative paths as written, normalized). */
function normalize(p: string, out: Work): string {
  const home = envOf(out, "HOME");
  if (p.startsWith("~/") && home) return path.join(home, p.slice(2));
  return out.cwd ? path.resolve(out.cwd, p) : path.normalize(p);
}

/** An absolute path for the world, or undefined when the directory is not known. */
/**
 * What a path is on disk, unless this command may already have changed it (written, removed, or a write
 * named only at run time): then a file there is "other", for a directory may have taken its place.
 */
function kindNow(p: string, out: Work): ReturnType<ShellWorld["kind"]> {
  const abs = resolvePath(p, out);
  const k = abs ? out.world.kind(abs) : out.world.kind(p);
  if (k !== "file") return k;
  const key = normalize(p, out);
  return out.writes.some((w) => w.dynamic || normalize(w.path, out) === key) || out.opaque.length > 0 ? "other" : k;
}

function resolvePath(p: string, out: Work): string | undefined {
  if (p.startsWith("/")) return p;
  if (p.startsWith("~/")) {
    const h = out.world.env["HOME"];
    return h ? path.join(h, p.slice(2)) : undefined;
  }
  return out.cwd ? path.resolve(out.cwd, p) : undefined;
}

/** What a program does besides running: writes, reads, inline programs, scripts it runs, names it defines. */
function effects(name: string, argv: Arg[], at: Where, out: Work, site: CommandSite): void {
  const args = argv.slice(1);
  const program = inlineProgramArg(name, args);
  // `python3 -c "$CODE"`: the whole program is a run-time value. (`$f` spliced into a literal program is data.)
  if (program?.dynamic && /^\s*(\$\w+|\$\{[^}]*\}|\$\([\s\S]*\)|`[\s\S]*`)\s*$/.test(program.text)) {
    opaque(out, "interpreter-program-dynamic", `${name} runs a program computed at run time`, site.text, site.span);
    return markUnknownEffects(out);
  }
  // the script a program runs is read first: one that writes nothing leaves its file arguments alone
  const scriptFile =
    isInterpreter(name) && program === undefined
      ? readsOf(name, args)[0]
      : SHELLS.has(name)
        ? readsOf(name, args)[0]
        : nth(argv, 0).text.includes("/") && name !== "git"
          ? { path: nth(argv, 0).text, dynamic: false }
          : undefined;
  if (scriptFile && !scriptFile.dynamic && !out.scriptsRead.has(normalize(scriptFile.path, out))) {
    if (SHELLS.has(name)) {
      /* read by visitArgv (programFiles) */
    } else
      runFile(
        { text: interpreterFile(name, scriptFile.path, out), dynamic: false },
        isInterpreter(name) ? (name === "tclsh" || name === "wish" ? "tcl" : name) : "auto",
        at,
        out,
        site,
      );
  }
  if (isInterpreter(name)) for (const f of preloaded(name, args, program?.text, out, site)) runFile({ text: f, dynamic: false }, name, at, out, site);
  // `python3 -m ship`: the module's file in the folder
  const mod = /^(python|pypy)/.test(name) ? args[args.findIndex((a) => a.text === "-m") + 1] : undefined;
  if (mod && args.some((a) => a.text === "-m") && !mod.dynamic && /^[\w.]+$/.test(mod.text)) {
    const base = mod.text.replace(/\./g, "/");
    for (const f of [`${base}.py`, `${base}/__main__.py`])
      if (fileText(f, out) !== undefined) {
        runFile({ text: f, dynamic: false }, name, at, out, site);
        break;
      }
  }
  const pure = scriptFile !== undefined && !scriptFile.dynamic && out.scriptsRead.get(normalize(scriptFile.path, out))?.wrote === false;
  const written = writesOf(nth(argv, 0).text, args, program?.text, (p) => kindNow(p, out), pure);
  pushWrites(written, name, out);
  // a file this program writes has a content we know only for `tee f <<EOF` (and a copy of a known file)
  for (const w of written) {
    if (w.dynamic || out.files.size >= MAX_REMEMBERED) continue;
    const key = normalize(w.path, out);
    const src = name === "cp" || name === "install" || name === "mv" ? args.find((a) => !a.text.startsWith("-") && a.text !== w.path) : undefined;
    if (KEEPS_CONTENT.has(name)) continue;
    if (name === "rm" || name === "unlink") {
      out.files.delete(key);
      continue;
    }
    if (src) {
      // a copy of a file we know (or can read) has its text; of one we cannot read: no worse than not looking
      const copied = src.dynamic ? null : fileText(src.text, out);
      if (copied !== undefined) out.files.set(key, copied);
      continue;
    }
    out.files.set(key, name === "tee" && site.stdin && !site.stdin.dynamic ? site.stdin.text : null);
  }
  pushWrites(
    patchWrites(
      name,
      args,
      site.stdin?.text ?? (site.stdinFile ? (fileText(site.stdinFile.text, out) ?? undefined) : undefined),
      (p) => fileText(p, out) ?? undefined,
    ),
    name,
    out,
  );
  pushReads(readsOf(name, args), name, out);
  for (const s of optionShells(name, args)) runScript(s, at, out, site);
  if (program !== undefined) inlineProgram(name, program.text, at, out, site, true);
  if (name === "awk" || name === "gawk" || name === "mawk" || name === "nawk") awkEffects(args, at, out, site);
  if (name === "sed" || name === "gsed") sedEffects(name, args, at, out, site);
  if (/^(vim?|nvim|ex|view)$/.test(name)) vimEffects(args, at, out, site);
  if ((name === "ed" || name === "red") && site.stdin && !site.stdin.dynamic && !/^\s*[\d,.$]*\s*[wW]/m.test(site.stdin.text)) {
    // an ed script with no w command only reads its file
    const ops = new Set(args.filter((a) => !a.text.startsWith("-")).map((a) => a.text));
    for (let i = out.writes.length - 1; i >= 0; i--) {
      const w = nth(out.writes, i);
      if (w.by !== name || !ops.has(w.path)) continue;
      out.writes.splice(i, 1);
      // Keep the incremental config scan in step with the shifted list (the found flag only ever stays set).
      if (i < out.configScan.upTo) out.configScan.upTo = i;
    }
  }
  if ((name === "ed" || name === "red") && site.stdin && !site.stdin.dynamic) {
    for (const m of site.stdin.text.matchAll(/^\s*!(.+)$/gm)) analyzeScript(nth(m, 1), { ...at, via: [...at.via, "ed !"] }, out);
  }
  if (name === "cd") cdEffect(args, out);
  if (name === "printf" && args[0]?.text === "-v" && args[1] && !args[1].dynamic) {
    // `printf -v g '\x67it'`: g holds the formatted text, when format and arguments are literals
    const text = args.slice(2).some((a) => a.dynamic) ? undefined : printfText(args.slice(2).map((a) => a.text));
    setVar(
      out,
      args[1].text,
      text === undefined ? { text: `$${args[1].text}`, dynamic: true, shape: { kind: "any" } } : { text, dynamic: false, shape: { kind: "exact", text } },
    );
  }
  if (name === "hash") hashEffect(args, out);
  if (name === "alias") aliasEffect(args, out, site, at.depth === 1 && at.via.length === 1);
  if (name === "export" || name === "declare" || name === "typeset" || name === "local" || name === "readonly") exportEffect(args, at, out, site);
  if ((name === "ln" || name === "cp" || name === "install") && args.length >= 2) linkEffect(name, args, out);
  // `dd if=/usr/bin/git of=g`: a whole copy, as cp makes (a count, seek or conv would not be one)
  if (name === "dd" && args.every((a) => (!a.dynamic || a.text.startsWith("if=")) && /^(if|of|bs|ibs|obs|status)=/.test(a.text))) {
    const src = args.find((a) => a.text.startsWith("if="));
    const dst = args.find((a) => a.text.startsWith("of="));
    if (src && dst)
      linkEffect(
        "cp",
        [
          { ...src, text: src.text.slice(3) },
          { ...dst, text: dst.text.slice(3) },
        ],
        out,
      );
  }
  if ((name === "source" || name === ".") && args[0]) runFile(args[0], "shell", at, out, site);

  if (name === "npm" || name === "pnpm" || name === "yarn" || name === "bun") packageScriptEffect(name, args, at, out);
  shellProgramEffect(name, args, at, out, site);
  // sqlite3 with no SQL operand reads its commands (dot-commands run programs) from stdin
  if (
    name === "sqlite3" &&
    site.piped &&
    !site.stdin &&
    operandsOf(args, ["-cmd", "-separator", "-newline", "-nullvalue", "-init", "-vfs", "-maxsize", "-mmap", "-heap", "-lookaside", "-pagecache", "-escape"])
      .length < 2
  ) {
    opaque(out, "program-from-pipe", "sqlite3 reads its commands from a pipe (.shell and .system run programs)", site.text, site.span);
    markUnknownEffects(out);
  }
  if (name === "make" || name === "gmake") makeEffect(args, at, out, site);
}

const operandsOf = (args: Arg[], valued: string[]): Arg[] => args.filter((a, i) => !a.text.startsWith("-") && !valued.includes(args[i - 1]?.text ?? ""));

/**
 * `make SHELL=./x`, `npm run t --script-shell=./x`, `npm_config_script_shell=./x npm run t`: every recipe line or
 * script runs as `./x -c LINE`. A shell is a shell; any other program is read as the program that runs.
 */
function shellProgramEffect(name: string, args: Arg[], at: Where, out: Work, site: CommandSite): void {
  let prog: Arg | undefined;
  if (name === "make" || name === "gmake") {
    const a = args.find((x) => /^SHELL=/.test(x.text));
    if (a) prog = { ...a, text: a.text.slice(6) };
  }
  if (name === "npm" || name === "pnpm" || name === "yarn") {
    const i = args.findIndex((x) => x.text === "--script-shell" || x.text.startsWith("--script-shell="));
    const a = i >= 0 ? nth(args, i) : undefined;
    if (a) prog = a.text.includes("=") ? { ...a, text: a.text.slice(a.text.indexOf("=") + 1) } : args[i + 1];
    prog ??= site.local.get("npm_config_script_shell") ?? site.local.get("NPM_CONFIG_SCRIPT_SHELL") ?? out.vars.get("npm_config_script_shell") ?? undefined;
  }
  if (!prog || (!prog.dynamic && SHELLS.has(basename(prog.text)))) return;
  if (prog.dynamic) {
    opaque(out, "shell-program", `${name} runs its scripts through a program computed at run time`, site.text, site.span);
    return markUnknownEffects(out);
  }
  // the program file itself, read like a script run by path (from earlier in the command or from disk)
  runFile(prog, "auto", { ...at, via: [...at.via, `${name} SHELL=${clip(prog.text, 40)}`] }, out, site);
  if (!prog.text.includes("/")) {
    opaque(out, "shell-program", `${name} runs its scripts through ${clip(prog.text, 40)}, not a shell`, site.text, site.span);
    markUnknownEffects(out);
  }
}

/** The file an interpreter really runs: node adds `.js`, python runs a folder's `__main__.py`. */
function interpreterFile(name: string, p: string, out: Work): string {
  const abs = resolvePath(p, out);
  if (/^(python|pypy)/.test(name) && abs && out.world.kind(abs) === "dir") return path.join(p, "__main__.py");
  if (/^(node|nodejs)$/.test(name) && fileText(p, out) === undefined) {
    for (const ext of [".js", ".cjs", ".mjs", "/index.js"]) if (fileText(p + ext, out) !== undefined) return p + ext;
  }
  return p;
}

/**
 * Code an interpreter loads before (or while) running its program, from files in the project: node's
 * `-r`/`--require`/`--import`/`--loader` (also in NODE_OPTIONS), python's `import X` of a module in the
 * folder (`python3 -c 'import ship'`), perl's `-M X` / `-m X` found under `-I` folders.
 */
function preloaded(name: string, args: Arg[], program: string | undefined, out: Work, site: CommandSite): string[] {
  const files: string[] = [];
  if (/^(node|nodejs)$/.test(name)) {
    const opts = args.map((a) => a.text);
    const env = site.local.get("NODE_OPTIONS") ?? context(out).lookup("NODE_OPTIONS");
    if (env && !env.dynamic) opts.push(...env.text.split(/\s+/).filter(Boolean));
    for (let i = 0; i < opts.length; i++) {
      const t = nth(opts, i);
      const eq = /^--(require|import|loader|experimental-loader)=(.+)$/.exec(t);
      const m = eq ? nth(eq, 2) : /^(-r|--require|--import|--loader|--experimental-loader)$/.test(t) ? opts[++i] : undefined;
      // a bare name is a package (node_modules); a path is a project file
      if (m && /^(\.{1,2}\/|\/)/.test(m)) files.push(interpreterFile(name, m, out));
    }
  }
  const envText = (n: string): string | undefined => {
    const v = site.local.get(n) ?? context(out).lookup(n);
    return v && !v.dynamic ? v.text : undefined;
  };
  if (/^(python|pypy)/.test(name) && program) {
    const roots = ["", ...(envText("PYTHONPATH") ?? "").split(":").filter(Boolean)];
    for (const im of program.matchAll(/(?:^|[;\n])\s*(?:import\s+([\w., ]+)|from\s+(\w+)[\w.]*\s+import)/g)) {
      for (const mod of (im[1] ?? im[2] ?? "").split(",").map((x) => x.trim().split(/[\s.]/)[0] ?? "")) {
        if (!mod) continue;
        const f = roots.flatMap((r) => [path.join(r, `${mod}.py`), path.join(r, mod, "__init__.py")]).find((c) => fileText(c, out) !== undefined);
        if (f) files.push(f);
      }
    }
  }
  if (name === "perl") {
    const dirs: string[] = (envText("PERL5LIB") ?? "").split(":").filter(Boolean);
    const mods: string[] = [];
    // PERL5OPT holds options perl reads as if given first
    const opts = [...(envText("PERL5OPT") ?? "").split(/\s+/).filter(Boolean), ...args.map((a) => a.text)];
    for (let i = 0; i < opts.length; i++) {
      const t = nth(opts, i);
      const m = /^-([IMm])(.*)$/.exec(t);
      if (!m) continue;
      const v = nth(m, 2) || opts[++i] || "";
      if (m[1] === "I") dirs.push(v);
      else mods.push(v.replace(/^-/, "").replace(/[=\s].*$/, ""));
    }
    for (const mod of mods)
      for (const d of dirs) {
        const f = path.join(d, `${mod.replace(/::/g, "/")}.pm`);
        if (fileText(f, out) !== undefined) {
          files.push(f);
          break;
        }
      }
  }
  return [...new Set(files)].slice(0, 8);
}

/** Programs that change a file's metadata, not its text. */
const KEEPS_CONTENT = new Set(["chmod", "chown", "chgrp", "touch", "mkdir"]);

/** Interpreter programs (`python -c`, here-docs into node, shebang scripts): the writes and commands they make. */
function inlineProgram(name: string, code: string, at: Where, out: Work, site: CommandSite, writesDone = false): void {
  if (!step(out, 1 + (code.length >> 10))) return;
  const writes = inlineWrites(code);
  if (!writesDone) pushWrites(writes, name, out);
  // what the program writes into a file is known only at run time (a hook or script it plants is opaque when run)
  for (const w of writes)
    if (!w.dynamic && out.files.size < MAX_REMEMBERED && !out.files.has(normalize(w.path, out))) out.files.set(normalize(w.path, out), null);
  const found = inlineCommands(code, name);
  for (const line of found.scripts) analyzeScript(line, { ...at, via: [...at.via, name] }, out);
  if (found.opaque) {
    opaque(out, "inline-spawn-dynamic", found.opaque, site.text, site.span);
    markUnknownEffects(out);
  }
}

/** The text of a program file (`awk -f F`, `sed -f F`): on disk, written earlier, or printed by `<(echo …)`; opaque when produced at run time. */
function programFile(a: Arg, name: string, out: Work, site: CommandSite): string | undefined {
  if (!a.dynamic) return fileText(a.text, out) ?? undefined;
  if (!/^<\(/.test(a.text)) return undefined;
  const produced = producedText(a.text);
  if (produced === undefined) {
    opaque(out, "program-from-substitution", `${name} reads a program produced at run time (${clip(a.text, 60)})`, site.text, site.span);
    markUnknownEffects(out);
  }
  return produced;
}

function awkEffects(args: Arg[], at: Where, out: Work, site: CommandSite): void {
  const fi = args.findIndex((a) => a.text === "-f" || a.text === "--file");
  if (fi >= 0) {
    const text = args[fi + 1] ? programFile(nth(args, fi + 1), "awk", out, site) : undefined;
    if (typeof text === "string") awkRun(text, at, out, site);
    return;
  }
  const valued = new Set(["-F", "-v", "-f", "-i", "--field-separator", "--assign"]);
  let i = 0;
  while (i < args.length && nth(args, i).text.startsWith("-") && nth(args, i).text !== "--") i += valued.has(nth(args, i).text) ? 2 : 1;
  if (args[i]?.text === "--") i++;
  const prog = args[i];
  if (!prog) return;
  awkRun(prog.text, at, out, site);
}

function awkRun(text: string, at: Where, out: Work, site: CommandSite): void {
  const p = awkProgram(text);
  pushWrites(p.writes, "awk", out);
  for (const s of p.scripts) analyzeScript(s, { ...at, via: [...at.via, "awk"] }, out);
  if (p.opaque) {
    opaque(out, "inline-spawn-dynamic", p.opaque, site.text, site.span);
    markUnknownEffects(out);
  }
}

function sedEffects(name: string, args: Arg[], at: Where, out: Work, site: CommandSite): void {
  if (args.some((a) => a.text === "--sandbox")) return;
  const scripts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = nth(args, i).text;
    if (t === "-e" || t === "--expression") {
      if (args[i + 1]) scripts.push(nth(args, ++i).text);
      continue;
    }
    if (t.startsWith("--expression=")) {
      scripts.push(t.slice(13));
      continue;
    }
    if (/^-[A-Za-z]*e$/.test(t) && !t.startsWith("--") && args[i + 1]) {
      scripts.push(nth(args, ++i).text);
    }
  }
  const fi = args.findIndex((a) => a.text === "-f" || a.text === "--file");
  if (fi >= 0 && args[fi + 1]) {
    const t = programFile(nth(args, fi + 1), name, out, site);
    if (typeof t === "string") scripts.push(t);
  }
  if (scripts.length === 0) {
    const valued = new Set(["-f", "--file", "-l", "--line-length"]);
    let i = 0;
    while (i < args.length && nth(args, i).text.startsWith("-") && nth(args, i).text.length > 1) i += valued.has(nth(args, i).text) ? 2 : 1;
    if (args.some((a) => a.text === "-f" || a.text.startsWith("--file"))) return;
    if (args[i]) scripts.push(nth(args, i).text);
  }
  for (const s of scripts) {
    const p = sedProgram(s);
    pushWrites(p.writes, name, out);
    for (const c of p.scripts) analyzeScript(c, { ...at, via: [...at.via, `${name} e`] }, out);
    if (p.opaque) {
      opaque(out, "inline-spawn-dynamic", p.opaque, site.text, site.span);
      markUnknownEffects(out);
    }
  }
}

function vimEffects(args: Arg[], at: Where, out: Work, site: CommandSite): void {
  const cmds: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = nth(args, i).text;
    if ((t === "-c" || t === "--cmd") && args[i + 1]) cmds.push(nth(args, ++i));
    else if (t.startsWith("+") && t.length > 1) cmds.push({ ...nth(args, i), text: t.slice(1) });
  }
  const buffer: { current?: string } = {};
  for (const c of cmds) {
    const p = vimCommands(c.text, buffer);
    pushWrites(p.writes, "vim", out);
    for (const s of p.scripts) analyzeScript(s, { ...at, via: [...at.via, "vim !"] }, out);
    if (p.opaque || c.dynamic) {
      opaque(out, "inline-spawn-dynamic", p.opaque ?? "vim runs a command computed at run time", site.text, site.span);
      markUnknownEffects(out);
    }
  }
}

function cdEffect(args: Arg[], out: Work): void {
  const d = args.find((a) => !a.text.startsWith("-") || a.text === "-");
  if (!d || d.text === "-" || d.dynamic) {
    out.cwd = d || !out.world.env["HOME"] ? undefined : out.world.env["HOME"];
    return;
  }
  out.cwd = d.text.startsWith("/") ? d.text : out.cwd ? path.resolve(out.cwd, d.text) : undefined;
}

/** `hash -p /usr/bin/git g`: `g` now runs git. */
function hashEffect(args: Arg[], out: Work): void {
  const p = args.findIndex((a) => a.text === "-p");
  const file = args[p + 1];
  const name = args[p + 2];
  if (p < 0 || !file || !name || name.dynamic) return;
  const target = file.dynamic ? (/which\s+git|command\s+-v\s+git/.test(file.text) ? "git" : undefined) : basename(file.text);
  if (target && /^git(-|$)/.test(target) && out.programs.size < MAX_REMEMBERED) out.programs.set(name.text, target);
  // `hash -p ./fake git`: the name now runs that file (read like a script run by path)
  else if (!file.dynamic && out.programs.size < MAX_REMEMBERED) out.programs.set(`hash:${name.text}`, file.text);
}

/** `ln -s "$(which git)" g`, `cp /usr/bin/git ./g`: the new name runs git. `ln -s a_RU.md x`: writes to x reach a_RU.md. */
function linkEffect(name: string, args: Arg[], out: Work): void {
  const valued = new Set(["-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix", "-t", "--target-directory"]);
  const ops = args.filter((a, i) => (!a.text.startsWith("-") || a.dynamic) && !valued.has(args[i - 1]?.text ?? ""));
  if (ops.length < 2) return;
  const src = nth(ops, 0);
  const dst = nth(ops, ops.length - 1);
  if (dst.dynamic) return;
  // only a link shares its target's content (`cp`/`install` make an independent copy; `cp -l`/`-s` link)
  const links =
    name === "ln" ||
    (name === "cp" && args.some((a) => (/^-[a-zA-Z]*[ls]/.test(a.text) && !a.text.startsWith("--")) || a.text === "--link" || a.text === "--symbolic-link"));
  if (links && !src.dynamic && !dst.text.endsWith("/") && out.programs.size < MAX_REMEMBERED) {
    const symbolic = name !== "ln" || args.some((a) => /^-[a-zA-Z]*s/.test(a.text) || a.text === "--symbolic");
    const target = src.text.startsWith("/") || !symbolic ? src.text : path.join(path.dirname(dst.text), src.text);
    out.programs.set(`link:${normalize(dst.text, out)}`, target);
    // a git hook made as a link runs its target: its text is the target's
    const text = GIT_HOOK.test(dst.text) ? fileText(target, out) : undefined;
    if (text !== undefined && out.files.size < MAX_REMEMBERED) out.files.set(normalize(dst.text, out), text);
  }
  const isGit = src.dynamic ? /(which|command\s+-v|type\s+-P)\s+git\b/.test(src.text) : /^git(-[a-z-]+)?$/.test(basename(src.text));
  if (isGit && out.programs.size < MAX_REMEMBERED) {
    // git dispatches on its own name: a link named git-commit runs git commit
    const real = dashedGit(basename(dst.text)) ? basename(dst.text) : src.dynamic ? "git" : basename(src.text);
    for (const n of [dst.text, normalize(dst.text, out), `./${basename(dst.text)}`, basename(dst.text)]) out.programs.set(n, real);
    if (dst.text.endsWith("/")) out.programs.set(path.join(dst.text, real), real);
  }
}

/** `alias g=git`, `alias gc='git commit'`: later words `g`/`gc` are replaced (aliases are on in the agent's shell). */
function aliasEffect(args: Arg[], out: Work, site: CommandSite, topLevel: boolean): void {
  for (const a of args) {
    const eq = a.text.indexOf("=");
    if (eq <= 0) continue;
    if (a.dynamic) {
      opaque(out, "alias-dynamic", "alias defines a command computed at run time", site.text, site.span);
      markUnknownEffects(out);
      continue;
    }
    const name = a.text.slice(0, eq);
    if (out.aliases.size >= MAX_REMEMBERED) continue;
    // the words of the defining line were read before the alias existed: `alias g=git; g commit` runs `g`
    const eol = out.source.indexOf("\n", site.span.end);
    if (topLevel) out.aliasFrom.set(name, { from: eol < 0 ? out.source.length : eol, prior: out.aliases.get(name) });
    else out.aliasFrom.delete(name);
    out.aliases.set(name, a.text.slice(eq + 1));
  }
}

function exportEffect(args: Arg[], at: Where, out: Work, site: CommandSite): void {
  for (const a of args) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/.exec(a.text);
    if (!m) continue;
    const v: WordValue = { text: nth(m, 2), dynamic: a.dynamic, shape: a.dynamic ? { kind: "any" } : { kind: "exact", text: nth(m, 2) } };
    setVar(out, nth(m, 1), v);
    if (GIT_SHELL_ENV.has(nth(m, 1))) shellValue(v, nth(m, 1), site.text, site.span, at, out);
    if (PROMPTS.has(nth(m, 1))) promptValue(v, nth(m, 1), site.text, site.span, at, out);
  }
}

/** `npm run X`, `npm test`, `pnpm X`, `yarn X`: the package.json scripts (with pre/post) are read and analysed. */
/** `npm install` (no package named), `npm ci`, `npm pack`, `npm version`: the root package's lifecycle scripts run. */
function lifecycleEffect(pm: string, args: Arg[], at: Where, out: Work): void {
  const words = args.map((a) => a.text);
  const v = words.findIndex((w) => !w.startsWith("-"));
  const raw = words[v] ?? "";
  const sub = LIFECYCLE_ALIASES[raw] ?? raw;
  const hooks = Object.hasOwn(LIFECYCLE, sub) ? LIFECYCLE[sub] : undefined;
  if (!hooks || words.includes("--ignore-scripts")) return;
  // `npm install lodash` installs a package: its own scripts are not readable here (no worse than before)
  if (sub === "install" && raw !== "ci" && words.slice(v + 1).some((w) => !w.startsWith("-"))) return;
  const text = fileText("package.json", out);
  const inner = { ...at, via: [...at.via, `${pm} ${raw}`] };
  if (text) {
    const fromDisk = !out.files.has(normalize("package.json", out));
    if (fromDisk) out.lenient++;
    try {
      for (const h of hooks) {
        const l = packageScripts(text, h);
        if (l) analyzeScript(l.main, inner, out);
      }
    } finally {
      if (fromDisk) out.lenient--;
    }
  }
  // `npm version X` commits the bump itself (in a git repository, unless told not to)
  if (
    pm === "npm" &&
    sub === "version" &&
    words.slice(v + 1).some((w) => !w.startsWith("-")) &&
    !words.some((w) => /^--(no-git-tag-version|git-tag-version=false)$/.test(w))
  )
    analyzeScript("git commit -m version", inner, out);
}

function packageScriptEffect(pm: string, args: Arg[], at: Where, out: Work): void {
  if (args.some((a) => a.dynamic)) return;
  lifecycleEffect(pm, args, at, out);
  const run = scriptRun(
    pm,
    args.map((a) => a.text),
  );
  if (!run) return;
  const dir = run.dir ?? ".";
  const text = fileText(path.join(dir, "package.json"), out);
  if (!text) return;
  const lines = packageScripts(text, run.script);
  if (!lines) return;
  const extra = run.args.map(shellQuote).join(" ");
  const fromDisk = !out.files.has(normalize(path.join(dir, "package.json"), out));
  const inner = { ...at, via: [...at.via, `${pm} run ${run.script}`] };
  if (fromDisk) out.lenient++;
  try {
    const ignore = args.some((a) => a.text === "--ignore-scripts");
    if (lines.pre !== undefined && !ignore) analyzeScript(lines.pre, inner, out);
    // the arguments after the script name go to the main script only
    analyzeScript(extra ? `${lines.main} ${extra}` : lines.main, inner, out);
    if (lines.post !== undefined && !ignore) analyzeScript(lines.post, inner, out);
  } finally {
    if (fromDisk) out.lenient--;
  }
}

/** `make T`: the recipe lines of T and its prerequisites, read from the Makefile. */
function makeEffect(args: Arg[], at: Where, out: Work, site: CommandSite): void {
  let dir = ".";
  let file: Arg | undefined;
  const targets: string[] = [];
  const vars: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = nth(args, i);
    const t = a.text;
    // make's own grammar: `-C DIR`, `-CDIR`, `--directory=DIR`; `-f F`, `-fF`, `--file=F`; `-j`/`-l` take a number only if one follows
    const long = /^--(directory|file|makefile)=([\s\S]*)$/.exec(t);
    if (long) {
      if (nth(long, 1) === "directory") dir = path.join(dir, nth(long, 2));
      else file = { ...a, text: nth(long, 2) };
      continue;
    }
    if (t === "-C" || t === "--directory") {
      dir = path.join(dir, args[++i]?.text ?? "");
      continue;
    }
    if (t === "-f" || t === "--file" || t === "--makefile") {
      file = args[++i];
      continue;
    }
    const short = /^-([a-zA-Z]*?)([CfIWo])([\s\S]*)$/.exec(t);
    if (short && !t.startsWith("--")) {
      const v = nth(short, 3) || args[++i]?.text || "";
      if (nth(short, 2) === "C") dir = path.join(dir, v);
      if (nth(short, 2) === "f") file = nth(short, 3) ? { ...a, text: v } : args[i];
      continue;
    }
    if (/^-[jl]$/.test(t)) {
      if (/^\d+(\.\d+)?$/.test(args[i + 1]?.text ?? "")) i++;
      continue;
    }
    if (t.startsWith("-")) continue;
    const kv = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/.exec(t);
    if (kv) vars[nth(kv, 1)] = nth(kv, 2);
    else targets.push(t);
  }
  // `make -f <(printf …)`: a makefile printed by a static producer
  const produced = file?.dynamic && /^<\(/.test(file.text) ? producedText(file.text) : undefined;
  if (file?.dynamic && produced === undefined) {
    opaque(out, "program-from-substitution", `make reads a makefile produced at run time (${clip(file.text, 60)})`, site.text, site.span);
    return markUnknownEffects(out);
  }
  if (args.some((a) => a.dynamic && a !== file)) return;
  // -n/-q/--dry-run print or test, they do not run recipes
  if (
    args.some(
      (a) => (/^-[a-zA-Z]*[nq][a-zA-Z]*$/.test(a.text) && !/^-[a-zA-Z]*[CfIjlWo]/.test(a.text)) || /^--(dry-run|just-print|recon|question)$/.test(a.text),
    )
  )
    return;
  const candidates = file ? [file.text] : ["GNUmakefile", "makefile", "Makefile"];
  for (const c of candidates) {
    const text =
      produced !== undefined
        ? produced
        : c === "-"
          ? site.stdin && !site.stdin.dynamic
            ? site.stdin.text
            : null
          : fileText(c.startsWith("/") ? c : path.join(dir, c), out);
    if (text === null) {
      opaque(out, "script-written-at-run-time", `${c} is written by this command with content known only at run time`, site.text, site.span);
      return markUnknownEffects(out);
    }
    if (text === undefined) continue;
    const fromDisk = !out.files.has(normalize(path.join(dir, c), out));
    if (fromDisk) out.lenient++;
    try {
      for (const r of makeRecipes(text, targets, vars) ?? []) {
        for (const line of r.lines) analyzeScript(line, { ...at, via: [...at.via, `make ${r.target}`] }, out);
      }
    } finally {
      if (fromDisk) out.lenient--;
    }
    return;
  }
}

function assignmentArg(a: Assignment, ctx: WordContext): Arg {
  if (a.value.type === "Word") {
    const v = evalWord(a.value, ctx);
    return { ...v, text: `${a.name}=${v.text}`, shape: v.dynamic ? { kind: "any" } : { kind: "exact", text: `${a.name}=${v.text}` } };
  }
  return { text: a.text, dynamic: a.value.elements.some((e) => evalWord(e, ctx).dynamic) };
}

function markUnknownEffects(out: Work): void {
  if (out.lenient > 0) return;
  if (!out.writes.some((w) => w.by === "opaque command")) out.writes.push({ path: "<dynamic>", dynamic: true, by: "opaque command" });
}

/** One record per wrapper peeled off argv, each with the words from itself on. Returns the innermost one's index. */
/** The words before the launched program (`valgrind --log-file=x true` → `--log-file=x`): options and their values. */
function launcherOptions(words: Arg[]): Arg[] {
  const out: Arg[] = [];
  for (let i = 0; i < words.length; i++) {
    const t = nth(words, i).text;
    if (!t.startsWith("-")) break;
    out.push(nth(words, i));
    // `-o FILE`: the value belongs to the option
    if (/^-[a-zA-Z]*o$|^--(output|log-file|xml-file)$/.test(t) && words[i + 1]) out.push(nth(words, ++i));
  }
  return out;
}

function recordWrappers(argv: Arg[], wrappers: string[], at: Where, site: CommandSite, out: Work): number {
  let from = 0;
  let parent = at.parent;
  for (const [i, w] of wrappers.entries()) {
    while (from < argv.length && basename(nth(argv, from).text) !== w) from++;
    const words = argv.slice(from);
    if (words.length === 0) break;
    const idx = out.commands.length;
    if (!NOT_PROGRAMS.has(w)) out.commands.push(commandRecord(words, verbIndex(w, words), [...at.via, ...wrappers.slice(0, i)], site.span, parent));
    // a launcher's own output files: its options come before the program it runs
    if (w === "strace" || w === "ltrace" || w === "time" || w === "script" || w === "valgrind")
      pushWrites(writesOf(w, launcherOptions(words.slice(1))), w, out);
    parent = idx;
    from++;
  }
  return parent;
}

/** `[` is the test builtin: it runs nothing and no row is about it. */
const NOT_PROGRAMS = new Set(["[", "[["]);

function commandRecord(argv: Arg[], verb: number, via: string[], span: Span, parent: number, name?: string): ShellCommand {
  const n = name ?? basename(argv[0]?.text ?? "");
  return {
    name: n,
    argv: argv.map((a) => a.text),
    dynamic: argv.map((a, i) => a.dynamic || (i === verb && !!a.pattern)),
    verb,
    via,
    words: argv.map((a) => ({
      text: a.text,
      provenance: a.provenance ?? ((a.dynamic ? "unknown" : "literal") as Provenance),
      span: a.span ?? span,
      shape: a.shape ?? (a.dynamic ? { kind: "any" } : a.pattern ? { kind: "glob", glob: a.text } : { kind: "exact", text: a.text }),
    })),
    span,
    parent,
    implied: [],
  };
}

/** `find . -exec rm {} +` runs rm; `-delete` removes what it finds (known only at run time). */
function visitFind(args: Arg[], at: Where, out: Work, site: CommandSite): void {
  const name = args.findIndex((a) => a.text === "-name" || a.text === "-iname");
  const pattern = name >= 0 ? args[name + 1]?.text : undefined;
  for (let i = 0; i < args.length; i++) {
    const t = nth(args, i).text;
    if (t === "-delete") out.writes.push({ path: "<found>", dynamic: true, pattern: pattern ? `**/${pattern}` : "**", by: "find -delete" });
    if (t === "-fprint" || t === "-fprintf" || t === "-fls" || t === "-fprint0")
      pushWrites([{ path: args[i + 1]?.text ?? "", dynamic: !!args[i + 1]?.dynamic }], "find", out);
    if (t === "-exec" || t === "-execdir" || t === "-ok" || t === "-okdir") {
      let j = i + 1;
      while (j < args.length && nth(args, j).text !== ";" && nth(args, j).text !== "+") j++;
      // `{}` stands for each path found: `find -name commit -exec git {} \;` is no literal subcommand.
      const inner = args
        .slice(i + 1, j)
        .map((a) =>
          a.text.includes("{}") ? { ...a, dynamic: true, shape: pattern ? { kind: "glob" as const, glob: `**/${pattern}` } : { kind: "any" as const } } : a,
        );
      if (inner.length > 0) visitArgv(inner, { ...at, via: [...at.via, "find -exec"] }, out, { ...site, stdin: undefined, piped: false });
      i = j;
    }
  }
}

function pushWrites(paths: PathArg[], by: string, out: Work): void {
  for (const p of paths) {
    // `tee >(gzip > out.gz)`: the process substitution is a pipe; its own redirect is recorded when walked.
    if (p.dynamic && /^[<>]\(/.test(p.path)) continue;
    if (!p.dynamic && !isRealFile(p.path)) continue;
    out.writes.push({ ...p, by });
    if (!p.dynamic && by !== "git" && !by.startsWith("git ") && isGitInternal(p.path)) {
      opaque(
        out,
        "git-hooks-door",
        `${clip(by, 40)} writes ${clip(p.path, 60)}, one of git's own files (hooks, config, refs): git's hooks could be switched off or refs moved without them`,
        p.path,
        { start: 0, end: 0 },
      );
      markUnknownEffects(out);
    }
    if (!p.dynamic && !p.noFollow) {
      // a write through a symlink changes its target: `ln -s a_RU.md x; echo > x`, or a link already on disk
      const key = normalize(p.path, out);
      const linked = out.programs.get(`link:${key}`);
      if (linked) out.writes.push({ path: linked, dynamic: false, by: `${by} (through link ${clip(p.path, 60)})` });
      const abs = resolvePath(p.path, out);
      const real = abs && out.world.kind(abs) === "link" ? out.world.realpath(abs) : undefined;
      if (real && real !== abs) out.writes.push({ path: real, dynamic: false, by: `${by} (through link ${clip(p.path, 60)})` });
    }
  }
}

function pushReads(paths: PathArg[], by: string, out: Work): void {
  for (const p of paths) {
    if (p.dynamic && /^[<>]\(/.test(p.path)) continue;
    if (p.dynamic || isRealFile(p.path)) out.reads.push({ ...p, by });
  }
}

/** A redirect: recorded, and a write or read; `cat > x.sh <<EOF` also remembers x.sh's text for a later `bash x.sh`. */
function redirectEffect(r: Redirection, by: string, command: number, argv: Arg[] | undefined, span: Span, out: Work, stdin?: Arg): void {
  const fd = r.descriptor?.type === "FileDescriptor" ? r.descriptor.value : undefined;
  if (r.type === "HereDoc") {
    out.redirects.push({
      op: r.operator,
      fd,
      target: r.delimiter?.value ?? "",
      dynamic: false,
      heredoc: { delimiter: r.delimiter?.value ?? "", quoted: !!r.delimiter?.quoted, body: clip(r.body.text, 4096) },
      command,
      span,
    });
    return;
  }
  if (!r.target) return;
  if (r.type === "Redirect" && expandWord(r.target, context(out)).length > 1) return; // `> a_{RU,EN}.md`: ambiguous redirect, nothing written
  const target = evalWord(r.target, context(out));
  out.redirects.push({ op: r.operator, fd, target: target.text, dynamic: target.dynamic, command, span: { start: r.pos, end: r.end } });
  if (r.type === "HereString") return;
  const op = r.operator;
  if (op === "<&") return;
  const file: PathArg = { path: target.text, dynamic: target.dynamic };
  if (target.dynamic || target.pattern) file.pattern = target.shape?.kind === "glob" ? target.shape.glob : "**";
  if (op === "<") return pushReads([file], `< (${by})`, out);
  // `2>&1`, `>&-`: fd duplication, not a file.
  if (op === ">&" && !target.dynamic && /^(\d+|-)$/.test(target.text)) return;
  pushWrites([file], `${op} (${by})`, out);
  if (!file.dynamic && argv && isRealFile(file.path) && out.files.size < MAX_REMEMBERED) rememberFile(file.path, op, argv, stdin, out);
}

/** printf / echo -e escapes that matter for a script's shape: newlines and tabs. */
function cEscapes(s: string): string {
  return s.replace(/\\([ntr\\])/g, (_m, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c === "r" ? "\r" : "\\"));
}

/** The text a command writes to a file, when we can tell: `cat <<EOF`, `echo …`, `printf …`. */
function rememberFile(p: string, op: string, argv: Arg[], stdin: Arg | undefined, out: Work): void {
  const key = normalize(p, out);
  const name = basename(argv[0]?.text ?? "");
  let text: string | null = null;
  if (argv.slice(1).some((a) => a.dynamic)) text = null;
  else if ((name === "cat" || name === "tee") && argv.length === 1 && stdin) text = stdin.dynamic ? null : stdin.text;
  else if (name === "echo")
    text =
      argv
        .slice(1)
        .filter((a) => !/^-[neE]+$/.test(a.text))
        .map((a) => (argv.some((x) => /^-[nE]*e[nE]*$/.test(x.text)) ? cEscapes(a.text) : a.text))
        .join(" ") + "\n";
  else if (name === "printf")
    text =
      argv
        .slice(1)
        .map((a) => cEscapes(a.text))
        .join("\n") + "\n";
  const prev = out.files.get(key);
  out.files.set(key, op === ">>" && prev !== undefined ? (prev === null || text === null ? null : prev + text) : text);
}

function heredocText(redirects: Redirection[], ctx: WordContext): Arg | undefined {
  for (const r of redirects) {
    if (r.type === "HereDoc") return { text: r.body.text, dynamic: !r.delimiter?.quoted && !!r.body.parts?.some((p) => p.type !== "Literal") };
    if (r.type === "HereString" && r.target) return evalWord(r.target, ctx);
  }
  return undefined;
}

/** `python3 -` or `python3` with no script: the program comes on stdin. */
function isStdinProgram(argv: Arg[]): boolean {
  // `deno run -A -`, `bun run -`
  const words = /^(deno|bun)$/.test(basename(argv[0]?.text ?? "")) && argv[1]?.text === "run" ? [nth(argv, 0), ...argv.slice(2)] : argv;
  if (words !== argv) return isStdinProgram(words);
  const rest = argv.slice(1).filter((a) => !a.text.startsWith("-") || a.text === "-");
  if (argv.slice(1).some((a) => /^-[A-Za-z]*[cerE]$|^--(eval|print)(=|$)|^-m$/.test(a.text))) return false;
  return rest.length === 0 || nth(rest, 0).text === "-" || STDIN_PATH.test(nth(rest, 0).text);
}

/** The program of `python -c CODE`, `node -e CODE`, `perl -e CODE`. */
function inlineProgramArg(name: string, args: Arg[]): Arg | undefined {
  if (!isInterpreter(name)) return undefined;
  // `deno eval CODE`, `bun eval`
  if ((name === "deno" || name === "bun") && args[0]?.text === "eval") return args.slice(1).find((a) => !a.text.startsWith("-"));
  const eq = args.find((a) => /^--(eval|print)=/.test(a.text));
  if (eq) return { ...eq, text: eq.text.slice(eq.text.indexOf("=") + 1) };
  const i = args.findIndex((a) => isProgramFlag(name, a.text));
  return i >= 0 ? args[i + 1] : undefined;
}

const shellQuote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

// re-exported for tests that build patterns
export { globEscape };
