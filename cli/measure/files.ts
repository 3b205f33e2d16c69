// Which transcript files to read: main session files, and subagent
// transcripts (`<session>/subagents/agent-*.jsonl` since 2.1.2, and the flat
// `<project>/agent-*.jsonl` of 2.0.28–2.1.1), each read as its agent's own
// session. Left unopened, and counted: the client's internal agents
// (`agent-acompact-*` writes the compaction summary, `agent-aprompt_suggestion-*`,
// `agent-aside_question-*`: no task of the user's, no tool calls of their own)
// and files not modified inside the time window.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface TranscriptFile {
  path: string;
  size: number;
  mtimeMs: number;
  /** A subagent's transcript: the agent id its file is named after. */
  agent?: string;
}

export interface Found {
  files: TranscriptFile[];
  /** Subagent transcripts found (and read). */
  subagent: { files: number; bytes: number };
  /** The client's internal agents' transcripts (left out). */
  internal: { files: number; bytes: number };
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

/** The agent id a subagent file is named after (`agent-<id>.jsonl`), else the file's name. */
export function agentIdOf(file: string): string {
  const base = path.basename(file, ".jsonl");
  return base.startsWith("agent-") ? base.slice(6) : base;
}

/**
 * An agent the client runs for itself: `a` + a word + `-` (acompact-946d2b,
 * aprompt_suggestion-…, aside_question-…). Task and Agent subagents are `a` +
 * hex digits (aac57f5, ad7d092f2e8146deb) or, in older flat files, any name.
 */
export function isInternalAgent(id: string): boolean {
  const m = /^a([a-z_]+)-/.exec(id);
  return !!m && !/^[0-9a-f]+$/.test(m[1]!);
}

/** Walks `dir` (any depth) for *.jsonl; `sinceMs`: skip files modified before. Oldest first. */
export function findTranscripts(dir: string, sinceMs: number): Found {
  const found: Found = { files: [], subagent: { files: 0, bytes: 0 }, internal: { files: 0, bytes: 0 }, outsideWindow: { files: 0, bytes: 0 }, warnings: [] };
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
      const agent = isSubagentPath(path.relative(dir, p)) ? agentIdOf(p) : undefined;
      if (agent !== undefined && isInternalAgent(agent)) {
        found.internal.files++;
        found.internal.bytes += st.size;
      } else if (st.mtimeMs < sinceMs) {
        found.outsideWindow.files++;
        found.outsideWindow.bytes += st.size;
      } else {
        found.files.push({ path: p, size: st.size, mtimeMs: st.mtimeMs, ...(agent !== undefined ? { agent } : {}) });
        if (agent !== undefined) {
          found.subagent.files++;
          found.subagent.bytes += st.size;
        }
      }
    }
  };
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(dir);
  } catch (e) {
    found.warnings.push(`cannot read folder ${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (st?.isDirectory()) walk(dir, 0);
  else if (st?.isFile()) {
    // One file named: read it whatever its age; a subagent's file as its agent's session.
    // Only its own name and folder say so (a folder higher up may be called anything).
    const agent = isSubagentPath(path.join(path.basename(path.dirname(dir)), path.basename(dir))) ? agentIdOf(dir) : undefined;
    found.files.push({ path: dir, size: st.size, mtimeMs: st.mtimeMs, ...(agent !== undefined ? { agent } : {}) });
    if (agent !== undefined) {
      found.subagent.files++;
      found.subagent.bytes += st.size;
    }
  } else if (st) found.warnings.push(`${dir} is neither a folder nor a file`);
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
