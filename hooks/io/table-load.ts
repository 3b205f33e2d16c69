// Finding, validating and caching the trigger table.
// Validation (zod) runs only when triggers.json changed: the validated table
// is cached under the state folder keyed by a hash of the file's bytes, so an
// ordinary hook run parses one small JSON file and never loads zod.
import fs from "node:fs";
import path from "node:path";
import type { Table } from "../core/types.js";
import { compileTable, type CompiledTable } from "../core/table/compile.js";
import type { DisabledRow } from "../core/table/schema.js";
import { readRegularFile, writeAtomic } from "./state-store.js";
import { stateKey } from "./state-key.js";
import { fastHash } from "./fast-hash.js";
import { globRegexes, keptGlobEngine, type GlobRegex } from "../core/table/glob-regex.js";
import { makeDir } from "./make-dir.js";

/** Bump when tableSchema's shape or defaults change, or what the cache keeps (5: glob regexes), so cached validated tables are redone. */
export const SCHEMA_REVISION = 5;

export type TableLoad = { ok: true; compiled: CompiledTable; file: string } | { ok: false; error: string; file: string; failMode: "open" | "closed" };

export type TableSource = "flag" | "env" | "project" | "default";

export interface TableResolution {
  file: string;
  source: TableSource;
  /** One line for a verb's header: which table, and why that one. */
  why: string;
}

/** Where the host says a project keeps its table (Host.environment: projectTable, alsoTables; Host.projectTablePath). */
export interface ProjectTables {
  /** The project's table files, in order: the first that exists is used. Empty: the host does not know the project. */
  files: string[];
  /** With no files: a verb run by hand looks for this path (relative to a project folder) in the folders above its cwd. */
  relative?: string;
}

/**
 * The one table resolution, for the hook and every verb:
 * --table FILE, else $SKILLGATE_TABLE, else the project's table as the host
 * names it (or, for a verb run by hand, the nearest folder above `cwd` holding
 * one, never the home folder, whose dot-folders are the user's settings), else
 * the default table shipped with skillgate.
 */
export function resolveTable(o: { env: NodeJS.ProcessEnv; packageRoot: string; flag?: string; cwd?: string; project?: ProjectTables }): TableResolution {
  if (o.flag) return { file: path.resolve(o.flag), source: "flag", why: "--table" };
  if (o.env.SKILLGATE_TABLE) return { file: path.resolve(o.env.SKILLGATE_TABLE), source: "env", why: "$SKILLGATE_TABLE" };
  const files = o.project?.files ?? [];
  if (files.length) {
    const own = files.find((f) => fs.existsSync(f));
    if (own) return { file: own, source: "project", why: "the project's table" };
  } else if (o.cwd && o.project?.relative) {
    const own = projectTableAbove(o.cwd, o.project.relative, o.env.HOME);
    if (own) return { file: own, source: "project", why: "the project's table" };
  }
  const looked = files[0] ?? o.project?.relative;
  return {
    file: path.join(o.packageRoot, "triggers.json"),
    source: "default",
    why: `skillgate's default table (${looked ? `no ${looked}` : "no project table"})`,
  };
}

/** Kept for callers that only need the path; `cwd` lets a verb find the project it runs in. */
export function resolveTableFile(env: NodeJS.ProcessEnv, packageRoot: string, project?: ProjectTables, cwd?: string): string {
  return resolveTable({ env, packageRoot, ...(project ? { project } : {}), ...(cwd ? { cwd } : {}) }).file;
}

function projectTableAbove(cwd: string, relative: string, home: string | undefined): string | undefined {
  const stop = home ? path.resolve(home) : undefined;
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (dir === stop) return undefined;
    const own = path.join(dir, relative);
    if (fs.existsSync(own)) return own;
    if (path.dirname(dir) === dir) return undefined;
  }
}

export interface LoadOptions {
  /** Compile write globs (loads picomatch). The hook skips it for events that write nothing. */
  globs?: boolean;
  /** skillgate's default table, for tables that say `"extends": "default"`. */
  defaultTable?: string;
}

interface Validated {
  table: Table;
  disabled: DisabledRow[];
  /** Each write glob's regex, made by picomatch at validation: a cached table matches writes without loading it. */
  globRegex?: Record<string, GlobRegex>;
}

const writeGlobs = (t: Table): string[] => [...new Set(t.rows.flatMap((r) => r.when.writes ?? []))];

export async function loadTable(file: string, cacheDir: string | undefined, env: NodeJS.ProcessEnv = process.env, opts: LoadOptions = {}): Promise<TableLoad> {
  const text = readText(file);
  if (typeof text !== "string") return fail(file, `cannot read the trigger table ${file}: ${text.error}`, undefined, env);
  // A table that extends the default depends on the default's bytes too.
  const base =
    /"extends"\s*:\s*"default"/.test(text) && opts.defaultTable && path.resolve(opts.defaultTable) !== path.resolve(file) ? opts.defaultTable : undefined;
  const baseText = base ? readText(base) : undefined;
  if (baseText !== undefined && typeof baseText !== "string")
    return fail(file, `${file} extends the default table, which cannot be read (${base}): ${baseText.error}`, undefined, env);
  // The key covers the schema revision too: a table validated by an older skillgate lacks newer defaults.
  const hash = contentHash(baseText === undefined ? text : `${text}\0${baseText}`);
  const cacheFile = cacheDir ? path.join(cacheDir, `.table-v${SCHEMA_REVISION}-${hash}.json`) : undefined;
  const skillsBase = path.dirname(file);

  const cached = cacheFile && cacheDir ? readCache(cacheFile, cacheDir) : undefined;
  if (cached) {
    try {
      const kept = opts.globs === false ? undefined : keptGlobEngine(cached.globRegex ?? {}, writeGlobs(cached.table));
      const glob = opts.globs === false ? undefined : (kept ?? (await import("picomatch")).default);
      return {
        ok: true,
        file,
        compiled: { ...compileTable(cached.table, path.resolve(skillsBase, cached.table.skillsDir), glob, { lazy: true }), disabled: cached.disabled },
      };
    } catch {
      /* fall through to full validation */
    }
  }

  const v = await validate(file, text, base, baseText, env);
  if (!v.ok) return v.load;
  let compiled: CompiledTable;
  let globRegex: Record<string, GlobRegex>;
  try {
    // Validation compiles every glob, so a bad one is reported even when this event writes nothing.
    const picomatch = (await import("picomatch")).default;
    compiled = { ...compileTable(v.table, path.resolve(skillsBase, v.table.skillsDir), picomatch), disabled: v.disabled };
    globRegex = globRegexes(picomatch.makeRe, writeGlobs(v.table));
  } catch (e) {
    return fail(file, `${file}: ${(e as Error).message}`, v.raw, env);
  }
  if (cacheFile && cacheDir) writeCache(cacheFile, cacheDir, { table: v.table, disabled: v.disabled, globRegex });
  return { ok: true, file, compiled };
}

type Validation = ({ ok: true; raw: unknown } & Validated) | { ok: false; load: TableLoad };

async function validate(file: string, text: string, base: string | undefined, baseText: string | undefined, env: NodeJS.ProcessEnv): Promise<Validation> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, load: fail(file, `${file} is not valid JSON: ${(e as Error).message}`, undefined, env) };
  }
  const { validateTable, validateRowsApart } = await import("../core/table/schema.js");
  let merged = raw;
  if (base && baseText !== undefined && raw && typeof raw === "object" && (raw as { extends?: unknown }).extends === "default") {
    let baseRaw: unknown;
    try {
      baseRaw = JSON.parse(baseText);
    } catch (e) {
      return { ok: false, load: fail(file, `${base} (extended by ${file}) is not valid JSON: ${(e as Error).message}`, raw, env) };
    }
    merged = extendRows(raw as Record<string, unknown>, baseRaw);
  }
  const v = validateTable(merged, file);
  if (v.ok) return { ok: true, raw, table: v.table as Table, disabled: [] };
  // One bad row is not every row: keep the good ones, name the bad.
  const apart = validateRowsApart(merged, file);
  if (apart) return { ok: true, raw, table: apart.table as Table, disabled: apart.disabled };
  return { ok: false, load: fail(file, v.error, raw, env) };
}

/** The default's rows, each replaced by the project's row of the same id, then the project's new rows. */
function extendRows(own: Record<string, unknown>, baseRaw: unknown): Record<string, unknown> {
  const ownRows = Array.isArray(own.rows) ? (own.rows as { id?: unknown }[]) : [];
  const baseRows =
    baseRaw && typeof baseRaw === "object" && Array.isArray((baseRaw as { rows?: unknown }).rows) ? (baseRaw as { rows: { id?: unknown }[] }).rows : [];
  const byId = new Map(ownRows.filter((r) => typeof r?.id === "string").map((r) => [r.id, r]));
  const rows = [...baseRows.map((r) => byId.get(r?.id) ?? r), ...ownRows.filter((r) => !baseRows.some((b) => b?.id === r?.id))];
  const { extends: _e, ...rest } = own;
  return { ...rest, rows };
}

/** The table (a user's file: a symlink is fine; a FIFO or folder must not hang or crash the hook). */
function readText(file: string): string | { error: string } {
  const r = readRegularFile(file, MAX_TABLE_BYTES, { follow: true });
  return r.ok ? r.text : { error: r.error };
}

const MAX_TABLE_BYTES = 16 * 1024 * 1024;

/**
 * The validated table is read back only with a valid keyed checksum (the key
 * is private to the state folder, io/state-key.ts): an edited or copied cache
 * (rows removed, a gate weakened) is not trusted — it is rebuilt from the table itself.
 */
function readCache(file: string, dir: string): Validated | undefined {
  try {
    const r = readRegularFile(file, MAX_TABLE_BYTES); // never a link, a FIFO or a folder in our own folder
    if (!r.ok) return undefined;
    const nl = r.text.indexOf("\n");
    const body = r.text.slice(nl + 1);
    if (nl !== 16 || r.text.slice(0, nl) !== fastHash(body, stateKey(dir).toString("hex"))) return undefined;
    const v = JSON.parse(body) as Validated;
    return v && typeof v === "object" && v.table && Array.isArray(v.table.rows) && Array.isArray(v.disabled) ? v : undefined;
  } catch {
    return undefined;
  }
}

function writeCache(file: string, dir: string, v: Validated): void {
  try {
    makeDir(path.dirname(file), 0o700);
    const body = JSON.stringify(v);
    writeAtomic(file, `${fastHash(body, stateKey(dir).toString("hex"))}\n${body}`);
  } catch {
    /* a cache we cannot write only costs speed */
  }
}

/** Fail mode comes from the broken table if it says so, else $SKILLGATE_FAIL_MODE, else open. */
function fail(file: string, error: string, raw: unknown, env: NodeJS.ProcessEnv): TableLoad {
  const fromTable = (raw as { failMode?: unknown } | undefined)?.failMode;
  const mode = fromTable === "closed" || env.SKILLGATE_FAIL_MODE === "closed" ? "closed" : "open";
  return { ok: false, error, file, failMode: mode };
}

/** Names a table's bytes (which validated cache is its own; a backup's name). */
export function contentHash(text: string): string {
  return `${fastHash(text)}-${text.length}`;
}
