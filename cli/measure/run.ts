// One measurement: find the files, read them in order, replay, count.
// No printing here (main.ts and the report do that), so tests call it directly.
import fs from "node:fs";
import path from "node:path";
import { skillName } from "../../hooks/core/match.js";
import type { CompiledTable } from "../../hooks/core/table/compile.js";
import { findTranscripts, parseSince } from "./files.js";
import { BIG_RESULT_CHARS, MetricsAcc, round, type Metrics } from "./metrics.js";
import { Replay, totalsOf, type RowCount, type Totals } from "./replay.js";

export type { Totals };
import { History, type HistoryCounts, type SessionRecord } from "./sessions.js";
import { extractFile } from "./extract.js";
import { shortestThreshold, type BudgetResult } from "./budget.js";
import type { Env } from "../../hooks/core/host.js";
import { measureHosts, type HostMeasure, type OtherHost } from "./hosts/run.js";

export interface MeasureOptions {
  projects: string;
  since: string;
  table: CompiledTable;
  tableFile: string;
  now?: number;
  /** Keep one record per session (the report's input); off for measure, which only counts. */
  records?: boolean;
  /** Also read the other hosts' histories, found from this environment (HOME, CODEX_HOME, …). */
  hostsEnv?: Env;
  /** Called as bytes are read (for the progress line). */
  onProgress?: (p: Progress) => void;
}

export interface Progress {
  files: number;
  totalFiles: number;
  bytes: number;
  totalBytes: number;
  sessions: number;
}

/**
 * Format 2 (subagent transcripts read as sessions of their own): `rows`,
 * `loads`, `totals`, `metrics` and `read.sessions` are still the main sessions'
 * alone (comparable with format 1 snapshots); `subagents`
 * holds the same for subagent sessions.
 */
export interface MeasureResult {
  tool: "skillgate measure";
  format: 2;
  generatedAt: string;
  window: { since: string; from: string; to: string };
  projects: string;
  table: string;
  /** files/bytes/sessions: main session files; lines: every file's; seconds and MB/s: all files. */
  read: { files: number; bytes: number; lines: number; sessions: number; seconds: number; mbPerSec: number };
  leftOut: {
    /** internalAgent: the client's own agents' files (compaction summaries, prompt suggestions). */
    files: {
      internalAgent: number;
      internalAgentBytes: number;
      outsideWindow: number;
      outsideWindowBytes: number;
      unreadable: number;
      notJsonl: number;
      truncated: number;
    };
    lines: Omit<HistoryCounts, "read" | "used" | "results" | "blank" | "sidechain">;
    unknownTypes: Record<string, number>;
  };
  /** Per row, over main sessions. */
  rows: RowCount[];
  /** Skill → main sessions that loaded it (Skill tool, slash command, whole SKILL.md read). */
  loads: Record<string, number>;
  /** Rows with a skill, over main sessions: the main-only count. */
  totals: Totals;
  metrics: Metrics;
  /** Per budget profile, over main sessions: long outputs re-decided as the hook would, raw-file reads seen (cli/measure/budget.ts). */
  budget: BudgetResult;
  subagents: {
    /** Subagent transcript files read, and inline sidechain lines of main files (before 2.0.28) read as subagents. */
    read: { files: number; bytes: number; sessions: number; inlineLines: number };
    rows: RowCount[];
    loads: Record<string, number>;
    totals: Totals;
    metrics: Metrics;
    budget: BudgetResult;
  };
  warnings: string[];
  /** One per session, main and subagent, when asked for (`records`); other hosts' sessions too. */
  sessions?: SessionRecord[];
  /** The other hosts' sessions (when read): per host, the same per-row counts as `rows`. */
  hosts?: Partial<Record<OtherHost, HostMeasure>>;
}

/** Names that are skills: every row's skill and every folder with a SKILL.md in the table's skills dir. */
export function skillNames(table: CompiledTable): Set<string> {
  const names = new Set<string>();
  for (const { row } of table.rows) if (row.skill) names.add(skillName(row.skill));
  try {
    for (const e of fs.readdirSync(table.skillsDir, { withFileTypes: true })) {
      if (e.isDirectory() && fs.existsSync(path.join(table.skillsDir, e.name, "SKILL.md"))) names.add(e.name);
    }
  } catch {
    /* no skills folder: the rows' skills still count */
  }
  return names;
}

/**
 * The shortest output a cap row of the table cuts under any profile the
 * sessions can be in (outputs over it are replayed as PostToolUse), at most 20,000.
 */
export function capCharsOf(table: CompiledTable): number {
  let n = BIG_RESULT_CHARS;
  for (const { row } of table.rows) {
    const max = (row.when as { output?: { maxChars?: number } }).output?.maxChars;
    if (row.kind === ("cap" as string) && typeof max === "number" && max >= 0) n = Math.min(n, max);
  }
  return table.rows.some(({ row }) => row.kind === "cap") ? shortestThreshold(table, n) : n;
}

export async function measure(o: MeasureOptions): Promise<MeasureResult> {
  const now = o.now ?? Date.now();
  const from = parseSince(o.since, now);
  if (from === undefined) throw new Error(`--since ${JSON.stringify(o.since)}: expected like 7d, 24h, 2w, 90m or a date (2026-11-25)`);
  const t0 = performance.now();
  const found = findTranscripts(o.projects, from);
  const replay = new Replay(o.table);
  const metrics = new MetricsAcc();
  const history = new History(replay, metrics, skillNames(o.table), new MetricsAcc(), o.records === true);
  const totalBytes = found.files.reduce((a, f) => a + f.size, 0);
  const p: Progress = { files: 0, totalFiles: found.files.length, bytes: 0, totalBytes, sessions: 0 };
  const capChars = capCharsOf(o.table);
  // Oldest first: a session resumed into a later file continues where it left off.
  for (const f of found.files) {
    history.fileTime = f.mtimeMs;
    const done = await extractFile(
      f.path,
      (recs, bytes) => {
        history.apply(recs);
        p.bytes += bytes;
        p.sessions = history.sessionCount + history.subagentSessionCount;
        o.onProgress?.(p);
      },
      capChars,
      f.agent,
    );
    history.endFile(done, f.agent !== undefined);
    p.files++;
  }
  history.finish();
  const others = o.hostsEnv ? measureHosts({ env: o.hostsEnv, table: o.table, fromMs: from, records: o.records === true }) : undefined;
  const seconds = (performance.now() - t0) / 1000;
  const rows = replay.rows("main");
  const subRows = replay.rows("subagent");
  const { read, used: _used, results: _results, blank: _blank, sidechain, ...lines } = history.counts;
  const allBytes = history.files.bytes + history.files.subagentBytes;
  return {
    tool: "skillgate measure",
    format: 2,
    generatedAt: new Date(now).toISOString(),
    window: { since: o.since, from: new Date(from).toISOString(), to: new Date(now).toISOString() },
    projects: o.projects,
    table: o.tableFile,
    read: {
      files: history.files.read,
      bytes: history.files.bytes,
      lines: read,
      sessions: history.sessionCount,
      seconds: round(seconds, 3),
      mbPerSec: seconds > 0 ? round(allBytes / 1048576 / seconds, 1) : 0,
    },
    leftOut: {
      files: {
        internalAgent: found.internal.files,
        internalAgentBytes: found.internal.bytes,
        outsideWindow: found.outsideWindow.files,
        outsideWindowBytes: found.outsideWindow.bytes,
        unreadable: history.files.unreadable,
        notJsonl: history.files.notJsonl,
        truncated: history.files.truncated,
      },
      lines,
      unknownTypes: Object.fromEntries([...history.unknownTypes].sort((a, b) => b[1] - a[1])),
    },
    rows,
    loads: replay.loadedSkills("main"),
    totals: totalsOf(rows),
    metrics: metrics.result(),
    budget: replay.budget("main"),
    subagents: {
      read: { files: history.files.subagentRead, bytes: history.files.subagentBytes, sessions: history.subagentSessionCount, inlineLines: sidechain },
      rows: subRows,
      loads: replay.loadedSkills("subagent"),
      totals: totalsOf(subRows),
      metrics: history.subagentMetrics.result(),
      budget: replay.budget("subagent"),
    },
    warnings: [...found.warnings, ...history.warnings],
    ...(o.records ? { sessions: [...history.records, ...(others?.records ?? [])] } : {}),
    ...(others ? { hosts: others.hosts } : {}),
  };
}
