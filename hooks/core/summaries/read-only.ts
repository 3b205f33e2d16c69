// Does a command line only read? Only such outputs may be summarized.
// Over plain {name, argv} words from the shell analysis. The caller still checks the analysis'
// own findings: any write (redirect, tee, -delete...) or opaque part means "not read-only".
import { expectedType } from "./classify.js";
import { hintOf, WRAPPERS, type CommandWords } from "./command.js";

export interface ReadOnlyVerdict {
  readOnly: boolean;
  /** The first command that is not known to only read: "git push", "sed". */
  culprit?: string;
  reason?: string;
  /** write: it writes or may (a write flag, a writing verb); unknown: a program we know nothing of. */
  kind?: "write" | "unknown";
}

const UNKNOWN = "not a known read-only program";

const GIT_READS = new Set([
  "diff",
  "status",
  "log",
  "show",
  "blame",
  "grep",
  "ls-files",
  "ls-tree",
  "rev-parse",
  "shortlog",
  "describe",
  "cat-file",
  "diff-tree",
  "diff-index",
  "diff-files",
  "name-rev",
  "merge-base",
  "show-ref",
  "for-each-ref",
  "range-diff",
  "whatchanged",
  "count-objects",
  "version",
  "help",
]);
/** Programs that only read whatever their flags (flags that run or write are listed in WRITE_FLAGS). */
const READERS = new Set([
  "cd",
  "pushd",
  "popd",
  "true",
  ":",
  "echo",
  "printf",
  "pwd",
  "sleep",
  "export",
  "grep",
  "egrep",
  "fgrep",
  "zgrep",
  "rg",
  "ag",
  "ack",
  "ls",
  "find",
  "tree",
  "fd",
  "fdfind",
  "du",
  "stat",
  "file",
  "realpath",
  "readlink",
  "basename",
  "dirname",
  "exa",
  "eza",
  "cat",
  "head",
  "tail",
  "wc",
  "sort",
  "uniq",
  "cut",
  "tr",
  "nl",
  "column",
  "jq",
  "less",
  "more",
  "diff",
  "cmp",
  "journalctl",
  "dmesg",
]);
/** Flags that make a reader run a program or write a file. */
const WRITE_FLAGS: Record<string, RegExp> = {
  find: /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/,
  fd: /^(-x|-X|--exec|--exec-batch)$/,
  fdfind: /^(-x|-X|--exec|--exec-batch)$/,
  rg: /^--pre(=|$)/,
  tree: /^-o$/,
  sort: /^(-o|--output)(=|$)|^-o./,
  journalctl: /^--(vacuum-\w+|rotate|flush|sync|relinquish-var|smart-relinquish-var|setup-keys|update-catalog)/,
  dmesg: /^(-c|-C|--clear|--read-clear)$/,
  git: /^--output(=|$)/,
};
/** Test runner flags that rewrite snapshots or sources. */
const TEST_WRITE_FLAGS = /^(-u|--updateSnapshot|--update-snapshots?|--snapshot-update|--update|--fix|--bless)$/;
const LOG_SUBS: Record<string, string> = { docker: "logs", podman: "logs", kubectl: "logs", oc: "logs" };

export function readOnlyCommands(commands: readonly CommandWords[]): ReadOnlyVerdict {
  if (commands.length === 0) return { readOnly: false, reason: "no command found", kind: "unknown" };
  for (const c of commands) {
    const why = notReadOnly(c);
    if (why) return { readOnly: false, culprit: culprit(c), reason: why, kind: why === UNKNOWN ? "unknown" : "write" };
  }
  return { readOnly: true };
}

/** Why this command may change something, or undefined when it only reads. */
function notReadOnly(c: CommandWords): string | undefined {
  const args = c.argv.slice(1);
  const flag = WRITE_FLAGS[c.name];
  const bad = flag ? args.find((a) => flag.test(a)) : undefined;
  if (bad) return `${bad} runs a program or writes`;
  if (WRAPPERS.has(c.name)) return undefined; // the wrapped command is listed on its own
  if (c.name === "uniq" && args.filter((a) => !a.startsWith("-")).length >= 2) return "uniq writes its second file argument";
  if (READERS.has(c.name)) return undefined;
  const hint = hintOf(c);
  if (c.name === "git") return hint.sub !== undefined && GIT_READS.has(hint.sub) ? undefined : `git ${hint.sub ?? ""} may write`.trim();
  if (LOG_SUBS[c.name] !== undefined && hint.sub === LOG_SUBS[c.name]) return undefined;
  if (expectedType(hint) === "test" || isTestScript(c)) {
    const w = args.find((a) => TEST_WRITE_FLAGS.test(a));
    return w ? `${w} rewrites files` : undefined;
  }
  return UNKNOWN;
}

/** `npm run test:unit`, `pnpm run test`: package scripts named test*. */
function isTestScript(c: CommandWords): boolean {
  return ["npm", "pnpm", "yarn", "bun"].includes(c.name) && c.argv[1] === "run" && /^test([:\-_.]|$)/.test(c.argv[2] ?? "");
}

/** Programs whose first word is a verb worth naming ("git push", "npm install"). */
const VERB_PROGRAMS = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "cargo",
  "go",
  "docker",
  "podman",
  "kubectl",
  "make",
  "pip",
  "pip3",
  "apt",
  "apt-get",
  "systemctl",
  "brew",
  "gh",
  "terraform",
  "helm",
]);

function culprit(c: CommandWords): string {
  const h = hintOf(c);
  return h.sub && VERB_PROGRAMS.has(h.name) && /^[\w:-]+$/.test(h.sub) ? `${h.name} ${h.sub}` : h.name;
}
