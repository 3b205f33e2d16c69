// The files of a repository that a set of write globs guards, for the restore
// (runner/restore.ts): a bounded walk that skips .git and node_modules and
// never follows a symlinked folder. With a ListingCache a repeated walk stats
// each folder and reads only the folders that changed (io/stat-cache.ts).
import fs from "node:fs";
import path from "node:path";
import type { ListingCache } from "./stat-cache.js";

export interface Listing {
  /** Matching files (regular files and symlinks), relative to the root, `/`-separated. */
  files: string[];
  /** The walk stopped at a bound: files past it are not listed. */
  partial: boolean;
  /** Folders visited, and of those, read (not answered by the cache). */
  dirs: number;
  read: number;
}

export interface ListOptions {
  cache?: ListingCache;
  /** Absolute folders not to enter (skillgate's own state folder inside a repository). */
  skip?: readonly string[];
  maxDirs?: number;
  maxEntries?: number;
  maxFiles?: number;
}

const SKIP_NAMES = new Set([".git", "node_modules"]);

export function listMatching(root: string, matches: (rel: string) => boolean, o: ListOptions = {}): Listing {
  const maxDirs = o.maxDirs ?? 20_000;
  const maxEntries = o.maxEntries ?? 200_000;
  const maxFiles = o.maxFiles ?? 10_000;
  const skip = new Set(
    (o.skip ?? [])
      .map((d) => path.relative(root, d))
      .filter((r) => r && !r.startsWith("..") && !path.isAbsolute(r))
      .map((r) => r.split(path.sep).join("/")),
  );
  const out: Listing = { files: [], partial: false, dirs: 0, read: 0 };
  let entries = 0;
  const stack: string[] = [""];
  while (stack.length) {
    const rel = stack.pop() ?? "";
    if (out.dirs >= maxDirs || entries >= maxEntries || out.files.length >= maxFiles) {
      out.partial = true;
      break;
    }
    const abs = rel ? path.join(root, rel) : root;
    const statAt = Date.now();
    // The root may be a symlink (macOS /tmp); a folder below it is entered only if it is a real folder.
    const st = rel ? fs.lstatSync(abs, { throwIfNoEntry: false }) : fs.statSync(abs, { throwIfNoEntry: false });
    if (!st?.isDirectory()) continue;
    out.dirs++;
    let listed = o.cache?.get(rel, st);
    if (!listed) {
      let names: fs.Dirent[];
      try {
        names = fs.readdirSync(abs, { withFileTypes: true });
      } catch {
        continue;
      }
      out.read++;
      const dirs: string[] = [];
      const hits: string[] = [];
      for (const e of names) {
        if (e.isDirectory()) {
          if (!SKIP_NAMES.has(e.name)) dirs.push(e.name);
        } else if ((e.isFile() || e.isSymbolicLink()) && matches(rel ? `${rel}/${e.name}` : e.name)) hits.push(e.name);
      }
      entries += names.length;
      listed = { dirs, hits };
      o.cache?.set(rel, st, dirs, hits, statAt);
    } else entries += listed.dirs.length + listed.hits.length;
    for (const h of listed.hits) out.files.push(rel ? `${rel}/${h}` : h);
    for (let i = listed.dirs.length - 1; i >= 0; i--) {
      const sub = rel ? `${rel}/${listed.dirs[i]}` : (listed.dirs[i] ?? "");
      if (!skip.has(sub)) stack.push(sub);
    }
  }
  if (out.files.length > maxFiles) {
    out.files.length = maxFiles;
    out.partial = true;
  }
  return out;
}

/** Every file (and symlink) under a folder, absolute, bounded: a skill's folder. */
export function filesUnder(dir: string, max = 500): { files: string[]; partial: boolean } {
  const l = listMatching(dir, () => true, { maxFiles: max, maxDirs: 200, maxEntries: 5_000 });
  return { files: l.files.map((f) => path.join(dir, f)), partial: l.partial };
}
