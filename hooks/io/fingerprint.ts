// The content fingerprint, exactly: candidates from Git, intersected with the
// roots, plus roots naming existing files and the previous inventory's paths;
// one entry per path (file / symlink / missing); entries sorted by the UTF-8
// bytes of the path; SHA-256 over `wealth-ledger-input-v1\0` and each entry's
// `path\0kind\0mode\0digest\0`. Anything that would make the result
// approximate (a conflict, an unreadable or special file, a path that is not
// UTF-8) throws a FingerprintError naming the path: no fingerprint is better
// than a wrong one.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { byUtf8, normalizeRel, underRoot, type Entry, type Inventory } from "../core/evidence.js";
import type { DigestCache } from "./stat-cache.js";

export class FingerprintError extends Error {
  constructor(
    /** The workspace-relative path (or the workspace) the problem is about. */
    readonly where: string,
    readonly problem: string,
  ) {
    super(`${where}: ${problem}`);
  }
}

export interface FingerprintOptions {
  /** The workspace (absolute); paths and roots are relative to it. */
  cwd: string;
  /** Reviewed roots: folders or paths, workspace-relative. */
  roots: readonly string[];
  /** Paths of the previous inventory: added back, a vanished one becomes `missing`. */
  previous?: readonly string[];
  /** Task files whose `- [x] X.Y [area]` checkboxes are hashed as `- [ ] `. */
  tasksApproval?: readonly string[];
  cache?: DigestCache;
  /** Non-fatal notes (a root that matched nothing). */
  warn?: (msg: string) => void;
}

export const STREAM_PREFIX = "wealth-ledger-input-v1";
const utf8 = new TextDecoder("utf-8", { fatal: true });

export function fingerprint(o: FingerprintOptions): Inventory {
  const cwd = path.resolve(o.cwd);
  const roots = normalizeAll(o.roots, "root");
  const previous = normalizeAll(o.previous ?? [], "previous path").filter((p) => p !== ".");
  const tasks = new Set(normalizeAll(o.tasksApproval ?? [], "--tasks-approval path"));
  const walk = new Walker(cwd);

  // path → whether it came back from the previous inventory (only those may be `missing`).
  const wanted = new Map<string, boolean>();
  const git = gitCandidates(cwd, roots);
  // Unmerged paths block the binding wherever they enter it (listed, named, or previous).
  const conflicted = new Set<string>();
  for (const [p, tag] of git.paths) {
    if (tag === "M") conflicted.add(p);
    if (roots.some((r) => underRoot(p, r))) wanted.set(p, false);
  }
  for (const r of roots) {
    const st = r === "." ? walk.stat(".") : walk.parentsAreDirs(r) ? walk.stat(r) : undefined;
    if (!st) {
      if (o.warn && ![...wanted.keys()].some((p) => underRoot(p, r))) o.warn(`root ${r} matched no files`);
      continue;
    }
    if (st.isFile() || st.isSymbolicLink())
      wanted.set(r, wanted.get(r) ?? false); // named explicitly: in even when ignored or outside Git
    else if (st.isDirectory()) {
      if (!git.inGit) throw new FingerprintError(r, "is a folder outside Git: its files cannot be listed by the procedure; name them explicitly");
      if (![...wanted.keys()].some((p) => underRoot(p, r))) o.warn?.(`root ${r} matched no files`);
    } else throw new FingerprintError(r, `is a special file (${kindOf(st)})`);
  }
  for (const p of previous) wanted.set(p, true);
  for (const t of tasks) if (!wanted.has(t)) o.warn?.(`--tasks-approval ${t} is not among the entries`);

  const entries: Entry[] = [];
  const done = new Set<string>();
  const add = (p: string, fromPrevious: boolean) => {
    if (done.has(p)) return;
    done.add(p);
    if (conflicted.has(p)) throw new FingerprintError(p, "has an unresolved merge conflict; resolve it before fingerprinting");
    const e = entryOf(walk, p, fromPrevious, tasks.has(p), o.cache);
    if (e === "folder") {
      // A submodule: Git lists it as one path; its files come from its own listing.
      for (const [q, tag] of gitCandidates(cwd, roots, p + "/").paths) {
        if (!roots.some((r) => underRoot(q, r)) || wanted.has(q)) continue;
        if (tag === "M") conflicted.add(q);
        add(q, false);
      }
    } else if (e) entries.push(e);
  };
  for (const [p, fromPrevious] of wanted) add(p, fromPrevious);
  // A root inside a submodule: the submodule's path is not under the root, so reach it from the root's side.
  for (const r of roots) for (const [p, tag] of git.paths) if (r !== p && underRoot(r, p) && tag !== "?" && walk.stat(p)?.isDirectory()) add(p, false);
  entries.sort((a, b) => byUtf8(a.path, b.path));
  return { fingerprint: fingerprintOf(entries), entries, roots, cwd };
}

/** `sha256:` + SHA-256 of the canonical byte stream over already sorted entries. */
export function fingerprintOf(entries: readonly Entry[]): string {
  const h = crypto.createHash("sha256");
  h.update(`${STREAM_PREFIX}\0`, "latin1");
  for (const e of entries) h.update(`${e.path}\0${e.kind}\0${e.mode}\0${e.digest}\0`, "utf8");
  return `sha256:${h.digest("hex")}`;
}

/**
 * Approval Tasks normalization: `- [x] ` → `- [ ] ` at the start of a line
 * (start of file or after \n) when followed by a task id `X.Y [area]`.
 * Works on bytes (latin1 maps each byte to one char and back unchanged).
 */
export function normalizeTasks(buf: Buffer): Buffer {
  const s = buf.toString("latin1");
  const out = s.replace(/(^|\n)- \[x\] (?=\d+\.\d+ \[[^\]\n]+\])/g, "$1- [ ] ");
  return out === s ? buf : Buffer.from(out, "latin1");
}

function normalizeAll(list: readonly string[], what: string): string[] {
  const out = new Set<string>();
  for (const raw of list) {
    const n = normalizeRel(raw);
    if (!n.ok) throw new FingerprintError(raw, `${what} ${n.error}`);
    out.add(n.path);
  }
  return [...out];
}

interface GitList {
  inGit: boolean;
  /** path → ls-files -t tag (H cached, S skip-worktree, M unmerged, ? other). */
  paths: Map<string, string>;
}

/**
 * `git ls-files --cached --others --exclude-standard -z` in cwd. `-t` adds a
 * tag per path (same set of paths) so unmerged entries are seen in the same
 * spawn. A nested repository or submodule that a root reaches is listed
 * the same way inside it (each Git repository on its own).
 */
function gitCandidates(cwd: string, roots: readonly string[], prefix = ""): GitList {
  const r = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "-t"], {
    cwd: prefix ? path.join(cwd, prefix) : cwd,
    maxBuffer: 1 << 30,
    env: { ...process.env, LC_ALL: "C" },
  });
  const where = prefix || ".";
  if (r.error) throw new FingerprintError(where, `cannot run git (${r.error.message})`);
  if (r.status !== 0) {
    const err = r.stderr.toString("utf8").trim();
    if (/not a git repository/i.test(err)) return { inGit: false, paths: new Map() };
    throw new FingerprintError(where, `git ls-files failed: ${err.split("\n")[0] ?? `exit ${r.status}`}`);
  }
  const paths = new Map<string, string>();
  const out = r.stdout;
  let start = 0;
  for (let i = out.indexOf(0, start); i >= 0; start = i + 1, i = out.indexOf(0, start)) {
    const rec = out.subarray(start, i);
    const tag = String.fromCharCode(rec[0] ?? 63);
    let rel: string;
    try {
      rel = utf8.decode(rec.subarray(2));
    } catch {
      throw new FingerprintError(
        prefix + JSON.stringify(rec.subarray(2).toString("latin1")).slice(1, -1),
        "is not valid UTF-8; rename it (the procedure does not substitute characters)",
      );
    }
    const full = prefix + rel;
    if (full.endsWith("/")) {
      // An untracked nested repository: listed inside it when a root reaches into it.
      const dir = full.slice(0, -1);
      if (roots.some((ro) => underRoot(dir, ro) || underRoot(ro, dir))) for (const [p, t] of gitCandidates(cwd, roots, full).paths) paths.set(p, t);
      continue;
    }
    // Unmerged entries appear once per stage; any stage marks the path.
    if (paths.get(full) !== "M") paths.set(full, tag);
  }
  return { inGit: true, paths };
}

/** lstat with memoized "is every parent a real folder" (a path through a symlinked folder is not in the work tree). */
class Walker {
  private dirs = new Map<string, boolean>();
  constructor(readonly cwd: string) {}

  parentsAreDirs(rel: string): boolean {
    const cut = rel.lastIndexOf("/");
    if (cut < 0) return true;
    const parent = rel.slice(0, cut);
    let ok = this.dirs.get(parent);
    if (ok === undefined) {
      ok = this.parentsAreDirs(parent) && !!this.stat(parent)?.isDirectory();
      this.dirs.set(parent, ok);
    }
    return ok;
  }

  /** Absolute path: rel is already normalized (no `.`, `..` or empty segments), so plain concatenation is exact and cheaper than path.join. */
  abs(rel: string): string {
    return rel === "." ? this.cwd : `${this.cwd}/${rel}`;
  }

  /** lstat, or undefined when absent; other failures name the path. */
  stat(rel: string): fs.Stats | undefined {
    try {
      return fs.lstatSync(this.abs(rel), { throwIfNoEntry: false });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      throw new FingerprintError(rel, `cannot be read (${code ?? (e as Error).message})`);
    }
  }
}

/** The entry of one path; undefined when it is not an input; "folder" for a Git-listed path that is a folder (a submodule). */
function entryOf(walk: Walker, rel: string, fromPrevious: boolean, isTasks: boolean, cache?: DigestCache): Entry | undefined | "folder" {
  const statAt = Date.now();
  const st = walk.parentsAreDirs(rel) ? walk.stat(rel) : undefined;
  const missing: Entry = { path: rel, kind: "missing", mode: "-", digest: "-" };
  // Absent: a previous path is `missing`; a Git candidate deleted in the work tree is simply not an input (as if the deletion were staged).
  if (!st) return fromPrevious ? missing : undefined;
  if (st.isSymbolicLink()) return { path: rel, kind: "symlink", mode: "120000", digest: linkDigest(walk.abs(rel), rel) };
  if (st.isFile()) {
    const mode = st.mode & 0o111 ? "100755" : "100644";
    const abs = walk.abs(rel);
    if (isTasks) return { path: rel, kind: "file", mode, digest: sha256(normalizeTasks(readAll(abs, rel))) };
    const hit = cache?.get(rel, st);
    if (hit) return { path: rel, kind: "file", mode, digest: hit };
    const digest = hashFile(abs, rel);
    cache?.set(rel, st, digest, statAt);
    return { path: rel, kind: "file", mode, digest };
  }
  // A previous file that is a folder now: the file is gone (its new contents are entries of their own).
  if (st.isDirectory() && fromPrevious) return missing;
  if (st.isDirectory()) return "folder";
  throw new FingerprintError(rel, `is a special file (${kindOf(st)}); it cannot be an input`);
}

/** Entries a symlinked folder may hold before fingerprinting it is refused (name its files instead). */
export const MAX_LINKED_FOLDER_ENTRIES = 10_000;

/**
 * A symlink's digest covers what it points to, not only its text: SHA-256 of
 * `link\0<text>\0` then the resolved target — `file\0<sha256 of its bytes>`,
 * `dir\0<listing digest>`, `dangling`, `loop` (the kernel's bound on a chain
 * or cycle of links, ELOOP), or `special\0<kind>`. A target outside the
 * workspace is read too: the check reads it through the link.
 */
export function linkDigest(abs: string, rel: string): string {
  const fail = (e: unknown, what: string) => new FingerprintError(rel, `${what} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  const h = crypto.createHash("sha256");
  try {
    h.update("link\0", "latin1")
      .update(fs.readlinkSync(abs, { encoding: "buffer" }))
      .update("\0", "latin1");
  } catch (e) {
    throw fail(e, "symlink cannot be read");
  }
  let st: fs.Stats;
  let real: string;
  try {
    st = fs.statSync(abs);
    real = fs.realpathSync(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return h.update("dangling", "latin1").digest("hex");
    if (code === "ELOOP") return h.update("loop", "latin1").digest("hex");
    throw fail(e, "symlink target cannot be read");
  }
  if (st.isFile()) h.update(`file\0${hashFile(real, rel)}`, "latin1");
  else if (st.isDirectory()) h.update(`dir\0${folderDigest(real, rel)}`, "latin1");
  else h.update(`special\0${kindOf(st)}`, "latin1");
  return h.digest("hex");
}

/** A folder reached through a link: its files by relative path and content, links inside by their text only (bounded, no cycles). */
function folderDigest(root: string, rel: string): string {
  const h = crypto.createHash("sha256");
  let seen = 0;
  const walk = (dir: string, prefix: string) => {
    let names: string[];
    try {
      names = fs.readdirSync(dir).sort((a, b) => byUtf8(a, b));
    } catch (e) {
      throw new FingerprintError(rel, `linked folder ${prefix || "."} cannot be listed (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    for (const n of names) {
      if (++seen > MAX_LINKED_FOLDER_ENTRIES)
        throw new FingerprintError(rel, `links to a folder of more than ${MAX_LINKED_FOLDER_ENTRIES} entries; name the files it needs instead`);
      const abs = `${dir}/${n}`;
      const p = prefix ? `${prefix}/${n}` : n;
      const st = fs.lstatSync(abs);
      if (st.isSymbolicLink())
        h.update(`${p}\0l\0`)
          .update(fs.readlinkSync(abs, { encoding: "buffer" }))
          .update("\0", "latin1");
      else if (st.isFile()) h.update(`${p}\0f\0${st.mode & 0o111 ? "x" : "-"}${hashFile(abs, rel)}\0`);
      else if (st.isDirectory()) {
        h.update(`${p}\0d\0`);
        walk(abs, p);
      } else h.update(`${p}\0s\0${kindOf(st)}\0`);
    }
  };
  walk(root, "");
  return h.digest("hex");
}

function kindOf(st: fs.Stats): string {
  return st.isFIFO() ? "FIFO" : st.isSocket() ? "socket" : st.isCharacterDevice() ? "character device" : st.isBlockDevice() ? "block device" : "not a file";
}

function sha256(b: Buffer): string {
  return crypto.createHash("sha256").update(b).digest("hex");
}

const CHUNK = 1 << 20;
let chunk: Buffer | undefined;

/** SHA-256 of a file's bytes, read in 1 MiB chunks through one buffer; O_NOFOLLOW so a symlink swapped in after the lstat is not followed. */
function hashFile(abs: string, rel: string): string {
  const h = crypto.createHash("sha256");
  const fd = openNoFollow(abs, rel);
  try {
    chunk ??= Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) break;
      h.update(n === CHUNK ? chunk : chunk.subarray(0, n));
    }
  } catch (e) {
    if (e instanceof FingerprintError) throw e;
    throw new FingerprintError(rel, `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  } finally {
    fs.closeSync(fd);
  }
  return h.digest("hex");
}

function readAll(abs: string, rel: string): Buffer {
  const fd = openNoFollow(abs, rel);
  try {
    return fs.readFileSync(fd);
  } catch (e) {
    throw new FingerprintError(rel, `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  } finally {
    fs.closeSync(fd);
  }
}

function openNoFollow(abs: string, rel: string): number {
  try {
    return fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw new FingerprintError(rel, "turned into a symlink while being read; run again");
    if (code === "ENOENT") throw new FingerprintError(rel, "vanished while being read; run again");
    throw new FingerprintError(rel, `cannot be read (${code ?? (e as Error).message})`);
  }
}
