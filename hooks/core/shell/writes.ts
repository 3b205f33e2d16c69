// Which arguments of a program are paths it writes (creates, changes, moves
// or deletes). Programs not listed here only read their arguments: cat, tail,
// grep, `sed` without -i, diff, wc... never trigger a write row.
import { basename, isInterpreter, lookup, verbIndex, SHELLS, GIT_VALUED, type Arg } from "./wrappers.js";
import { inlineWrites } from "./inline.js";

export interface PathArg {
  path: string;
  dynamic: boolean;
}

/** Devices and `-` (stdin/stdout) are not files anyone protects. */
const NOT_A_FILE = /^(|-|\/dev\/(null|stdout|stderr|stdin|tty|fd\/\d+|zero|u?random))$/;

export function isRealFile(path: string): boolean {
  return !NOT_A_FILE.test(path);
}

/** Non-option operands, skipping the values of options that take one. */
export function operands(args: Arg[], valued: string[] = []): Arg[] {
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

/** Value of `--opt=V`, `--opt V`, `-o V`, `-oV`, or a cluster ending in the letter (`-sSLo V`, `-qO-`). */
function optionValue(args: Arg[], short: string[], long: string[]): Arg | undefined {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (short.includes(t) || long.includes(t)) return args[i + 1];
    for (const l of long) if (t.startsWith(l + "=")) return { text: t.slice(l.length + 1), dynamic: args[i]!.dynamic };
    if (t.startsWith("--")) continue;
    for (const s of short) {
      const m = new RegExp(`^-[A-Za-z]*?${s.slice(1)}(.*)$`).exec(t);
      if (m) return m[1] ? { text: m[1], dynamic: args[i]!.dynamic } : args[i + 1];
    }
  }
  return undefined;
}

/** Does a short-option cluster such as `-Ei` or `-pi.bak` contain the letter? */
function clusterHas(args: Arg[], letter: string): boolean {
  return args.some((a) => /^-[A-Za-z]+/.test(a.text) && !a.text.startsWith("--") && a.text.slice(1).split(/[^A-Za-z]/)[0]!.includes(letter));
}

const PATHLIKE = /(^|\/)[^/\s]+\.[A-Za-z0-9]{1,8}$/;

/** The destination of `cp SRC... DEST` (mv, ln, install): `-t DIR` or the last operand, as written. */
function destination(a: Arg[], valued: string[]): Arg[] {
  const t = optionValue(a, ["-t"], ["--target-directory"]);
  if (t) return [t];
  const ops = operands(a, valued);
  return ops.length >= 2 ? [ops[ops.length - 1]!] : [];
}

type Rule = (args: Arg[]) => Arg[];

const CP_VALUED = ["-S", "--suffix", "-t", "--target-directory"];

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
  cp: (a) => destination(a, CP_VALUED),
  install: (a) => (a.some((x) => x.text === "-d") ? operands(a, ["-m", "-o", "-g"]) : destination(a, [...CP_VALUED, "-m", "-o", "-g"])),
  // mv changes both ends: the source disappears, the destination appears.
  mv: (a) => { const t = optionValue(a, ["-t"], ["--target-directory"]); const ops = operands(a, CP_VALUED); return t ? [t, ...ops] : ops.length >= 2 ? ops : []; },
  // `ln -s TARGET` alone links TARGET's name into the current folder.
  ln: (a) => { const ops = operands(a, CP_VALUED); return ops.length === 1 ? [{ ...ops[0]!, text: basename(ops[0]!.text) }] : destination(a, CP_VALUED); },
  rsync: (a) => { const ops = operands(a, ["-e", "--rsh", "--exclude", "--include", "--filter", "-f"]); return ops.length >= 2 ? [ops[ops.length - 1]!] : []; },
  dd: (a) => a.filter((x) => x.text.startsWith("of=")).map((x) => ({ ...x, text: x.text.slice(3) })),
  sort: (a) => opt(optionValue(a, ["-o"], ["--output"])),
  // uniq INPUT OUTPUT
  uniq: (a) => operands(a, ["-f", "-s", "-w"]).slice(1, 2),
  curl: (a) => [...opt(optionValue(a, ["-o"], ["--output"])), ...curlRemoteNames(a)],
  wget: (a) => opt(optionValue(a, ["-O"], ["--output-document"])),
  // patch ORIGFILE, or -o OUT, or (most often) the files named inside the patch.
  patch: (a) => {
    const o = optionValue(a, ["-o"], ["--output"]);
    const ops = operands(a, ["-p", "-i", "-o", "-d", "-D", "-B", "-F", "-r", "-V", "-z", "--input", "--output", "--directory"]);
    return o ? [o] : ops.length ? [ops[0]!] : [{ text: "<patched files>", dynamic: true }];
  },
  sed: (a) => {
    if (!clusterHas(a, "i") && !a.some((x) => x.text.startsWith("--in-place"))) return [];
    const hasScriptOpt = a.some((x) => x.text === "-e" || x.text === "-f" || x.text.startsWith("--expression") || x.text.startsWith("--file"));
    // BSD `sed -i '' ...`: the empty word is the backup suffix, not the script.
    const ops = operands(a, ["-e", "-f", "-l", "--expression", "--file", "--line-length"]).filter((x, i) => !(i === 0 && x.text === "" && !x.dynamic));
    return hasScriptOpt ? ops : ops.slice(1);
  },
  perl: (a) => {
    if (!clusterHas(a, "i")) return [];
    const hasProgram = a.some((x) => /^-[A-Za-z]*[eE]$/.test(x.text));
    const ops = operandsAfterPerlProgram(a);
    return hasProgram ? ops : ops.slice(1);
  },
  awk: (a) => (a.some((x, i) => x.text === "-i" && a[i + 1]?.text === "inplace") ? operands(a, ["-i", "-f", "-v", "-F"]).slice(1) : []),
  // Line editors run on a file to change it.
  ed: (a) => operands(a, ["-p", "--prompt"]),
  vim: (a) => (a.some((x) => x.text === "-R") ? [] : operands(a, ["-c", "--cmd", "-S", "-s", "-u", "-U", "-i", "-T", "-w", "-W", "-t", "-q"]).filter((x) => !x.text.startsWith("+"))),
  git: (a) => gitWrites(a),
};
RULES["gawk"] = RULES["awk"]!;
RULES["ruby"] = RULES["perl"]!; // ruby -i -pe '...' FILE edits in place like perl
for (const editor of ["ex", "vi", "nvim"]) RULES[editor] = RULES["vim"]!;

/**
 * Package managers edit their manifest when a package is added or removed:
 * `npm install lodash` writes package.json (a bare `npm install` does not).
 * Matched on "subcommand operands...".
 */
const MANIFESTS: Record<string, [file: string, edits: RegExp]> = {
  npm: ["package.json", /^(install|i|add|uninstall|remove|rm|un|r|update|up) \S|^pkg (set|delete|fix)\b/],
  pnpm: ["package.json", /^(add|install|i|remove|rm|uninstall|un|update|up) \S/],
  yarn: ["package.json", /^(add|remove|upgrade) \S/],
  bun: ["package.json", /^(add|a|install|i|remove|rm) \S/],
  cargo: ["Cargo.toml", /^(add|remove|rm) \S/],
  poetry: ["pyproject.toml", /^(add|remove) \S/],
  uv: ["pyproject.toml", /^(add|remove) \S/],
  go: ["go.mod", /^get \S|^mod (tidy|edit)\b/],
};
for (const pm of Object.keys(MANIFESTS)) RULES[pm] = (a) => manifestWrites(pm, a);

function manifestWrites(name: string, args: Arg[]): Arg[] {
  const [file, edits] = MANIFESTS[name]!;
  const argv = [{ text: name, dynamic: false }, ...args];
  const v = verbIndex(name, argv);
  if (v < 0) return [];
  const line = [argv[v]!.text, ...operands(argv.slice(v + 1)).map((x) => x.text)].join(" ");
  return edits.test(line) ? [{ text: file, dynamic: false }] : [];
}

/** `curl -O URL` saves under the URL's last path segment. */
function curlRemoteNames(a: Arg[]): Arg[] {
  if (!a.some((x) => x.text === "--remote-name" || x.text === "--remote-name-all" || /^-[A-Za-z]*O[A-Za-z]*$/.test(x.text))) return [];
  return operands(a, ["-o", "--output", "-H", "-d", "-X", "-u", "-A", "-e", "-b", "-c", "-F", "-w", "--data", "--header"])
    .filter((u) => /^[a-z]+:\/\//i.test(u.text) || u.dynamic)
    .map((u) => ({ text: basename(u.text.replace(/[?#].*$/, "")), dynamic: u.dynamic }));
}

/** git subcommands that change files by name: rm, mv, restore, and checkout of paths after `--`. */
function gitWrites(a: Arg[]): Arg[] {
  let v = 0;
  while (v < a.length && a[v]!.text.startsWith("-")) v += GIT_VALUED.has(a[v]!.text) ? 2 : 1;
  const verb = a[v]?.text;
  const rest = a.slice(v + 1);
  if (verb === "rm" || verb === "mv") return operands(rest);
  if (verb === "restore") return operands(rest, ["-s", "--source"]);
  if (verb === "checkout") { const dd = rest.findIndex((x) => x.text === "--"); return dd >= 0 ? rest.slice(dd + 1) : []; }
  return [];
}

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

const opt = (x: Arg | undefined): Arg[] => (x ? [x] : []);

/**
 * Paths the program writes. `inline` is the program text of `python -c`,
 * `node -e` or a here-doc fed to an interpreter, when there is one.
 */
export function writesOf(program: string, args: Arg[], inline?: string): PathArg[] {
  const name = basename(program);
  const rule = lookup(RULES, name);
  if (inline !== undefined) return [...(rule ? rule(args).map(toPath) : []), ...inlineWrites(inline)];
  if (rule) return rule(args).map(toPath);
  if (isInterpreter(name) || SHELLS.has(name)) return scriptArgs(args, true);
  // `./fix-links.sh notes_RU.md`: a project script run on the path
  if (program.startsWith("./") || program.startsWith("../")) return scriptArgs(args, false);
  return [];
}

const toPath = (a: Arg): PathArg => ({ path: a.text, dynamic: a.dynamic || a.text === "{}" });

/**
 * "A script run on the path": `python fix.py notes_RU.md` may well rewrite
 * notes_RU.md, so file-like arguments after the script count as written.
 */
function scriptArgs(args: Arg[], afterScript: boolean): PathArg[] {
  const ops = operands(args, ["-m", "-W", "-X", "-r", "--require", "--import", "--loader"]);
  return (afterScript ? ops.slice(1) : ops).filter((a) => a.dynamic || PATHLIKE.test(a.text)).map(toPath);
}
