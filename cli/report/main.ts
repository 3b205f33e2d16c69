// `skillgate report`: this machine's transcripts and/or snapshots from other
// machines → one HTML page (or --json), and --save to write this machine's snapshot.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs, UsageError, UserError } from "../args.js";
import { tableInUse } from "../table-file.js";
import { defaultProjectsDir, parseSince } from "../measure/files.js";
import { progressLine } from "../measure/progress.js";
import { hostsEnvOf } from "../measure/main.js";
import { measure } from "../measure/run.js";
import { aggregate } from "./aggregate.js";
import { renderHtml } from "./html.js";
import { readSnapshot, snapshotFiles, writeSnapshot, type Snapshot } from "./snapshot.js";

export async function reportMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("report", args);
  if (parseSince(f.get("since"), Date.now()) === undefined)
    throw new UsageError(`--since wants an age like 7d, 12h, 30m, 2w or a date, not "${f.get("since")}"`);
  const installed = f.get("installed");
  if (installed !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(installed)) throw new UsageError(`--installed wants a date like 2026-11-30, not "${installed}"`);
  const readsTranscripts = f.rest.length === 0 || f.get("projects") !== undefined;
  if (f.get("save") && !readsTranscripts) throw new UsageError("--save writes this machine's snapshot: it needs transcripts (add --projects DIR)");
  const snapshots: Snapshot[] = [];
  try {
    for (const file of snapshotFiles(f.rest)) snapshots.push(readSnapshot(file));
  } catch (e) {
    throw new UserError((e as Error).message);
  }
  // Transcripts are read when no snapshot is named, or when --projects asks for them too.
  if (readsTranscripts) {
    const home = f.get("home");
    const projects = path.resolve(f.get("projects") ?? (home !== undefined ? path.join(home, ".claude", "projects") : defaultProjectsDir()));
    if (home === undefined && !fs.statSync(projects, { throwIfNoEntry: false })?.isDirectory())
      throw new UserError(`${projects}: no transcript folder here (give --projects DIR, or snapshot files)`);
    const { file: tableFile, table } = await tableInUse(f.get("table"), root);
    const progress = progressLine();
    try {
      const r = await measure({
        projects,
        since: f.get("since"),
        table,
        tableFile,
        records: true,
        onProgress: progress.update,
        ...hostsEnvOf(home, f.get("projects")),
      });
      snapshots.push({
        tool: "skillgate report",
        format: 1,
        machine: f.get("machine") ?? os.hostname(),
        generatedAt: r.generatedAt,
        ...(installed !== undefined ? { installed } : {}),
        rows: table.rows.map(({ row }) => ({ id: row.id, kind: row.kind, ...(row.skill ? { skill: row.skill } : {}) })),
        sessions: r.sessions ?? [],
      });
    } catch (e) {
      throw new UserError((e as Error).message);
    } finally {
      progress.done();
    }
    const save = f.get("save");
    if (save) {
      writeSnapshot(snapshots.at(-1)!, save);
      console.error(`saved this machine's snapshot to ${path.resolve(save)}`);
    }
  }
  const data = aggregate(snapshots);
  if (f.has("json")) {
    console.log(JSON.stringify(data, null, 2));
    return 0;
  }
  const out = path.resolve(f.get("out"));
  fs.writeFileSync(out, renderHtml(data));
  console.log(`wrote ${out} (${data.sessions.main} main sessions, ${data.machines.length} machine(s), ${data.weeks.length} week(s))`);
  return 0;
}
