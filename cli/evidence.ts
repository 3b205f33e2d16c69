// `skillgate evidence [--json] [--cwd DIR] [--table FILE]`: every check (the
// table's evidence rows, plus checks that only have records), its latest
// record, and whether that record is fresh for the tree as it is now.
import fs from "node:fs";
import path from "node:path";
import { freshnessReason, commandText, type Freshness } from "../hooks/core/evidence.js";
import { EvidenceStore } from "../hooks/io/evidence-store.js";
import { currentFreshness, type CheckSpec } from "../hooks/io/evidence-run.js";
import { stateDirOf } from "../hooks/io/state-dir.js";
import { tableFileOf } from "./table-file.js";

export const USAGE = "skillgate evidence [--json] [--cwd DIR] [--table FILE]";

interface Args {
  json: boolean;
  cwd?: string;
  table?: string;
}

/** Local flag parser (until cli/args.ts lands). */
export function parseEvidenceArgs(args: readonly string[]): Args | string {
  const out: Args = { json: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--json") out.json = true;
    else if (a === "--cwd" || a === "--table") {
      const v = args[++i];
      if (v === undefined || v.startsWith("--")) return `${a} needs a value`;
      if (a === "--cwd") out.cwd = v;
      else out.table = v;
    } else return `unexpected argument ${a}`;
  }
  return out;
}

/** The table's evidence rows, read as plain JSON (what this verb needs: id, scope, full, reuse, the command). */
export function evidenceRows(tableFile: string): (CheckSpec & { run?: string })[] {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(tableFile, "utf8"));
  } catch {
    return [];
  }
  const rows = (raw as { rows?: unknown })?.rows;
  if (!Array.isArray(rows)) return [];
  const out: (CheckSpec & { run?: string })[] = [];
  for (const r of rows as Record<string, unknown>[]) {
    // The table names the fingerprint scope `paths` (`scope` is a row's main/subagent scope); a bare list under `scope` is read too.
    const paths = Array.isArray(r?.paths) ? r.paths : r?.scope;
    if (r?.kind !== "evidence" || typeof r.id !== "string" || !Array.isArray(paths) || !paths.every((s) => typeof s === "string")) continue;
    const cmd = (r.when as { command?: { name?: unknown; sub?: unknown } } | undefined)?.command;
    const full = Array.isArray(r.full) && r.full.every((s) => typeof s === "string") ? (r.full as string[]) : undefined;
    const run =
      full?.[0] ??
      (typeof cmd?.name === "string"
        ? commandText({ name: cmd.name, sub: Array.isArray(cmd.sub) ? cmd.sub.filter((s): s is string => typeof s === "string") : [] })
        : undefined);
    out.push({ id: r.id, scope: paths as string[], full, reuse: r.reuse === true, run, ...(typeof cmd?.name === "string" ? { program: cmd.name } : {}) });
  }
  return out;
}

export async function main(args: string[], root: string): Promise<number> {
  const a = parseEvidenceArgs(args);
  if (typeof a === "string") {
    console.error(`skillgate evidence: ${a}\nusage: ${USAGE}`);
    return 2;
  }
  const workspace = path.resolve(a.cwd ?? process.env.CLAUDE_PROJECT_DIR ?? process.cwd());
  const stateDir = stateDirOf({ env: process.env, packageRoot: root });
  const store = new EvidenceStore(stateDir, workspace);
  const specs = new Map<string, CheckSpec & { run?: string; inTable: boolean }>();
  for (const s of evidenceRows(tableFileOf(a.table, root))) specs.set(s.id, { ...s, inTable: true });
  for (const id of store.checks()) {
    if (specs.has(id)) continue;
    const rec = store.latest(id).record;
    // No row any more: the record says what it ran (its runtimes are node and the program).
    const program = Object.keys(rec?.env.runtimes ?? {}).find((k) => k !== "node");
    specs.set(id, { id, scope: rec?.scope ?? [], run: rec?.command, inTable: false, ...(program ? { program } : {}) });
  }
  const rows = [...specs.values()].map((s) => {
    const latest = store.latest(s.id);
    const f: Freshness = currentFreshness(s, { stateDir, workspace });
    const r = latest.record;
    return {
      check: s.id,
      inTable: s.inTable,
      scope: s.scope,
      status: f.status,
      reason:
        f.status === "fresh" ? undefined : freshnessReason(f, { check: s.id, action: "a gate on this check", run: s.run ?? r?.command ?? "(its command)" }),
      changed: f.status === "stale" ? f.changed : [],
      record: r
        ? {
            id: r.id,
            command: r.command,
            cwd: r.cwd,
            exit: r.exit,
            outcome: r.outcome,
            partial: r.partial,
            finishedAt: r.finishedAt,
            durationMs: r.durationMs,
            fingerprint: r.fingerprint,
            entries: r.entries.length,
          }
        : undefined,
      pointerSeq: latest.seq,
      conflict: latest.conflict,
      unreadable: latest.unreadable,
      unpublished: store.unpublished(s.id),
    };
  });
  if (a.json) {
    console.log(JSON.stringify({ workspace, stateDir, checks: rows }, null, 2));
    return 0;
  }
  if (!rows.length) {
    console.log(`no checks: the table has no evidence rows and ${store.dir} holds no records`);
    return 0;
  }
  for (const r of rows) {
    console.log(`${r.check}: ${r.status}${r.inTable ? "" : " (no longer a row of the table)"}  scope: ${r.scope.join(", ") || "?"}`);
    if (r.record)
      console.log(
        `  latest: ${r.record.command} — ${r.record.outcome}${r.record.partial ? " (partial)" : ""}, exit ${r.record.exit ?? "?"}, ${r.record.finishedAt}, ${(r.record.durationMs / 1000).toFixed(1)} s, ${r.record.fingerprint} over ${r.record.entries} files`,
      );
    if (r.reason) console.log(`  ${r.reason.split("\n").join("\n  ")}`);
    if (r.unpublished.length) console.log(`  records written but never published (an interrupted write): ${r.unpublished.join(", ")}`);
  }
  return 0;
}
