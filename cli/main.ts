// `skillgate <verb>`: the one entry point for users and tests. This file is a
// table: each verb's spec lives in cli/args.ts, and its module is imported
// only when that verb runs (so `skillgate hook` loads nothing else).
//
// Adding a verb (e.g. `init`):
//   1. its spec in SPECS in cli/args.ts: summary, options, examples, what exit 1 means;
//   2. one line in VERBS below:   init: () => import("./init.js").then((m) => m.initMain),
//   3. cli/init.ts exports `initMain(argv: string[], root: string): Promise<number>`, which starts with
//      `const f = parseArgs("init", argv)` and imports cli/args.ts — never this file (that is a cycle).
// The compiler refuses a spec without a line here and a line without a spec.
// Errors: throw UsageError (exit 2) or UserError (exit 3, or the code given); anything else thrown is
// reported in one line with exit 3. Exit 1 is for findings, returned by the verb.
import fs from "node:fs";
import path from "node:path";
import { EXIT, SPECS, UsageError, UserError, isVerb, parseArgs, topHelp, usageLine, verbHelp, type VerbName } from "./args.js";
import { findPackageRoot } from "../hooks/runner/process.js";

type Run = (argv: string[], root: string) => Promise<number>;

const VERBS: { readonly [V in VerbName]: () => Promise<Run> } = {
  hook: () => import("./hook.js").then((m) => m.hookVerb),
  explain: () => import("./explain.js").then((m) => m.explainMain),
  lint: () => import("./lint.js").then((m) => m.lintMain),
  cases: () => import("./cases/main.js").then((m) => m.casesMain),
  mutate: () => import("./cases/main.js").then((m) => m.mutateMain),
  demo: () => import("./demo.js").then((m) => m.demoMain),
  init: () => import("./init.js").then((m) => m.initMain),
  install: () => import("./install.js").then((m) => m.installMain),
  uninstall: () => import("./install.js").then((m) => m.uninstallMain),
  doctor: () => import("./install.js").then((m) => m.doctorMain),
  measure: () => import("./measure/main.js").then((m) => m.measureMain),
  report: () => import("./report/main.js").then((m) => m.reportMain),
  stats: () => import("./stats.js").then((m) => m.statsMain),
  schema: () => import("./schema.js").then((m) => m.schemaMain),
  fingerprint: () => import("./fingerprint.js").then((m) => m.main),
  evidence: () => import("./evidence.js").then((m) => m.main),
};

export async function cli(argv: string[]): Promise<number> {
  const [verb, ...args] = argv;
  if (verb === "--version" || verb === "-V") {
    console.log(`skillgate ${version(findPackageRoot())}`);
    return EXIT.ok;
  }
  if (verb === undefined || verb === "--help" || verb === "-h" || verb === "help") {
    const about = args[0];
    if (verb === "help" && about !== undefined && isVerb(about)) console.log(verbHelp(about));
    else console.log(topHelp());
    return verb === undefined ? EXIT.usage : EXIT.ok;
  }
  if (!isVerb(verb)) {
    const near = Object.keys(SPECS).find((k) => k.startsWith(verb) || verb.startsWith(k));
    console.error(`skillgate: unknown verb "${verb}"${near ? ` (did you mean ${near}?)` : ""}`);
    console.error("usage: skillgate <verb> [options]   (skillgate --help lists the verbs)");
    return EXIT.usage;
  }
  try {
    // Parsed here too, so --help and usage errors never load the verb's module.
    if (parseArgs(verb, args).help) {
      console.log(verbHelp(verb));
      return EXIT.ok;
    }
    const run = await VERBS[verb]();
    return await run(args, findPackageRoot());
  } catch (e) {
    return reportError(verb, e);
  }
}

/** One line on stderr (plus the usage line for a usage error); the stack only with SKILLGATE_DEBUG=1. */
function reportError(verb: VerbName, e: unknown): number {
  const err = e instanceof Error ? e : new Error(String(e));
  const oneLine = err.message
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join("; ");
  const known = err instanceof UsageError || err instanceof UserError;
  const debug = process.env.SKILLGATE_DEBUG === "1";
  console.error(`skillgate ${verb}: ${oneLine}${known || debug ? "" : " (SKILLGATE_DEBUG=1 shows where)"}`);
  if (err instanceof UsageError) {
    console.error(usageLine(verb));
    return EXIT.usage;
  }
  if (debug && err.stack) console.error(err.stack);
  return err instanceof UserError ? err.code : EXIT.config;
}

function version(root: string): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
}
