// Shared helpers of the shell analysis: program names, interpreters and their
// program flags, subcommand positions. Launchers (sudo, env, watch, …) are in launchers.ts.
import { nth } from "./nth.js";
import type { WordValue } from "./words.js";

export type Arg = WordValue;

export const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish"]);
/** Interpreters whose program can come inline (`-c`, `-e`) or on stdin; `python3.12` is python. */
const INTERPRETER = /^(python|pypy)[\d.]*$|^(node|nodejs|ruby|perl|php|deno|bun|tsx|ts-node|lua|luajit|Rscript|julia|osascript|tclsh|wish|emacs)$/;

export function isInterpreter(name: string): boolean {
  return INTERPRETER.test(name);
}

/** The option that hands an interpreter its program text (`python -c`, `node -e`/`-p`, `perl -ne`, `php -r`). */
const PROGRAM_FLAG: Record<string, RegExp> = {
  python: /^-[A-Za-z]*c$/,
  node: /^-[ep]$/,
  perl: /^-[A-Za-z]*[eE]$/,
  ruby: /^-[A-Za-z]*e$/,
  php: /^-r$/,
  lua: /^-e$/,
  Rscript: /^-e$/,
  julia: /^-e$/,
  osascript: /^-e$/,
  emacs: /^--?eval$/,
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
/** Paths that are the process's own stdin: /dev/stdin, /dev/fd/0, /proc/self/fd/0 (and thread-self). */
export const STDIN_PATH = /^\/(dev\/(stdin|fd\/0)|proc\/(self|thread-self)\/fd\/0)$/;

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
    const t = nth(argv, i).text;
    if (nth(argv, i).dynamic) return i;
    if (lookup(VERB_VALUED, name)?.has(t)) {
      i++;
      continue;
    }
    if (t.startsWith("-")) continue;
    return i;
  }
  return -1;
}
