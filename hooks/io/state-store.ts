// Per-session state files: one JSON file per session under the state folder.
// Claude Code runs hooks of one session in parallel (parallel tool calls), so
// every read-modify-write happens under a lock file, and files are replaced
// atomically (temp file + rename): no lost update, no half-written file.
import fs from "node:fs";
import path from "node:path";
import { emptyState, type SessionState } from "../core/types.js";
import type { CountIncrement } from "../core/counters.js";
import { removeOlderThan } from "./clean.js";
import { isProfileName } from "../core/summaries/profiles.js";
import { makeDir } from "./make-dir.js";

/** UUIDs and similar; nothing that could climb out of the state folder. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** A tool or row name as one line of safe characters. */
const safeKey = (k: string): string => k.replace(/[^A-Za-z0-9_.:-]/g, "_").slice(0, 100) || "_";

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
    const r = readRegularFile(file, MAX_STATE_BYTES);
    if (r.ok === false && r.missing) return { state: emptyState() };
    const parsed = r.ok ? parseState(r.text) : undefined;
    if (parsed) return { state: parsed };
    // Not what skillgate writes (bad JSON, another shape, a link, a folder, a FIFO, unreadable):
    // keep it for inspection and start clean. Never followed, never half-trusted.
    const aside = `${file}.corrupt-${Date.now()}`;
    try {
      fs.renameSync(file, aside);
    } catch {
      /* another process moved it first, or the folder is not ours to change: the next write replaces it */
    }
    const why = r.ok ? "not in the shape skillgate writes" : r.error;
    return { state: emptyState(), warning: `skillgate: state file ${file} was unreadable; moved to ${aside} (${why}), starting this session's state empty` };
  }

  /**
   * Delete session files (and moved-aside corrupt ones) not touched for maxAgeDays.
   * Runs at session start; the table cache and the output-root memo are kept.
   */
  cleanOld(maxAgeDays: number, now = Date.now()): number {
    // Session files, moved-aside corrupt ones, and temp or stale-lock files a killed process left behind.
    return removeOlderThan(
      this.dir,
      maxAgeDays,
      (name) => !name.startsWith(".") && /\.json(\.calls|\.corrupt-\d+|\..*\.tmp|\.lock\..*\.stale)?$/.test(name),
      now,
    );
  }

  /**
   * Count finished tool calls and refusals without rewriting the state: one
   * append of short lines (atomic, so parallel hooks need no lock). A
   * PostToolUse or a repeated refusal that changes nothing else then costs one
   * write instead of lock, read, write, rename, unlock. `stats` adds them up.
   */
  count(sessionId: string, increments: readonly CountIncrement[]): void {
    makeDir(this.dir, 0o700);
    const lines = increments
      .flatMap(({ counter, key, by }) => Array.from({ length: Math.min(by, 1000) }, () => `${counter === "denials" ? "d" : "t"}:${safeKey(key)}\n`))
      .join("");
    // Never through a link or into a FIFO planted in our folder (the append would land in the link's target, or block).
    const c = fs.constants;
    const fd = fs.openSync(`${this.file(sessionId)}.calls`, c.O_WRONLY | c.O_APPEND | c.O_CREAT | (c.O_NOFOLLOW ?? 0) | (c.O_NONBLOCK ?? 0), 0o600);
    try {
      if (!fs.fstatSync(fd).isFile()) throw new Error("the count file is not a regular file");
      fs.writeSync(fd, lines);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** What count() appended (the state's own stats.toolCalls and denials hold the rest). */
  counted(sessionId: string): { toolCalls: Record<string, number>; denials: Record<string, number> } {
    const out = { toolCalls: {} as Record<string, number>, denials: {} as Record<string, number> };
    const r = readRegularFile(`${this.file(sessionId)}.calls`, MAX_STATE_BYTES);
    if (!r.ok) return out;
    for (const line of r.text.split("\n")) {
      const m = /^([td]):([A-Za-z0-9_.:-]{1,100})$/.exec(line);
      if (!m?.[2]) continue;
      const into = m[1] === "d" ? out.denials : out.toolCalls;
      into[m[2]] = (Object.hasOwn(into, m[2]) ? (into[m[2]] ?? 0) : 0) + 1;
    }
    return out;
  }

  /**
   * The state as it is on disk, with no side effect: a file that is not what skillgate writes reads as empty and
   * stays where it is, so the decision's own read() moves it aside and tells the user (a second reader must not
   * take that warning away).
   */
  peek(sessionId: string): SessionState {
    const r = readRegularFile(this.file(sessionId), MAX_STATE_BYTES);
    return (r.ok ? parseState(r.text) : undefined) ?? emptyState();
  }

  /** Run fn under the session's lock, without reading the state. */
  locked(sessionId: string, fn: () => void): void {
    makeDir(this.dir, 0o700);
    const release = acquireLock(`${this.file(sessionId)}.lock`);
    try {
      fn();
    } finally {
      release();
    }
  }

  /** Read, transform, write, all under the session's lock. */
  update(sessionId: string, fn: (s: SessionState) => SessionState): { state: SessionState; warning?: string } {
    makeDir(this.dir, 0o700);
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

/** A state file is a few KB; anything far larger was not written by skillgate. */
const MAX_STATE_BYTES = 4 * 1024 * 1024;

export type FileRead = { ok: true; text: string } | { ok: false; missing: boolean; error: string };

/**
 * Read a file skillgate wrote into its own folder, trusting nothing about what
 * is there now: a symlink is not followed (O_NOFOLLOW; `follow` for a user's file such as the table), a FIFO or device never
 * blocks the hook (O_NONBLOCK, then only a regular file is read), a folder or an
 * oversized file is refused. A hook that hangs lets the tool call through.
 */
export function readRegularFile(file: string, maxBytes: number, o: { follow?: boolean } = {}): FileRead {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (o.follow ? 0 : (fs.constants.O_NOFOLLOW ?? 0)) | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: false, missing: true, error: "missing" };
    return { ok: false, missing: false, error: code === "ELOOP" ? "a symlink" : `cannot open: ${code ?? (e as Error).message}` };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { ok: false, missing: false, error: st.isDirectory() ? "a folder" : "not a regular file" };
    if (st.size > maxBytes) return { ok: false, missing: false, error: `${st.size} bytes, over ${maxBytes}` };
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = fs.readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) break;
      off += n;
    }
    return { ok: true, text: buf.subarray(0, off).toString("utf8") };
  } catch (e) {
    return { ok: false, missing: false, error: `cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  } finally {
    fs.closeSync(fd);
  }
}

const STATE_KEYS = new Set([
  "version",
  "loaded",
  "hintsShown",
  "denials",
  "compactions",
  "remindersShown",
  "stopBlockedPrompt",
  "budgetLevel",
  "skillFilesWritten",
  "agents",
  "pendingSubagents",
  "guardedSettings",
  "profile",
  "riskRow",
  "skillDigests",
  "skillStamps",
  "compactionSignals",
  "stats",
]);
const STATS_KEYS = new Set(["toolCalls", "capped", "charsSaved", "capFailures", "maxContextTokens", "summarized", "rawPasses", "missedByAnalysis"]);
const PENDING_KEYS = new Set(["type", "prompt"]);
const AGENT_KEYS = new Set(["loaded", "hintsShown", "stopBlockedPrompt", "skillFilesWritten"]);

/**
 * Parse a state file; anything not in the exact shape skillgate writes counts
 * as corrupt (moved aside), never half-trusted: an unknown key means someone
 * else wrote it.
 */
function parseState(text: string): SessionState | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(raw) || !onlyKeys(raw, STATE_KEYS) || raw.version !== 1) return undefined;
  const s = { ...emptyState(), ...raw } as SessionState;
  const st: unknown = s.stats;
  const ok =
    strings(s.loaded) &&
    strings(s.hintsShown) &&
    strings(s.remindersShown) &&
    counts(s.denials) &&
    num(s.compactions) &&
    num(s.budgetLevel) &&
    optionalString(s.stopBlockedPrompt) &&
    (s.guardedSettings === undefined || strings(s.guardedSettings)) &&
    (s.skillFilesWritten === undefined || strings(s.skillFilesWritten)) &&
    (s.pendingSubagents === undefined ||
      (Array.isArray(s.pendingSubagents) &&
        s.pendingSubagents.every((p) => isRecord(p) && onlyKeys(p, PENDING_KEYS) && typeof p.type === "string" && typeof p.prompt === "string"))) &&
    (s.agents === undefined || (isRecord(s.agents) && Object.values(s.agents).every(isAgent))) &&
    (s.profile === undefined || (typeof s.profile === "string" && isProfileName(s.profile))) &&
    optionalString(s.riskRow) &&
    (s.skillDigests === undefined || (isRecord(s.skillDigests) && Object.values(s.skillDigests).every((v) => typeof v === "string"))) &&
    (s.skillStamps === undefined || (isRecord(s.skillStamps) && Object.values(s.skillStamps).every((v) => typeof v === "string"))) &&
    (s.compactionSignals === undefined ||
      (Array.isArray(s.compactionSignals) && s.compactionSignals.every((v) => v === "before" || v === "after" || v === "start"))) &&
    isRecord(st) &&
    onlyKeys(st, STATS_KEYS) &&
    counts(st.toolCalls) &&
    counts(st.capped) &&
    num(st.charsSaved) &&
    num(st.capFailures) &&
    num(st.maxContextTokens) &&
    (st.summarized === undefined || counts(st.summarized)) &&
    (st.rawPasses === undefined || counts(st.rawPasses)) &&
    (st.missedByAnalysis === undefined || num(st.missedByAnalysis));
  return ok ? s : undefined;
}

const isRecord = (x: unknown): x is Record<string, unknown> => !!x && typeof x === "object" && !Array.isArray(x);
const onlyKeys = (x: Record<string, unknown>, keys: Set<string>) => Object.keys(x).every((k) => keys.has(k));
const strings = (x: unknown) => Array.isArray(x) && x.every((v) => typeof v === "string");
const counts = (x: unknown) => isRecord(x) && Object.values(x).every((v) => typeof v === "number" && Number.isFinite(v));
const num = (x: unknown) => typeof x === "number" && Number.isFinite(x);
const optionalString = (x: unknown) => x === undefined || typeof x === "string";
const isAgent = (a: unknown) =>
  isRecord(a) &&
  onlyKeys(a, AGENT_KEYS) &&
  strings(a.loaded) &&
  strings(a.hintsShown) &&
  optionalString(a.stopBlockedPrompt) &&
  (a.skillFilesWritten === undefined || strings(a.skillFilesWritten));

export function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(tmp, text, { mode: 0o600, flag: "wx" });
  fs.renameSync(tmp, file);
}

/** Longest we wait for the lock; then the update is dropped and the user told (never a stolen live lock). */
const MAX_WAIT_MS = 10_000;
/** A lock file with no readable owner older than this was left by a process killed while creating it. */
const EMPTY_LOCK_STALE_MS = 2_000;
/** The critical section takes milliseconds: a lock this old is stale whoever holds it (pid reuse, other pid namespaces). */
const OLD_LOCK_MS = 30_000;
/** Made on first wait: a SharedArrayBuffer costs Bun's start-up measurably (`npm run bench`), and most runs never wait. */
let sleeper: Int32Array | undefined;

export class LockTimeout extends Error {}

/**
 * An exclusive lock file holding the owner's pid. A lock whose owner is dead
 * is taken over; a live owner is waited for (sleeping, backing off to 16 ms),
 * however slow the machine, up to MAX_WAIT_MS.
 */
function acquireLock(lock: string): () => void {
  const started = Date.now();
  let pause = 1;
  for (;;) {
    try {
      // pid (for liveness) plus a random token (so we only ever remove our own lock).
      const token = `${process.pid}:${Math.random().toString(36).slice(2)}`;
      const fd = fs.openSync(lock, "wx", 0o600);
      fs.writeSync(fd, token);
      fs.closeSync(fd);
      return () => {
        try {
          if (fs.readFileSync(lock, "utf8") === token) fs.unlinkSync(lock); // unlink: rmSync walks a tree
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    if (takeOverIfStale(lock)) continue;
    if (Date.now() - started > MAX_WAIT_MS) throw new LockTimeout(`state lock ${lock} held by a live process for over ${MAX_WAIT_MS} ms`);
    Atomics.wait((sleeper ??= new Int32Array(new SharedArrayBuffer(4))), 0, 0, pause);
    pause = Math.min(pause * 2, 16);
  }
}

/** Remove a lock left by a dead process. Rename first, so two waiters never both remove a fresh lock. */
function takeOverIfStale(lock: string): boolean {
  const owner = readOwner(lock);
  if (owner === "gone") return true;
  const stale = olderThan(lock, OLD_LOCK_MS) || (typeof owner === "number" ? !isAlive(owner) : olderThan(lock, EMPTY_LOCK_STALE_MS));
  if (!stale) return false;
  const aside = `${lock}.${process.pid}.stale`;
  try {
    fs.renameSync(lock, aside);
  } catch {
    return true; // someone else moved it: just retry
  }
  // If what we moved is not the dead owner's lock, a new owner got in between: give it back.
  if (readOwner(aside) !== owner) {
    try {
      fs.linkSync(aside, lock);
    } catch {
      /* a third process holds the lock now; the moved lock's owner no longer owns it and, by its token, removes nothing */
    }
  }
  fs.rmSync(aside, { force: true });
  return true;
}

function readOwner(lock: string): number | "gone" | "unknown" {
  try {
    const pid = Number.parseInt(fs.readFileSync(lock, "utf8").split(":")[0] ?? "", 10);
    return Number.isFinite(pid) && pid > 0 ? pid : "unknown";
  } catch {
    return "gone";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function olderThan(file: string, ms: number): boolean {
  try {
    return Date.now() - fs.statSync(file).mtimeMs > ms;
  } catch {
    return false;
  }
}
