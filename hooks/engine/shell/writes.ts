// Which arguments of a program are paths it writes (creates, changes, moves
// or deletes). Programs not listed here only read their arguments: cat, tail,
// grep, `sed` without -i, diff, wc... never trigger a write row.
import { basename, INTERPRETERS, SHELLS, type Arg } from "./wrappers.js";

export interface PathArg {
  path: string;
  dynamic: boolean;
}

const NOT_A_FILE = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+|zero)$/;

export function isRealFile(path: string): boolean {
  return !NOT_A_FILE.test(path);
}

/** Non-option operands, skipping the values of options that take one. */
function operands(args: Arg[], valued: string[] = []): Arg[] {
  const out: Arg[] = [];
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!endOfOptions && a.text === "--") { endOfOptions = true; continue; }
    if (!endOfOptions && valued.includes(a.text)) { i++; continue; }
    if (!endOfOptions && a.text.startsWith("-") && a.text.length > 1 && !a.dynamic) continue;
    out.push(a);
  }
  return out;
}

/** Value of `--opt=V`, `--opt V`, `-o V` or `-oV`. */
function optionValue(args: Arg[], short: string[], long: string[]): Arg | undefined {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (short.includes(t) || long.includes(t)) return args[i + 1];
    for (const l of long) if (t.startsWith(l + "=")) return { text: t.slice(l.length + 1), dynamic: args[i]!.dynamic };
    for (const s of short) if (t.startsWith(s) && t.length > s.length && !t.startsWith("--")) return { text: t.slice(s.length), dynamic: args[i]!.dynamic };
  }
  return undefined;
}

const last = (xs: Arg[]): Arg[] => (xs.length >= 2 ? [xs[xs.length - 1]!] : []);

/** Does a short-option cluster such as `-Ei` or `-pi.bak` contain the letter? */
function clusterHas(args: Arg[], letter: string): boolean {
  return args.some((a) => /^-[A-Za-z]+/.test(a.text) && !a.text.startsWith("--") && a.text.slice(1).split(/[^A-Za-z]/)[0]!.includes(letter));
}

type Rule = (args: Arg[]) => Arg[];

const RULES: Record<string, Rule> = {
  tee: (a) => operands(a),
  touch: (a) => operands(a, ["-r", "-d", "-t", "--reference", "--date"]),
  truncate: (a) => operands(a, ["-s", "-r", "--size", "--reference"]),
  rm: (a) => operands(a),
  rmdir: (a) => operands(a),
  unlink: (a) => operands(a),
  shred: (a) => operands(a, ["-n", "-s", "--iterations", "--size"]),
  mkdir: (a) => operands(a, ["-m", "--mode"]),
  chmod: (a) => operands(a).slice(1),
  chown: (a) => operands(a).slice(1),
  chgrp: (a) => operands(a).slice(1),
  cp: (a) => target(a) ?? last(operands(a, ["-S", "--suffix"])),
  install: (a) => (a.some((x) => x.text === "-d") ? operands(a, ["-m", "-o", "-g"]) : target(a) ?? last(operands(a, ["-m", "-o", "-g", "-S"]))),
  // mv changes both ends: the source disappears, the destination appears.
  mv: (a) => { const t = target(a); const ops = operands(a, ["-S", "--suffix"]); return t ? [...t, ...ops] : ops.length >= 2 ? ops : []; },
  ln: (a) => { const t = target(a); if (t) return t; const ops = operands(a, ["-S", "--suffix"]); return ops.length >= 2 ? last(ops) : ops.map((o) => ({ ...o, text: basename(o.text) })); },
  rsync: (a) => last(operands(a, ["-e", "--rsh", "--exclude", "--include", "--filter", "-f"])),
  dd: (a) => a.filter((x) => x.text.startsWith("of=")).map((x) => ({ ...x, text: x.text.slice(3) })),
  sort: (a) => opt(optionValue(a, ["-o"], ["--output"])),
  curl: (a) => opt(optionValue(a, ["-o"], ["--output"])),
  wget: (a) => opt(optionValue(a, ["-O"], ["--output-document"])),
  sed: (a) => {
    if (!clusterHas(a, "i") && !a.some((x) => x.text.startsWith("--in-place"))) return [];
    const hasScriptOpt = a.some((x) => x.text === "-e" || x.text === "-f" || x.text.startsWith("--expression") || x.text.startsWith("--file"));
    const ops = operands(a, ["-e", "-f", "-l", "--expression", "--file", "--line-length"]);
    return hasScriptOpt ? ops : ops.slice(1);
  },
  perl: (a) => {
    if (!clusterHas(a, "i")) return [];
    const hasProgram = a.some((x) => /^-[A-Za-z]*[eE]$/.test(x.text));
    const ops = operandsAfterPerlProgram(a);
    return hasProgram ? ops : ops.slice(1);
  },
  awk: (a) => (a.some((x, i) => x.text === "-i" && a[i + 1]?.text === "inplace") ? operands(a, ["-i", "-f", "-v", "-F"]).slice(1) : []),
};
RULES["gawk"] = RULES["awk"]!;

function operandsAfterPerlProgram(a: Arg[]): Arg[] {
  const out: Arg[] = [];
  for (let i = 0; i < a.length; i++) {
    const t = a[i]!.text;
    if (/^-[A-Za-z]*[eE]$/.test(t)) { i++; continue; }
    if (t.startsWith("-") && !a[i]!.dynamic) continue;
    out.push(a[i]!);
  }
  return out;
}

function target(a: Arg[]): Arg[] | undefined {
  const t = optionValue(a, ["-t"], ["--target-directory"]);
  return t ? [t] : undefined;
}

const opt = (x: Arg | undefined): Arg[] => (x ? [x] : []);

/** Programs known to write: used to mark `xargs rm` and `find -exec rm {}` as writing unknown paths. */
export function isWriter(name: string): boolean {
  return name in RULES;
}

/**
 * Paths the program writes. `inline` is the program text of `python -c`,
 * `node -e` or a here-doc fed to an interpreter, when there is one.
 */
export function writesOf(name: string, args: Arg[], inline?: string): PathArg[] {
  const rule = RULES[name];
  if (inline !== undefined) return [...(rule ? rule(args).map(toPath) : []), ...inlineWrites(inline)];
  if (rule) return rule(args).map(toPath);
  if (INTERPRETERS.has(name) || SHELLS.has(name) || name.startsWith("./") || name.startsWith("../")) return scriptArgs(name, args);
  return [];
}

const toPath = (a: Arg): PathArg => ({ path: a.text, dynamic: a.dynamic || a.text === "{}" });

const PATHLIKE = /(^|\/)[^/\s]+\.[A-Za-z0-9]{1,8}$/;

/**
 * "A script run on the path": `python fix.py notes_RU.md` may well rewrite
 * notes_RU.md, so file-like arguments after the script count as written.
 */
function scriptArgs(name: string, args: Arg[]): PathArg[] {
  const direct = name.includes("/");
  const ops = operands(args, ["-m", "-W", "-X", "-r", "--require", "--import", "--loader"]);
  const after = direct ? ops : ops.slice(1);
  return after.filter((a) => a.dynamic || PATHLIKE.test(a.text)).map(toPath);
}

// An inline program counts as writing a path when the path is a string
// literal handed to a write call. Anything cleverer is out of reach of a
// static check and is documented as such.
const INLINE_WRITE_PATTERNS = [
  /open\(\s*(['"])([^'"]+)\1\s*,\s*(['"])[^'"]*[wax+][^'"]*\3/g, // python open('f','w')
  /(?:writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|openSync)\(\s*(['"`])([^'"`]+)\1/g, // node fs
  /Path\(\s*(['"])([^'"]+)\1\s*\)\.(?:write_text|write_bytes|open\()/g, // pathlib
  /open\s*\(?\s*(?:my\s+)?\$?\w*\s*,\s*(['"])>>?\s*([^'"]+)\1/g, // perl open(FH, '>f')
  /File\.(?:write|open)\(\s*(['"])([^'"]+)\1/g, // ruby
];

export function inlineWrites(code: string): PathArg[] {
  const out: PathArg[] = [];
  for (const re of INLINE_WRITE_PATTERNS) {
    for (const m of code.matchAll(re)) out.push({ path: m[2]!, dynamic: false });
  }
  return out;
}
