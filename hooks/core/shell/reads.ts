// Which arguments of a program are paths it only reads. Reads never gate
// anything: they are reported so `explain` (and the corpus) can show that
// `cat notes_RU.md` was understood as a read, not merely "no write found".
// A program missing here reads nothing as far as we report.
import { entry, nth } from "./nth.js";
import { isInterpreter, SHELLS, isProgramFlag, lookup, type Arg } from "./wrappers.js";
import { operands, type PathArg } from "./writes.js";

interface Reader {
  /** Options that take a separate value. */
  valued?: string[];
  /** Options that give the program/pattern, so the first operand is a file after all (grep -e, sed -e, awk -f). */
  program?: string[];
  /** Options whose value is a file read (grep -f, sed -f, awk -f, jq --from-file). */
  files?: string[];
  /** Only the first operand is read (uniq IN OUT). */
  firstOnly?: boolean;
}

const PLAIN: Reader = {};
const COUNTED: Reader = { valued: ["-n", "-c", "--lines", "--bytes", "-s", "--sleep-interval", "--pid"] };
const PATTERN_FIRST: Reader = {
  valued: ["-e", "-f", "-m", "-A", "-B", "-C", "-g", "-t", "-T", "-M", "--regexp", "--file", "--max-count", "--glob", "--type", "--type-not"],
  program: ["-e", "-f", "--regexp", "--file"],
  files: ["-f", "--file"],
};

const READERS: Record<string, Reader> = {
  cat: PLAIN,
  tac: PLAIN,
  less: PLAIN,
  more: PLAIN,
  wc: PLAIN,
  file: PLAIN,
  strings: PLAIN,
  cmp: PLAIN,
  comm: PLAIN,
  md5sum: PLAIN,
  sha1sum: PLAIN,
  sha256sum: PLAIN,
  sha512sum: PLAIN,
  cksum: PLAIN,
  source: PLAIN,
  ".": PLAIN,
  head: COUNTED,
  tail: COUNTED,
  nl: { valued: ["-b", "-w", "-s", "-v", "-i"] },
  bat: { valued: ["-l", "--language", "-r", "--line-range", "--style", "--theme"] },
  stat: { valued: ["-c", "--format", "--printf"] },
  xxd: { valued: ["-l", "-s", "-c", "-g"] },
  od: { valued: ["-A", "-t", "-N", "-j", "-w"] },
  hexdump: { valued: ["-n", "-s", "-e"] },
  base64: { valued: ["-w", "--wrap"] },
  shasum: { valued: ["-a", "--algorithm"] },
  diff: { valued: ["-U", "-C", "-x", "-X", "-I", "-F", "--label"] },
  sort: { valued: ["-o", "-k", "-t", "-S", "-T", "--output", "--key", "--field-separator", "--buffer-size"] },
  uniq: { valued: ["-f", "-s", "-w"], firstOnly: true },
  cut: { valued: ["-d", "-f", "-c", "-b", "--delimiter", "--fields", "--characters", "--bytes"] },
  paste: { valued: ["-d", "--delimiters"] },
  column: { valued: ["-s", "-t", "-c", "-o"] },
  grep: PATTERN_FIRST,
  egrep: PATTERN_FIRST,
  fgrep: PATTERN_FIRST,
  rg: PATTERN_FIRST,
  sed: { valued: ["-e", "-f", "-l", "--expression", "--file"], program: ["-e", "-f", "--expression", "--file"], files: ["-f", "--file"] },
  awk: { valued: ["-F", "-v", "-f", "-i"], program: ["-f"], files: ["-f"] },
  jq: {
    valued: ["-f", "--from-file", "--indent", "--arg", "--argjson", "--slurpfile", "--rawfile"],
    program: ["-f", "--from-file"],
    files: ["-f", "--from-file"],
  },
};
READERS["gawk"] = entry(READERS, "awk");
READERS["mawk"] = entry(READERS, "awk");
/** jq's `--arg NAME VALUE` takes two words. */
const TWO_VALUES = new Set(["--arg", "--argjson", "--slurpfile", "--rawfile"]);

/** Interpreter and shell options that take a value (`node --import tsx x.ts`, `bash -o pipefail x.sh`). */
const INTERPRETER_VALUED = ["-W", "-X", "-r", "--require", "--import", "--loader", "-o", "-O", "--rcfile", "--init-file"];

export function readsOf(name: string, args: Arg[]): PathArg[] {
  if (name === "cp")
    return operands(args, ["-S", "--suffix", "-t", "--target-directory"])
      .slice(0, hasTarget(args) ? undefined : -1)
      .map(toPath);
  if (name === "dd") return args.filter((a) => a.text.startsWith("if=")).map((a) => ({ path: a.text.slice(3), dynamic: a.dynamic }));
  // `python3 tool.py`, `bash deploy.sh`: the interpreter reads the script file.
  if (isInterpreter(name) || SHELLS.has(name)) {
    // `python -c CODE`, `python -m module`: no script file
    if (isInterpreter(name) && args.some((a) => isProgramFlag(name, a.text) || a.text === "-m")) return [];
    return operands(args, INTERPRETER_VALUED).slice(0, 1).map(toPath);
  }
  const r = lookup(READERS, name);
  if (!r) return [];
  const files: Arg[] = [];
  const rest: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = nth(args, i).text;
    if (r.files?.includes(t) && args[i + 1]) files.push(nth(args, i + 1));
    if (TWO_VALUES.has(t) && name === "jq") {
      i += 2;
      continue;
    }
    rest.push(nth(args, i));
  }
  // an empty word is no file (BSD `sed -i '' ...` leaves one behind)
  let ops = operands(rest, r.valued).filter((x) => x.text !== "" || x.dynamic);
  const program = r.program;
  if (program && !args.some((a) => program.includes(a.text))) ops = ops.slice(1);
  if (r.firstOnly) ops = ops.slice(0, 1);
  return [...files, ...ops].map(toPath);
}

const hasTarget = (args: Arg[]): boolean => args.some((a) => a.text === "-t" || a.text.startsWith("--target-directory"));
const toPath = (a: Arg): PathArg => ({ path: a.text, dynamic: a.dynamic });
