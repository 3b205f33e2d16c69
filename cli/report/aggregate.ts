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
  /** Per week and host, main and subagent sessions: tokens summed from the messages' usage; null: no session of theirs recorded any. */
  tokens: TokenRow[];
  /** Per budget profile, main sessions: long outputs summarized or capped, characters kept out of context, raw files read back. */
  profiles: Record<string, ProfileRow>;
  /** The slowest hook events the transcripts timed, slowest first; `hosts`: the hosts whose files carried any timing. */
  hooks: { hosts: string[]; slowest: SlowHook[] };
}

export interface TokenRow {
  week: string;
  host: string;
  sessions: number;
  /** Of those, sessions whose files carried usage. */
  recorded: number;
  input: number | null;
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
}

export interface ProfileRow {
  /** Long outputs the hook would summarize or cap (summarized + capped). */
  outputs: number;
  summarized: number;
  capped: number;
  charsSaved: number;
  /** charsSaved / 4, rounded: an estimate, not a tokenizer's count. */
  tokensSaved: number;
  /** Summaries or caps seen in the transcripts (skillgate ran), and how many of their raw files the model read back. */
  pointers: number;
  rawFallback: number;
}

export interface SlowHook {
  event: string;
  /** The tool the event was about (null: an event of no tool, like Stop). */
  tool: string | null;
  ms: number;
  day: string;
  host: string;
}

/** Slowest hook events listed. */
export const SLOWEST = 10;
/** Characters per token, for the estimate of tokens kept out of context. */
export const CHARS_PER_TOKEN = 4;

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
    tokens: tokenRows(sessions, weeks),
    profiles: profileRows(sessions.filter((s) => s.kind === "main")),
    hooks: slowHooks(sessions),
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

function tokenRows(sessions: SessionRecord[], weeks: string[]): TokenRow[] {
  const out: TokenRow[] = [];
  const hosts = [...new Set(sessions.map((s) => s.host))].sort();
  for (const week of weeks)
    for (const host of hosts) {
      const here = sessions.filter((s) => s.host === host && weekOf(s.day) === week);
      if (!here.length) continue;
      const t = here.map((s) => s.tokens).filter((x): x is NonNullable<SessionRecord["tokens"]> => x !== undefined);
      const sum = (k: keyof NonNullable<SessionRecord["tokens"]>) => (t.length ? t.reduce((a, x) => a + x[k], 0) : null);
      out.push({
        week,
        host,
        sessions: here.length,
        recorded: t.length,
        input: sum("input"),
        output: sum("output"),
        cacheRead: sum("cacheRead"),
        cacheWrite: sum("cacheWrite"),
      });
    }
  return out;
}

function profileRows(sessions: SessionRecord[]): Record<string, ProfileRow> {
  const out: Record<string, ProfileRow> = {};
  for (const s of sessions)
    for (const [name, p] of Object.entries(s.budget ?? {})) {
      if (!p) continue;
      const r = (out[name] ??= { outputs: 0, summarized: 0, capped: 0, charsSaved: 0, tokensSaved: 0, pointers: 0, rawFallback: 0 });
      r.summarized += p.summarized;
      r.capped += p.capped;
      r.charsSaved += p.charsSaved;
      r.pointers += p.pointers;
      r.rawFallback += p.rawFallback;
    }
  for (const r of Object.values(out)) {
    r.outputs = r.summarized + r.capped;
    r.tokensSaved = Math.round(r.charsSaved / CHARS_PER_TOKEN);
  }
  return out;
}

function slowHooks(sessions: SessionRecord[]): ReportData["hooks"] {
  const all: SlowHook[] = [];
  const hosts = new Set<string>();
  for (const s of sessions)
    for (const h of s.hooks ?? []) {
      hosts.add(s.host);
      all.push({ event: h.event, tool: h.tool ?? null, ms: h.ms, day: s.day, host: s.host });
    }
  all.sort((a, b) => b.ms - a.ms || a.day.localeCompare(b.day));
  return { hosts: [...hosts].sort(), slowest: all.slice(0, SLOWEST) };
}
