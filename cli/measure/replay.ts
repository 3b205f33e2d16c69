// Engine events of one session → the hook's own decide(), in order, with the
// hook's state machine (loads, compaction resets). An occasion is a row in
// `matched` (every row whose trigger fired, judgment rows included), or in the
// decision's rows (session guard rows: output cap, budget and compaction
// reminders, which decide() adds outside `matched`). "Loaded before the first
// occasion" is the row's skill loaded in the event's own context at that event
// (the main thread's, or the subagent's: hooks/core/agent-context.ts); "loaded
// at any time" is a load event for the skill anywhere in the session.
// Main sessions and subagent sessions are counted apart, row by row.
import path from "node:path";
import { decide } from "../../hooks/core/decide.js";
import { isLoaded, loadsOf } from "../../hooks/core/skills.js";
import { contextOf, ownAgent } from "../../hooks/core/agent-context.js";
import { shellCommandOf, type Facts } from "../../hooks/core/facts.js";
import { toolFacts } from "../../hooks/core/facts.js";
import { analyzeCommand, type ShellAnalysis } from "../../hooks/core/shell/analyze.js";
import type { CompiledTable } from "../../hooks/core/table/compile.js";
import { emptyState, type Event, type RowKind, type SessionState } from "../../hooks/core/types.js";
import { sessionProfile } from "../../hooks/core/policies/budget-profile.js";
import type { ProfileName } from "../../hooks/core/summaries/profiles.js";
import {
  addBudget,
  afterDecide,
  capAnalysis,
  emptyBudget,
  newSessionBudget,
  notePointers,
  noteToolUse,
  sessionDone,
  type BudgetResult,
  type SessionBudget,
} from "./budget.js";

export interface RowCount {
  id: string;
  kind: RowKind;
  skill?: string;
  /** Events that would have fired the row, over all sessions. */
  occasions: number;
  /** Sessions (of the count's kind: main or subagent) with at least one occasion. */
  sessions: number;
  /** Of those: the skill was in context at the first occasion. */
  loadedBefore: number;
  /** Of those: the skill was loaded at some point of the session. */
  loadedAny: number;
  /** Commands that could not be seen through and would have been refused as opaque by this row (not occasions). */
  opaque: number;
}

export type SessionKind = "main" | "subagent";

export interface Totals {
  rows: number;
  sessions: number;
  loadedBefore: number;
  loadedAny: number;
}

/** Rows with a skill, summed. */
export function totalsOf(rows: RowCount[]): Totals {
  const skillRows = rows.filter((r) => r.skill);
  return {
    rows: skillRows.length,
    sessions: skillRows.reduce((a, r) => a + r.sessions, 0),
    loadedBefore: skillRows.reduce((a, r) => a + r.loadedBefore, 0),
    loadedAny: skillRows.reduce((a, r) => a + r.loadedAny, 0),
  };
}

export interface SessionReplay {
  kind: SessionKind;
  state: SessionState;
  /** Per row: 1 = had an occasion, 2 = skill loaded at the first one. */
  flags: Uint8Array;
  loadedEver: Set<string>;
  /** The table with this session's project skills folder as a skill root (where the client found skills then). */
  table?: CompiledTable;
  /** Budget profiles it was in, raw-file pointers it was shown. */
  budget: SessionBudget;
  /** This session's budget figures (added to its kind's at finish; the report keeps them per session). */
  budgetResult: BudgetResult;
  /** Rows (by index) that refused a call in this session. */
  refused: Set<number>;
}

/** One session's outcome per row it fired: was its skill in context at the first occasion, loaded at all, did it refuse. */
export interface SessionRowOutcome {
  loadedBefore: boolean;
  loadedAny: boolean;
  refused: boolean;
}

const FIRST = 1,
  LOADED_AT_FIRST = 2;
const FACTS_CACHE = 4096;

interface Tally {
  counts: RowCount[];
  /** Skill → sessions in which it was loaded (any skill, table row or not). */
  loads: Map<string, number>;
  budget: BudgetResult;
}

export class Replay {
  private readonly index = new Map<string, number>();
  private readonly tally: Record<SessionKind, Tally>;
  /** Shell analysis is the costly part of matching: the same command in the same folder is analysed once. */
  private readonly facts = new Map<string, Facts>();
  /**
   * A command's parse, shared by its call's facts and its result's cap re-decision (the same
   * command comes back in the tool result): analysed once, not once per event that names it.
   */
  private readonly analyses = new Map<string, ShellAnalysis>();
  private readonly capAnalyses = new Map<string, ShellAnalysis>();
  private readonly analyze = (command: string): ShellAnalysis => lru(this.analyses, command, () => analyzeCommand(command));
  private readonly capAnalysisOf = (command: string): ShellAnalysis => lru(this.capAnalyses, command, () => capAnalysis(command, this.analyze));

  constructor(readonly table: CompiledTable) {
    table.rows.forEach(({ row }, i) => this.index.set(row.id, i));
    const counts = () =>
      table.rows.map(
        ({ row }): RowCount => ({
          id: row.id,
          kind: row.kind,
          ...(row.skill ? { skill: row.skill } : {}),
          occasions: 0,
          sessions: 0,
          loadedBefore: 0,
          loadedAny: 0,
          opaque: 0,
        }),
      );
    this.tally = {
      main: { counts: counts(), loads: new Map(), budget: emptyBudget(table) },
      subagent: { counts: counts(), loads: new Map(), budget: emptyBudget(table) },
    };
  }

  /** A new session, empty as the hook's state at its start (a subagent's context starts empty too). */
  session(kind: SessionKind = "main"): SessionReplay {
    return {
      kind,
      state: emptyState(),
      flags: new Uint8Array(this.table.rows.length),
      loadedEver: new Set(),
      budget: newSessionBudget(this.table),
      budgetResult: emptyBudget(this.table),
      refused: new Set(),
    };
  }

  feed(s: SessionReplay, event: Event): void {
    if (!s.table && event.cwd) s.table = { ...this.table, skillRoots: [...this.table.skillRoots, path.join(event.cwd, ".claude", "skills")] };
    const table = s.table ?? this.table;
    for (const l of loadsOf(event, table)) s.loadedEver.add(l);
    const before = s.state;
    const out = decide(event, table, s.state, this.factsFor(event));
    s.state = out.state;
    afterDecide(s.budgetResult, s.budget, event, table, before, out.state, out.decision, this.capAnalysisOf);
    const fired = out.decision.rows.length ? [...new Set([...out.matched, ...out.decision.rows])] : out.matched;
    if (fired.length === 0) return;
    if (out.decision.verdict === "deny") for (const id of out.decision.rows) if (this.index.has(id)) s.refused.add(this.index.get(id)!);
    const counts = this.tally[s.kind].counts;
    const opaque = new Set(out.opaque);
    // Loaded where the event happens: a subagent's own context, or the main thread's.
    const context = contextOf(out.state, ownAgent(event, table));
    for (const id of fired) {
      const i = this.index.get(id);
      if (i === undefined) continue;
      if (opaque.has(id)) {
        counts[i]!.opaque++;
        continue;
      }
      counts[i]!.occasions++;
      if (s.flags[i]! & FIRST) continue;
      const skill = this.table.rows[i]!.row.skill;
      s.flags[i] = FIRST | (skill && isLoaded(context, skill) ? LOADED_AT_FIRST : 0);
    }
  }

  /** A tool result showed the model skillgate's pointers to raw files ([path, the profile its summary names]). */
  pointers(s: SessionReplay, found: [string, ProfileName | undefined][]): void {
    notePointers(s.budgetResult, s.budget, found, sessionProfile(s.state, this.table.table).profile);
  }

  /** A tool call (it may read a raw file a summary pointed to). */
  toolUse(s: SessionReplay, input: Record<string, unknown>): void {
    noteToolUse(s.budgetResult, s.budget, input);
  }

  /** A long output the transcript holds no tool response for: the hook's edge cannot be re-decided. */
  noResponse(s: SessionReplay): void {
    s.budgetResult.noResponse++;
  }

  /** Budget figures of this kind's sessions, per profile. */
  budget(kind: SessionKind = "main"): BudgetResult {
    return structuredClone(this.tally[kind].budget);
  }

  /** The session is over: add it to the per-row counts. */
  finish(s: SessionReplay): void {
    const { counts, loads } = this.tally[s.kind];
    sessionDone(s.budgetResult, s.budget);
    addBudget(this.tally[s.kind].budget, s.budgetResult);
    for (const skill of s.loadedEver) loads.set(skill, (loads.get(skill) ?? 0) + 1);
    for (let i = 0; i < counts.length; i++) {
      const f = s.flags[i]!;
      if (!(f & FIRST)) continue;
      const c = counts[i]!;
      c.sessions++;
      if (!c.skill) continue;
      if (f & LOADED_AT_FIRST) c.loadedBefore++;
      if (s.loadedEver.has(c.skill)) c.loadedAny++;
    }
  }

  /** Per row id this session fired: how its skill stood (rows it never fired are absent). */
  outcomes(s: SessionReplay): Record<string, SessionRowOutcome> {
    const out: Record<string, SessionRowOutcome> = {};
    this.table.rows.forEach(({ row }, i) => {
      const f = s.flags[i]!;
      if (!(f & FIRST)) return;
      out[row.id] = { loadedBefore: (f & LOADED_AT_FIRST) !== 0, loadedAny: row.skill !== undefined && s.loadedEver.has(row.skill), refused: s.refused.has(i) };
    });
    return out;
  }

  /** Sessions of this kind that loaded each skill, most first. */
  loadedSkills(kind: SessionKind = "main"): Record<string, number> {
    return Object.fromEntries([...this.tally[kind].loads].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  }

  rows(kind: SessionKind = "main"): RowCount[] {
    return this.tally[kind].counts.map((c) => ({ ...c }));
  }

  private factsFor(event: Event): Facts | undefined {
    const command = shellCommandOf(event);
    if (command === undefined) return undefined;
    // Facts hold paths relative to the folder: keyed by folder and command; the parse by command alone.
    return lru(this.facts, `${event.cwd}\0${command}`, () => toolFacts(event, this.analyze(command)));
  }
}

/** `map.get(key)`, else `make()` remembered; the most recently used kept, at most FACTS_CACHE entries. */
function lru<T>(map: Map<string, T>, key: string, make: () => T): T {
  let v = map.get(key);
  if (v !== undefined) {
    map.delete(key);
    map.set(key, v);
    return v;
  }
  v = make();
  map.set(key, v);
  if (map.size > FACTS_CACHE) map.delete(map.keys().next().value!);
  return v;
}
