// Which command line's result is a run of the check. The host reports one
// exit status per Bash call: that of the line's last command. A run counts
// only when that command IS the check (alone, or last in an `&&` chain), with
// nothing on the line that can mask or replace its status, in the workspace
// the evidence row binds to. PURE: the line is parsed with the same parser
// the shell analysis uses, and the row is matched by the analysis and the
// core's own command matcher (match-shell.ts), never by a second rule.
import { posix as path } from "node:path";
import { parse, type Command, type Statement, type Word, type AndOr, type PipelineNode, type Assignment } from "unbash";
import { analyzeCommand, type ShellCommand } from "./shell/analyze.js";
import { matchCommand } from "./match-shell.js";
import type { Row } from "./types.js";

export type Observed = { counts: true } | { counts: false; why: string };

export interface RunQuery {
  /** The Bash command line as the host will run it. */
  command: string;
  /** The directory the host runs it in (absolute). */
  cwd: string;
  /** The folder the evidence row binds to (absolute). */
  workspace: string;
  /** The row's `when.command`. */
  check: { name: string; sub?: readonly string[]; args?: readonly string[] };
}

/**
 * Shell builtins that change what later commands on the line do or whether
 * they run at all (a trap that exits 0, a function named `npm`, `exit 0`):
 * none may come before the check.
 */
const STATE_CHANGING = new Set([
  "trap",
  "alias",
  "unalias",
  "exec",
  "set",
  "shopt",
  "enable",
  "hash",
  "source",
  ".",
  "eval",
  "declare",
  "typeset",
  "local",
  "readonly",
  "unset",
  "builtin",
  "exit",
  "return",
  "logout",
  "kill",
  "disown",
  "pushd",
  "popd",
  "ulimit",
  "fc",
  "bind",
  "complete",
]);

/** Wrappers that run the program with its own exit status (`env` only with NAME=VALUE words: its options can change the folder). */
const STATUS_WRAPPERS = new Set(["env", "command", "exec", "nohup", "nice"]);

/**
 * Variables a check may be given on its line. Any other can change what the
 * check runs (PATH, NODE_OPTIONS, npm_config_script_shell, BASH_ENV, …).
 */
const SAFE_VARIABLE = /^(CI|FORCE_COLOR|NO_COLOR|TERM|COLUMNS|LINES|LANG|LANGUAGE|LC_[A-Z]+|TZ|NODE_ENV|DEBUG|SKILLGATE_RERUN)$/;

/** Package managers: options that run another package's script, or the script with another shell. */
const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun", "npx", "pnpx", "bunx"]);
const PM_FOLDER = new Set(["--prefix", "-C", "--dir", "--cwd"]);
const PM_ELSEWHERE = new Set([
  "--workspace",
  "-w",
  "--workspaces",
  "-ws",
  "--filter",
  "-F",
  "--recursive",
  "-r",
  "--global",
  "-g",
  "--location",
  "--script-shell",
  "--userconfig",
  "--globalconfig",
  "--include-workspace-root",
]);
/** Any other program: options that name the folder or the definition the run uses. */
const OTHER_FOLDER = new Set(["-C", "--directory", "--cwd", "--dir", "--prefix", "--rootdir", "--rootDir", "--root-dir"]);
const OTHER_ELSEWHERE = new Set(["--manifest-path", "-f", "--file", "--makefile", "--config", "--config-file", "--project"]);

/** Whether the exit status the host reports for `command` is that of a real run of the check, in the workspace. */
export function runCounts(q: RunQuery): Observed {
  const no = (why: string): Observed => ({ counts: false, why });
  const script = parse(q.command);
  if (script.errors?.length) return no("the command line does not parse");
  const statements = script.commands;
  const last = statements.at(-1);
  if (!last) return no("the command line is empty");
  let dir = path.normalize(q.cwd);
  // Statements before the last (`a; b; check`): they may fail and go on, so a `cd` there leaves the folder unknown.
  for (const s of statements.slice(0, -1)) {
    if (s.background) return no("something runs in the background (`&`) on the line");
    for (const c of simpleCommands(s.command)) {
      if (!c) return no("a compound command, function or subshell comes before the check");
      const bad = earlier(c, q.command);
      if (bad) return no(bad);
      if (nameOf(c) === "cd") return no("a `cd` before `;` may fail and leave the folder unknown; write `cd DIR && …`");
    }
  }
  if (last.background) return no("it runs in the background (`&`): its exit status is not the host's");
  const chain = chainOf(last);
  if (typeof chain === "string") return no(chain);
  const final = chain.at(-1);
  for (const c of chain.slice(0, -1)) {
    const bad = earlier(c, q.command);
    if (bad) return no(bad);
    if (nameOf(c) === "cd") {
      const arg = c.suffix.length === 1 ? c.suffix[0] : undefined;
      const to = arg ? staticWord(arg) : undefined;
      if (to === undefined || to === "-" || to.startsWith("~")) return no("a `cd` on the line goes to a folder known only at run time");
      dir = path.resolve(dir, to);
    }
  }
  if (!final) return no("the command line is empty");
  // The check itself: the row must match the last command (and the analysis see through to it).
  const a = analyzeCommand(q.command.slice(final.pos, final.end));
  const own = a.commands.filter((c) => c.span.start === 0);
  const row = rowOf(q.check);
  const hit = own.find((c) => {
    const h = matchCommand({ row }, { analysis: { ...a, commands: [c], opaque: [] }, writes: [] });
    return h !== undefined && h.opaque !== true;
  });
  if (!hit)
    return no(
      `the last command is not the check (${q.check.name}${q.check.sub ? ` ${q.check.sub.join("|")}` : ""}): the host's exit status is another command's`,
    );
  if (hit.argv[0] !== q.check.name) return no(`the program is named by a path (${hit.argv[0]}), not the ${q.check.name} on PATH`);
  const via = hit.via.filter((v) => v !== "time");
  if (via.some((v) => !STATUS_WRAPPERS.has(v))) return no(`it runs inside ${via.join(", ")}, whose exit status may not be the check's`);
  // Variables set for the check: on the line, or by `env`.
  const assigned: [string, string | undefined][] = [
    ...final.prefix
      .filter((p): p is Assignment => p.type === "Assignment")
      .map((p): [string, string | undefined] => [p.name, p.value.type === "Word" ? staticWord(p.value) : undefined]),
    ...envAssignments(own),
  ];
  if (own.some((c) => c.name === "env" && envHasOptions(c))) return no("`env` with options can change the folder or the environment of the check");
  for (const [name, value] of assigned) {
    if (/^npm_config_prefix$/i.test(name) && value !== undefined) {
      dir = path.resolve(dir, value);
      continue;
    }
    if (!SAFE_VARIABLE.test(name)) return no(`it sets ${name} for the check, which can change what runs`);
  }
  // Options that run the check somewhere else, or with another definition.
  const pm = PACKAGE_MANAGERS.has(hit.name);
  const folder = pm ? PM_FOLDER : OTHER_FOLDER;
  const elsewhere = pm ? PM_ELSEWHERE : OTHER_ELSEWHERE;
  for (let i = 1; i < hit.argv.length; i++) {
    const w = hit.argv[i] ?? "";
    if (w === "--") break;
    const eq = w.indexOf("=");
    const opt = w.startsWith("-") && eq > 0 ? w.slice(0, eq) : w;
    if (elsewhere.has(opt)) return no(`${opt} runs another package's or another definition's check`);
    if (!folder.has(opt)) continue;
    const at = eq > 0 && opt !== w ? i : i + 1;
    const value = eq > 0 && opt !== w ? w.slice(eq + 1) : hit.argv[i + 1];
    if (value === undefined || hit.dynamic[at]) return no(`${opt} names a folder known only at run time`);
    dir = path.resolve(dir, value);
    if (at > i) i++;
  }
  const ws = path.normalize(q.workspace);
  if (trimSlash(dir) !== trimSlash(ws)) return no(`it runs in ${dir}, not in the workspace ${ws}`);
  return { counts: true };
}

/** A minimal command row for the core's matcher. */
function rowOf(check: RunQuery["check"]): Row {
  return {
    id: "check",
    kind: "evidence",
    when: { command: { name: check.name, ...(check.sub ? { sub: [...check.sub] } : {}), ...(check.args ? { args: [...check.args] } : {}) } },
    paths: [],
  } as Row;
}

/** `&&`-chain of plain commands whose last one sets the status; or why something on it can mask that status. */
function chainOf(s: Statement): Command[] | string {
  const node = s.command;
  const parts: readonly PipelineNode[] = node.type === "AndOr" ? (node as AndOr).commands : [node as PipelineNode];
  if (node.type === "AndOr" && (node as AndOr).operators.some((o) => o !== "&&")) return "`||` on the line makes its exit status another command's";
  const out: Command[] = [];
  for (const p of parts) {
    const c = plain(p);
    if (c) out.push(c);
    else if (p.type === "Pipeline" && p.prefixes.some((x) => x.type === "Negation")) return "`!` inverts its exit status";
    else if (p.type === "Pipeline") return "a pipe makes its exit status the last piped command's";
    else return "a subshell, group or other compound command holds it: run it as a plain command";
  }
  return out;
}

/** A simple command, seen through `time` (which keeps the status); a pipe, `!` or compound is not plain. */
function plain(p: PipelineNode): Command | undefined {
  if (p.type === "Command") return p;
  if (p.type === "Pipeline" && p.commands.length === 1 && p.prefixes.every((x) => x.type === "Time")) {
    const only = p.commands[0];
    return only?.type === "Command" ? only : undefined;
  }
  return undefined;
}

/** Every simple command of an earlier statement; undefined entries for anything compound. */
function simpleCommands(node: Statement["command"]): (Command | undefined)[] {
  const parts: readonly PipelineNode[] = node.type === "AndOr" ? node.commands : [node];
  return parts.flatMap((p) =>
    p.type === "Command" ? [p] : p.type === "Pipeline" ? p.commands.map((c) => (c.type === "Command" ? c : undefined)) : [undefined],
  );
}

/** Why a command before the check can change its status or meaning; "" when it cannot. */
function earlier(c: Command, source: string): string {
  const name = nameOf(c);
  if (name === undefined) {
    if (!c.name) {
      for (const p of c.prefix)
        if (p.type === "Assignment" && !SAFE_VARIABLE.test(p.name)) return `it sets ${p.name} before the check, which can change what runs`;
      return "";
    }
    return `a command before the check is named at run time (${source.slice(c.pos, c.end).slice(0, 60)})`;
  }
  if (STATE_CHANGING.has(name)) return `\`${name}\` before the check can change its exit status or what it runs`;
  if (name === "export") {
    for (const w of c.suffix) {
      const n = w.type === "Assignment" ? w.name : w.type === "Word" ? (staticWord(w) ?? "") : "";
      if (!SAFE_VARIABLE.test(n)) return `\`export ${n || "…"}\` before the check can change what runs`;
    }
  }
  return "";
}

function nameOf(c: Command): string | undefined {
  return c.name ? staticWord(c.name) : undefined;
}

/** `env A=1 B=2 npm test`: the assignments env makes (env's own argv). */
function envAssignments(own: ShellCommand[]): [string, string | undefined][] {
  const out: [string, string | undefined][] = [];
  for (const c of own) {
    if (c.name !== "env") continue;
    for (let i = 1; i < c.argv.length; i++) {
      const w = c.argv[i] ?? "";
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(w);
      if (!m) break;
      out.push([m[1] ?? "", c.dynamic[i] ? undefined : m[2]]);
    }
  }
  return out;
}

function envHasOptions(c: ShellCommand): boolean {
  for (let i = 1; i < c.argv.length; i++) {
    const w = c.argv[i] ?? "";
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) continue;
    return w.startsWith("-");
  }
  return false;
}

/** The value of a word with no expansion, glob or brace in it; undefined otherwise. */
function staticWord(w: Word | Assignment | { type: string }): string | undefined {
  if (w.type !== "Word") return undefined;
  const word = w as Word;
  const ok = (word.parts ?? []).every(
    (p) =>
      p.type === "Literal" ||
      p.type === "SingleQuoted" ||
      p.type === "AnsiCQuoted" ||
      (p.type === "DoubleQuoted" && p.parts.every((x) => x.type === "Literal")),
  );
  return ok ? word.value : undefined;
}

const trimSlash = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p);
