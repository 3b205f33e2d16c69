// The table a CLI verb uses: one resolution for every verb (the hook's own
// resolver, with the project being $CLAUDE_PROJECT_DIR or the current folder
// when the verb has no --project), the same loader as the hook, and one way
// to name it in a header and in --json.
import path from "node:path";
import { loadTable, resolveTableFile } from "../hooks/io/table-load.js";
import type { CompiledTable } from "../hooks/core/table/compile.js";
import { UserError } from "./args.js";

/** --table FILE wins; else what the hook would use in projectDir. */
export function tableFileOf(flag: string | undefined, root: string, projectDir?: string): string {
  if (flag) return path.resolve(flag);
  const project = projectDir ?? process.env.CLAUDE_PROJECT_DIR ?? process.cwd();
  return resolveTableFile({ ...process.env, CLAUDE_PROJECT_DIR: project }, root);
}

/** The table, compiled, or a UserError (exit 3) saying why it does not load. No cache. */
export async function compiledTable(file: string): Promise<CompiledTable> {
  const t = await loadTable(file, undefined);
  if (!t.ok) throw new UserError(t.error);
  return t.compiled;
}

export interface TableInUse {
  file: string;
  table: CompiledTable;
}

export async function tableInUse(flag: string | undefined, root: string, projectDir?: string): Promise<TableInUse> {
  const file = tableFileOf(flag, root, projectDir);
  return { file, table: await compiledTable(file) };
}

/** `table: <path> (<n> rows)`: the first line of every verb's text output. Rows unknown: the table does not load. */
export function tableHeader(file: string, rows: number | undefined): string {
  return `table: ${file} (${rows === undefined ? "does not load" : `${rows} rows`})`;
}

/** The same, for --json: `"table": {"path", "rows"}` (rows null when the table does not load). */
export function tableJson(file: string, rows: number | undefined): { path: string; rows: number | null } {
  return { path: file, rows: rows ?? null };
}
