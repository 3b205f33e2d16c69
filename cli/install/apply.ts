// Apply one host's InstallPlan (hooks/io/hook-install.ts): with --dry-run a
// diff per file and nothing written; else a backup of each file it changes (in
// the state folder, never beside the user's file), an atomic write, and an
// install record so that an uninstall with nothing else changed puts back the
// exact bytes (or no file) that were there. The same for every host.
import fs from "node:fs";
import path from "node:path";
import { contentHash } from "../../hooks/io/table-load.js";
import type { FileChange } from "../../hooks/io/hook-install.js";

/** Minimal line diff (LCS) with 2 lines of context; settings files are small. */
export function lineDiff(before: string, after: string): string[] {
  const a = before.split("\n"),
    b = after.split("\n");
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: string[] = [];
  let i = 0,
    j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push(`  ${a[i++]}`), j++;
    // Removals before additions, like diff(1).
    else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push(`- ${a[i++]}`);
    else ops.push(`+ ${b[j++]}`);
  }
  const near = (k: number) => ops.slice(Math.max(0, k - 2), k + 3).some((l) => !l.startsWith("  "));
  const out: string[] = [];
  ops.forEach((l, k) => (near(k) ? out.push(l) : out.at(-1) !== "  ..." && out.push("  ...")));
  return out;
}

/** Per file: a folder name in the state folder (backups, install records). */
function keyOf(file: string): string {
  return `${path.basename(path.dirname(path.dirname(file)))}-${path.basename(file, ".json")}-${contentHash(path.resolve(file))}`.replace(/[^\w.-]/g, "_");
}

export const BACKUPS_KEPT = 3;

/** A copy of the file before we change it, in the state folder; the last 3 are kept. */
function backup(file: string, text: string, stateDir: string): string {
  const dir = path.join(stateDir, "backups", keyOf(file));
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ext = path.extname(file) || ".txt";
  const b = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}${ext}`);
  fs.writeFileSync(b, text, { mode: 0o600 });
  const all = fs.readdirSync(dir).sort();
  for (const old of all.slice(0, Math.max(0, all.length - BACKUPS_KEPT))) fs.rmSync(path.join(dir, old), { force: true });
  return b;
}

/** What an install changed in one file. */
interface InstallRecord {
  file: string;
  /** The file's text before the first install; null: there was no file. */
  before: string | null;
  /** The text install wrote. */
  after: string;
  /** Folders install created (outermost first), removed again when empty. */
  created: string[];
}

const recordFileOf = (file: string, stateDir: string) => path.join(stateDir, "installs", `${keyOf(file)}.json`);

function readRecord(file: string, stateDir: string): InstallRecord | undefined {
  try {
    const r = JSON.parse(fs.readFileSync(recordFileOf(file, stateDir), "utf8")) as InstallRecord;
    return r.file === path.resolve(file) && typeof r.after === "string" ? r : undefined;
  } catch {
    return undefined;
  }
}

function writeRecord(r: InstallRecord, stateDir: string): void {
  try {
    const f = recordFileOf(r.file, stateDir);
    fs.mkdirSync(path.dirname(f), { recursive: true, mode: 0o700 });
    fs.writeFileSync(f, JSON.stringify(r, null, 2), { mode: 0o600 });
  } catch {
    /* without a record uninstall still removes our entries by minimal edits */
  }
}

/** Temp file + rename: the client never reads a half-written file. */
function writeAtomicKeepMode(file: string, text: string): void {
  const mode = fs.existsSync(file) ? fs.statSync(file).mode & 0o777 : 0o644;
  const tmp = `${file}.skillgate-${process.pid}.tmp`;
  fs.writeFileSync(tmp, text, { mode });
  fs.renameSync(tmp, file);
}

/** mkdir -p, returning the folders it created (outermost first). */
export function mkdirs(dir: string): string[] {
  const made: string[] = [];
  for (let d = path.resolve(dir); !fs.existsSync(d); d = path.dirname(d)) made.unshift(d);
  fs.mkdirSync(dir, { recursive: true });
  return made;
}

/** Remove the given paths (deepest first) when they are empty folders. */
export function removeEmptyDirs(dirs: string[]): void {
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
    try {
      fs.rmdirSync(d);
    } catch {
      /* not empty, or gone: leave it */
    }
  }
}

export interface Applied {
  file: string;
  changed: boolean;
  /** The file is gone after the change. */
  removedFile: boolean;
  /** The file did not exist before. */
  created: boolean;
  diff: string[];
  backup: string | null;
}

export interface ApplyOptions {
  verb: "install" | "uninstall";
  dryRun: boolean;
  stateDir: string;
  say: (line: string) => void;
}

/**
 * Apply the changes in order. An uninstall of a file that is still what our
 * install wrote puts back the recorded bytes (or removes the file) instead of
 * the plan's minimal edit, and removes the folders that install created.
 */
export function applyChanges(changes: readonly FileChange[], o: ApplyOptions): Applied[] {
  const out: Applied[] = [];
  for (const c0 of changes) {
    let c: FileChange = c0;
    const rec = c.before !== null ? readRecord(c.file, o.stateDir) : undefined;
    const exact = o.verb === "uninstall" && rec !== undefined && rec.after === c.before;
    if (exact) c = { ...c, after: rec.before };
    const changed = c.after !== c.before;
    const diff = changed ? lineDiff(c.before ?? "", c.after ?? "") : [];
    const result: Applied = { file: c.file, changed, removedFile: changed && c.after === null, created: changed && c.before === null, diff, backup: null };
    out.push(result);
    if (!changed) {
      if (c.before === null) o.say(`${c.file} does not exist: nothing to change`);
      else
        o.say(
          `${c.file}: ${o.verb === "install" ? "skillgate's entries are already installed; nothing to change" : "no skillgate entries in it; nothing to change"}`,
        );
      continue;
    }
    if (o.dryRun) {
      if (c.what && c.before === null) o.say(`would write ${c.what} ${c.file}`);
      else if (c.what && c.after === null) o.say(`would remove ${c.what} ${c.file}`);
      else {
        o.say(`--- ${c.file} (${c.before === null ? "does not exist" : "now"})\n+++ ${c.file} (after ${o.verb}${c.after === null ? ": removed" : ""})`);
        o.say(diff.join("\n"));
      }
      continue;
    }
    // A file of skillgate's own (what) needs no backup: install writes it again.
    if (c.before !== null && !c.what) result.backup = backup(c.file, c.before, o.stateDir);
    let made: string[] = [];
    if (c.after === null) fs.rmSync(c.file, { force: true });
    else {
      made = mkdirs(path.dirname(c.file));
      writeAtomicKeepMode(c.file, c.after);
    }
    if (o.verb === "install" && c.after !== null) {
      // The first install's before, kept across reinstalls while nothing else changed the file.
      const before = rec && rec.after === c.before ? rec.before : c.fresh ? c.before : undefined;
      if (before !== undefined) writeRecord({ file: path.resolve(c.file), before, after: c.after, created: [...(rec?.created ?? []), ...made] }, o.stateDir);
    }
    if (o.verb === "uninstall") {
      if (exact) removeEmptyDirs(rec.created);
      fs.rmSync(recordFileOf(c.file, o.stateDir), { force: true });
    }
    const what = c.says ?? (c.after === null ? "removed" : c.before === null ? "written" : "updated");
    o.say(`${c.file}: ${what}${result.backup ? `; backup: ${result.backup}` : ""}`);
  }
  return out;
}
