// Loading the table for a CLI verb: same loader as the hook, no cache, errors thrown.
import path from "node:path";
import { loadTable, resolveTableFile } from "../hooks/io/table-load.js";
import type { CompiledTable } from "../hooks/core/table/compile.js";

export function tableFileOf(flag: string | undefined, root: string): string {
  return flag ? path.resolve(flag) : resolveTableFile(process.env, root, process.cwd());
}

export async function compiledTable(file: string): Promise<CompiledTable> {
  const t = await loadTable(file, undefined);
  if (!t.ok) throw new Error(t.error);
  return t.compiled;
}
