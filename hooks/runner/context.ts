// Everything a decision needs besides the event: the table (with the host's
// environment folded in, once, here), the state folder and the host. The hook,
// `explain`, `measure`, `stats` and `cases` all come through loadContext(), so
// they decide from the same table and the same state folder.
import fs from "node:fs";
import path from "node:path";
import type { Host } from "../core/host.js";
import type { CompiledTable } from "../core/table/compile.js";
import { loadTable, resolveTableFile, type LoadOptions } from "../io/table-load.js";
import { stateDirOf } from "../io/state-dir.js";
import { claudeCode } from "../hosts/claude-code/adapter.js";

export interface HookEnv {
  env: NodeJS.ProcessEnv;
  /** skillgate's own folder (the default table and skills live there). */
  packageRoot: string;
  /** The host whose events come in (default: Claude Code, the hook executable's host). */
  host?: Host;
}

export type RunContext =
  | { ok: true; host: Host; table: CompiledTable; tableFile: string; stateDir: string }
  | { ok: false; host: Host; error: string; failMode: "open" | "closed"; tableFile: string; stateDir: string };

export interface ContextOptions extends LoadOptions {
  /** A table file chosen by the user (`--table`); default: the one resolution every verb uses. */
  tableFile?: string;
  /** Cache the validated table in the state folder (the hook does; one-off verbs need not). */
  cache?: boolean;
}

export async function loadContext(h: HookEnv, opts: ContextOptions = {}): Promise<RunContext> {
  const host = h.host ?? claudeCode;
  const stateDir = stateDirOf(h);
  const tableFile = opts.tableFile ? path.resolve(opts.tableFile) : resolveTableFile(h.env, h.packageRoot);
  const t = await loadTable(tableFile, opts.cache === false ? undefined : stateDir, h.env, opts);
  if (!t.ok) return { ok: false, host, error: t.error, failMode: t.failMode, tableFile, stateDir };
  return { ok: true, host, table: foldEnvironment(t.compiled, host, h, tableFile), tableFile, stateDir };
}

/** The host's skill roots and plugin naming, added to a new compiled table (never mutating the loaded one). */
function foldEnvironment(compiled: CompiledTable, host: Host, h: HookEnv, tableFile: string): CompiledTable {
  const he = host.environment(h.env);
  const pluginNamespace = he.pluginRoot && realpath(he.pluginRoot) === realpath(h.packageRoot) && path.dirname(tableFile) === h.packageRoot ? "skillgate" : undefined;
  return { ...compiled, skillRoots: [...compiled.skillRoots, ...he.skillRoots], ...(pluginNamespace ? { pluginNamespace } : {}) };
}

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
