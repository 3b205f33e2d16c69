// Stat cache for fingerprints (and the restore's digests of guarded files): (path, size, mtime, ctime, inode, mode) →
// SHA-256 of the content, so a warm fingerprint reads only changed files.
// Git's racy-timestamp rule: a file whose mtime or ctime is not clearly older
// than the moment we stat'ed it could change again within the same timestamp
// tick without changing its stat, so its digest is not cached.
// The cache lives in the state folder, one file per workspace, 0600, checksummed
// with the state folder's key and shape-checked on read: an edited cache is
// dropped (a cold run), never believed.
import fs from "node:fs";
import path from "node:path";
import { readRegularFile, writeAtomic } from "./state-store.js";
import { checksummed, checksumVerified, stateKey } from "./state-key.js";
import { makeDir } from "./make-dir.js";
import { fastHash } from "./fast-hash.js";

/** What fingerprint.ts needs from a cache. */
export interface DigestCache {
  get(rel: string, st: fs.Stats): string | undefined;
  set(rel: string, st: fs.Stats, digest: string, statAtMs: number): void;
}

/**
 * Timestamps within this much of the stat are racy. Covers the kernel's coarse
 * file-time clock (a jiffy) and filesystems with 1 s or 2 s granularity.
 */
export const RACY_MS = 2_000;
/** Past this many entries, entries not used by the current run are dropped on save. */
const MAX_ENTRIES = 200_000;

/** Fields per record in the file: path, size, mtimeMs, ctimeMs, ino, mode, digest. */
const W = 7;
const MAGIC = "skillgate-stat-cache-v2";

export class StatCache implements DigestCache {
  /**
   * Records as one flat array of strings (what the file splits into; parsing
   * it into objects costs more than the rest of a warm run); `at` maps a path
   * to the index of its record.
   */
  private f: string[] = [];
  private at = new Map<string, number>();
  private used = new Set<string>();
  private dirty = false;
  /** Set when a cache file existed but was not trusted (and so ignored). */
  warning?: string;

  private constructor(
    readonly file: string,
    private readonly key: Buffer,
    readonly workspace: string,
  ) {}

  /** The cache of one workspace (an absolute directory). Never throws on a bad cache file: it starts empty. */
  static load(stateDir: string, workspace: string): StatCache {
    const dir = path.join(stateDir, "fingerprint-cache");
    const name = fastHash(workspace);
    const c = new StatCache(path.join(dir, `${name}.bin`), stateKey(stateDir), workspace);
    let text: string;
    try {
      text = fs.readFileSync(c.file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return c;
      c.warning = `skillgate: stat cache ${c.file} unreadable (${(e as Error).message}); hashing every file`;
      return c;
    }
    const body = checksumVerified(c.key, text);
    const parsed = body === undefined ? undefined : parseBody(body, workspace);
    if (!parsed) {
      c.warning = `skillgate: stat cache ${c.file} failed its check (edited, or written for another workspace); hashing every file`;
      c.dirty = true; // replace it with a good one
      return c;
    }
    c.f = parsed.f;
    c.at = parsed.at;
    return c;
  }

  get(rel: string, st: fs.Stats): string | undefined {
    const i = this.at.get(rel);
    if (i === undefined) return undefined;
    const f = this.f;
    if (
      Number(f[i + 1]) !== st.size ||
      Number(f[i + 2]) !== st.mtimeMs ||
      Number(f[i + 3]) !== st.ctimeMs ||
      Number(f[i + 4]) !== st.ino ||
      Number(f[i + 5]) !== st.mode
    )
      return undefined;
    this.used.add(rel);
    return f[i + 6];
  }

  set(rel: string, st: fs.Stats, digest: string, statAtMs: number): void {
    if (isRacy(st, statAtMs)) {
      if (this.at.delete(rel)) this.dirty = true;
      return;
    }
    this.at.set(rel, this.f.length);
    this.f.push(rel, String(st.size), String(st.mtimeMs), String(st.ctimeMs), String(st.ino), String(st.mode), digest);
    this.used.add(rel);
    this.dirty = true;
  }

  /** Write the cache if anything changed (atomic, 0600). */
  save(): void {
    if (!this.dirty) return;
    const prune = this.at.size > MAX_ENTRIES;
    const out: string[] = [MAGIC, this.workspace];
    for (const [rel, i] of this.at) if (!prune || this.used.has(rel)) for (let k = 0; k < W; k++) out.push(this.f[i + k] ?? "");
    makeDir(path.dirname(this.file), 0o700);
    writeAtomic(this.file, checksummed(this.key, out.join("\0")));
    this.dirty = false;
  }
}

/** Git's racy rule, with a margin for coarse clocks: changed too recently to trust the stat alone. */
export function isRacy(st: fs.Stats, statAtMs: number): boolean {
  return Math.max(st.mtimeMs, st.ctimeMs) >= statAtMs - RACY_MS;
}

/** NUL-separated: magic, workspace, then 7 fields per record. Paths never contain NUL. */
function parseBody(body: string, workspace: string): { f: string[]; at: Map<string, number> } | undefined {
  const all = body.split("\0");
  if (all[0] !== MAGIC || all[1] !== workspace || (all.length - 2) % W !== 0) return undefined;
  const f = all.slice(2);
  const at = new Map<string, number>();
  // The checksum already vouches for the content; this guards against a bug of ours, cheaply.
  for (let i = 0; i < f.length; i += W) {
    if (f[i + 6]?.length !== 64 || !f[i]) return undefined;
    at.set(f[i] ?? "", i);
  }
  return { f, at };
}

/**
 * Listing cache for the restore's walk over a repository (io/guarded-files.ts):
 * folder → its subfolders and the names in it that a set of globs matches,
 * valid while the folder's (mtime, ctime, inode) stay the same. Adding,
 * removing or renaming an entry changes a folder's mtime and ctime, and ctime
 * cannot be set back by a user, so a warm walk stats each folder instead of
 * reading it and matching every name again. Same racy rule, checksum and
 * shape check as StatCache; one file per (root, glob set).
 */
export class ListingCache {
  /** rel folder → [mtimeMs, ctimeMs, ino, dirs, hits] */
  private m = new Map<string, [string, string, string, string[], string[]]>();
  private used = new Set<string>();
  private dirty = false;
  warning?: string;

  private constructor(
    readonly file: string,
    private readonly key: Buffer,
    private readonly id: string,
  ) {}

  /** `globKey` names the glob set the hits were matched with: another set is another cache. */
  static load(stateDir: string, root: string, globKey: string): ListingCache {
    const id = `${root}\0${globKey}`;
    const c = new ListingCache(path.join(stateDir, "listing-cache", `${fastHash(id)}.bin`), stateKey(stateDir), id);
    const r = readRegularFile(c.file, 64 * 1024 * 1024);
    if (!r.ok && r.missing) {
      c.dirty = true;
      return c;
    }
    const body = r.ok ? checksumVerified(c.key, r.text) : undefined;
    const all = body?.split("\0");
    if (!all || all[0] !== LIST_MAGIC || `${all[1]}\0${all[2]}` !== id || (all.length - 3) % LW !== 0) {
      c.warning = `skillgate: listing cache ${c.file} failed its check; listing every folder`;
      c.dirty = true;
      return c;
    }
    for (let i = 3; i < all.length; i += LW) {
      const split = (s: string | undefined) => (s ? s.split("/") : []);
      c.m.set(all[i] ?? "", [all[i + 1] ?? "", all[i + 2] ?? "", all[i + 3] ?? "", split(all[i + 4]), split(all[i + 5])]);
    }
    return c;
  }

  get(rel: string, st: fs.Stats): { dirs: string[]; hits: string[] } | undefined {
    const e = this.m.get(rel);
    if (!e || e[0] !== String(st.mtimeMs) || e[1] !== String(st.ctimeMs) || e[2] !== String(st.ino)) return undefined;
    this.used.add(rel);
    return { dirs: e[3], hits: e[4] };
  }

  set(rel: string, st: fs.Stats, dirs: string[], hits: string[], statAtMs: number): void {
    if (isRacy(st, statAtMs)) {
      if (this.m.delete(rel)) this.dirty = true;
      return;
    }
    this.m.set(rel, [String(st.mtimeMs), String(st.ctimeMs), String(st.ino), dirs, hits]);
    this.used.add(rel);
    this.dirty = true;
  }

  /** Write the cache if anything changed (atomic, 0600); folders not seen in this walk are dropped. */
  save(): void {
    if (!this.dirty && this.used.size === this.m.size) return;
    const out: string[] = [LIST_MAGIC, this.id];
    for (const [rel, e] of this.m) if (this.used.has(rel)) out.push(rel, e[0], e[1], e[2], e[3].join("/"), e[4].join("/"));
    makeDir(path.dirname(this.file), 0o700);
    writeAtomic(this.file, checksummed(this.key, out.join("\0")));
    this.dirty = false;
  }
}

const LIST_MAGIC = "skillgate-listing-cache-v1";
/** Fields per folder record: rel, mtimeMs, ctimeMs, ino, subfolders, hits. */
const LW = 6;
