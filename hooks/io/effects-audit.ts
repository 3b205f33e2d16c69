// Effects audit: after a Bash call, did a gated effect happen that the static
// analysis did not refuse? Cheap and process-free: snapshot reflog sizes,
// remote-tracking refs and the size/mtime of watched files before the call
// (PreToolUse), compare after it (PostToolUse / PostToolUseFailure). A grown
// branch reflog whose new lines say `commit`/`merge`/`cherry-pick`/… is a new
// commit; a moved remote-tracking ref is a push; a watched file whose size or
// mtime changed was written.
import fs from "node:fs";
import path from "node:path";

export interface FileStamp {
  size: number;
  mtimeMs: number;
}

export interface EffectsSnapshot {
  /** The repository's common git dir, when the cwd is inside one. */
  gitDir?: string;
  /** Reflog files (relative to gitDir/logs) → size in bytes. */
  reflogs: Record<string, number>;
  /** Remote-tracking refs (`refs/remotes/origin/main`) → object id. */
  remotes: Record<string, string>;
  /** Watched files (absolute) → stamp, or null when missing. */
  files: Record<string, FileStamp | null>;
}

export type Finding =
  /** from/to: the branch before the call and after it (from its reflog), so the runner can take an unskilled commit back. */
  | { kind: "commit"; ref: string; message: string; from?: string; to?: string }
  | { kind: "push"; ref: string; from?: string; to?: string }
  | { kind: "write"; path: string };

/** Reflogs and refs looked at per snapshot: a repository with more is audited partly. */
const MAX_REFS = 2_000;
/** Bytes of new reflog lines read per ref. */
const MAX_TAIL = 16_384;
/** Reflog messages of operations that create commits. */
const COMMIT_MESSAGE = /^(commit( \((amend|initial|merge)\))?|merge|cherry-pick|revert|rebase( \(pick\)| \(squash\)| \(fixup\)| \(reword\))?|am|pull)\b/;

export function snapshot(cwd: string, watch: string[] = []): EffectsSnapshot {
  const out: EffectsSnapshot = { reflogs: {}, remotes: {}, files: {} };
  for (const f of watch) out.files[path.resolve(cwd, f)] = stamp(path.resolve(cwd, f));
  const gitDir = commonGitDir(cwd);
  if (!gitDir) return out;
  out.gitDir = gitDir;
  const logs = path.join(gitDir, "logs");
  for (const rel of listFiles(logs, "refs")) {
    const st = stamp(path.join(logs, rel));
    if (st) out.reflogs[rel] = st.size;
  }
  out.remotes = remoteRefs(gitDir);
  return out;
}

/**
 * What happened between two snapshots of the same place. `after` defaults to a fresh snapshot.
 * `persons` names the object ids the git hooks let a ref move to as a person's update (io/persons-updates.ts):
 * those are not the call's. A commit of the call below a person's one is reported without from/to, so it is
 * not taken back (moving the branch back would take the person's commit too).
 */
export function compare(
  before: EffectsSnapshot,
  cwd: string,
  after: EffectsSnapshot = snapshot(cwd, Object.keys(before.files)),
  persons: (oid: string) => boolean = () => false,
): Finding[] {
  const found: Finding[] = [];
  if (before.gitDir && after.gitDir === before.gitDir) {
    for (const [rel, size] of Object.entries(after.reflogs)) {
      const was = before.reflogs[rel] ?? 0;
      if (size <= was || !rel.startsWith("refs/heads/")) continue;
      const lines = newLines(path.join(before.gitDir, "logs", rel), was, size);
      const byPerson = lines.map((l) => l.to !== undefined && persons(l.to));
      const lastPersons = byPerson.lastIndexOf(true);
      const from = lines[lastPersons + 1]?.from;
      const to = lines.at(-1)?.to;
      lines.forEach(({ message }, i) => {
        if (!COMMIT_MESSAGE.test(message) || byPerson[i]) return;
        found.push({ kind: "commit", ref: rel, message, ...(i > lastPersons && from && to ? { from, to } : {}) });
      });
    }
    for (const [ref, id] of Object.entries(after.remotes)) {
      const was = before.remotes[ref];
      if (was !== id && !persons(id)) found.push({ kind: "push", ref, ...(was ? { from: was } : {}), to: id });
    }
  }
  for (const [file, st] of Object.entries(after.files)) {
    const was = before.files[file];
    if (was === undefined) continue;
    if ((was === null) !== (st === null) || (was && st && (was.size !== st.size || was.mtimeMs !== st.mtimeMs))) found.push({ kind: "write", path: file });
  }
  return found;
}

/** Files under `root` whose path (relative to root) `matches`, bounded, skipping .git and node_modules. */
export function watchedFiles(root: string, matches: (rel: string) => boolean, limit = 5_000): string[] {
  const out: string[] = [];
  let seen = 0;
  const walk = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (++seen > limit) return;
      if (e.name === ".git" || e.name === "node_modules") continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (matches(path.relative(root, p))) out.push(path.relative(root, p));
    }
  };
  walk(root);
  return out;
}

function stamp(p: string): FileStamp | null {
  try {
    const st = fs.statSync(p);
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return null;
  }
}

/** The messages of reflog lines appended between two sizes (`old new who when tz\tmessage`). */
/** Reflog lines are `<old> <new> <who> <when>\t<message>`. */
function newLines(file: string, from: number, to: number): { from?: string; to?: string; message: string }[] {
  const start = Math.max(from, to - MAX_TAIL);
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, "r");
    const buf = Buffer.alloc(to - start);
    fs.readSync(fd, buf, 0, buf.length, start);
    return buf
      .toString("utf8")
      .split("\n")
      .filter((l) => l.includes("\t"))
      .map((l) => {
        const m = /^([0-9a-f]{40,64}) ([0-9a-f]{40,64}) /.exec(l);
        return { ...(m ? { from: m[1], to: m[2] } : {}), message: l.slice(l.indexOf("\t") + 1) };
      });
  } catch {
    return [];
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The git dir shared by all worktrees (`.git`, a `gitdir:` file, `commondir`), found upwards. */
function commonGitDir(cwd: string): string | undefined {
  let d = path.resolve(cwd);
  for (let i = 0; i < 64; i++) {
    const dotgit = path.join(d, ".git");
    let gitDir: string | undefined;
    try {
      const st = fs.statSync(dotgit);
      if (st.isDirectory()) gitDir = dotgit;
      else if (st.isFile()) {
        const m = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(dotgit, "utf8"));
        if (m?.[1] !== undefined) gitDir = path.resolve(d, m[1].trim());
      }
    } catch {
      /* not here */
    }
    if (gitDir) {
      try {
        const common = fs.readFileSync(path.join(gitDir, "commondir"), "utf8").trim();
        return path.resolve(gitDir, common);
      } catch {
        return gitDir;
      }
    }
    const up = path.dirname(d);
    if (up === d) return undefined;
    d = up;
  }
  return undefined;
}

/** Relative paths of the files under root/sub, bounded. */
function listFiles(root: string, sub: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= MAX_REFS) return;
      const r = path.join(rel, e.name);
      if (e.isDirectory()) walk(r);
      else out.push(r.split(path.sep).join("/"));
    }
  };
  walk(sub);
  return out;
}

/** refs/remotes/** from loose ref files and packed-refs (loose ones win). */
function remoteRefs(gitDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  try {
    const packed = fs.readFileSync(path.join(gitDir, "packed-refs"), "utf8");
    for (const line of packed.split("\n")) {
      const m = /^([0-9a-f]{40,64}) (refs\/remotes\/\S+)$/.exec(line);
      if (m?.[1] !== undefined && m[2] !== undefined) out[m[2]] = m[1];
    }
  } catch {
    /* no packed refs */
  }
  for (const rel of listFiles(gitDir, "refs/remotes")) {
    try {
      const id = fs.readFileSync(path.join(gitDir, rel), "utf8").trim();
      if (/^[0-9a-f]{40,64}$/.test(id)) out[rel] = id;
    } catch {
      /* raced away */
    }
  }
  return out;
}
