// Which transcript files to read. Main session files only: subagent
// transcripts (`<session>/subagents/agent-*.jsonl` since 2.1.2, and the flat
// `<project>/agent-*.jsonl` of 2.0.28–2.1.1) are counted and left unopened,
// and so are files not modified inside the time window.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface TranscriptFile {
  path: string;
  size: number;
  mtimeMs: number;
}

export interface Found {
  files: TranscriptFile[];
  subagent: { files: number; bytes: number };
  outsideWindow: { files: number; bytes: number };
  warnings: string[];
}

/** ~/.claude/projects, or $CLAUDE_CONFIG_DIR/projects (the first one, if a list). */
export function defaultProjectsDir(env: NodeJS.ProcessEnv = process.env): string {
  const conf = env.CLAUDE_CONFIG_DIR?.split(",")[0]?.trim();
  return path.join(conf || path.join(os.homedir(), ".claude"), "projects");
}

/** A subagent's transcript, by where and how it is named. */
export function isSubagentPath(file: string): boolean {
  const parts = file.split(path.sep);
  return parts.includes("subagents") || /^agent-.*\.jsonl$/.test(path.basename(file));
}

/** Walks `dir` (any depth) for *.jsonl; `sinceMs`: skip files modified before. Oldest first. */
export function findTranscripts(dir: string, sinceMs: number): Found {
  const found: Found = { files: [], subagent: { files: 0, bytes: 0 }, outsideWindow: { files: 0, bytes: 0 }, warnings: [] };
  const walk = (d: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch (e) {
      found.warnings.push(`cannot read folder ${d}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (depth < 8) walk(p, depth + 1);
        continue;
      }
      if (!e.isFile() || !e.name.endsWith(".jsonl")) continue;
      let st: fs.Stats;
      try {
        st = fs.statSync(p);
      } catch (err) {
        found.warnings.push(`cannot read ${p}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
        continue;
      }
      if (isSubagentPath(path.relative(dir, p))) {
        found.subagent.files++;
        found.subagent.bytes += st.size;
      } else if (st.mtimeMs < sinceMs) {
        found.outsideWindow.files++;
        found.outsideWindow.bytes += st.size;
      } else found.files.push({ path: p, size: st.size, mtimeMs: st.mtimeMs });
    }
  };
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(dir);
  } catch (e) {
    found.warnings.push(`cannot read folder ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (st?.isDirectory()) walk(dir, 0);
  else if (st?.isFile()) found.files.push({ path: dir, size: st.size, mtimeMs: st.mtimeMs });
  else if (st) found.warnings.push(`${dir} is neither a folder nor a file`);
  found.files.sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
  return found;
}

/** "7d", "12h", "30m", "2w" back from `now`, or an ISO date; undefined if unreadable. */
export function parseSince(since: string, now: number): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([mhdw])$/.exec(since.trim());
  if (m) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 }[m[2] as "m" | "h" | "d" | "w"];
    return now - Number(m[1]) * unit;
  }
  const t = Date.parse(since);
  return Number.isNaN(t) ? undefined : t;
}
