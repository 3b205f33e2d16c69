// `skillgate fingerprint [--cwd DIR] [--previous FILE] [--tasks-approval PATH]... [--json] [--no-cache] ROOT...`
// The content fingerprint of the reviewed roots. Exit 0 with the
// fingerprint; 2 for a usage error; 3 when an input blocks the binding (the
// path is named) — no approximate fingerprint is ever printed.
import fs from "node:fs";
import path from "node:path";
import { fingerprint, FingerprintError } from "../hooks/io/fingerprint.js";
import { StatCache } from "../hooks/io/stat-cache.js";
import { stateDirOf } from "../hooks/io/state-dir.js";

export const USAGE = "skillgate fingerprint [--cwd DIR] [--previous FILE] [--tasks-approval PATH]... [--json] [--no-cache] ROOT...";

export interface FingerprintArgs {
  cwd: string;
  previous?: string;
  tasksApproval: string[];
  json: boolean;
  cache: boolean;
  roots: string[];
}

/** Local flag parser (until cli/args.ts lands): repeatable --tasks-approval, `--` ends options. */
export function parseFingerprintArgs(args: readonly string[]): FingerprintArgs | string {
  const out: FingerprintArgs = { cwd: process.cwd(), tasksApproval: [], json: false, cache: true, roots: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--") {
      out.roots.push(...args.slice(i + 1));
      break;
    }
    const value = (): string | undefined => {
      const v = args[i + 1];
      i++;
      return v === undefined || v.startsWith("--") ? undefined : v;
    };
    if (a === "--json") out.json = true;
    else if (a === "--no-cache") out.cache = false;
    else if (a === "--cwd" || a === "--previous" || a === "--tasks-approval") {
      const v = value();
      if (v === undefined) return `${a} needs a value`;
      if (a === "--cwd") out.cwd = v;
      else if (a === "--previous") out.previous = v;
      else out.tasksApproval.push(v);
    } else if (a.startsWith("-")) return `unknown option ${a}`;
    else out.roots.push(a);
  }
  return out;
}

/** Read a previous `--json` output: its paths (and roots, used when no ROOT is given). */
export function readPrevious(file: string): { paths: string[]; roots: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new FingerprintError(file, `--previous is not a readable JSON file (${(e as Error).message})`);
  }
  const o = raw as { entries?: unknown; roots?: unknown };
  if (!o || typeof o !== "object" || !Array.isArray(o.entries) || !o.entries.every((e) => !!e && typeof (e as { path?: unknown }).path === "string")) {
    throw new FingerprintError(file, `--previous is not the output of fingerprint --json (needs "entries": [{"path": ...}])`);
  }
  const roots = Array.isArray(o.roots) && o.roots.every((r) => typeof r === "string") ? (o.roots as string[]) : [];
  return { paths: (o.entries as { path: string }[]).map((e) => e.path), roots };
}

export async function main(args: string[], root: string): Promise<number> {
  const a = parseFingerprintArgs(args);
  if (typeof a === "string") {
    console.error(`skillgate fingerprint: ${a}\nusage: ${USAGE}`);
    return 2;
  }
  const cwd = path.resolve(a.cwd);
  try {
    if (!fs.statSync(cwd).isDirectory()) throw new Error("not a folder");
  } catch (e) {
    console.error(`skillgate fingerprint: --cwd ${cwd}: ${(e as Error).message}`);
    return 2;
  }
  let cache: StatCache | undefined;
  try {
    const prev = a.previous ? readPrevious(path.resolve(a.previous)) : undefined;
    const roots = a.roots.length ? a.roots : (prev?.roots ?? []);
    if (!roots.length) {
      console.error(`skillgate fingerprint: name at least one ROOT (a folder or path relative to --cwd; "." for all)\nusage: ${USAGE}`);
      return 2;
    }
    if (a.cache) {
      cache = StatCache.load(stateDirOf({ env: process.env, packageRoot: root }), cwd);
      if (cache.warning) console.error(cache.warning);
    }
    const inv = fingerprint({
      cwd,
      roots,
      previous: prev?.paths,
      tasksApproval: a.tasksApproval,
      cache,
      warn: (m) => console.error(`skillgate fingerprint: ${m}`),
    });
    saveQuietly(cache);
    console.log(a.json ? JSON.stringify({ fingerprint: inv.fingerprint, entries: inv.entries, roots: inv.roots, cwd: inv.cwd }, null, 2) : inv.fingerprint);
    return 0;
  } catch (e) {
    if (e instanceof FingerprintError) {
      console.error(`skillgate fingerprint: ${e.message}\nno fingerprint: the procedure allows no approximate one`);
      return 3;
    }
    throw e;
  }
}

/** The cache is an optimization: failing to save it must not fail the fingerprint. */
function saveQuietly(cache: StatCache | undefined): void {
  try {
    cache?.save();
  } catch (e) {
    console.error(`skillgate fingerprint: stat cache not saved (${(e as Error).message})`);
  }
}
