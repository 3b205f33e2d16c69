// Per-session state files: one JSON file per session under the state folder.
// Claude Code runs hooks of one session in parallel (parallel tool calls), so
// every read-modify-write happens under a lock file, and files are replaced
// atomically (temp file + rename): no lost update, no half-written file.
import fs from "node:fs";
import path from "node:path";
import { emptyState, type SessionState } from "../types.js";

/** UUIDs and similar; nothing that could climb out of the state folder. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isSafeSessionId(id: string): boolean {
  return SAFE_ID.test(id);
}

export interface Loaded {
  state: SessionState;
  /** Set when the file was unreadable and moved aside. */
  warning?: string;
}

export class StateStore {
  constructor(readonly dir: string) {}

  file(sessionId: string): string {
    if (!isSafeSessionId(sessionId)) throw new Error(`unsafe session id ${JSON.stringify(sessionId.slice(0, 40))}`);
    return path.join(this.dir, `${sessionId}.json`);
  }

  read(sessionId: string): Loaded {
    const file = this.file(sessionId);
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return { state: emptyState() };
      throw e;
    }
    const parsed = parseState(text);
    if (parsed) return { state: parsed };
    // Keep the broken file for inspection and start clean.
    const aside = `${file}.corrupt-${Date.now()}`;
    try {
      fs.renameSync(file, aside);
    } catch {
      /* another process moved it first */
    }
    return { state: emptyState(), warning: `skillgate: state file ${file} was unreadable; moved to ${aside}, starting this session's state empty` };
  }

  /** Read, transform, write, all under the session's lock. */
  update(sessionId: string, fn: (s: SessionState) => SessionState): { state: SessionState; warning?: string } {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = this.file(sessionId);
    const release = acquireLock(`${file}.lock`);
    try {
      const { state, warning } = this.read(sessionId);
      const next = fn(state);
      if (next !== state) writeAtomic(file, JSON.stringify(next));
      return { state: next, warning };
    } finally {
      release();
    }
  }
}

function parseState(text: string): SessionState | undefined {
  try {
    const s = JSON.parse(text) as Partial<SessionState>;
    if (s && s.version === 1 && Array.isArray(s.loaded) && Array.isArray(s.hintsShown)) {
      return { ...emptyState(), ...s, denials: { ...(s.denials ?? {}) } } as SessionState;
    }
  } catch {
    /* fall through */
  }
  return undefined;
}

export function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600, flag: "wx" });
  fs.renameSync(tmp, file);
}

/** A lock older than this is left over by a killed process. */
const STALE_MS = 5_000;
/** Longest we wait for a live lock before treating it as stale. */
const MAX_WAIT_MS = 3_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function acquireLock(lock: string): () => void {
  const started = Date.now();
  let pause = 1;
  for (;;) {
    try {
      const fd = fs.openSync(lock, "wx", 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => fs.rmSync(lock, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    if (isStale(lock) || Date.now() - started > MAX_WAIT_MS) {
      fs.rmSync(lock, { force: true });
      continue;
    }
    // Sleep without spinning the CPU; back off up to 16 ms.
    Atomics.wait(sleeper, 0, 0, pause);
    pause = Math.min(pause * 2, 16);
  }
}

function isStale(lock: string): boolean {
  try {
    return Date.now() - fs.statSync(lock).mtimeMs > STALE_MS;
  } catch {
    return false; // gone already: retry at once
  }
}
