// `skillgate <verb>`: the one entry point for users and tests. Each verb's
// module is imported only when that verb runs.
import { findPackageRoot } from "../hooks/runner/process.js";

interface Verb {
  summary: string;
  usage: string;
  run: (args: string[], root: string) => Promise<number>;
}

const VERBS: Record<string, Verb> = {
  hook: {
    summary: "read one Claude Code hook event on stdin and answer on stdout (what the hook executable does)",
    usage: "skillgate hook < event.json",
    run: async () => {
      const { hookMain } = await import("../hooks/runner/process.js");
      await hookMain();
      return 0;
    },
  },
  explain: {
    summary: "show what a Bash command runs and writes, and which rows would fire",
    usage: "skillgate explain [--json] [--table FILE] [--loaded SKILL,...] -- '<bash command>'",
    run: async (args, root) => (await import("./explain.js")).explainMain(args, root),
  },
  lint: {
    summary: "check the table (schema, regexes) and the skills (3 KB cores, chapters, every skill has a row)",
    usage: "skillgate lint [--table FILE]",
    run: async (args, root) => (await import("./lint.js")).lintMain(args, root),
  },
  cases: {
    summary: "run the JSON cases in cases/ through the real hook process",
    usage: "skillgate cases [--dir DIR] [--table FILE] [--runtime node|bun]",
    run: async (args, root) => (await import("./cases/main.js")).casesMain(args, root),
  },
  mutate: {
    summary: "remove each table row in turn and show which cases turn red; fails if a row turns none red",
    usage: "skillgate mutate [--dir DIR] [--table FILE] [--json]",
    run: async (args, root) => (await import("./cases/main.js")).mutateMain(args, root),
  },
  demo: {
    summary: "play a short session on the default table: deny → load → allow → compaction → deny, and a hint once",
    usage: "skillgate demo",
    run: async (args, root) => (await import("./demo.js")).demoMain(args, root),
  },
  init: {
    summary: "give this project its own table (.claude/triggers.json), the skills its rows name, and starter cases",
    usage: "skillgate init [--project DIR] [--full] [--no-cases]",
    run: async (args, root) => (await import("./init.js")).initMain(args, root),
  },
  install: {
    summary: "add skillgate's hooks to a Claude Code settings.json (keeps everything else; backup first)",
    usage: "skillgate install [--project DIR [--local] | --user] [--with-skills] [--runtime bun|node] [--dry-run]",
    run: async (args, root) => (await import("./install.js")).installMain(args, root),
  },
  uninstall: {
    summary: "remove exactly the hooks skillgate install added",
    usage: "skillgate uninstall [--project DIR [--local] | --user] [--dry-run]",
    run: async (args, root) => (await import("./install.js")).uninstallMain(args, root),
  },
  doctor: {
    summary: "check the installed hooks, the hook command, the table and the state folder",
    usage: "skillgate doctor [--project DIR [--local] | --user]",
    run: async (args, root) => (await import("./install.js")).doctorMain(args, root),
  },
  measure: {
    summary: "count, from Claude Code transcripts, how often each row had an occasion and how often its skill was loaded",
    usage: "skillgate measure [--projects DIR] [--since 7d] [--table FILE] [--json] [--save] [--compare FILE] [--svg FILE]",
    run: async (args, root) => (await import("./measure/main.js")).measureMain(args, root),
  },
  stats: {
    summary: "a session's counters: tool calls, outputs capped, characters saved, compactions, budget level",
    usage: "skillgate stats [--session ID] [--json]",
    run: async (args, root) => (await import("./stats.js")).statsMain(args, root),
  },
  schema: {
    summary: "print the JSON Schema of triggers.json (--write updates triggers.schema.json)",
    usage: "skillgate schema [--write]",
    run: async (args, root) => (await import("./schema.js")).schemaMain(args, root),
  },
};

function help(): string {
  const w = Math.max(...Object.keys(VERBS).map((k) => k.length));
  return [
    "skillgate — load agent skills on the event, not on memory",
    "",
    "usage: skillgate <verb> [options]   (skillgate <verb> --help for details)",
    "",
    ...Object.entries(VERBS).map(([k, v]) => `  ${k.padEnd(w)}  ${v.summary}`),
    "",
    "environment: SKILLGATE_TABLE (table file), SKILLGATE_STATE (state folder), SKILLGATE_FAIL_MODE=closed, SKILLGATE_TRACE=1",
  ].join("\n");
}

export async function cli(argv: string[]): Promise<number> {
  const [verb, ...args] = argv;
  if (!verb || verb === "--help" || verb === "-h" || verb === "help") {
    console.log(help());
    return verb ? 0 : 1;
  }
  const v = VERBS[verb];
  if (!v) {
    console.error(`skillgate: unknown verb "${verb}"\n\n${help()}`);
    return 2;
  }
  if (args.includes("--help") || args.includes("-h")) {
    console.log(`${v.usage}\n\n${v.summary}`);
    return 0;
  }
  return v.run(args, findPackageRoot());
}

/** Tiny flag reader: --name value, --flag; everything after `--` is positional. */
export function flags(args: string[]): { get: (name: string) => string | undefined; has: (name: string) => boolean; rest: string[] } {
  const dd = args.indexOf("--");
  const opts = dd < 0 ? args : args.slice(0, dd);
  const rest = dd < 0 ? opts.filter((a, i) => !a.startsWith("--") && !(i > 0 && opts[i - 1]!.startsWith("--") && takesValue(opts[i - 1]!))) : args.slice(dd + 1);
  return {
    get: (name) => {
      const i = opts.indexOf(`--${name}`);
      const v = i >= 0 ? opts[i + 1] : undefined;
      if (i >= 0 && (v === undefined || v.startsWith("--"))) throw new Error(`--${name} needs a value`);
      return v;
    },
    has: (name) => opts.includes(`--${name}`),
    rest,
  };
}
const VALUED = new Set(["--table", "--dir", "--runtime", "--loaded", "--project", "--projects", "--since", "--compare", "--svg", "--session", "--state"]);
const takesValue = (flag: string) => VALUED.has(flag);
