// Which arguments of a program are paths it writes (creates, changes, moves
// or deletes). Programs not listed here only read their arguments: cat, tail,
// grep, `sed` without -i, diff, wc... never trigger a write row.
import { entry, nth } from "./nth.js";
import { posix as path } from "node:path";
import { basename, isInterpreter, lookup, verbIndex, SHELLS, type Arg } from "./wrappers.js";
import { GIT_VALUED } from "./git.js";
import { inlineWrites } from "./inline.js";
import { patchedFiles } from "./scripts.js";
import type { Script } from "./launchers.js";
import type { PathArg } from "./model.js";
import type { ShellWorld } from "./world.js";

export type { PathArg } from "./model.js";

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
    const a = nth(args, i);
    if (!endOfOptions && a.text === "--") {
      endOfOptions = true;
      continue;
    }
    if (!endOfOptions && valued.includes(a.text)) {
      i++;
      continue;
    }
    if (!endOfOptions && a.text.startsWith("-") && a.text.length > 1 && !a.dynamic) continue;
    out.push(a);
  }
  return out;
}

/** Value of `--opt=V`, `--opt V`, `-o V`, `-oV`, or a cluster ending in the letter (`-sSLo V`, `-qO-`). */
function optionValue(args: Arg[], short: string[], long: string[]): Arg | undefined {
  for (let i = 0; i < args.length; i++) {
    const t = nth(args, i).text;
    if (short.includes(t) || long.includes(t)) return args[i + 1];
    for (const l of long) if (t.startsWith(l + "=")) return { text: t.slice(l.length + 1), dynamic: nth(args, i).dynamic };
    if (t.startsWith("--")) continue;
    for (const s of short) {
      const m = new RegExp(`^-[A-Za-z]*?${s.slice(1)}(.*)$`).exec(t);
      if (m) return m[1] ? { text: m[1], dynamic: nth(args, i).dynamic } : args[i + 1];
    }
  }
  return undefined;
}

/** Does a short-option cluster such as `-Ei` or `-pi.bak` contain the letter? */
function clusterHas(args: Arg[], letter: string): boolean {
  return args.some((a) => /^-[A-Za-z]+/.test(a.text) && !a.text.startsWith("--") && nth(a.text.slice(1).split(/[^A-Za-z]/), 0).includes(letter));
}

/**
 * perl/ruby `-i` in a cluster, read by the real grammar: letters after one that
 * takes the rest of the word as its value (`-MList::Util=sum`, `-Mstrict`,
 * `-rdigest`, `-I lib`) are that value, not options.
 */
function inPlace(args: Arg[], takesRest: string): boolean {
  for (const a of args) {
    const t = a.text;
    if (t === "--") return false;
    if (!t.startsWith("-") || t.startsWith("--") || t.length < 2) continue;
    for (let j = 1; j < t.length; j++) {
      const c = nth(t, j);
      if (c === "i") return true;
      // perl -l and -0 take only digits: `-lpi` is -l, -p, -i
      if ((c === "l" || c === "0") && takesRest === PERL_VALUE_LETTERS) {
        while (/[0-9a-fA-Fx]/.test(t[j + 1] ?? "") && t[j + 1] !== "i") j++;
        continue;
      }
      if (c === "e" || c === "E" || takesRest.includes(c)) break;
    }
  }
  return false;
}
const PERL_VALUE_LETTERS = "MmIxlC0dDVF";
/** GNU sed's --in-place and every abbreviation getopt accepts for it (no other sed option starts with --i). */
const SED_IN_PLACE = /^--i(n(-(p(l(a(c(e)?)?)?)?)?)?)?(=|$)/;
/** GNU sed's --follow-symlinks and the abbreviations getopt accepts (`--f` alone could be --file). */
const SED_FOLLOW = /^--fo(l(l(o(w(-(s(y(m(l(i(n(k(s)?)?)?)?)?)?)?)?)?)?)?)?)?$/;
const RUBY_VALUE_LETTERS = "rIECxKTW0F";

const PATHLIKE = /(^|\/)[^/\s]+\.[A-Za-z0-9]{1,8}$/;

type Kind = ShellWorld["kind"];

/**
 * The paths `cp SRC... DEST` (mv, install, rsync) creates: into a directory
 * (`-t DIR`, `DIR/`, several sources, or DEST a directory on disk) each
 * source's name under it, else DEST as written.
 */
function destination(a: Arg[], valued: string[], kind?: Kind): Out[] {
  const t = optionValue(a, ["-t"], ["--target-directory"]);
  const ops = operands(a, valued);
  const sources = t ? ops : ops.slice(0, -1);
  const dest = t ?? (ops.length >= 2 ? nth(ops, ops.length - 1) : undefined);
  if (!dest) return [];
  const noTarget = a.some((x) => x.text === "-T" || x.text === "--no-target-directory");
  const intoDir = !noTarget && (t !== undefined || dest.text.endsWith("/") || sources.length > 1 || (!dest.dynamic && kind?.(dest.text) === "dir"));
  if (!intoDir) return [dest];
  // several sources and a file as the last operand: cp, mv and install refuse and write nothing
  if (t === undefined && sources.length > 1 && !dest.dynamic && !dest.text.endsWith("/") && kind?.(dest.text) === "file") return [];
  return sources.map((s) => ({
    text: path.join(dest.text, basename(s.text.replace(/\/+$/, ""))),
    dynamic: dest.dynamic || s.dynamic,
    pattern: s.pattern,
  }));
}

/** The files split/csplit create: PREFIX followed by a generated part and `--additional-suffix` / csplit's `-b` format. */
function pieces(a: Arg[], name: "split" | "csplit"): Out[] {
  const prefixOpt = name === "csplit" ? optionValue(a, ["-f"], ["--prefix"]) : undefined;
  const ops = operands(
    a,
    name === "csplit"
      ? ["-f", "-b", "-n", "--prefix", "--suffix-format", "--digits"]
      : [
          "-a",
          "-b",
          "-C",
          "-l",
          "-n",
          "-t",
          "--suffix-length",
          "--bytes",
          "--line-bytes",
          "--lines",
          "--number",
          "--separator",
          "--additional-suffix",
          "--filter",
        ],
  );
  const prefix = name === "csplit" ? (prefixOpt?.text ?? "xx") : (ops[1]?.text ?? "x");
  const suffix =
    name === "csplit"
      ? (optionValue(a, ["-b"], ["--suffix-format"])?.text ?? "").replace(/%[-0-9]*[dioxXu]/g, "*")
      : (optionValue(a, [], ["--additional-suffix"])?.text ?? "");
  // without a suffix the generated part is letters or digits: the names end in it, never in `.md`
  return [{ text: `<${name} pieces>`, dynamic: true, pattern: suffix ? `${prefix}*${suffix}` : `${prefix}00` }];
}

/** A written path as a rule finds it: `pattern` true (the text is a glob) or the glob itself. */
type Out = Omit<Arg, "pattern"> & { pattern?: boolean | string };
type Rule = (args: Arg[], kind?: Kind) => Out[];

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
  // a FIFO or device node is a new file at that name
  mkfifo: (a) => operands(a, ["-m", "--mode", "--context"]),
  mknod: (a) => operands(a, ["-m", "--mode", "--context"]).slice(0, 1),
  chmod: (a) => operands(a).slice(1),
  chown: (a) => operands(a).slice(1),
  chgrp: (a) => operands(a).slice(1),
  cp: (a, k) => destination(a, CP_VALUED, k),
  install: (a, k) => (a.some((x) => x.text === "-d") ? operands(a, ["-m", "-o", "-g"]) : destination(a, [...CP_VALUED, "-m", "-o", "-g"], k)),
  // mv changes both ends: the source disappears, the destination appears.
  mv: (a, k) => {
    const t = optionValue(a, ["-t"], ["--target-directory"]);
    const ops = operands(a, CP_VALUED);
    return ops.length >= 2 || t ? [...(t ? ops : ops.slice(0, -1)), ...destination(a, CP_VALUED, k)] : [];
  },
  // `ln -s TARGET` alone links TARGET's name into the current folder.
  ln: (a, k) => {
    const ops = operands(a, CP_VALUED);
    return ops.length === 1 ? [{ ...nth(ops, 0), text: basename(nth(ops, 0).text) }] : destination(a, CP_VALUED, k);
  },
  rsync: (a, k) => {
    const ops = operands(a, [
      "-e",
      "--rsh",
      "--exclude",
      "--include",
      "--filter",
      "-f",
      "--rsync-path",
      "--backup-dir",
      "--suffix",
      "--chmod",
      "--log-file",
      "--password-file",
      "--files-from",
      "--exclude-from",
      "--include-from",
      "--partial-dir",
      "--temp-dir",
      "-T",
      "--compare-dest",
      "--copy-dest",
      "--link-dest",
    ]);
    if (ops.length < 2) return [];
    const dest = nth(ops, ops.length - 1);
    // `rsync a_RU.md host:dir/` copies to another machine
    if (/^[^/]*:/.test(dest.text) && !dest.text.startsWith("./")) return [];
    // `rsync src/ dst/`: the contents of src; `rsync src dst/`: dst/src
    return ops.slice(0, -1).map((s) => (s.text.endsWith("/") ? dest : (destination([s, dest], [], k)[0] ?? dest)));
  },
  sponge: (a) => operands(a),
  zip: (a) =>
    a.some((x) => /^-[a-zA-Z]*[lTsf]/.test(x.text) && /^-(sf|T|l)/.test(x.text))
      ? []
      : operands(a, ["-b", "-n", "-t", "-tt", "-x", "-i", "-P", "-Z", "-O", "--out"]).slice(0, 1),
  time: (a) => opt(optionValue(a, ["-o"], ["--output"])),
  // script [options] [FILE]: the typescript file (the value of -c / a -…c cluster is the command, not a file)
  script: (a) => {
    const ops = operands(
      a.filter((_, i) => !/^-[a-zA-Z]*c$|^--command$/.test(a[i - 1]?.text ?? "")),
      ["-t", "-T", "-I", "-O", "-B", "-E", "-m", "--timing", "--log-in", "--log-out", "--log-io", "--echo", "--logging-format"],
    );
    return ops[0] ? [ops[0]] : [];
  },
  // scp SRC… DEST: a local destination is written
  scp: (a) => {
    const ops = operands(a, ["-P", "-i", "-o", "-F", "-c", "-l", "-S", "-J"]);
    const d = ops[ops.length - 1];
    return ops.length >= 2 && d && !/^[^/]*:/.test(d.text) ? [d] : [];
  },
  tar: (a) => tarWrites(a),
  bsdtar: (a) => tarWrites(a),
  unzip: (a) => {
    if (a.some((x) => /^-[a-zA-Z]*[lvtpzZ]/.test(x.text))) return [];
    const d = optionValue(a, ["-d"], []);
    const ops = operands(a, ["-d", "-x", "-P"]);
    const members = ops.slice(1);
    const dir = d?.text ?? "";
    if (members.length) return members.map((m) => ({ ...m, text: dir ? path.join(dir, m.text) : m.text }));
    return [{ text: dir ? path.join(dir, "<archive members>") : "<archive members>", dynamic: true, pattern: dir ? `${dir}/*` : "*" }];
  },
  "7z": (a) => (a[0]?.text === "x" || a[0]?.text === "e" ? [{ text: "<archive members>", dynamic: true }] : a[0]?.text === "a" && a[1] ? [a[1]] : []),
  gunzip: (a) => operands(a).map((x) => ({ ...x, text: x.text.replace(/\.gz$/, "") })),
  sudoedit: (a) => operands(a),
  dd: (a) => a.filter((x) => x.text.startsWith("of=")).map((x) => ({ ...x, text: x.text.slice(3) })),
  // xxd -r INFILE OUTFILE (also xxd INFILE OUTFILE): the second operand
  xxd: (a) => operands(a, ["-c", "-g", "-l", "-o", "-s", "-n", "-C", "--cols", "--groupsize", "--len", "--seek"]).slice(1, 2),
  // openssl SUB … -out FILE (one dash, long names)
  openssl: (a) => opt(optionValue(a, ["-out", "-keyout"], [])),
  // split/csplit name their pieces PREFIX + suffix: only the pattern of names is known
  split: (a) => pieces(a, "split"),
  csplit: (a) => pieces(a, "csplit"),
  // mktemp TEMPLATE (X's replaced) or --suffix=S: a new file whose name ends so
  mktemp: (a) => {
    if (a.some((x) => x.text === "-d" || x.text === "--directory" || x.text === "-u" || x.text === "--dry-run")) return [];
    const suffix = optionValue(a, [], ["--suffix"]);
    const t = operands(a, ["-p", "--tmpdir", "--suffix"])[0];
    // the X's become letters and digits: only a suffix (or a template not ending in X's) can give a name like a_RU.md
    if (!suffix && (!t || /X{3,}$/.test(t.text))) return [];
    const name = t ? t.text.replace(/X{3,}/, "*") : "tmp.*";
    return [{ text: `<mktemp ${name}>`, dynamic: true, pattern: `**/${name}${suffix?.text ?? ""}` }];
  },
  // uniq INPUT OUTPUT
  uniq: (a) => operands(a, ["-f", "-s", "-w"]).slice(1, 2),
  curl: (a) => curlRemoteNames(a),
  sqlite3: (a) => sqliteWrites(a),
  // cmake -E: the file commands of CMake's command mode
  cmake: (a, k) => cmakeWrites(a, k),
  // patch ORIGFILE, or -o OUT, or (most often) the files named inside the patch.
  patch: (a) => {
    const o = optionValue(a, ["-o"], ["--output"]);
    const ops = operands(a, ["-p", "-i", "-o", "-d", "-D", "-B", "-F", "-r", "-V", "-z", "--input", "--output", "--directory"]);
    // without an operand the files are named inside the patch: patchWrites reads them
    return o ? [o] : ops.length ? [nth(ops, 0)] : [];
  },
  sed: (a) => {
    if (!clusterHas(a, "i") && !a.some((x) => SED_IN_PLACE.test(x.text))) return [];
    const hasScriptOpt = a.some((x) => x.text === "-e" || x.text === "-f" || x.text.startsWith("--expression") || x.text.startsWith("--file"));
    // BSD `sed -i '' ...`: the empty word is the backup suffix, not the script.
    const ops = operands(a, ["-e", "-f", "-l", "--expression", "--file", "--line-length"]).filter((x, i) => !(i === 0 && x.text === "" && !x.dynamic));
    return hasScriptOpt ? ops : ops.slice(1);
  },
  perl: (a) => {
    if (!inPlace(a, PERL_VALUE_LETTERS)) return [];
    const hasProgram = a.some((x) => /^-[A-Za-z]*[eE]$/.test(x.text));
    const ops = operandsAfterPerlProgram(a);
    return hasProgram ? ops : ops.slice(1);
  },
  awk: (a) => (a.some((x, i) => x.text === "-i" && a[i + 1]?.text === "inplace") ? operands(a, ["-i", "-f", "-v", "-F"]).slice(1) : []),
  // Line editors run on a file to change it.
  ed: (a) => operands(a, ["-p", "--prompt"]),
  // vim/ex given commands that never write (`-c '%p' -c 'qa!'`) only read
  vim: (a) =>
    a.some((x) => x.text === "-R") || vimReadOnly(a)
      ? []
      : operands(a, ["-c", "--cmd", "-S", "-s", "-u", "-U", "-i", "-T", "-w", "-W", "-t", "-q"]).filter((x) => !x.text.startsWith("+")),
  git: (a) => gitWrites(a),
};
RULES["gawk"] = entry(RULES, "awk");

/** All -c/+ commands given and none of them writes (w, x, wq, up, sav, !, r !). */
function vimReadOnly(a: Arg[]): boolean {
  const cmds: string[] = [];
  for (let i = 0; i < a.length; i++) {
    const t = nth(a, i).text;
    if ((t === "-c" || t === "--cmd") && a[i + 1]) cmds.push(nth(a, ++i).text);
    else if (/^\+./.test(t)) cmds.push(t.slice(1));
  }
  if (cmds.length === 0 || a.some((x) => x.dynamic)) return false;
  return cmds.every((c) =>
    c
      .split(/(?<!\\)\|/)
      .every(
        (p) =>
          !/^[\s:]*(sil(ent)?!?\s*)?([\d,.$%]*\s*)?(w|wq|wa|wqa|x|xa|xit|exi|up|update|sav|saveas|wn|wN|wp|norm|normal|s\/|g\/|d\b|!)/.test(p) ||
          /^[\s:]*q/.test(p),
      ),
  );
}
// gzip a_RU.md replaces the file with a_RU.md.gz; -d gives it back; -c/-k/-t/-l leave it
for (const z of ["gzip", "bzip2", "xz", "lzma", "zstd", "lz4", "brotli", "compress"]) {
  RULES[z] = (a) =>
    a.some((x) => /^-[a-zA-Z0-9]*[ckltT]|^--(stdout|keep|test|list)$/.test(x.text))
      ? []
      : operands(a, ["-S", "--suffix", "-o", "-T"]).map((x) => ({ ...x, text: x.text.replace(/\.(gz|bz2|xz|lzma|zst|lz4|br|Z)$/, "") }));
}
// ruby -i -pe '...' FILE edits in place like perl (with ruby's own value letters: -rdigest is not -i)
RULES["ruby"] = (a) => {
  if (!inPlace(a, RUBY_VALUE_LETTERS)) return [];
  const ops = operandsAfterPerlProgram(a);
  return a.some((x) => /^-[A-Za-z]*e$/.test(x.text)) ? ops : ops.slice(1);
};
for (const editor of ["ex", "vi", "nvim"]) RULES[editor] = entry(RULES, "vim");

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
  const [file, edits] = entry(MANIFESTS, name);
  const argv = [{ text: name, dynamic: false }, ...args];
  const v = verbIndex(name, argv);
  if (v < 0) return [];
  const line = [nth(argv, v).text, ...operands(argv.slice(v + 1)).map((x) => x.text)].join(" ");
  return edits.test(line) ? [{ text: file, dynamic: false }] : [];
}

/** `curl -O URL` saves under the URL's last path segment. */
function curlRemoteNames(a: Arg[]): Arg[] {
  if (!a.some((x) => x.text === "--remote-name" || x.text === "--remote-name-all" || /^-[A-Za-z]*O[A-Za-z]*$/.test(x.text))) return [];
  return operands(a, ["-o", "--output", "-H", "-d", "-X", "-u", "-A", "-e", "-b", "-c", "-F", "-w", "--data", "--header"])
    .filter((u) => /^[a-z]+:\/\//i.test(u.text) || u.dynamic)
    .map((u) => ({ text: basename(u.text.replace(/[?#].*$/, "")), dynamic: u.dynamic }));
}

/**
 * git subcommands that change files by name: rm, mv, restore, `checkout [REV] [--] PATHS`,
 * clean (what it deletes is known at run time), apply (see patchWrites).
 */
function gitWrites(a: Arg[]): Out[] {
  let v = 0;
  while (v < a.length && nth(a, v).text.startsWith("-")) v += GIT_VALUED.has(nth(a, v).text) ? 2 : 1;
  const verb = a[v]?.text;
  const rest = a.slice(v + 1);
  if (verb === "rm" && rest.some((x) => x.text === "--cached")) return [];
  if (verb === "rm" || verb === "mv") return operands(rest);
  const output = rest.find((x) => x.text.startsWith("--output="));
  if (output) return [{ ...output, text: output.text.slice(9) }];
  // `git archive -o F`, `-oF`, `--output F` (archive reads --output itself: no abbreviations)
  if (verb === "archive") return opt(optionValue(rest, ["-o"], ["--output"]));
  if (verb === "bundle" && rest[0]?.text === "create" && rest[1]) return [rest[1]];
  if (verb === "config") {
    const f = optionValue(rest, ["-f"], ["--file"]);
    const reads =
      rest.some((x) => /^(--get|--get-all|--get-regexp|--get-urlmatch|-l|--list|--get-color|--get-colorbool)$/.test(x.text)) ||
      ["get", "list"].includes(rest.find((x) => !x.text.startsWith("-") && x !== f)?.text ?? "");
    if (f && !reads && operands(rest, ["-f", "--file", "--blob", "--type", "--default", "--comment"]).length >= 2) return [f];
    if (f && rest.some((x) => /^--(unset|unset-all|remove-section|rename-section|add|replace-all)$/.test(x.text))) return [f];
  }
  if (verb === "checkout-index") return operands(rest, ["--prefix", "--stage"]);
  if (verb === "restore")
    return rest.some((x) => x.text === "--staged" || x.text === "-S") && !rest.some((x) => x.text === "--worktree" || x.text === "-W")
      ? []
      : operands(rest, ["-s", "--source", "--conflict"]);
  if (verb === "checkout") {
    const dd = rest.findIndex((x) => x.text === "--");
    if (dd >= 0) return rest.slice(dd + 1);
    if (rest.some((x) => /^-[bBt]$|^--orphan$|^--track$|^--detach$/.test(x.text))) return [];
    const ops = operands(rest, ["--conflict", "--pathspec-from-file"]);
    // `git checkout main a_RU.md`: everything after the revision is a path; a lone word that looks like a file is one too
    if (ops.length >= 2) return ops.slice(1);
    return ops.filter((x) => !x.dynamic && (PATHLIKE.test(x.text) || x.text === "." || (x.text.includes("/") && !/^(origin|upstream)\//.test(x.text))));
  }
  // `git stash push -- a_RU.md` takes the file's changes away: the file is rewritten
  if (verb === "stash" && (rest[0]?.text === "push" || rest[0]?.text === "-p" || rest[0]?.text === "--")) {
    const dd = rest.findIndex((x) => x.text === "--");
    return dd >= 0 ? rest.slice(dd + 1) : operands(rest.slice(1), ["-m", "--message", "--pathspec-from-file"]);
  }
  if (verb === "clean" && !rest.some((x) => /^-[a-z]*n|^--dry-run$/.test(x.text))) {
    const ops = operands(rest, ["-e", "--exclude"]);
    return ops.length ? ops.map((x) => ({ ...x, dynamic: true, pattern: `${x.text.replace(/\/$/, "")}/*` })) : [{ text: "<untracked files>", dynamic: true }];
  }
  return [];
}

/** tar: `-x` writes the members named (or all: run-time), `-c`/`-r`/`-u` write the archive (`-f FILE`). */
function tarWrites(a: Arg[]): Out[] {
  // old style: `tar xzf a.tgz` — the first word is a cluster without the dash
  const first = a[0]?.text ?? "";
  const oldStyle = /^[A-Za-z]+$/.test(first) && !first.startsWith("-") ? first : "";
  const letters =
    oldStyle +
    a
      .filter((x) => /^-[A-Za-z]+$/.test(x.text))
      .map((x) => x.text.slice(1))
      .join("");
  const long = (n: string) => a.some((x) => x.text === `--${n}`);
  let file = optionValue(a, ["-f"], ["--file"]);
  if (oldStyle.includes("f") && !file) {
    // old style: values follow in the order of the letters that take one
    const valueLetters = oldStyle.replace(/[^fCbTXg]/g, "");
    const fi = valueLetters.indexOf("f");
    file = a[1 + fi];
  }
  const dir = optionValue(a, ["-C"], ["--directory"]);
  if (letters.includes("x") || long("extract") || long("get")) {
    const skip = new Set([
      "-f",
      "--file",
      "-C",
      "--directory",
      "-T",
      "--files-from",
      "-X",
      "--exclude-from",
      "--exclude",
      "-b",
      "--strip-components",
      "-I",
      "--use-compress-program",
      "--to-command",
      "--checkpoint-action",
    ]);
    const members: Arg[] = [];
    for (let i = oldStyle ? 1 + oldStyle.replace(/[^fCbTXg]/g, "").length : 0; i < a.length; i++) {
      const t = nth(a, i).text;
      if (skip.has(t)) {
        i++;
        continue;
      }
      // `-xf ARCHIVE`, `-xzf ARCHIVE`: a cluster ending in f takes the archive
      if (/^-[a-zA-Z]*[fC]$/.test(t)) {
        i++;
        continue;
      }
      if (t.startsWith("-")) continue;
      members.push(nth(a, i));
    }
    const base = dir?.text ?? "";
    if (members.length) return members.map((m) => ({ ...m, text: base ? path.join(base, m.text) : m.text }));
    return [{ text: base ? path.join(base, "<archive members>") : "<archive members>", dynamic: true, pattern: base ? `${base}/*` : "*" }];
  }
  if (/[cru]/.test(letters) || long("create") || long("append") || long("update")) return file && file.text !== "-" ? [file] : [];
  return [];
}

/** Options of ordinary programs whose value is a shell command they run (`rsync -e`, `tar -I`, `ssh -o ProxyCommand=`). */
export function optionShells(name: string, a: Arg[]): Script[] {
  const out: Script[] = [];
  const take = (short: string[], long: string[]) => {
    const v = optionValue(a, short, long);
    if (v) out.push({ ...v, label: `${name} ${short[0] ?? long[0]}` });
  };
  if (name === "rsync") take(["-e"], ["--rsh", "--rsync-path"]);
  if (name === "tar" || name === "bsdtar") {
    take(["-I"], ["--use-compress-program", "--to-command", "--info-script", "--new-volume-script"]);
    for (const x of a) {
      const m = /^--checkpoint-action=exec=(.*)$/s.exec(x.text);
      if (m) out.push({ text: nth(m, 1), dynamic: x.dynamic, label: "tar --checkpoint-action" });
    }
  }
  if (name === "sort") take([], ["--compress-program"]);
  if (name === "zip") take(["-TT"], ["--unzip-command"]);
  if (name === "man") take(["-P"], ["--pager"]);
  if (name === "ssh" || name === "scp" || name === "sftp") {
    for (let i = 0; i < a.length; i++) {
      const o = nth(a, i);
      const v = o.text === "-o" ? a[i + 1] : o.text.startsWith("-o") ? { ...o, text: o.text.slice(2) } : undefined;
      const m = v && /^(ProxyCommand|LocalCommand|KnownHostsCommand)[= ]\s*(.*)$/is.exec(v.text);
      if (m && m[2] !== "none") out.push({ text: nth(m, 2), dynamic: v.dynamic, label: `${name} -o ${m[1]}` });
    }
  }
  if (name === "less") for (const x of a) if (/^\+!/.test(x.text)) out.push({ ...x, text: x.text.slice(2), label: "less +!" });
  if (name === "sqlite3") {
    for (const d of sqliteDotCommands(a)) {
      const m = /^\.(shell|system)\s+([\s\S]*)$/.exec(d.text) ?? /^\.(output|once)\s+(?:-\w+\s+)*['"]?\|([\s\S]*?)['"]?$/.exec(d.text);
      if (m) out.push({ ...d, text: nth(m, 2), label: `sqlite3 .${m[1]}` });
    }
  }
  // ripgrep runs the --pre program on every file it searches
  if (name === "rg") take([], ["--pre"]);
  return out;
}

/**
 * Files a patch changes: `patch` / `git apply` with the patch from a file
 * (`-i F`, an operand, `< F`) or here-doc, read at decision time. Unknown patch: `<patched files>`.
 */
export function patchWrites(name: string, args: Arg[], stdin: string | undefined, read: (p: string) => string | undefined): PathArg[] {
  const isGit = name === "git";
  if (isGit) {
    let v = 0;
    while (v < args.length && nth(args, v).text.startsWith("-")) v += GIT_VALUED.has(nth(args, v).text) ? 2 : 1;
    if (args[v]?.text !== "apply" && args[v]?.text !== "am") return [];
    args = args.slice(v + 1);
    if (args.some((a) => /^--(check|stat|numstat|summary|cached)$/.test(a.text))) return [];
  } else if (name !== "patch") return [];
  if (!isGit && (optionValue(args, ["-o"], ["--output"]) || args.some((a) => a.text === "--dry-run"))) return [];
  const p = optionValue(args, ["-p"], ["--strip"]);
  const strip = p ? Number(p.text) || 0 : isGit ? 1 : 0;
  const dir = optionValue(args, ["-d"], ["--directory"]);
  const input = optionValue(args, ["-i"], ["--input"]);
  const ops = operands(args, [
    "-p",
    "-i",
    "-o",
    "-d",
    "-D",
    "-B",
    "-F",
    "-r",
    "-V",
    "-z",
    "--input",
    "--output",
    "--directory",
    "--strip",
    "--exclude",
    "--include",
    "-C",
  ]);
  // `patch FILE < x.patch` names the file to patch itself (handled by the patch rule)
  if (!isGit && ops.length >= 1 && !input) return [];
  const files = isGit ? ops : input ? [input] : [];
  const texts: (string | undefined)[] = files.length ? files.map((f) => (f.dynamic ? undefined : read(f.text))) : [stdin];
  if (texts.some((t) => t === undefined)) return [{ path: "<patched files>", dynamic: true }];
  const names = texts.flatMap((t) => patchedFiles(t ?? "", strip));
  return names.map((n) => ({ path: dir ? path.join(dir.text, n) : n, dynamic: false }));
}

function operandsAfterPerlProgram(a: Arg[]): Arg[] {
  const out: Arg[] = [];
  for (let i = 0; i < a.length; i++) {
    const x = nth(a, i);
    if (/^-[A-Za-z]*[eE]$/.test(x.text)) {
      i++;
      continue;
    }
    if (x.text.startsWith("-") && !x.dynamic) continue;
    out.push(x);
  }
  return out;
}

const opt = (x: Arg | undefined): Arg[] => (x ? [x] : []);

/**
 * Options of programs that name a file the program writes (an output, a log, a trace, a cookie jar).
 * `abbrev`: the program parses long options with getopt_long or its like, so any unambiguous prefix is the
 * option (`sort --outp=F`, `wget --append-out=F`); `others` are its other long options sharing a prefix with
 * an output one, to tell an ambiguous prefix (an error, nothing written) from a unique one.
 */
interface OutputOptions {
  short?: string[];
  long: string[];
  abbrev?: boolean;
  others?: string[];
}
const OUTPUT_OPTIONS: Record<string, OutputOptions> = {
  sort: { short: ["-o"], long: ["--output"], abbrev: true },
  shuf: { short: ["-o"], long: ["--output"], abbrev: true },
  wget: { short: ["-o", "-a", "-O"], long: ["--output-file", "--append-output", "--output-document"], abbrev: true },
  curl: {
    short: ["-o", "-D", "-c"],
    abbrev: true,
    long: ["--output", "--dump-header", "--trace", "--trace-ascii", "--cookie-jar", "--stderr", "--libcurl", "--etag-save", "--hsts"],
    others: [
      "--output-dir",
      "--trace-time",
      "--trace-ids",
      "--trace-config",
      "--cookie",
      "--etag-compare",
      "--http0.9",
      "--http1.0",
      "--http1.1",
      "--http2",
      "--http3",
      "--head",
      "--header",
      "--help",
    ],
  },
  gpg: {
    short: ["-o"],
    long: ["--output", "--log-file", "--logger-file", "--status-file", "--attribute-file"],
    abbrev: true,
    others: [
      "--openpgp",
      "--options",
      "--override-session-key",
      "--lock-once",
      "--lock-multiple",
      "--lock-never",
      "--logger-fd",
      "--status-fd",
      "--attribute-fd",
    ],
  },
  gpg2: {
    short: ["-o"],
    long: ["--output", "--log-file", "--logger-file", "--status-file"],
    abbrev: true,
    others: ["--openpgp", "--options", "--override-session-key"],
  },
  valgrind: { long: ["--log-file", "--xml-file"] },
  node: { long: ["--redirect-warnings"] },
  strace: { short: ["-o"], long: ["--output"], abbrev: true },
  ltrace: { short: ["-o"], long: ["--output"] },
  iconv: { short: ["-o"], long: ["--output"], abbrev: true },
};
OUTPUT_OPTIONS["nodejs"] = entry(OUTPUT_OPTIONS, "node");

/** The long option a word names under the program's rules (exact, or a unique prefix), with its attached value. */
function longOption(word: string, spec: OutputOptions): { name: string; value?: string } | undefined {
  const eq = word.indexOf("=");
  const given = eq >= 0 ? word.slice(0, eq) : word;
  const value = eq >= 0 ? word.slice(eq + 1) : undefined;
  const all = [...spec.long, ...(spec.others ?? [])];
  if (all.includes(given)) return { name: given, value };
  if (!spec.abbrev || given.length < 3) return undefined;
  const cands = all.filter((l) => l.startsWith(given));
  // every candidate an output option: whichever it is, a file is written
  if (cands.length === 1 || (cands.length > 1 && cands.every((c) => spec.long.includes(c)))) return { name: nth(cands, 0), value };
  return undefined;
}

/** Files named by a program's output options: short (`-o F`, `-oF`, a cluster ending in the letter), long, abbreviated. */
function outputOptionWrites(name: string, a: Arg[]): Arg[] {
  const spec = lookup(OUTPUT_OPTIONS, name);
  if (!spec) return [];
  const out: Arg[] = [];
  for (let i = 0; i < a.length; i++) {
    const x = nth(a, i);
    const t = x.text;
    if (t === "--") break;
    if (t.startsWith("--")) {
      const o = longOption(t, spec);
      if (!o || !spec.long.includes(o.name)) continue;
      if (o.value !== undefined) out.push({ ...x, text: o.value });
      else if (a[i + 1]) out.push(nth(a, ++i));
      continue;
    }
    for (const s of spec.short ?? []) {
      const m = new RegExp(`^-[A-Za-z]*?${s.slice(1)}(.*)$`).exec(t);
      if (!m) continue;
      if (m[1]) out.push({ ...x, text: m[1] });
      else if (a[i + 1]) out.push(nth(a, ++i));
      break;
    }
  }
  return out.filter((o) => o.text !== "-" && o.text !== "");
}

const SQLITE_VALUED = ["-cmd", "-separator", "-newline", "-nullvalue", "-init", "-vfs", "-maxsize", "-mmap", "-heap", "-lookaside", "-pagecache", "-escape"];

/** sqlite3's dot-commands in its SQL operands and `-cmd` values, one per line. */
function sqliteDotCommands(a: Arg[]): Arg[] {
  const texts: Arg[] = [];
  for (let i = 0; i < a.length; i++) if (nth(a, i).text === "-cmd" && a[i + 1]) texts.push(nth(a, ++i));
  texts.push(...operands(a, SQLITE_VALUED).slice(1));
  return texts.flatMap((t) =>
    t.text
      .split("\n")
      .map((l) => ({ ...t, text: l.trim() }))
      .filter((l) => l.text.startsWith(".")),
  );
}

/**
 * sqlite3 DB SQL…: the database file is created when missing (also by a bare `select`), unless read-only or
 * in memory; `.output F`, `.once F`, `.backup [DB] F`, `.save F`, `.clone F` write F.
 */
function sqliteWrites(a: Arg[]): Out[] {
  const out: Out[] = [];
  const db = operands(a, SQLITE_VALUED)[0];
  if (db && db.text !== ":memory:" && db.text !== "" && !a.some((x) => x.text === "-readonly" || x.text === "--readonly")) out.push(db);
  for (const d of sqliteDotCommands(a)) {
    const words = d.text.split(/\s+/).map((w) => w.replace(/^(['"])(.*)\1$/, "$2"));
    const cmd = words[0] ?? "";
    const files = words.slice(1).filter((w) => !w.startsWith("-"));
    if (/^\.(output|once)$/.test(cmd) && files[0] && !files[0].startsWith("|")) out.push({ ...d, text: files[0] });
    if (/^\.(backup|save|clone)$/.test(cmd) && files.length) out.push({ ...d, text: nth(files, files.length - 1) });
  }
  return out;
}

/** `cmake -E copy|copy_if_different SRC… DEST`, `touch`, `rename OLD NEW`, `remove`/`rm`, `create_symlink OLD NEW`, `tar cf OUT`. */
function cmakeWrites(a: Arg[], kind?: Kind): Out[] {
  const e = a.findIndex((x) => x.text === "-E");
  if (e < 0) return [];
  const sub = a[e + 1]?.text ?? "";
  const rest = a.slice(e + 2);
  const ops = rest.filter((x) => !/^-[a-zA-Z]+$/.test(x.text) || x.dynamic);
  if (sub === "copy" || sub === "copy_if_different" || sub === "copy_directory" || sub === "copy_directory_if_different") return destination(ops, [], kind);
  if (sub === "touch" || sub === "touch_nocreate" || sub === "remove" || sub === "rm" || sub === "remove_directory" || sub === "make_directory") return ops;
  if (sub === "rename") return ops.slice(0, 2);
  if (sub === "create_symlink" || sub === "create_hardlink") return ops.slice(1, 2);
  if (sub === "tar" && rest[1]) return /[cru]/.test(rest[0]?.text ?? "") ? [rest[1]] : [{ text: "<archive members>", dynamic: true, pattern: "*" }];
  return [];
}

/**
 * Paths the program writes. `inline` is the program text of `python -c`,
 * `node -e` or a here-doc fed to an interpreter, when there is one.
 */
/** `scriptPure`: the script the program runs was read and writes nothing, so its arguments are only read. */
export function writesOf(program: string, args: Arg[], inline?: string, kind?: Kind, scriptPure = false): PathArg[] {
  const name = basename(program);
  const rule = lookup(RULES, name);
  const named = outputOptionWrites(name, args).map(toPath);
  // GNU sed -i writes a new file and renames it over the name: a symlink is replaced, its target left alone
  const replaced = name === "sed" && !args.some((a) => a.dynamic || SED_FOLLOW.test(a.text));
  const ruled = (): PathArg[] => (rule ? rule(args, kind).map((o) => (replaced ? { ...toPath(o), noFollow: true } : toPath(o))) : []);
  if (inline !== undefined) return [...named, ...ruled(), ...inlineWrites(inline)];
  if (rule) return [...named, ...ruled()];
  if (named.length) return [...named, ...(isInterpreter(name) ? scriptArgs(args, true) : [])];
  if (scriptPure) return [];
  if (isInterpreter(name) || SHELLS.has(name)) return scriptArgs(args, true);
  // `./fix-links.sh notes_RU.md`: a project script run on the path
  if (program.startsWith("./") || program.startsWith("../")) return scriptArgs(args, false);
  return [];
}

/** A written path; a run-time or glob word also carries the glob of names it can be. */
function toPath(a: Out): PathArg {
  const dynamic = a.dynamic || a.text === "{}" || /^<.*>$/.test(a.text);
  if (!dynamic && !a.pattern) return { path: a.text, dynamic };
  const pattern = typeof a.pattern === "string" ? a.pattern : a.shape?.kind === "glob" ? a.shape.glob : a.pattern && !a.dynamic ? a.text : "**";
  return { path: a.text, dynamic, pattern };
}

/**
 * "A script run on the path": `python fix.py notes_RU.md` may well rewrite
 * notes_RU.md, so file-like arguments after the script count as written.
 */
function scriptArgs(args: Arg[], afterScript: boolean): PathArg[] {
  const ops = operands(args, ["-m", "-W", "-X", "-r", "--require", "--import", "--loader"]);
  return (afterScript ? ops.slice(1) : ops).filter((a) => a.dynamic || PATHLIKE.test(a.text)).map(toPath);
}
