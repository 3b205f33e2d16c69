// `skillgate cases` and `skillgate mutate`.
import path from "node:path";
import { flags } from "../main.js";
import { tableFileOf } from "../table-file.js";
import { loadCases } from "./format.js";
import { inProcessInvoker, processInvoker, runCases } from "./runner.js";
import { formatMutation, mutate } from "./mutate.js";

/** The command that runs the built hook under a runtime. */
export function hookCommand(root: string, runtime = "node"): string[] {
  return [runtime === "node" ? process.execPath : runtime, path.join(root, "dist", "hook.mjs")];
}

export async function casesMain(args: string[], root: string): Promise<number> {
  const f = flags(args);
  const dir = path.resolve(f.get("dir") ?? path.join(root, "cases"));
  const table = tableFileOf(f.get("table"), root);
  const cases = loadCases(dir);
  const results = await runCases(cases, { casesDir: dir, table, invoke: processInvoker(hookCommand(root, f.get("runtime"))) });
  for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"} ${r.id}${r.ok ? "" : "\n      " + r.failures.join("\n      ")}`);
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${results.length - failed}/${results.length} cases pass (${cases.reduce((n, c) => n + c.steps.length, 0)} hook runs)`);
  return failed ? 1 : 0;
}

export async function mutateMain(args: string[], root: string): Promise<number> {
  const f = flags(args);
  const dir = path.resolve(f.get("dir") ?? path.join(root, "cases"));
  const table = tableFileOf(f.get("table"), root);
  const { baseline, rows } = await mutate(loadCases(dir), { casesDir: dir, table, invoke: inProcessInvoker(root) });
  if (f.has("json")) console.log(JSON.stringify({ baseline, rows }, null, 2));
  else console.log(formatMutation(rows));
  const dead = rows.filter((r) => r.red.length === 0);
  if (baseline.length) console.log(`cases already red on the unmutated table: ${baseline.join(", ")}`);
  console.log(dead.length ? `rows that turn no case red: ${dead.map((r) => r.row).join(", ")}` : `every one of ${rows.length} rows turns at least one case red`);
  return dead.length || baseline.length ? 1 : 0;
}
