// Row-removal mutation: delete each row of the table in turn, rerun every
// case, and report which cases turn red. A row whose removal turns nothing
// red is a row no case pins: either the row is dead or the cases are thin.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCases, type Invoke } from "./runner.js";
import type { Case } from "./format.js";

export interface MutationRow {
  row: string;
  kind: string;
  red: string[];
}

export async function mutate(cases: Case[], opts: { casesDir: string; table: string; invoke: Invoke }): Promise<{ baseline: string[]; rows: MutationRow[] }> {
  const base = await runCases(cases, { ...opts, parallel: 1 });
  const baseline = base.filter((r) => !r.ok).map((r) => r.id);
  const table = JSON.parse(fs.readFileSync(opts.table, "utf8")) as { rows: { id: string; kind: string }[]; skillsDir?: string };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-mutant-"));
  const rows: MutationRow[] = [];
  try {
    for (const [i, row] of table.rows.entries()) {
      const mutant = path.join(dir, `without-${row.id}.json`);
      // Keep skillsDir pointing at the real skills: only the row changes.
      const skillsDir = path.resolve(path.dirname(opts.table), table.skillsDir ?? "skills");
      fs.writeFileSync(mutant, JSON.stringify({ ...table, skillsDir, rows: table.rows.filter((_, j) => j !== i) }));
      // Cases with their own table are not about the default rows.
      const results = await runCases(cases.filter((c) => !c.table), { ...opts, table: mutant, parallel: 1 });
      rows.push({ row: row.id, kind: row.kind, red: results.filter((r) => !r.ok && !baseline.includes(r.id)).map((r) => r.id) });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { baseline, rows };
}

export function formatMutation(rows: MutationRow[]): string {
  const width = Math.max(...rows.map((r) => r.row.length), 3);
  const lines = [`${"row".padEnd(width)}  kind      red  cases turned red`];
  for (const r of rows) lines.push(`${r.row.padEnd(width)}  ${r.kind.padEnd(8)}  ${String(r.red.length).padStart(3)}  ${r.red.join(", ") || "NONE"}`);
  return lines.join("\n");
}
