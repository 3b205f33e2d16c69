// Which program of a command line produced the output, as {name, sub}: `cd x && npx jest | tail`
// → jest. Takes plain {name, argv} (argv[0] is the program), so any shell analysis can feed it.

export interface CommandWords {
  name: string;
  argv: readonly string[];
}

export interface CommandHint {
  name: string;
  sub?: string;
}

/** Commands that set up rather than produce output. */
const NEUTRAL = new Set(["cd", "pushd", "popd", "export", "set", "unset", "true", ":", "source", ".", "echo", "printf", "sleep", "clear"]);
/** Wrappers: the shell analysis lists the wrapped command on its own as well. */
export const WRAPPERS = new Set([
  "sudo",
  "doas",
  "env",
  "time",
  "nice",
  "ionice",
  "timeout",
  "nohup",
  "command",
  "stdbuf",
  "chronic",
  "unbuffer",
  "xargs",
  "parallel",
]);
/** Runners of another program named by their first word: `npx jest`, `uv run pytest`. */
const LAUNCHERS: Record<string, string[]> = {
  npx: [],
  bunx: [],
  pnpx: [],
  pnpm: ["exec", "dlx"],
  yarn: ["exec", "dlx"],
  uv: ["run"],
  poetry: ["run"],
  pipx: ["run"],
};

/** git options that take a value in the next word (`git -C dir diff`). */
const GIT_VALUE_OPTS = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--super-prefix", "--config-env"]);

export function commandHint(commands: readonly CommandWords[]): CommandHint | undefined {
  const main = commands.find((c) => !NEUTRAL.has(c.name) && !WRAPPERS.has(c.name));
  return main ? hintOf(main) : undefined;
}

export function hintOf(c: CommandWords): CommandHint {
  const args = c.argv.slice(1);
  const launcher = LAUNCHERS[c.name];
  if (launcher) {
    const rest = launcher.length === 0 ? args : launcher.includes(args[0] ?? "") ? args.slice(1) : undefined;
    const prog = rest?.findIndex((a) => !a.startsWith("-")) ?? -1;
    if (rest && prog >= 0) return hintOf({ name: basename(rest[prog] ?? ""), argv: rest.slice(prog) });
  }
  if (c.name === "node" || c.name === "bun" || c.name === "deno") {
    if (args.includes("--test") || args[0] === "test") return { name: c.name, sub: "test" };
  }
  if (/^python(\d(\.\d+)?)?$/.test(c.name)) {
    const m = args.indexOf("-m");
    const mod = m >= 0 ? args[m + 1] : undefined;
    return mod ? { name: c.name, sub: mod } : { name: c.name };
  }
  if (c.name === "git") return { name: "git", sub: gitVerb(args) };
  const sub = args.find((a) => !a.startsWith("-"));
  return sub === undefined ? { name: c.name } : { name: c.name, sub };
}

function gitVerb(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (GIT_VALUE_OPTS.has(a)) i++;
    else if (!a.startsWith("-")) return a;
  }
  return undefined;
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf("/") + 1);
}
