// Finding, validating and caching the trigger table.
// Validation (zod) runs only when triggers.json changed: the validated table
// is cached under the state folder keyed by a hash of the file's bytes, so an
// ordinary hook run parses one small JSON file and never loads zod.
import fs from "node:fs";
import path from "node:path";
import type { Table } from "../core/types.js";
import { compileTable, type CompiledTable } from "../core/table/compile.js";
import { writeAtomic } from "./state-store.js";

/** Bump when tableSchema's shape or defaults change, so cached validated tables are redone. */
export const SCHEMA_REVISION = 3;

export type TableLoad =
  | { ok: true; compiled: CompiledTable; file: string }
  | { ok: false; error: string; file: string; failMode: "open" | "closed" };

export type TableSource = "flag" | "env" | "project" | "default";

export interface TableResolution {
  file: string;
  source: TableSource;
  /** One line for a verb's header: which table, and why that one. */
  why: string;
}

/**
 * The one table resolution, for the hook and every verb:
 * --table FILE, else $SKILLGATE_TABLE, else the project's .claude/triggers.json
 * (the project is $CLAUDE_PROJECT_DIR, or for a verb run by hand the nearest
 * folder above `cwd` holding .claude/triggers.json, never the home folder,
 * whose .claude/ is the user's settings), else the default table shipped with skillgate.
 */
export function resolveTable(o: { env: NodeJS.ProcessEnv; packageRoot: string; flag?: string; cwd?: string }): TableResolution {
  if (o.flag) return { file: path.resolve(o.flag), source: "flag", why: "--table" };
  if (o.env.SKILLGATE_TABLE) return { file: path.resolve(o.env.SKILLGATE_TABLE), source: "env", why: "$SKILLGATE_TABLE" };
  if (o.env.CLAUDE_PROJECT_DIR) {
    const own = path.join(o.env.CLAUDE_PROJECT_DIR, ".claude", "triggers.json");
    if (fs.existsSync(own)) return { file: own, source: "project", why: "the project's table ($CLAUDE_PROJECT_DIR)" };
  } else if (o.cwd) {
    const own = projectTableAbove(o.cwd, o.env.HOME);
    if (own) return { file: own, source: "project", why: "the project's table" };
  }
  return { file: path.join(o.packageRoot, "triggers.json"), source: "default", why: "skillgate's default table (no .claude/triggers.json in the project)" };
}

/** Kept for callers that only need the path; `cwd` lets a verb find the project it runs in. */
export function resolveTableFile(env: NodeJS.ProcessEnv, packageRoot: string, cwd?: string): string {
  return resolveTable({ env, packageRoot, cwd }).file;
}

function projectTableAbove(cwd: string, home: string | undefined): string | undefined {
  const stop = home ? path.resolve(home) : undefined;
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (dir === stop) return undefined;
    const own = path.join(dir, ".claude", "triggers.json");
    if (fs.existsSync(own)) return own;
    if (path.dirname(dir) === dir) return undefined;
  }
}

export interface LoadOptions {
  /** Compile write globs (loads picomatch). The hook skips it for events that write nothing. */
  globs?: boolean;
}

export async function loadTable(file: string, cacheDir: string | undefined, env: NodeJS.ProcessEnv = process.env, opts: LoadOptions = {}): Promise<TableLoad> {
  const glob = opts.globs === false ? undefined : (await import("picomatch")).default;
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    return fail(file, `cannot read the trigger table ${file}: ${(e as Error).message}`, undefined, env);
  }
  // The key covers the schema revision too: a table validated by an older skillgate lacks newer defaults.
  const hash = contentHash(text);
  const cacheFile = cacheDir ? path.join(cacheDir, `.table-v${SCHEMA_REVISION}-${hash}.json`) : undefined;
  const skillsBase = path.dirname(file);

  const cached = cacheFile ? readCache(cacheFile) : undefined;
  if (cached) {
    try {
      return { ok: true, file, compiled: compileTable(cached, path.resolve(skillsBase, cached.skillsDir), glob) };
    } catch {
      /* fall through to full validation */
    }
  }

  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return fail(file, `${file} is not valid JSON: ${(e as Error).message}`, undefined, env);
  }
  const { validateTable } = await import("../core/table/schema.js");
  const v = validateTable(raw, file);
  if (!v.ok) return fail(file, v.error, raw, env);
  const table = v.table as Table;
  let compiled: CompiledTable;
  try {
    // Validation compiles every glob, so a bad one is reported even when this event writes nothing.
    compiled = compileTable(table, path.resolve(skillsBase, table.skillsDir), glob ?? (await import("picomatch")).default);
  } catch (e) {
    return fail(file, `${file}: ${(e as Error).message}`, raw, env);
  }
  if (cacheFile) {
    try {
      fs.mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
      writeAtomic(cacheFile, JSON.stringify(table));
    } catch {
      /* a cache we cannot write only costs speed */
    }
  }
  return { ok: true, file, compiled };
}

function readCache(file: string): Table | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Table;
  } catch {
    return undefined;
  }
}

/** Fail mode comes from the broken table if it says so, else $SKILLGATE_FAIL_MODE, else open. */
function fail(file: string, error: string, raw: unknown, env: NodeJS.ProcessEnv): TableLoad {
  const fromTable = (raw as { failMode?: unknown } | undefined)?.failMode;
  const mode = fromTable === "closed" || env.SKILLGATE_FAIL_MODE === "closed" ? "closed" : "open";
  return { ok: false, error, file, failMode: mode };
}

/**
 * 64-bit FNV-1a of the table text (two 32-bit lanes) plus its length: enough
 * to notice an edited table, and cheaper at start-up than loading node:crypto.
 */
export function contentHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `${(a >>> 0).toString(16)}${(b >>> 0).toString(16)}-${text.length}`;
}
