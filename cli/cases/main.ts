// `skillgate cases` and `skillgate mutate`.
import path from "node:path";
import { colours, EXIT, parseArgs } from "../args.js";
import { compiledTable, tableFileOf, tableHeader, tableJson } from "../table-file.js";
import { loadCases } from "./format.js";
import { inProcessInvoker, processInvoker, runCases } from "./runner.js";
import { formatMutation, mutate } from "./mutate.js";

/** The command that runs the built hook under a runtime. */
export function hookCommand(root: string, runtime = "node"): string[] {
  return [runtime === "node" ? process.execPath : runtime, path.join(root, "dist", "hook.mjs")];
}

export async function casesMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("cases", args);
  const dir = path.resolve(f.get("dir") ?? path.join(root, "cases"));
  const table = tableFileOf(f.get("table"), root);
  const rows = (await compiledTable(table)).rows.length;
  const cases = loadCases(dir);
  const results = await runCases(cases, { casesDir: dir, table, invoke: processInvoker(hookCommand(root, f.get("runtime"))) });
  const failed = results.filter((r) => !r.ok).length;
  const code = failed ? EXIT.findings : EXIT.ok;
  if (f.has("json")) {
    console.log(JSON.stringify({ table: tableJson(table, rows), dir, passed: results.length - failed, failed, results }, null, 2));
    return code;
  }
  const c = colours();
  console.log(tableHeader(table, rows));
  for (const r of results) console.log(`${r.ok ? c.green("ok  ") : c.red("FAIL")} ${r.id}${r.ok ? "" : "\n      " + r.failures.join("\n      ")}`);
  console.log(`${results.length - failed}/${results.length} cases pass (${cases.reduce((n, c) => n + c.steps.length, 0)} hook runs)`);
  return code;
}

export async function mutateMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("mutate", args);
  const dir = path.resolve(f.get("dir") ?? path.join(root, "cases"));
  const table = tableFileOf(f.get("table"), root);
  const count = (await compiledTable(table)).rows.length;
  const { baseline, rows } = await mutate(loadCases(dir), { casesDir: dir, table, invoke: inProcessInvoker(root) });
  const dead = rows.filter((r) => r.red.length === 0);
  const code = dead.length || baseline.length ? EXIT.findings : EXIT.ok;
  if (f.has("json")) {
    console.log(JSON.stringify({ table: tableJson(table, count), baseline, rows }, null, 2));
    return code;
  }
  console.log(tableHeader(table, count));
  console.log(formatMutation(rows));
  if (baseline.length) console.log(`cases already red on the unmutated table: ${baseline.join(", ")}`);
  console.log(dead.length ? `rows that turn no case red: ${dead.map((r) => r.row).join(", ")}` : `every one of ${rows.length} rows turns at least one case red`);
  return code;
}
