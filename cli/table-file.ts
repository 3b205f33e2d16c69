// Loading the table for a CLI verb: the hook's own context (same resolution,
// same environment folded in), without the cache; errors thrown.
import { loadContext } from "../hooks/runner/context.js";
import type { CompiledTable } from "../hooks/core/table/compile.js";
import { resolveTableFile } from "../hooks/io/table-load.js";
import path from "node:path";

export function tableFileOf(flag: string | undefined, root: string): string {
  return flag ? path.resolve(flag) : resolveTableFile(process.env, root);
}

export async function compiledTable(file: string, root?: string): Promise<CompiledTable> {
  const ctx = await loadContext({ env: process.env, packageRoot: root ?? path.dirname(file) }, { tableFile: file, cache: false });
  if (!ctx.ok) throw new Error(ctx.error);
  return ctx.table;
}
