// Engine events of one session → the hook's own decide(), in order, with the
// hook's state machine (loads, compaction resets). An occasion is a row in
// `matched` (every row whose trigger fired, judgment rows included), or in the
// decision's rows (session guard rows: output cap, budget and compaction
// reminders, which decide() adds outside `matched`). "Loaded before the first
// occasion" is the row's skill in the state's `loaded` at that event; "loaded
// at any time" is a load event for the skill anywhere in the session.
import path from "node:path";
import { decide } from "../../hooks/core/decide.js";
import { isLoaded, loadsOf } from "../../hooks/core/skills.js";
import { shellCommandOf } from "../../hooks/core/facts.js";
import type { Facts } from "../../hooks/core/facts.js";
import { factsOf } from "../../hooks/core/shell-facts.js";
import type { CompiledTable } from "../../hooks/core/table/compile.js";
import { emptyState, type Event, type RowKind, type SessionState } from "../../hooks/core/types.js";

export interface RowCount {
  id: string;
  kind: RowKind;
  skill?: string;
  /** Events that would have fired the row, over all sessions. */
  occasions: number;
  /** Main sessions with at least one occasion. */
  sessions: number;
  /** Of those: the skill was in context at the first occasion. */
  loadedBefore: number;
  /** Of those: the skill was loaded at some point of the session. */
  loadedAny: number;
  /** Commands that could not be seen through and would have been refused as opaque by this row (not occasions). */
  opaque: number;
}

export interface SessionReplay {
  state: SessionState;
  /** Per row: 1 = had an occasion, 2 = skill loaded at the first one. */
  flags: Uint8Array;
  loadedEver: Set<string>;
  /** The table with this session's project skills folder as a skill root (where the client found skills then). */
  table?: CompiledTable;
}

const FIRST = 1, LOADED_AT_FIRST = 2;
const FACTS_CACHE = 4096;

export class Replay {
  private readonly index = new Map<string, number>();
  private readonly counts: RowCount[];
  /** Shell analysis is the costly part of matching: the same command in the same folder is analysed once. */
  private readonly facts = new Map<string, Facts>();
  /** Skill → sessions in which it was loaded (any skill, table row or not). */
  private readonly loads = new Map<string, number>();

  constructor(readonly table: CompiledTable) {
    this.counts = table.rows.map(({ row }, i) => {
      this.index.set(row.id, i);
      return { id: row.id, kind: row.kind, ...(row.skill ? { skill: row.skill } : {}), occasions: 0, sessions: 0, loadedBefore: 0, loadedAny: 0, opaque: 0 };
    });
  }

  session(): SessionReplay {
    return { state: emptyState(), flags: new Uint8Array(this.counts.length), loadedEver: new Set() };
  }

  feed(s: SessionReplay, event: Event): void {
    if (!s.table && event.cwd) s.table = { ...this.table, skillRoots: [...this.table.skillRoots, path.join(event.cwd, ".claude", "skills")] };
    const table = s.table ?? this.table;
    for (const l of loadsOf(event, table)) s.loadedEver.add(l);
    const out = decide(event, table, s.state, this.factsFor(event));
    s.state = out.state;
    const fired = out.decision.rows.length ? [...new Set([...out.matched, ...out.decision.rows])] : out.matched;
    const opaque = new Set(out.opaque);
    for (const id of fired) {
      const i = this.index.get(id);
      if (i === undefined) continue;
      if (opaque.has(id)) {
        this.counts[i]!.opaque++;
        continue;
      }
      this.counts[i]!.occasions++;
      if (s.flags[i]! & FIRST) continue;
      const skill = this.table.rows[i]!.row.skill;
      s.flags[i] = FIRST | (skill && isLoaded(out.state, skill) ? LOADED_AT_FIRST : 0);
    }
  }

  /** The session is over: add it to the per-row counts. */
  finish(s: SessionReplay): void {
    for (const skill of s.loadedEver) this.loads.set(skill, (this.loads.get(skill) ?? 0) + 1);
    for (let i = 0; i < this.counts.length; i++) {
      const f = s.flags[i]!;
      if (!(f & FIRST)) continue;
      const c = this.counts[i]!;
      c.sessions++;
      if (!c.skill) continue;
      if (f & LOADED_AT_FIRST) c.loadedBefore++;
      if (s.loadedEver.has(c.skill)) c.loadedAny++;
    }
  }

  /** Sessions that loaded each skill, most first. */
  loadedSkills(): Record<string, number> {
    return Object.fromEntries([...this.loads].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
  }

  rows(): RowCount[] {
    return this.counts.map((c) => ({ ...c }));
  }

  private factsFor(event: Event): Facts | undefined {
    const command = shellCommandOf(event);
    if (command === undefined) return undefined;
    const key = `${event.cwd}\0${command}`;
    let f = this.facts.get(key);
    if (f) {
      this.facts.delete(key);
      this.facts.set(key, f);
      return f;
    }
    f = factsOf(event);
    this.facts.set(key, f);
    if (this.facts.size > FACTS_CACHE) this.facts.delete(this.facts.keys().next().value!);
    return f;
  }
}
