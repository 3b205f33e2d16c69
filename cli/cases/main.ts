// `skillgate cases` and `skillgate mutate`: run cases (in-process, or through
// the built hook under a runtime) against the table under test; remove each
// row in turn. Exit 0 all green, 1 a failing/invalid case or an unpinned row,
// 3 a setup problem (no table, no cases folder).
import fs from "node:fs";
import path from "node:path";
import { flags } from "../main.js";
import { findBun } from "../install.js";
import { CaseFormatError, parseCase, parseContext } from "./format.js";
import { inProcessInvoker, processInvoker, runCase, runCases, type Invoke } from "./runner.js";
import { formatMutation, mutate } from "./mutate.js";
import { resolveSuite, rowIds, suiteCases, SuiteError, type Suite } from "./suite.js";
import { starterCase, type StarterRow } from "./starter.js";

/** The command that runs the built hook under a runtime (bun: the package's own, else from PATH). */
export function hookCommand(root: string, runtime = "node"): string[] {
  const exe = runtime === "node" ? process.execPath : runtime === "bun" ? (findBun(root) ?? "bun") : runtime;
  return [exe, path.join(root, "dist", "hook.mjs")];
}

/** Setup and format problems as one-line messages and exit codes instead of stack traces. */
async function guarded(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof CaseFormatError) {
      console.error(`skillgate: ${e.message}`);
      return 1;
    }
    if (e instanceof SuiteError) {
      console.error(`skillgate: ${e.message}`);
      return 3;
    }
    throw e;
  }
}

function suiteOf(args: string[], root: string): Promise<Suite> {
  const f = flags(args);
  return resolveSuite({ packageRoot: root, table: f.get("table"), cases: f.get("cases") ?? f.get("dir") });
}

const header = (s: Suite) => `table: ${s.table}\ncases: ${s.casesDir}`;

export async function casesMain(args: string[], root: string): Promise<number> {
  return guarded(async () => {
    const f = flags(args);
    const suite = await suiteOf(args, root);
    const newRow = f.get("new");
    if (newRow !== undefined) return newCase(suite, newRow, root);
    const cases = suiteCases(suite);
    const runtime = f.get("runtime");
    const invoke: Invoke = runtime ? processInvoker(hookCommand(root, runtime)) : inProcessInvoker(root);
    const t0 = performance.now();
    const results = await runCases(cases, { table: suite.table, invoke, parallel: runtime ? 4 : 1 });
    const ms = performance.now() - t0;
    const failed = results.filter((r) => !r.ok).length;
    const steps = cases.reduce((n, c) => n + c.steps.length, 0);
    if (f.has("json")) {
      console.log(JSON.stringify({ table: suite.table, casesDir: suite.casesDir, runtime: runtime ?? "in-process", passed: results.length - failed, failed, steps, ms: Math.round(ms), results }, null, 2));
    } else {
      console.log(header(suite));
      for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"} ${r.id}${r.ok ? "" : "\n      " + r.failures.join("\n      ")}`);
      console.log(`${results.length - failed}/${results.length} cases pass (${steps} events, ${runtime ?? "in-process"}, ${(ms / 1000).toFixed(1)} s)`);
    }
    return failed ? 1 : 0;
  });
}

/** Write a starter case for one row, run it, and say whether it passes as written. */
async function newCase(suite: Suite, id: string, root: string): Promise<number> {
  const row = suite.compiled.table.rows.find((r) => r.id === id) as unknown as StarterRow | undefined;
  if (!row) {
    console.error(`skillgate: no row "${id}" in ${suite.table} (rows: ${[...rowIds(suite.compiled)].join(", ")})`);
    return 1;
  }
  const file = path.join(suite.casesDir, `${id}.json`);
  if (fs.existsSync(file)) {
    console.error(`skillgate: ${file} already exists; it is left as it is`);
    return 1;
  }
  const schemaRef = path.relative(suite.casesDir, suite.schemaFile).split(path.sep).join("/");
  const starter = starterCase(row, schemaRef.startsWith(".") ? schemaRef : `./${schemaRef}`);
  const text = `${JSON.stringify(starter.data, null, 2)}\n`;
  // Checked by the same loader `skillgate cases` uses, before anything is written.
  const problems: string[] = [];
  const c = parseCase(file, text, parseContext({ fixtureDirs: suite.fixtureDirs, tableRows: rowIds(suite.compiled) }), problems);
  if (!c) throw new CaseFormatError(problems);
  fs.mkdirSync(suite.casesDir, { recursive: true });
  fs.writeFileSync(file, text);
  const r = await runCase(c, { table: suite.table, invoke: inProcessInvoker(root) });
  console.log(`wrote ${file}`);
  if (r.ok) console.log(`it passes on ${suite.table}: edit it to pin what matters to you (see docs/cases.md)`);
  else console.log(`it FAILS until you fill it in${starter.generated ? "" : " (no matching event could be made from the row's trigger)"}:\n      ${r.failures.join("\n      ")}`);
  return 0;
}

export async function mutateMain(args: string[], root: string): Promise<number> {
  return guarded(async () => {
    const f = flags(args);
    const suite = await suiteOf(args, root);
    const cases = suiteCases(suite);
    const report = await mutate(cases, { compiled: suite.compiled, table: suite.table, invoke: inProcessInvoker(root) });
    const dead = report.rows.filter((r) => r.red.length === 0);
    if (f.has("json")) {
      console.log(JSON.stringify({ table: suite.table, casesDir: suite.casesDir, ...report, ms: Math.round(report.ms), unpinned: dead.map((r) => r.row) }, null, 2));
    } else {
      console.log(header(suite));
      console.log(formatMutation(report.rows));
      if (report.baseline.length) console.log(`cases already red on the unmutated table: ${report.baseline.join(", ")}`);
      console.log(dead.length ? `rows that turn no case red: ${dead.map((r) => r.row).join(", ")}` : `every one of ${report.rows.length} rows turns at least one case red`);
      console.log(`${cases.length} cases × ${report.rows.length + 1} tables in ${(report.ms / 1000).toFixed(1)} s`);
    }
    return dead.length || report.baseline.length ? 1 : 0;
  });
}
