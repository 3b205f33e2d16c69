// Inline programs: `python -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`, and
// here-docs or here-strings fed to an interpreter. We cannot run them, so we
// read them for two things only, both by the calls they make:
//
// Writes. A path counts as written when
//  1. it is a string literal handed as the path to a call that opens a file
//     for writing or changes/removes it (open(f, 'w'), fs.writeFileSync(f),
//     Path(f).write_text, File.write, open(FH, '>f'), os.remove, ...);
//  2. or such a call gets a computed path (a variable, f-string, template,
//     path.join...): then every path-like string literal in the program counts
//     as written (`p = 'a_RU.md'; open(p, 'w')`), or `<dynamic>` if none.
// Reading calls (open(f), readFileSync) write nothing.
//
// Commands. os.system('...'), subprocess.run([...]), execSync('...'),
// system('...'): a literal command is analysed like `bash -c`; a computed one
// makes the whole command opaque.
import type { PathArg } from "./writes.js";
import { lookup } from "./wrappers.js";

/** Which argument of a call is the written path; "open" decides from the mode. */
type Target = "first" | "both" | "second" | "open" | "receiver";

const CALLS: Record<string, Target> = {
  // node fs: distinctive names, with or without `fs.`
  writeFile: "first", writeFileSync: "first", appendFile: "first", appendFileSync: "first", createWriteStream: "first",
  truncateSync: "first", rmSync: "first", unlinkSync: "first", rmdirSync: "first", mkdirSync: "first",
  renameSync: "both", copyFileSync: "second", cpSync: "second", openSync: "open",
  "fs.rm": "first", "fs.unlink": "first", "fs.truncate": "first", "fs.rmdir": "first", "fs.mkdir": "first",
  "fs.rename": "both", "fs.copyFile": "second", "fs.cp": "second", "fs.open": "open",
  // python
  open: "open", "io.open": "open", "codecs.open": "open",
  "os.remove": "first", "os.unlink": "first", "os.rmdir": "first", "os.removedirs": "first", "os.mkdir": "first", "os.makedirs": "first", "shutil.rmtree": "first",
  "os.rename": "both", "os.replace": "both", "shutil.move": "both",
  "shutil.copy": "second", "shutil.copy2": "second", "shutil.copyfile": "second", "shutil.copytree": "second",
  write_text: "receiver", write_bytes: "receiver", touch: "receiver",
  // ruby
  "File.write": "first", "File.delete": "first", "File.unlink": "first", "File.open": "open", "File.rename": "both",
  "FileUtils.rm": "first", "FileUtils.rm_f": "first", "FileUtils.rm_rf": "first", "FileUtils.touch": "first",
  "FileUtils.mv": "both", "FileUtils.cp": "second",
  // perl, php
  unlink: "first", rename: "both", file_put_contents: "first", fopen: "open", copy: "second",
};

/** How a call runs a command: a shell string, or a program and its argument list. */
type Spawn = "shell" | "argv";

const SPAWNS: Record<string, Spawn> = {
  // bare names: perl, ruby, php builtins and destructured child_process functions
  system: "shell", exec: "shell", shell_exec: "shell", passthru: "shell", popen: "shell",
  execSync: "shell", execFileSync: "argv", execFile: "argv", spawnSync: "argv", spawn: "argv",
  "os.system": "shell", "os.popen": "shell",
  "subprocess.run": "argv", "subprocess.call": "argv", "subprocess.check_call": "argv", "subprocess.check_output": "argv",
  "subprocess.Popen": "argv", "subprocess.getoutput": "shell", "subprocess.getstatusoutput": "shell",
  "child_process.exec": "shell", "child_process.execSync": "shell", "child_process.spawn": "argv", "child_process.spawnSync": "argv",
  "child_process.execFile": "argv", "child_process.execFileSync": "argv",
  "Open3.capture2": "shell", "Open3.capture3": "shell", "Kernel.system": "shell",
};

const CALL_SITE = /(?:\b(os|shutil|fs|fsp|promises|File|FileUtils|io|codecs|subprocess|child_process|cp|Open3|Kernel)\s*\.\s*)?(\.\s*)?\b([A-Za-z_]\w*)\s*\(/g;
const LITERAL = /^\s*(?:[rRbBuU]{0,2})(['"`])([^'"`]*)\1\s*$/;
const ANY_LITERAL = /(?:\b[fFrRbBuU]{1,2})?(['"`])([^'"`\n]*)\1/g;
const PATHLIKE = /(^|\/)[^/\s]+\.[A-Za-z0-9]{1,8}$/;

interface Call<T> {
  kind: T;
  /** The call's name as written (`fs.writeFileSync`). */
  name: string;
  args: string[];
  /** Text just before the call (for `Path('f').write_text`). */
  before: string;
}

/** Past this many file or process calls the program is not read further: it counts as computed. */
const MAX_CALLS = 1000;

/**
 * The calls of `table` in the program: `qualifier.name(args)`, or a bare
 * `name(args)`; on any other receiver (`x.exec()` on a RegExp) only names
 * `receiverOk` accepts. Null when there are too many to read.
 */
function callsOf<T>(code: string, table: Record<string, T>, receiverOk: (name: string) => boolean): Call<T>[] | null {
  const out: Call<T>[] = [];
  for (const m of code.matchAll(CALL_SITE)) {
    const qualifier = m[1] === "fsp" || m[1] === "promises" ? "fs" : m[1] === "cp" ? "child_process" : m[1];
    const name = m[3]!;
    const kind = qualifier
      ? lookup(table, `${qualifier}.${name}`) ?? (qualifier === "fs" && receiverOk(name) ? lookup(table, name) : undefined)
      : m[2] ? (receiverOk(name) ? lookup(table, name) : undefined) : lookup(table, name);
    if (kind === undefined) continue;
    if (out.length >= MAX_CALLS) return null;
    const end = m.index! + m[0].length;
    const nameAt = m.index! + m[0].lastIndexOf(name);
    out.push({ kind, name: qualifier ? `${qualifier}.${name}` : name, args: callArgs(code, end), before: code.slice(Math.max(0, nameAt - 300), nameAt) });
  }
  return out;
}

/** Node's fs names are distinctive enough to trust on any receiver (`require('fs').writeFileSync`). */
const distinctive = (name: string): boolean => /Sync$|File|Stream|^write_|^touch$|^open$/.test(name);

export function inlineWrites(code: string): PathArg[] {
  const out: PathArg[] = [];
  const found = callsOf(code, CALLS, distinctive);
  let computed = found === null;
  for (const c of found ?? []) {
    for (const p of writtenArgs(c.kind, c.args, c.before)) {
      if (p === undefined) continue; // no such argument: not a file call after all
      const lit = literal(p);
      if (lit !== undefined) out.push({ path: lit, dynamic: false });
      else computed = true;
    }
  }
  if (computed) {
    const literals = [...code.matchAll(ANY_LITERAL)].map((l) => l[2]!).filter(isPathLike);
    out.push(...(literals.length ? literals.map((p) => ({ path: p, dynamic: false })) : [{ path: "<computed in the program>", dynamic: true }]));
  }
  return out;
}

export interface InlineCommands {
  /** Shell command lines the program runs, to analyse like `bash -c`. */
  scripts: string[];
  /** Set when the program runs a command built at run time. */
  opaque?: string;
}

export function inlineCommands(code: string): InlineCommands {
  const out: InlineCommands = { scripts: [] };
  const found = callsOf(code, SPAWNS, (n) => /Sync$|^execFile$/.test(n));
  if (found === null) return { scripts: [], opaque: `the inline program makes more than ${MAX_CALLS} process calls` };
  for (const c of found) {
    const line = commandLine(c.kind, c.args);
    if (line === undefined) out.opaque = `${c.name}() in an inline program runs a command built at run time`;
    else out.scripts.push(line);
  }
  return out;
}

/** The shell line a spawn call runs, when it is spelled with literals. */
function commandLine(kind: Spawn, args: string[]): string | undefined {
  const first = literal(args[0]);
  const list = (a: string | undefined): string[] | undefined => {
    const m = a === undefined ? null : /^\s*\[([\s\S]*)\]\s*$/.exec(a);
    if (!m) return undefined;
    const items = splitTop(m[1]!).filter((x) => x.trim() !== "").map(literal);
    return items.every((x) => x !== undefined) ? (items as string[]) : undefined;
  };
  if (first !== undefined) {
    // system('git', 'commit') in perl/ruby is an argv, like spawn
    const all = args.map(literal);
    if (kind === "shell") return args.length > 1 && all.every((x) => x !== undefined) ? (all as string[]).map(shellQuote).join(" ") : first;
    // spawn('git', ['commit', '-m', 'x']); a missing list means no arguments
    const rest = args[1] === undefined || /^\s*\{/.test(args[1]) ? [] : list(args[1]);
    return rest ? [first, ...rest].map(shellQuote).join(" ") : undefined;
  }
  // subprocess.run(['git', 'commit'])
  const argv = list(args[0]);
  return argv ? argv.map(shellQuote).join(" ") : undefined;
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The text of a string literal argument, interpolations left as written. */
const literalText = (arg: string | undefined): string | undefined => (arg === undefined ? undefined : LITERAL.exec(arg)?.[2]);

/** The value of a plain string literal; undefined for anything computed or interpolated ("$f", `${d}`, #{d}). */
function literal(arg: string | undefined): string | undefined {
  const t = literalText(arg);
  return t !== undefined && !/\$[\w{]|#\{/.test(t) ? t : undefined;
}

const isPathLike = (s: string): boolean => s.length > 0 && s.length < 256 && !/\s/.test(s) && !/^[a-z]+:\/\//i.test(s) && (PATHLIKE.test(s) || s.includes("/"));

/** The argument texts of the call whose `(` ends at `from`. */
function callArgs(code: string, from: number): string[] {
  return splitTop(code.slice(from, from + 1024), true);
}

/** Split at top-level commas, quotes and brackets respected; with `call`, stop at the closing `)`. */
function splitTop(text: string, call = false): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) { if (c === "\\") i++; else if (c === quote) quote = ""; continue; }
    if (c === "'" || c === '"' || c === "`") quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
    else if ((c === ")" && call) || (c === "," && depth === 0)) {
      parts.push(text.slice(start, i));
      start = i + 1;
      if (c === ")") return parts;
    }
  }
  if (!call || start < text.length) parts.push(text.slice(start));
  return parts;
}

function writtenArgs(target: Target, args: string[], before: string): (string | undefined)[] {
  switch (target) {
    case "first": return [args[0]];
    case "both": return [args[0], args[1]];
    case "second": return [args[1]];
    case "receiver": {
      // Path('notes_RU.md').write_text(...): the path is the receiver.
      const m = /Path\(\s*((['"])[^'"]*\2)\s*\)\s*\.\s*$/.exec(before);
      return [m ? m[1] : "<computed receiver>"];
    }
    case "open": {
      if (/Path\(\s*(['"])[^'"]*\1\s*\)\s*\.\s*$/.test(before)) {
        // Path('f').open('w')
        return /[wax+]/.test(literalText(args[0]) ?? "") ? writtenArgs("receiver", [], before) : [];
      }
      const mode = literalText(args[1]);
      // perl: open(FH, '>', 'f') and open(FH, '>f')
      if (mode !== undefined && /^\s*(\+?[<>]|\|)/.test(mode)) {
        if (!/^\s*\+?>|^\s*\+</.test(mode)) return [];
        if (/^\s*\+?[<>]{1,2}\s*$/.test(mode)) return [args[2]];
        return [`'${mode.replace(/^\s*\+?[<>]{1,2}\s*/, "")}'`];
      }
      const kw = args.map((a) => /^\s*mode\s*=\s*(.*)$/s.exec(a)?.[1]).find((x) => x !== undefined);
      const m = literalText(kw) ?? mode;
      return m !== undefined && /[wax+]/.test(m) ? [args[0]] : [];
    }
  }
}
