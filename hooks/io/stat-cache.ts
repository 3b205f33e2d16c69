// Stat cache for fingerprints: (path, size, mtime, ctime, inode, mode) →
// SHA-256 of the content, so a warm fingerprint reads only changed files.
// Git's racy-timestamp rule: a file whose mtime or ctime is not clearly older
// than the moment we stat'ed it could change again within the same timestamp
// tick without changing its stat, so its digest is not cached.
// The cache lives in the state folder, one file per workspace, 0600, signed
// with the state folder's key and shape-checked on read: an edited cache is
// dropped (a cold run), never believed.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { writeAtomic } from "./state-store.js";
import { signed, stateKey, verified } from "./state-key.js";

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

type Row = [size: number, mtimeMs: number, ctimeMs: number, ino: number, mode: number, digest: string];

export class StatCache implements DigestCache {
  private rows = new Map<string, Row>();
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
    const name = crypto.createHash("sha256").update(workspace).digest("hex").slice(0, 32);
    const c = new StatCache(path.join(dir, `${name}.json`), stateKey(stateDir), workspace);
    let text: string;
    try {
      text = fs.readFileSync(c.file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return c;
      c.warning = `skillgate: stat cache ${c.file} unreadable (${(e as Error).message}); hashing every file`;
      return c;
    }
    const body = verified(c.key, text);
    const rows = body === undefined ? undefined : parseRows(body, workspace);
    if (!rows) {
      c.warning = `skillgate: stat cache ${c.file} failed its check (edited, or written for another workspace); hashing every file`;
      c.dirty = true; // replace it with a good one
      return c;
    }
    c.rows = rows;
    return c;
  }

  get(rel: string, st: fs.Stats): string | undefined {
    const r = this.rows.get(rel);
    if (!r) return undefined;
    if (r[0] !== st.size || r[1] !== st.mtimeMs || r[2] !== st.ctimeMs || r[3] !== st.ino || r[4] !== st.mode) return undefined;
    this.used.add(rel);
    return r[5];
  }

  set(rel: string, st: fs.Stats, digest: string, statAtMs: number): void {
    if (isRacy(st, statAtMs)) {
      if (this.rows.delete(rel)) this.dirty = true;
      return;
    }
    this.rows.set(rel, [st.size, st.mtimeMs, st.ctimeMs, st.ino, st.mode, digest]);
    this.used.add(rel);
    this.dirty = true;
  }

  /** Write the cache if anything changed (atomic, 0600). */
  save(): void {
    if (!this.dirty) return;
    if (this.rows.size > MAX_ENTRIES) for (const k of [...this.rows.keys()]) if (!this.used.has(k)) this.rows.delete(k);
    const body = JSON.stringify({ version: 1, workspace: this.workspace, rows: Object.fromEntries(this.rows) });
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    writeAtomic(this.file, signed(this.key, body));
    this.dirty = false;
  }
}

/** Git's racy rule, with a margin for coarse clocks: changed too recently to trust the stat alone. */
export function isRacy(st: fs.Stats, statAtMs: number): boolean {
  return Math.max(st.mtimeMs, st.ctimeMs) >= statAtMs - RACY_MS;
}

function parseRows(body: string, workspace: string): Map<string, Row> | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== "object") return undefined;
  const o = raw as { version?: unknown; workspace?: unknown; rows?: unknown };
  if (o.version !== 1 || o.workspace !== workspace || !o.rows || typeof o.rows !== "object" || Array.isArray(o.rows)) return undefined;
  const out = new Map<string, Row>();
  const num = (x: unknown) => typeof x === "number" && Number.isFinite(x);
  // The signature already vouches for the content; this guards against a bug of ours, cheaply (no regex per row).
  for (const [k, v] of Object.entries(o.rows as Record<string, unknown>)) {
    if (!Array.isArray(v) || v.length !== 6 || !num(v[0]) || !num(v[1]) || !num(v[2]) || !num(v[3]) || !num(v[4]) || typeof v[5] !== "string" || v[5].length !== 64) return undefined;
    out.set(k, v as Row);
  }
  return out;
}
