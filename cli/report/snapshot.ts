// A team's week is many machines' snapshots merged. A snapshot holds row ids,
// per-session counts, days, the host and a machine label: no paths, no prompt
// or command text (docs/report.md lists every field, so a team can decide to
// commit them).
import fs from "node:fs";
import path from "node:path";
import type { SessionRecord } from "../measure/sessions.js";

export interface SnapshotRow {
  id: string;
  kind: string;
  skill?: string;
}

export interface Snapshot {
  tool: "skillgate report";
  format: 1;
  machine: string;
  generatedAt: string;
  /** The day skillgate was installed on this machine, when known (YYYY-MM-DD). */
  installed?: string;
  rows: SnapshotRow[];
  sessions: SessionRecord[];
}

/** Snapshot files: the files named, and every `*.json` in a folder named. */
export function snapshotFiles(operands: readonly string[]): string[] {
  const out: string[] = [];
  for (const o of operands) {
    const st = fs.statSync(o, { throwIfNoEntry: false });
    if (!st) throw new Error(`${o}: no such file or folder`);
    if (st.isDirectory()) {
      for (const n of fs.readdirSync(o).sort()) if (n.endsWith(".json")) out.push(path.join(o, n));
    } else out.push(o);
  }
  return out;
}

/** Read and check one snapshot: a wrong file is named with what is wrong, never merged half-read. */
export function readSnapshot(file: string): Snapshot {
  let j: unknown;
  try {
    j = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: not a readable JSON file (${(e as Error).message})`);
  }
  const s = j as Partial<Snapshot>;
  if (s?.tool !== "skillgate report" || s.format !== 1)
    throw new Error(`${file}: not a skillgate report snapshot (expected "tool": "skillgate report", "format": 1)`);
  if (typeof s.machine !== "string" || !Array.isArray(s.rows) || !Array.isArray(s.sessions))
    throw new Error(`${file}: a snapshot needs "machine", "rows" and "sessions"`);
  s.sessions.forEach((r, i) => {
    if (typeof r?.id !== "string" || typeof r.day !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(r.day) || typeof r.rows !== "object")
      throw new Error(`${file}: sessions[${i}] needs a string "id", a "day" like 2026-12-01 and "rows"`);
  });
  return s as Snapshot;
}

export function writeSnapshot(s: Snapshot, file: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(s, null, 1) + "\n");
  fs.renameSync(tmp, file);
}
