// What the restore keeps of a guarded file, and how it puts one back
// (runner/restore.ts decides which files and when). A file's state is its
// stamp (kind, size, mtime, ctime, inode, mode) and, for a regular file, the
// SHA-256 of its content; a file up to MAX_KEEP_BYTES also has its content in
// a blob: <state>/restore/blobs/<sha256>, 0600, written once and shared by
// every snapshot that holds that content. A blob is checked against its name
// before it is written back: a damaged one is reported, never restored.
import fs from "node:fs";
import path from "node:path";
import { makeDir } from "./make-dir.js";
import { sha256hex } from "./sha256.js";
import type { DigestCache } from "./stat-cache.js";

/** A file's content is kept (so it can be put back) up to this size. */
export const MAX_KEEP_BYTES = 1024 * 1024;
/** Kept content per snapshot, all files together; past it, files are hashed only. */
export const MAX_KEEP_TOTAL = 16 * 1024 * 1024;
/** Larger files are not even hashed: their stamp (ctime cannot be set back) says whether they changed. */
export const MAX_HASH_BYTES = 64 * 1024 * 1024;

export type Entry =
  | { kind: "missing" }
  | { kind: "link"; target: string }
  | { kind: "dir" }
  | { kind: "file"; size: number; mtimeMs: number; ctimeMs: number; ino: number; mode: number; sha?: string; kept?: boolean };

export interface Keeper {
  blobs: string;
  cache?: DigestCache;
  /** Bytes kept so far in this snapshot. */
  kept: number;
}

export function blobDir(stateDir: string): string {
  return path.join(stateDir, "restore", "blobs");
}

/** The state of one path now; `keeper` given: hash it (through the digest cache) and keep small content. */
export function entryOf(abs: string, keeper?: Keeper): Entry {
  const st = fs.lstatSync(abs, { throwIfNoEntry: false });
  if (!st) return { kind: "missing" };
  if (st.isSymbolicLink()) {
    try {
      return { kind: "link", target: fs.readlinkSync(abs) };
    } catch {
      return { kind: "missing" };
    }
  }
  if (st.isDirectory()) return { kind: "dir" };
  const e: Entry = { kind: "file", size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, mode: st.mode };
  if (!keeper || !st.isFile() || st.size > MAX_HASH_BYTES) return e;
  const keep = st.size <= MAX_KEEP_BYTES && keeper.kept + st.size <= MAX_KEEP_TOTAL;
  let sha = keeper.cache?.get(abs, st);
  const blob = sha ? path.join(keeper.blobs, sha) : undefined;
  // A known digest with its blob in place (same size): nothing to read or write.
  if (sha && (!keep || fs.lstatSync(blob ?? "", { throwIfNoEntry: false })?.size === st.size)) {
    if (keep) keeper.kept += st.size;
    return { ...e, sha, ...(keep ? { kept: true } : {}) };
  }
  const statAt = Date.now();
  let content: Buffer;
  try {
    content = readNoFollow(abs);
  } catch {
    return e;
  }
  sha = sha256hex(content);
  keeper.cache?.set(abs, st, sha, statAt);
  if (!keep) return { ...e, sha };
  writeBlob(keeper.blobs, sha, content);
  keeper.kept += st.size;
  return { ...e, sha, kept: true };
}

/** Did the path change since `was`? A different stamp is confirmed by the content's hash (a touch is no change). */
export function differs(was: Entry, abs: string): { now: Entry; changed: boolean } {
  const now = entryOf(abs);
  if (was.kind !== now.kind) return { now, changed: true };
  if (was.kind === "link" && now.kind === "link") return { now, changed: was.target !== now.target };
  if (was.kind !== "file" || now.kind !== "file") return { now, changed: false };
  if (was.size === now.size && was.mtimeMs === now.mtimeMs && was.ctimeMs === now.ctimeMs && was.ino === now.ino && was.mode === now.mode)
    return { now, changed: false };
  if ((was.mode & 0o7777) !== (now.mode & 0o7777) || was.size !== now.size || !was.sha || now.size > MAX_HASH_BYTES) return { now, changed: true };
  try {
    return { now, changed: sha256hex(readNoFollow(abs)) !== was.sha };
  } catch {
    return { now, changed: true };
  }
}

export type PutBack = { ok: true; did: "restored" | "removed" | "recreated"; keptAt?: string } | { ok: false; why: string; keptAt?: string };

/**
 * Put `abs` back as `was`: a file rewritten byte for byte (mode and mtime
 * too) through a temp file renamed over the path (a symlink planted there is
 * replaced, never written through), a link re-made, a new file removed.
 * What is found there is first copied to `keepDir` (a person's edit made
 * meanwhile is not lost).
 */
export function putBack(abs: string, was: Entry, blobs: string, keepDir: string): PutBack {
  const now = fs.lstatSync(abs, { throwIfNoEntry: false });
  if (now?.isDirectory() && was.kind !== "dir") return { ok: false, why: "a folder is there now; left as it is" };
  const keptAt = now ? keepAside(abs, now, keepDir) : undefined;
  const k = keptAt ? { keptAt } : {};
  try {
    if (was.kind === "missing" || was.kind === "dir") {
      if (now) fs.unlinkSync(abs);
      return { ok: true, did: "removed", ...k };
    }
    makeDir(path.dirname(abs));
    const tmp = `${abs}.skillgate-restore-${process.pid}.tmp`;
    fs.rmSync(tmp, { force: true });
    if (was.kind === "link") {
      fs.symlinkSync(was.target, tmp);
    } else {
      if (!was.kept || !was.sha) return { ok: false, why: `over ${MAX_KEEP_BYTES} bytes, only its hash was kept`, ...k };
      const content = keptCopy(was.sha, blobs);
      if (typeof content === "string") return { ok: false, why: content, ...k };
      fs.writeFileSync(tmp, content, { mode: was.mode & 0o7777, flag: "wx" });
      fs.chmodSync(tmp, was.mode & 0o7777); // the umask may have narrowed it
      fs.utimesSync(tmp, was.mtimeMs / 1000, was.mtimeMs / 1000);
    }
    fs.renameSync(tmp, abs);
    return { ok: true, did: now ? "restored" : "recreated", ...k };
  } catch (e) {
    return { ok: false, why: (e as NodeJS.ErrnoException).code ?? (e as Error).message, ...k };
  }
}

function keepAside(abs: string, st: fs.Stats, keepDir: string): string | undefined {
  if (!st.isFile() || st.size > MAX_KEEP_BYTES) return undefined;
  try {
    makeDir(keepDir, 0o700);
    const to = path.join(keepDir, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}-${path.basename(abs)}`);
    fs.writeFileSync(to, readNoFollow(abs), { mode: 0o600, flag: "wx" });
    return to;
  } catch {
    return undefined;
  }
}

function writeBlob(dir: string, sha: string, content: Buffer): void {
  makeDir(dir, 0o700);
  const file = path.join(dir, sha);
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(tmp, content, { mode: 0o600, flag: "wx" });
  fs.renameSync(tmp, file);
}

/** The kept copy of content `sha`, checked against its hash (the state folder is not trusted blindly); else why not. */
export function keptCopy(sha: string, blobs: string): Buffer | string {
  let content: Buffer;
  try {
    content = readNoFollow(path.join(blobs, sha));
  } catch {
    return "its kept copy is missing";
  }
  return sha256hex(content) === sha ? content : "its kept copy was altered";
}

/** A file's bytes, never through a symlink nor blocking on a FIFO. */
function readNoFollow(file: string): Buffer {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  try {
    if (!fs.fstatSync(fd).isFile()) throw new Error("not a regular file");
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
