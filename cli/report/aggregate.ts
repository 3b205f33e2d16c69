// Snapshots in, the report's numbers out: sessions deduplicated by id, then
// counted per row and week, per host, and against the context budget targets.
import type { SessionRecord } from "../measure/sessions.js";
import type { Snapshot, SnapshotRow } from "./snapshot.js";

/** The session-discipline targets the report checks per week. */
export const TARGETS = {
  medianPromptTokens: 150_000,
  compactionsPerSession: 1,
  toolCallsPerRequest: 2,
  cappedShare: 0.05,
} as const;

export interface Cell {
  /** Sessions in which the row had an occasion. */
  sessions: number;
  /** Of those, the skill was in context at the first occasion. */
  loadedBefore: number;
  /** Of those, the row refused a call. */
  refused: number;
  /** Of the refused ones, the skill was loaded in the session (loaded and retried). */
  refusedThenLoaded: number;
}

export interface WeekBudget {
  week: string;
  sessions: number;
  medianPromptTokens: number | null;
  maxCompactions: number;
  toolCallsPerRequest: number | null;
  cappedShare: number | null;
  pass: { prompt: boolean | null; compactions: boolean | null; toolCalls: boolean | null; capped: boolean | null };
}

export interface ReportData {
  tool: "skillgate report";
  generatedAt: string;
  machines: string[];
  installed: string[];
  weeks: string[];
  /** Sessions after deduplication (main and subagent), and duplicates dropped. */
  sessions: { main: number; subagent: number; duplicates: number };
  rows: (SnapshotRow & { weeks: Record<string, { main: Cell; subagent: Cell }>; total: { main: Cell; subagent: Cell } })[];
  hosts: Record<string, { sessions: number; occasions: number; loadedBefore: number }>;
  budget: WeekBudget[];
}

const cell = (): Cell => ({ sessions: 0, loadedBefore: 0, refused: 0, refusedThenLoaded: 0 });

/** Monday (UTC) of the day's week, YYYY-MM-DD. */
export function weekOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  const back = (d.getUTCDay() + 6) % 7;
  return new Date(d.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

const keyOf = (r: SessionRecord) => (r.agent === undefined ? r.id : `${r.id}\0${r.agent}`);

export function aggregate(snapshots: Snapshot[], now = new Date()): ReportData {
  // One session read on two machines (a shared transcript folder, a snapshot committed twice) counts once: the record with more requests wins.
  const byKey = new Map<string, SessionRecord>();
  let duplicates = 0;
  for (const s of snapshots) {
    for (const r of s.sessions) {
      const k = keyOf(r);
      const had = byKey.get(k);
      if (had) {
        duplicates++;
        if (r.requests <= had.requests) continue;
      }
      byKey.set(k, r);
    }
  }
  const sessions = [...byKey.values()];
  const rowList: SnapshotRow[] = [];
  for (const s of snapshots) for (const r of s.rows) if (!rowList.some((x) => x.id === r.id)) rowList.push(r);
  const weeks = [...new Set(sessions.map((r) => weekOf(r.day)))].sort();
  const rows = rowList.map((r) => ({ ...r, weeks: {} as Record<string, { main: Cell; subagent: Cell }>, total: { main: cell(), subagent: cell() } }));
  const hosts: ReportData["hosts"] = {};
  for (const s of sessions) {
    const w = weekOf(s.day);
    const h = (hosts[s.host] ??= { sessions: 0, occasions: 0, loadedBefore: 0 });
    if (s.kind === "main") h.sessions++;
    for (const row of rows) {
      const o = s.rows[row.id];
      if (!o) continue;
      const wk = (row.weeks[w] ??= { main: cell(), subagent: cell() });
      for (const c of [wk[s.kind], row.total[s.kind]]) {
        c.sessions++;
        if (o.loadedBefore) c.loadedBefore++;
        if (o.refused) c.refused++;
        if (o.refused && o.loadedAny) c.refusedThenLoaded++;
      }
      if (row.skill) {
        h.occasions++;
        if (o.loadedBefore) h.loadedBefore++;
      }
    }
  }
  const installed = [...new Set(snapshots.map((s) => s.installed).filter((d): d is string => d !== undefined))].sort();
  return {
    tool: "skillgate report",
    generatedAt: now.toISOString(),
    machines: [...new Set(snapshots.map((s) => s.machine))].sort(),
    installed,
    weeks,
    sessions: { main: sessions.filter((s) => s.kind === "main").length, subagent: sessions.filter((s) => s.kind === "subagent").length, duplicates },
    rows,
    hosts,
    budget: weeks.map((w) =>
      weekBudget(
        w,
        sessions.filter((s) => s.kind === "main" && weekOf(s.day) === w),
      ),
    ),
  };
}

function weekBudget(week: string, s: SessionRecord[]): WeekBudget {
  const medians = s
    .map((r) => r.promptMedian)
    .filter((x): x is number => x !== null)
    .sort((a, b) => a - b);
  const median = medians.length ? medians[Math.floor((medians.length - 1) / 2)]! : null;
  const requests = s.reduce((a, r) => a + r.requests, 0);
  const calls = s.reduce((a, r) => a + r.toolCalls, 0);
  const outputs = s.reduce((a, r) => a + r.outputs, 0);
  const over = s.reduce((a, r) => a + r.outputsOver, 0);
  const maxCompactions = s.reduce((a, r) => Math.max(a, r.compactions), 0);
  const perRequest = requests ? Math.round((calls / requests) * 1000) / 1000 : null;
  const share = outputs ? Math.round((over / outputs) * 10000) / 10000 : null;
  return {
    week,
    sessions: s.length,
    medianPromptTokens: median,
    maxCompactions,
    toolCallsPerRequest: perRequest,
    cappedShare: share,
    pass: {
      prompt: median === null ? null : median <= TARGETS.medianPromptTokens,
      compactions: s.length ? maxCompactions <= TARGETS.compactionsPerSession : null,
      toolCalls: perRequest === null ? null : perRequest >= TARGETS.toolCallsPerRequest,
      capped: share === null ? null : share < TARGETS.cappedShare,
    },
  };
}
