// Row-removal mutation: delete each row of the table in turn, rerun every
// case in-process, and report which cases turn red. A row whose removal turns
// nothing red is a row no case pins: either the row is dead or the cases are thin.
import fs from "node:fs";
import path from "node:path";
import { runCases, scratchDir, type Invoke } from "./runner.js";
import type { Case } from "./format.js";
import type { CompiledTable } from "../../hooks/core/table/compile.js";

export interface MutationRow {
  row: string;
  kind: string;
  /** Cases green on the whole table and red without this row. */
  red: string[];
}

export interface MutationReport {
  /** Cases already red on the unmutated table (their result says nothing about rows). */
  baseline: string[];
  rows: MutationRow[];
  ms: number;
}

/**
 * `compiled` is the table under test as the hook validated it; each mutant is
 * that table minus one row, written to a temp file (skills still found where
 * the real table finds them: only the row changes).
 */
export async function mutate(cases: Case[], opts: { compiled: CompiledTable; table: string; invoke: Invoke }): Promise<MutationReport> {
  const t0 = performance.now();
  const dir = scratchDir("skillgate-mutant-");
  const stateDir = path.join(dir, "state");
  fs.mkdirSync(stateDir, { mode: 0o700 });
  try {
    const base = await runCases(cases, { table: opts.table, invoke: opts.invoke, stateDir });
    const baseline = base.filter((r) => !r.ok).map((r) => r.id);
    // Cases with a table of their own are not about the rows of this one.
    const subject = cases.filter((c) => !c.table && !baseline.includes(c.id));
    const table = opts.compiled.table;
    const rows: MutationRow[] = [];
    for (const [i, row] of table.rows.entries()) {
      const mutant = path.join(dir, `without-${i}.json`);
      fs.writeFileSync(mutant, JSON.stringify({ ...table, skillsDir: opts.compiled.skillsDir, rows: table.rows.filter((_, j) => j !== i) }));
      const results = await runCases(subject, { table: mutant, invoke: opts.invoke, stateDir });
      rows.push({ row: row.id, kind: row.kind, red: results.filter((r) => !r.ok).map((r) => r.id) });
    }
    return { baseline, rows, ms: performance.now() - t0 };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function formatMutation(rows: MutationRow[]): string {
  const width = Math.max(...rows.map((r) => r.row.length), 3);
  const lines = [`${"row".padEnd(width)}  kind      red  cases turned red`];
  for (const r of rows) lines.push(`${r.row.padEnd(width)}  ${r.kind.padEnd(8)}  ${String(r.red.length).padStart(3)}  ${r.red.join(", ") || "NONE"}`);
  return lines.join("\n");
}
