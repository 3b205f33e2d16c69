// The CLI contract in one place: a declarative spec per verb (options with
// types, value names, defaults, examples), the parser every verb uses, the
// help it renders, the exit codes and the error kinds. Verbs import this
// module, never cli/main.ts (which imports every verb).
//
// Parsing rules: `--name value` and `--name=value` are the same; a flag takes
// no value; an unknown option, a missing or invalid value, or a stray argument
// is a UsageError (exit 2). `--` ends the options. A verb with operands takes
// free words: between options (`fingerprint a --json b`), or, when the operand
// is verbatim (explain's command), the first free word starts it and everything
// from there on is kept as given (`explain git push --force` keeps `--force`).

/** Documented exit codes, the same for every verb. */
export const EXIT = { ok: 0, findings: 1, usage: 2, config: 3 } as const;

export const EXIT_HELP: readonly [number, string][] = [
  [EXIT.ok, "ok"],
  [
    EXIT.findings,
    "findings: lint errors, a command explain says would be refused, a failing case, a doctor problem, a git hook install could not put in place",
  ],
  [EXIT.usage, "usage: unknown option, missing or invalid value, an option of another host (the message and the usage line on stderr)"],
  [
    EXIT.config,
    "configuration or I/O: a table that does not load, a file that cannot be read or written, skills a host cannot load (install without --with-skills)",
  ],
];

/** Wrong command line: printed as one line plus the verb's usage line, exit 2. */
export class UsageError extends Error {}

/** A problem the user can fix (bad file, missing state): one line on stderr, no stack. Exit 3 unless said otherwise. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly code: number = EXIT.config,
  ) {
    super(message);
  }
}

export type OptionSpec =
  | { readonly type: "flag"; readonly help: string }
  | { readonly type: "string"; readonly value: string; readonly help: string; readonly default?: string; readonly choices?: readonly string[] }
  /** May be repeated: `--x a --x b`; with comma, `--x a,b` too. */
  | { readonly type: "list"; readonly value: string; readonly help: string; readonly comma?: boolean };

export interface VerbSpec {
  readonly summary: string;
  readonly options: { readonly [name: string]: OptionSpec };
  /** Options that cannot be given together, e.g. [["project", "user"]]. */
  readonly exclusive?: readonly (readonly string[])[];
  /** Free words (without this, a stray word is a usage error). */
  readonly operand?: {
    readonly name: string;
    readonly help: string;
    /** Set: at least one word is required, and this is the error without it. */
    readonly missing?: string;
    /** An option that stands in for the words (fingerprint --previous brings back its roots). */
    readonly orOption?: string;
    /** The first free word starts the operand and everything after it is taken as given, options included. */
    readonly verbatim?: boolean;
  };
  readonly examples: readonly string[];
  /** What exit 1 means for this verb; omitted when it never reports findings. */
  readonly findings?: string;
}

// Shared options, so every verb says them the same way.
const JSON_OPT = { type: "flag", help: "print one JSON document on stdout instead of text (notes go to stderr)" } as const;
const TABLE_OPT = {
  type: "string",
  value: "FILE",
  help: "the trigger table (else $SKILLGATE_TABLE, else .claude/triggers.json in the project — $CLAUDE_PROJECT_DIR or the current folder —, else the bundled triggers.json)",
} as const;
const PROJECT_OPT = { type: "string", value: "DIR", help: "the project to install into (default: the current folder)" } as const;
const LOCAL_OPT = { type: "flag", help: "claude-code: use the project's .claude/settings.local.json (personal, not committed)" } as const;
const USER_OPT = {
  type: "flag",
  help: "install for the user, in every project: ~/.claude/settings.json, $CODEX_HOME/hooks.json, ~/.gemini/settings.json, $COPILOT_HOME/config.json, ~/.config/opencode/plugins/, ~/.cursor/hooks.json",
} as const;
/** The hosts install knows (cli/install/hosts.ts has one entry per name). */
export const HOST_NAMES = ["claude-code", "codex", "copilot", "cursor", "gemini", "opencode"] as const;
const HOST_OPT = {
  type: "string",
  value: "HOST",
  help:
    "the agent CLI: claude-code (Claude Code, the default), codex (Codex), gemini (Gemini CLI), copilot (Copilot CLI), opencode, cursor (Cursor); " +
    "all: every host whose config folder the project already has (.claude, .codex or .agents, .gemini, .github/hooks, .github/skills or .github/copilot-instructions.md, opencode.json or .opencode, .cursor) or whose command is on PATH (claude, codex, gemini, copilot, opencode, cursor-agent)",
  choices: [...HOST_NAMES, "all"],
} as const;
const TRUST_OPT = { type: "flag", help: "codex: record the hooks as trusted in $CODEX_HOME/config.toml (Codex skips untrusted hooks silently)" } as const;
const WITH_SKILLS_OPT = {
  type: "flag",
  help:
    "copy the skills the table names where the host loads them, when it cannot load them yet (without it, install refuses and names them): " +
    "claude-code .claude/skills, codex .agents/skills, gemini .gemini/skills, copilot .github/skills, opencode .opencode/skills, cursor .cursor/skills " +
    "(--user: ~/.claude/skills, ~/.agents/skills, ~/.gemini/skills, $COPILOT_HOME/skills, ~/.config/opencode/skills, ~/.cursor/skills)",
} as const;
const DRY_RUN_OPT = { type: "flag", help: "show the change as a diff; write nothing" } as const;
const CASES_DIR_OPT = {
  type: "string",
  value: "DIR",
  help: "the folder of case files (default: .claude/skillgate/cases/ beside a project table, else skillgate's cases/)",
} as const;

/**
 * Every verb's spec. Adding a verb: an entry here, and one line in VERBS in
 * cli/main.ts (the compiler insists on both).
 */
export const SPECS = {
  hook: {
    summary:
      "read one hook event on stdin and answer on stdout, as the hook executable does, for the host named by --host (the installed entries dist/hook-<host>.cjs name theirs)",
    options: {
      host: {
        type: "string",
        value: "HOST",
        help: "the host whose event this is (default: claude-code; opencode runs in-process as a plugin, without a hook command)",
        choices: ["claude-code", "codex", "copilot", "cursor", "gemini"],
      },
      event: { type: "string", value: "EVENT", help: "copilot: the event's name (Copilot's payload does not carry it), e.g. preToolUse" },
    },
    examples: [
      "skillgate hook < cases/fixtures/pre-tool-use-bash.json",
      "skillgate hook --host codex < event.json",
      "skillgate hook --host copilot --event preToolUse < event.json",
    ],
  },
  explain: {
    summary: "show what a Bash command runs and writes, and which rows would fire",
    options: {
      table: TABLE_OPT,
      loaded: { type: "list", value: "SKILL,...", help: "skills to count as already loaded in the session", comma: true },
      json: JSON_OPT,
    },
    operand: {
      name: "COMMAND",
      help: "the Bash command: every word after explain's own options, verbatim (quote it as one argument to keep quotes and operators)",
      missing: "give the command to explain, e.g. skillgate explain -- 'git commit -m x'",
      verbatim: true,
    },
    examples: [
      "skillgate explain git push --force origin main",
      "skillgate explain --loaded commit -- 'cd app && git commit -am wip'",
      "skillgate explain --json -- 'curl -s x | bash'",
    ],
    findings: "the command would be refused (deny or block)",
  },
  lint: {
    summary: "check the table (schema, regexes) and the skills (3 KB cores, chapters, every skill has a row)",
    options: { table: TABLE_OPT, json: JSON_OPT },
    examples: ["skillgate lint", "skillgate lint --table=.claude/triggers.json --json"],
    findings: "lint errors",
  },
  cases: {
    summary:
      "run the JSON cases against the table, in-process, as every host's payloads (the project's .claude/skillgate/cases/ for a project table, else skillgate's own); --new writes starter cases",
    options: {
      cases: CASES_DIR_OPT,
      dir: { type: "string", value: "DIR", help: "the same as --cases" },
      table: TABLE_OPT,
      runtime: { type: "string", value: "RUNTIME", help: "run through the built hook under this runtime instead of in-process", choices: ["node", "bun"] },
      new: {
        type: "list",
        value: "ROW,...|all",
        help: "write a starter case for each row (all: every row without a case of its name), run it, say whether it passes",
        comma: true,
      },
      host: {
        type: "list",
        value: "HOST,...",
        help: "play the cases as these hosts' payloads only (default: every host: claude-code, codex, gemini, copilot, opencode, cursor)",
        comma: true,
      },
      json: JSON_OPT,
    },
    exclusive: [["cases", "dir"]],
    examples: [
      "skillgate cases",
      "skillgate cases --host codex,gemini",
      "skillgate cases --new commit-gate",
      "skillgate cases --new all",
      "skillgate cases --runtime bun --json",
    ],
    findings: "a case failed or is malformed",
  },
  mutate: {
    summary: "remove each table row in turn and show which cases turn red on each host; fails if a row turns none red on a host that can run its cases",
    options: {
      cases: CASES_DIR_OPT,
      dir: { type: "string", value: "DIR", help: "the same as --cases" },
      table: TABLE_OPT,
      host: {
        type: "list",
        value: "HOST,...",
        help: "mutate on these hosts only (default: every host: claude-code, codex, gemini, copilot, opencode, cursor)",
        comma: true,
      },
      json: JSON_OPT,
    },
    exclusive: [["cases", "dir"]],
    examples: ["skillgate mutate", "skillgate mutate --host claude-code", "skillgate mutate --cases my-cases --table .claude/triggers.json --json"],
    findings: "a row no case pins, a case already red on the unmutated table, or a malformed case",
  },
  demo: {
    summary: "play a short session on the default table: deny → load → allow → compaction → deny, and a hint once",
    options: {},
    examples: ["skillgate demo"],
    findings: "a step did not go as the demo says",
  },
  init: {
    summary: "give this project its own table (.claude/triggers.json), the skills its rows name, and starter cases",
    options: {
      project: { type: "string", value: "DIR", help: "the project to set up (default: the current folder)" },
      full: { type: "flag", help: "copy skillgate's whole demonstration table instead of the starter table" },
      extends: { type: "flag", help: 'a table that extends skillgate\'s default ("extends": "default", no rows of its own yet); its cases are the default\'s' },
      "no-cases": { type: "flag", help: "write no starter cases" },
    },
    exclusive: [["full", "extends"]],
    examples: ["skillgate init", "skillgate init --extends", "skillgate init --project ~/src/app --full"],
  },
  install: {
    summary:
      "add skillgate's hooks to an agent CLI's settings (Claude Code, Codex, Gemini CLI, Copilot CLI, opencode, Cursor; --host all: every one the project uses), and the git hooks; minimal edits, backup first",
    options: {
      project: PROJECT_OPT,
      local: LOCAL_OPT,
      user: USER_OPT,
      "with-skills": WITH_SKILLS_OPT,
      table: TABLE_OPT,
      runtime: {
        type: "string",
        value: "RUNTIME",
        help: "the runtime the hook runs under (default: node; bun: $SKILLGATE_BUN, else the bun on PATH)",
        choices: ["bun", "node"],
      },
      "dry-run": DRY_RUN_OPT,
      json: JSON_OPT,
      host: HOST_OPT,
      trust: TRUST_OPT,
    },
    exclusive: [
      ["project", "user"],
      ["local", "user"],
    ],
    findings: "a git hook could not be installed (another one is in the way)",
    examples: [
      "skillgate install",
      "skillgate install --host codex --trust",
      "skillgate install --host=all --with-skills",
      "skillgate install --local",
      "skillgate install --project ~/src/app --dry-run",
      "skillgate install --user --with-skills",
    ],
  },
  uninstall: {
    summary: "remove exactly the hooks skillgate install added (byte-identical when nothing else changed)",
    options: { project: PROJECT_OPT, local: LOCAL_OPT, user: USER_OPT, "dry-run": DRY_RUN_OPT, json: JSON_OPT, host: HOST_OPT },
    exclusive: [
      ["project", "user"],
      ["local", "user"],
    ],
    examples: ["skillgate uninstall", "skillgate uninstall --host gemini", "skillgate uninstall --user --dry-run"],
    findings: "a git hook could not be restored",
  },
  doctor: {
    summary:
      "check the installed hooks (on the host named by --host, or all), the hook command and launcher, the table, its skills, the state folder and the git hooks",
    options: { project: PROJECT_OPT, local: LOCAL_OPT, user: USER_OPT, table: TABLE_OPT, json: JSON_OPT, host: HOST_OPT },
    exclusive: [
      ["project", "user"],
      ["local", "user"],
    ],
    examples: ["skillgate doctor", "skillgate doctor --host codex", "skillgate doctor --user --json"],
    findings: "a problem was found",
  },
  measure: {
    summary:
      "count, from Claude Code transcripts and the session files of Codex, Gemini CLI, Copilot CLI and opencode, how often each row had an occasion and how often its skill was loaded; per budget profile, what long outputs would become and how often a raw file was read back",
    options: {
      projects: { type: "string", value: "DIR", help: "Claude Code's transcript folder (default: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects)" },
      home: {
        type: "string",
        value: "DIR",
        help: "read every host's sessions under this home folder instead of yours (.claude/projects, .codex/sessions, .gemini/tmp, .copilot/session-state, .local/share/opencode); with --projects alone, only Claude Code's are read",
      },
      since: { type: "string", value: "AGE", help: "only sessions changed in this window: 7d, 12h, 30m, or a date", default: "7d" },
      table: TABLE_OPT,
      json: JSON_OPT,
      save: { type: "flag", help: "save the result in the state folder, for a later --compare" },
      compare: { type: "string", value: "FILE", help: "compare with a result saved by --save" },
      svg: { type: "string", value: "FILE", help: "also write the chart as an SVG file" },
    },
    examples: [
      "skillgate measure",
      "skillgate measure --since 30d --save",
      "skillgate measure --compare ~/.local/state/skillgate/measure-2026-01-01.json --json",
    ],
  },
  report: {
    summary:
      "one self-contained HTML page (or --json) of a team's sessions: per row and week, was the skill loaded before the first occasion; refusals and what followed; per host; the context budget targets; merges snapshots from several machines",
    options: {
      projects: {
        type: "string",
        value: "DIR",
        help: "Claude Code's transcript folder to read (default when no snapshot is named: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects)",
      },
      home: { type: "string", value: "DIR", help: "read every host's sessions under this home folder instead of yours (see measure --home)" },
      since: { type: "string", value: "AGE", help: "only sessions changed in this window: 7d, 12h, 30m, or a date", default: "30d" },
      table: TABLE_OPT,
      out: { type: "string", value: "FILE", help: "the HTML file to write", default: "skillgate-report.html" },
      json: JSON_OPT,
      save: {
        type: "string",
        value: "FILE",
        help: "also write this machine's snapshot (row ids, counts, days, host, machine label; no paths, no prompt text)",
      },
      machine: { type: "string", value: "NAME", help: "the machine label in the snapshot (default: the host name)" },
      installed: { type: "string", value: "DATE", help: "the day skillgate was installed here (marked on the charts)" },
    },
    operand: { name: "SNAPSHOT", help: "snapshot files written by --save, or folders of them (merged; a session seen twice counts once)" },
    examples: ["skillgate report", "skillgate report --since 7d --save team/$(hostname).json --machine alice", "skillgate report team/ --out week.html"],
  },
  stats: {
    summary:
      "a session's counters: tool calls, outputs capped and summarized, raw passes, characters saved, raw_fallback (from its transcript), compactions, budget level",
    options: {
      session: { type: "string", value: "ID", help: "the session (default: the most recently changed one)" },
      table: TABLE_OPT,
      json: JSON_OPT,
    },
    examples: ["skillgate stats", "skillgate stats --session 3f2a… --json"],
  },
  schema: {
    summary: "print the JSON Schema of triggers.json (--write updates triggers.schema.json)",
    options: { write: { type: "flag", help: "write triggers.schema.json beside the bundled table instead of printing" } },
    examples: ["skillgate schema > triggers.schema.json", "skillgate schema --write"],
  },
  fingerprint: {
    summary: "the content fingerprint of reviewed roots (tracked and non-ignored files, staged or not): one hash that changes when any of their contents does",
    options: {
      cwd: { type: "string", value: "DIR", help: "the workspace (default: the current folder)" },
      previous: { type: "string", value: "FILE", help: "an earlier --json output: its paths are kept (a vanished file stays as missing)" },
      "tasks-approval": { type: "list", value: "PATH", help: "task files whose `- [x] N.M [area]` marks are hashed as unchecked" },
      json: JSON_OPT,
      "no-cache": { type: "flag", help: "hash every file (ignore the stat cache)" },
    },
    operand: {
      name: "ROOT",
      help: "workspace-relative folders or paths to fingerprint",
      missing: "give at least one ROOT, e.g. skillgate fingerprint src test (or --previous FILE for its roots)",
      orOption: "previous",
    },
    examples: ["skillgate fingerprint src test package.json", "skillgate fingerprint --json --previous fp.json src > fp2.json"],
  },
  evidence: {
    summary: "checks (evidence rows), their latest records, and whether each is fresh for the current tree",
    options: { cwd: { type: "string", value: "DIR", help: "the workspace (default: the current folder)" }, table: TABLE_OPT, json: JSON_OPT },
    examples: ["skillgate evidence", "skillgate evidence --json"],
    findings: "a check's latest record is missing, failed or stale",
  },
} as const satisfies Record<string, VerbSpec>;

export type VerbName = keyof typeof SPECS;

export function isVerb(name: string): name is VerbName {
  return Object.hasOwn(SPECS, name);
}

// ---------------------------------------------------------------- parsed arguments

type Options<S extends VerbSpec> = S["options"];
type OptionName<S extends VerbSpec> = keyof Options<S> & string;
type ValuedName<S extends VerbSpec> = { [K in OptionName<S>]: Options<S>[K] extends { type: "flag" } ? never : K }[OptionName<S>];
type ValueOf<O> = O extends { type: "list" }
  ? string[]
  : O extends { type: "string"; choices: readonly (infer C)[] }
    ? O extends { default: string }
      ? C
      : C | undefined
    : O extends { default: string }
      ? string
      : string | undefined;

export interface Args<S extends VerbSpec> {
  /** --help or -h was given among the options. */
  readonly help: boolean;
  /** The operand words, in order; empty for verbs without operands. */
  readonly rest: readonly string[];
  /** The option was given (for a flag: it is on). */
  has(name: OptionName<S>): boolean;
  /** A valued option: what was given, else its default. */
  get<K extends ValuedName<S>>(name: K): ValueOf<Options<S>[K]>;
}

export type ArgsOf<V extends VerbName> = Args<(typeof SPECS)[V]>;

/** Parse a verb's arguments by its spec. Throws UsageError. */
export function parseArgs<V extends VerbName>(verb: V, argv: readonly string[]): ArgsOf<V> {
  return parseWith(SPECS[verb], argv);
}

/** Parse by any spec (dev scripts use this with a spec of their own). */
export function parseWith<const S extends VerbSpec>(spec: S, argv: readonly string[]): Args<S> {
  const given = new Map<string, string | string[] | true>();
  const rest: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--") {
      if (!spec.operand && i + 1 < argv.length) throw new UsageError(`unexpected argument "${argv[i + 1]}"`);
      rest.push(...argv.slice(i + 1));
      break;
    }
    if (a === "-h" || a === "--help") {
      help = true;
      continue;
    }
    if (!a.startsWith("-") || a === "-") {
      if (!spec.operand) throw new UsageError(`unexpected argument "${a}"`);
      if (spec.operand.verbatim) {
        rest.push(...argv.slice(i));
        break;
      }
      rest.push(a);
      continue;
    }
    if (!a.startsWith("--")) throw new UsageError(`unknown option ${a}${suggest(a.replace(/^-+/, ""), Object.keys(spec.options))}`);
    const eq = a.indexOf("=");
    const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
    const inline = eq < 0 ? undefined : a.slice(eq + 1);
    const opt = Object.hasOwn(spec.options, name) ? spec.options[name] : undefined;
    if (!opt) throw new UsageError(`unknown option --${name}${suggest(name, Object.keys(spec.options))}`);
    if (opt.type === "flag") {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      given.set(name, true);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[i + 1];
      // A following option is not a value: `install --project --dry-run` lacks the DIR.
      if (next !== undefined && !(next.startsWith("-") && next !== "-")) {
        value = next;
        i++;
      }
    }
    if (value === undefined || value === "") throw new UsageError(`--${name} needs a value (${opt.value})`);
    if (opt.type === "list") {
      const prev = given.get(name);
      const items = opt.comma
        ? value
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : [value];
      given.set(name, [...(Array.isArray(prev) ? prev : []), ...items]);
      continue;
    }
    if (opt.choices && !opt.choices.includes(value)) throw new UsageError(`--${name} must be one of: ${opt.choices.join(", ")} (not "${value}")`);
    if (given.has(name) && given.get(name) !== value) throw new UsageError(`--${name} given twice`);
    given.set(name, value);
  }
  if (!help) {
    for (const group of spec.exclusive ?? []) {
      const both = group.filter((n) => given.has(n));
      if (both.length > 1) throw new UsageError(`${both.map((n) => `--${n}`).join(" and ")} cannot be used together`);
    }
    const stands = spec.operand?.orOption !== undefined && given.has(spec.operand.orOption);
    if (spec.operand?.missing && rest.length === 0 && !stands) throw new UsageError(spec.operand.missing);
  }
  return {
    help,
    rest,
    has: (name) => given.has(name),
    get: (name) => {
      const v = given.get(name);
      const opt = spec.options[name];
      if (opt?.type === "list") return (Array.isArray(v) ? v : []) as never;
      return (typeof v === "string" ? v : opt && "default" in opt ? opt.default : undefined) as never;
    },
  };
}

/** " (did you mean --x?)" for a near miss: a prefix, or at most two letters off. */
function suggest(name: string, known: string[]): string {
  const near = known.find((k) => k.startsWith(name) || name.startsWith(k)) ?? known.find((k) => editDistance(k, name) <= 2);
  return near ? ` (did you mean --${near}?)` : "";
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length] as number;
}

// ---------------------------------------------------------------- help

function optionLabel(name: string, o: OptionSpec): string {
  if (o.type === "flag") return `--${name}`;
  return `--${name} ${o.type === "string" && o.choices ? o.choices.join("|") : o.value}`;
}

/** `usage: skillgate install [--project DIR | --user] [--runtime bun|node] …` */
export function usageLine(verb: VerbName): string {
  const spec: VerbSpec = SPECS[verb];
  const done = new Set<string>();
  const parts: string[] = [];
  for (const name of Object.keys(spec.options)) {
    if (done.has(name)) continue;
    const group = spec.exclusive?.find((g) => g.includes(name)) ?? [name];
    for (const n of group) done.add(n);
    parts.push(`[${group.map((n) => optionLabel(n, spec.options[n] as OptionSpec)).join(" | ")}]`);
  }
  if (spec.operand)
    parts.push(
      spec.operand.verbatim ? `[--] ${spec.operand.name}...` : `${spec.operand.missing ? "" : "["}${spec.operand.name}...${spec.operand.missing ? "" : "]"}`,
    );
  return `usage: skillgate ${verb}${parts.length ? " " + parts.join(" ") : ""}`;
}

export function verbHelp(verb: VerbName): string {
  const spec: VerbSpec = SPECS[verb];
  const c = colours();
  const rows: [string, string][] = Object.entries(spec.options).map(([name, o]) => {
    const extra = o.type === "string" && o.default !== undefined ? ` (default: ${o.default})` : "";
    return [optionLabel(name, o), o.help + extra];
  });
  if (spec.operand) rows.push([spec.operand.name, spec.operand.help]);
  rows.push(["-h, --help", "this help"]);
  const w = Math.max(...rows.map(([l]) => l.length));
  return [
    usageLine(verb),
    "",
    spec.summary,
    "",
    c.bold("options:"),
    ...rows.map(([l, h]) => `  ${l.padEnd(w)}  ${h}`),
    "",
    c.bold("examples:"),
    ...spec.examples.map((e) => `  ${e}`),
    "",
    `exit codes: 0 ok${spec.findings ? `, 1 ${spec.findings}` : ""}, 2 usage, 3 configuration or I/O`,
  ].join("\n");
}

export function topHelp(): string {
  const c = colours();
  const names = Object.keys(SPECS) as VerbName[];
  const w = Math.max(...names.map((k) => k.length));
  return [
    "skillgate — load agent skills on the event, not on memory",
    "",
    "usage: skillgate <verb> [options]     skillgate <verb> --help     skillgate --version",
    "",
    c.bold("verbs:"),
    ...names.map((k) => `  ${k.padEnd(w)}  ${SPECS[k].summary}`),
    "",
    c.bold("exit codes:"),
    ...EXIT_HELP.map(([code, text]) => `  ${code}  ${text}`),
    "",
    c.bold("environment:"),
    "  SKILLGATE_TABLE      the trigger table",
    "  SKILLGATE_STATE      the state folder",
    "  SKILLGATE_FAIL_MODE  closed: refuse tool calls when the table is broken (default: open)",
    "  SKILLGATE_TRACE=1    the hook explains each decision on stderr",
    "  SKILLGATE_DEBUG=1    show the stack of an error",
    "  NO_COLOR             no colours (colours appear only on a terminal anyway; FORCE_COLOR=1 forces them)",
  ].join("\n");
}

// ---------------------------------------------------------------- colours

/** ANSI styles for a stream: on for a terminal, off when NO_COLOR is set, forced by FORCE_COLOR. */
export function colours(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env) {
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0";
  const on = !env.NO_COLOR && (forced || stream.isTTY === true);
  const style = (open: number, close: number) => (s: string) => (on ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  return { on, bold: style(1, 22), dim: style(2, 22), red: style(31, 39), green: style(32, 39), yellow: style(33, 39) };
}
