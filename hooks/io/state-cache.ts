// Session state kept in memory by a long-lived host process (opencode's
// in-process plugin), written to the state folder behind it: a tool call then
// costs no state file I/O. Same contract as StateStore (read, update, count,
// cleanOld), so the runner decides the same way from either. What is written
// is what StateStore would hold: the state by update(), the counts appended
// by count() (the .calls journal `stats` adds up), so a state read back from
// disk is the one decided on.
import type { SessionState } from "../core/types.js";
import type { CountIncrement } from "../core/counters.js";
import type { StateStore, Loaded } from "./state-store.js";

export interface StateCacheOptions {
  /** Write a session's changes this long after its last one (default 200 ms). */
  delayMs?: number;
  /** A session whose changes must reach the disk at once (another process compares the file with them). */
  writeThrough?: (sessionId: string) => boolean;
  /** Called under the session's lock with the text about to be written (the restore's witness: runner/audit.ts noteStateWrite). */
  onWrite?: (sessionId: string, text: string) => void;
  /** A write that failed: say so (the state stays in memory, and is written again with the next change). */
  onError?: (message: string) => void;
}

export class StateCache {
  private readonly states = new Map<string, SessionState>();
  private readonly changed = new Set<string>();
  private readonly counts = new Map<string, CountIncrement[]>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly file: StateStore,
    private readonly o: StateCacheOptions = {},
  ) {}

  read(sessionId: string): Loaded {
    const kept = this.states.get(sessionId);
    if (kept) return { state: kept };
    const r = this.file.read(sessionId);
    this.states.set(sessionId, r.state);
    return r;
  }

  update(sessionId: string, fn: (s: SessionState) => SessionState): { state: SessionState } {
    const state = fn(this.read(sessionId).state);
    this.states.set(sessionId, state);
    this.changed.add(sessionId);
    this.later(sessionId);
    return { state };
  }

  count(sessionId: string, increments: readonly CountIncrement[]): void {
    this.counts.set(sessionId, [...(this.counts.get(sessionId) ?? []), ...increments]);
    this.later(sessionId);
  }

  cleanOld(maxAgeDays: number, now = Date.now()): number {
    return this.file.cleanOld(maxAgeDays, now);
  }

  /** Write every pending change now (before another process reads the state: a git hook, the end of a session). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const id of new Set([...this.changed, ...this.counts.keys()])) this.write(id);
  }

  private later(sessionId: string): void {
    if (this.o.writeThrough?.(sessionId)) return this.write(sessionId);
    this.timer ??= setTimeout(() => this.flush(), this.o.delayMs ?? 200);
    this.timer.unref?.();
  }

  private write(sessionId: string): void {
    try {
      const state = this.states.get(sessionId);
      if (state && this.changed.has(sessionId))
        this.file.update(sessionId, () => {
          this.o.onWrite?.(sessionId, JSON.stringify(state));
          return state;
        });
      this.changed.delete(sessionId);
      const counts = this.counts.get(sessionId);
      if (counts?.length) this.file.count(sessionId, counts);
      this.counts.delete(sessionId);
    } catch (e) {
      this.o.onError?.(`skillgate: session state not saved (${(e as Error).message})`);
    }
  }
}
