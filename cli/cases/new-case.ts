// `skillgate cases --new`: write a starter case for a row (starter.ts makes
// it), checked by the loader before it is written, then run once so the user
// is told whether it passes as written. Also for `init` (starter cases for
// every row of a new table).
import fs from "node:fs";
import path from "node:path";
import { CaseFormatError, parseCase, parseContext } from "./format.js";
import { runCase, type Invoke } from "./runner.js";
import { starterCase, type StarterRow } from "./starter.js";
import { rowIds, type Suite } from "./suite.js";

export type NewCase =
  | { id: string; written: true; file: string; ok: boolean; failures: string[]; generated: boolean }
  | { id: string; written: false; why: string };

/** Starter cases for `ids` ("all": every row without a case file of its name), never over an existing file. */
export async function writeStarterCases(suite: Suite, ids: string[] | "all", invoke: Invoke): Promise<NewCase[]> {
  const rows = suite.compiled.table.rows as unknown as StarterRow[];
  const wanted = ids === "all" ? rows.map((r) => r.id).filter((id) => !fs.existsSync(path.join(suite.casesDir, `${id}.json`))) : ids;
  const out: NewCase[] = [];
  for (const id of wanted) {
    const row = rows.find((r) => r.id === id);
    const file = path.join(suite.casesDir, `${id}.json`);
    if (!row) out.push({ id, written: false, why: `no row "${id}" in ${suite.table} (rows: ${[...rowIds(suite.compiled)].join(", ")})` });
    else if (fs.existsSync(file)) out.push({ id, written: false, why: `${file} already exists; it is left as it is` });
    else out.push(await writeOne(suite, row, file, invoke));
  }
  return out;
}

async function writeOne(suite: Suite, row: StarterRow, file: string, invoke: Invoke): Promise<NewCase> {
  const rel = path.relative(suite.casesDir, suite.schemaFile).split(path.sep).join("/");
  const starter = starterCase(row, rel.startsWith(".") ? rel : `./${rel}`);
  const text = `${JSON.stringify(starter.data, null, 2)}\n`;
  // Checked by the same loader `skillgate cases` uses, before anything is written.
  const problems: string[] = [];
  const c = parseCase(file, text, parseContext({ fixtureDirs: suite.fixtureDirs, tableRows: rowIds(suite.compiled) }), problems);
  if (!c) throw new CaseFormatError(problems);
  fs.mkdirSync(suite.casesDir, { recursive: true });
  fs.writeFileSync(file, text);
  const r = await runCase(c, { table: suite.table, invoke });
  return { id: row.id, written: true, file, ok: r.ok, failures: r.failures, generated: starter.generated };
}
