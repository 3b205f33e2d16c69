// Peeling wrappers off an argv: `sudo env A=1 nice -n 5 git commit` runs git.
// Each wrapper knows which of its options take a value, so the word after
// `-u root` is not mistaken for the program.
import type { WordValue } from "./words.js";

export type Arg = WordValue;

export interface Unwrapped {
  /** The program that finally runs, with its arguments. Empty when nothing runs (e.g. `command -v git`). */
  argv: Arg[];
  /** Wrappers peeled, outermost first. */
  via: string[];
  /** A shell was given its program as a string (`bash -c '...'`, `env -S`). */
  script?: Arg;
  /** A shell or interpreter reads its program from stdin. */
  readsProgramFromStdin?: boolean;
  /** Why the program cannot be known statically. */
  opaque?: string;
}

export const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish"]);
/** Interpreters whose program can come inline (`-c`, `-e`) or on stdin; `python3.12` is python. */
const INTERPRETER = /^(python|pypy)[\d.]*$|^(node|nodejs|ruby|perl|php|deno|bun|tsx|ts-node|lua|luajit|Rscript)$/;

export function isInterpreter(name: string): boolean {
  return INTERPRETER.test(name);
}

/** The option that hands an interpreter its program text (`python -c`, `node -e`/`-p`, `perl -ne`, `php -r`). */
const PROGRAM_FLAG: Record<string, RegExp> = {
  python: /^-[A-Za-z]*c$/, node: /^-[ep]$/, perl: /^-[A-Za-z]*[eE]$/, ruby: /^-[A-Za-z]*e$/, php: /^-r$/, lua: /^-e$/, Rscript: /^-e$/,
};
const flavour = (name: string): string =>
  /^(python|pypy)/.test(name) ? "python" : /^(nodejs|bun|deno|tsx|ts-node)$/.test(name) ? "node" : name === "luajit" ? "lua" : name;

/** Is this word the option whose value is the program (`-c` for python, `-e` for node...)? */
export function isProgramFlag(interpreter: string, word: string): boolean {
  if (word === "--eval" || word === "--print") return true;
  return lookup(PROGRAM_FLAG, flavour(interpreter))?.test(word) ?? false;
}

/** `table[key]` for own keys only: a command named `constructor` or `toString` must not find Object's. */
export function lookup<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

export function basename(p: string): string {
  const i = p.lastIndexOf("/");
  return i < 0 ? p : p.slice(i + 1);
}

/** Cut long text for messages: a 1 MB word must not end up in every reason. */
export function clip(s: string, max = 120): string {
  return s.length > max ? s.slice(0, max - 3) + "..." : s;
}

/** What xargs appends to the command line: words read from stdin at run time. */
export const STDIN_ARGS: Arg = { text: "<stdin>", dynamic: true };

/**
 * Option spec of a wrapper: options that take a separate value, and whether the
 * first non-option word is consumed before the program (timeout's DURATION).
 */
interface WrapperSpec {
  valued: string[];
  /** Options that mean "don't run anything" (command -v). */
  stops?: string[];
  leadingOperands?: number;
  /** NAME=VALUE words are skipped (env). */
  assignments?: boolean;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  env: { valued: ["-u", "--unset", "-C", "--chdir"], assignments: true },
  sudo: { valued: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "-R", "--user", "--group", "--host", "--prompt", "--chdir"] },
  doas: { valued: ["-u", "-C"] },
  nice: { valued: ["-n", "--adjustment"] },
  ionice: { valued: ["-c", "-n", "-p", "-P", "-u"] },
  nohup: { valued: [] },
  time: { valued: ["-o", "-f", "--output", "--format"] },
  builtin: { valued: [] },
  command: { valued: [], stops: ["-v", "-V"] },
  exec: { valued: ["-a"] },
  stdbuf: { valued: ["-i", "-o", "-e"] },
  timeout: { valued: ["-s", "-k", "--signal", "--kill-after"], leadingOperands: 1 },
  xargs: {
    valued: ["-I", "-n", "-P", "-d", "-E", "-L", "-s", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file", "--replace"],
  },
  chronic: { valued: [] },
  unbuffer: { valued: [] },
  caffeinate: { valued: [] },
  setsid: { valued: [] },
  watch: { valued: ["-n", "-d", "--interval"] },
  flock: { valued: ["-w", "-E", "--timeout"], leadingOperands: 1 },
};

const MAX_UNWRAP = 32;

export function unwrap(argv: Arg[]): Unwrapped {
  const via: string[] = [];
  let rest = argv;
  while (rest.length > 0) {
    const head = rest[0]!;
    if (head.dynamic) return { argv: rest, via, opaque: `the command name ${clip(head.text, 60)} is computed at run time` };
    // `/usr/bin/gi? commit`, `{git,} commit`: the name is whatever the pattern expands to.
    if (head.pattern) return { argv: rest, via, opaque: `the command name ${clip(head.text, 60)} is a pattern expanded at run time` };
    const name = basename(head.text);
    // eval of literal strings is just a script; eval of anything computed is opaque.
    if (name === "eval") {
      const args = rest.slice(1);
      if (args.some((a) => a.dynamic)) return { argv: rest, via, opaque: "eval runs a string computed at run time" };
      return { argv: [head], via, script: { text: args.map((a) => a.text).join(" "), dynamic: false } };
    }
    if (SHELLS.has(name)) return { ...shellInvocation(rest), via };
    // `alias g=git` makes a later `g commit` run git, where aliases are expanded.
    if (name === "alias" && rest.slice(1).some((a) => a.text.includes("="))) {
      return { argv: rest, via, opaque: "alias renames a command" };
    }
    // `script -qc 'git commit' /dev/null` runs its string through a shell (for a tty).
    if (name === "script") {
      const c = rest.findIndex((a) => /^-[A-Za-z]*c$/.test(a.text) || a.text === "--command");
      if (c > 0 && rest[c + 1]) return { argv: [head], via, script: rest[c + 1]! };
    }
    if ((name === "source" || name === ".") && rest[1]?.dynamic) {
      return { argv: rest, via, opaque: `${name} runs a file named at run time` };
    }
    // env -S 'git commit' splits its string into a command line.
    if (name === "env") {
      const s = rest.findIndex((a) => a.text === "-S" || a.text === "--split-string");
      if (s > 0 && rest[s + 1]) return { argv: [], via: [...via, "env"], script: rest[s + 1]! };
    }
    const spec = lookup(WRAPPERS, name);
    if (!spec) return { argv: rest, via };
    const inner = skipOptions(rest, spec);
    if (inner === null) return { argv: [], via: [...via, name] };
    // Each pass peels one wrapper, so this also bounds the loop.
    if (via.length === MAX_UNWRAP) return { argv: rest, via, opaque: `more than ${MAX_UNWRAP} wrappers in a row` };
    via.push(name);
    // xargs with no program runs echo; nothing else to see.
    rest = name === "xargs" ? xargsArgs(rest.slice(1, rest.length - inner.length), inner) : inner;
  }
  return { argv: rest, via };
}

/** Index past the wrapper's own options, or null when the wrapper runs nothing. */
function skipOptions(argv: Arg[], spec: WrapperSpec): Arg[] | null {
  let i = 1;
  let operands = spec.leadingOperands ?? 0;
  while (i < argv.length) {
    const t = argv[i]!.text;
    if (t === "--") { i++; break; }
    if (spec.stops?.includes(t)) return null;
    if (spec.valued.includes(t)) { i += 2; continue; }
    if (t.startsWith("-") && t.length > 1) { i++; continue; }
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) { i++; continue; }
    if (operands > 0) { operands--; i++; continue; }
    break;
  }
  while (operands-- > 0 && i < argv.length) i++;
  return argv.slice(i);
}

/**
 * The words xargs really runs: with -I/-i/--replace the replace string in a
 * word is filled in at run time; without it, words from stdin are appended
 * (`echo commit | xargs git` runs `git commit`).
 */
function xargsArgs(options: Arg[], inner: Arg[]): Arg[] {
  if (inner.length === 0) return inner;
  let replace: string | undefined;
  for (const [i, o] of options.entries()) {
    if (o.text === "-I") replace = options[i + 1]?.text;
    else if (o.text.startsWith("-I")) replace = o.text.slice(2);
    else if (o.text === "-i" || o.text === "--replace") replace = "{}";
    else if (o.text.startsWith("-i")) replace = o.text.slice(2);
    else if (o.text.startsWith("--replace=")) replace = o.text.slice("--replace=".length);
  }
  if (!replace) return [...inner, STDIN_ARGS];
  return inner.map((a) => (a.text.includes(replace!) ? { ...a, dynamic: true } : a));
}

/** `bash -lc 'cmd'`, `sh script.sh`, or `bash` reading stdin. */
function shellInvocation(argv: Arg[]): Omit<Unwrapped, "via"> {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    const t = a.text;
    if (t === "-o" || t === "+o" || t === "-O" || t === "+O" || t === "--rcfile" || t === "--init-file") { i++; continue; }
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(t)) {
      const script = argv[i + 1];
      // `xargs sh -c`: the program is whatever xargs reads.
      return script ? { argv: [argv[0]!], script } : { argv: [argv[0]!], opaque: `${basename(argv[0]!.text)} -c gets its program at run time` };
    }
    if (t === "-s") return { argv: [argv[0]!], readsProgramFromStdin: true };
    if (t.startsWith("-") || t.startsWith("+")) continue;
    // A script file: the shell runs it; we can't see inside, but it is not hidden either.
    return { argv };
  }
  return { argv: [argv[0]!], readsProgramFromStdin: true };
}

/** Git's global options before the subcommand (`git -C repo -c a=b commit`). */
export const GIT_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path"]);

/** Options that take a value before the subcommand, per program (`kubectl -n prod apply`). */
const VERB_VALUED: Record<string, Set<string>> = {
  git: GIT_VALUED,
  kubectl: new Set(["-n", "--namespace", "--context", "--cluster", "--kubeconfig", "--user", "-s", "--server", "--as", "--token"]),
  npm: new Set(["--prefix", "-w", "--workspace", "--registry", "--userconfig", "--cache", "--loglevel"]),
  docker: new Set(["-H", "--host", "-c", "--context", "--config", "-l", "--log-level"]),
  helm: new Set(["-n", "--namespace", "--kube-context", "--kubeconfig"]),
};

/** `git -c alias.ci=commit ci`: the subcommand is a name defined on the spot. */
export function gitAliasVerb(argv: Arg[], verb: number): boolean {
  const word = argv[verb]?.text;
  return argv.some((a, i) => i < verb && a.text.startsWith(`alias.${word}=`));
}

/** Index of the subcommand word (`commit` in `git -C x commit`), or -1. */
export function verbIndex(name: string, argv: Arg[]): number {
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i]!.text;
    if (argv[i]!.dynamic) return i;
    if (lookup(VERB_VALUED, name)?.has(t)) { i++; continue; }
    if (t.startsWith("-")) continue;
    return i;
  }
  return -1;
}
