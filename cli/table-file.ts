// The table a CLI verb uses: one resolution for every verb (the hook's own
// resolver, with the project being $CLAUDE_PROJECT_DIR or the current folder
// when the verb has no --project), the hook's own context (same environment
// folded in) without the cache, and one way to name it in a header and in --json.
import path from "node:path";
import { loadContext } from "../hooks/runner/context.js";
import { resolveTableFile } from "../hooks/io/table-load.js";
import { projectTables } from "../hooks/hosts/claude-code/env.js";
import { claudeCode } from "../hooks/hosts/claude-code/adapter.js";
import type { CompiledTable } from "../hooks/core/table/compile.js";
import { UserError } from "./args.js";

/**
 * --table FILE wins; else what the hook would use in projectDir; with no
 * project named, the nearest folder above the current one holding
 * .claude/triggers.json (a verb run in a subfolder finds its project's table).
 */
export function tableFileOf(flag: string | undefined, root: string, projectDir?: string): string {
  if (flag) return path.resolve(flag);
  const project = projectDir ?? process.env.CLAUDE_PROJECT_DIR;
  if (project !== undefined) return resolveTableFile(process.env, root, projectTables(project));
  return resolveTableFile(process.env, root, projectTables(undefined), process.cwd());
}

/** The table, compiled as the hook sees it, or a UserError (exit 3) saying why it does not load. */
export async function compiledTable(file: string, root?: string): Promise<CompiledTable> {
  const ctx = await loadContext({ env: process.env, packageRoot: root ?? path.dirname(file), host: claudeCode }, { tableFile: file, cache: false });
  if (!ctx.ok) throw new UserError(ctx.error);
  return ctx.table;
}

export interface TableInUse {
  file: string;
  table: CompiledTable;
}

export async function tableInUse(flag: string | undefined, root: string, projectDir?: string): Promise<TableInUse> {
  const file = tableFileOf(flag, root, projectDir);
  return { file, table: await compiledTable(file, root) };
}

/** `table: <path> (<n> rows)`: the first line of every verb's text output. Rows unknown: the table does not load. */
export function tableHeader(file: string, rows: number | undefined): string {
  return `table: ${file} (${rows === undefined ? "does not load" : `${rows} rows`})`;
}

/** The same, for --json: `"table": {"path", "rows"}` (rows null when the table does not load). */
export function tableJson(file: string, rows: number | undefined): { path: string; rows: number | null } {
  return { path: file, rows: rows ?? null };
}
