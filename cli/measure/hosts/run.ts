// Every host's history besides Claude Code's, measured as Claude Code's is:
// each session's events through the hook's own decide() (replay.ts), one
// Replay per host, so each host has its own occasion and loaded counts, and
// one record per session for the team's report (host named).
import fs from "node:fs";
import path from "node:path";
import type { Env } from "../../../hooks/core/host.js";
import type { CompiledTable } from "../../../hooks/core/table/compile.js";
import { environment as codexEnvironment } from "../../../hooks/hosts/codex/env.js";
import { environment as geminiEnvironment } from "../../../hooks/hosts/gemini/env.js";
import { environment as copilotEnvironment } from "../../../hooks/hosts/copilot/env.js";
import { skillRootsOf } from "../../../hooks/hosts/opencode/adapter.js";
import { Replay, totalsOf, type RowCount, type Totals } from "../replay.js";
import { budgetRecord, type SessionRecord } from "../sessions.js";
import type { HostSession } from "./session.js";
import { readCodex } from "./codex.js";
import { readGemini } from "./gemini.js";
import { readCopilot } from "./copilot.js";
import { opencodeRows, readOpencode } from "./opencode.js";

export interface HostMeasure {
  /** Where this host's sessions were looked for. */
  where: string;
  files: number;
  bytes: number;
  /** Main sessions read (subagents' are left out, counted in leftOut). */
  sessions: number;
  rows: RowCount[];
  loads: Record<string, number>;
  totals: Totals;
  requests: number;
  toolCalls: number;
  compactions: number;
  leftOut: { outsideWindow: number; malformedLines: number; rejectedEvents: number; subagentSessions: number };
  warnings: string[];
}

export const OTHER_HOSTS = ["codex", "gemini", "copilot", "opencode"] as const;
export type OtherHost = (typeof OTHER_HOSTS)[number];

interface Source {
  where: string;
  /** Session files changed inside the window (opencode: its one database). */
  files(fromMs: number, m: HostMeasure): string[];
  read(file: string, fromMs: number, m: HostMeasure): HostSession[];
  skillRoots(cwd: string): string[];
}

function sources(env: Env): Record<OtherHost, Source> {
  const home = env.HOME ?? "";
  const codexHome = env.CODEX_HOME || path.join(home, ".codex");
  const geminiHome = env.GEMINI_CLI_HOME || home;
  const copilotHome = env.COPILOT_HOME || path.join(home, ".copilot");
  const dataHome = env.XDG_DATA_HOME || path.join(home, ".local", "share");
  const jsonl = (read: (text: string) => { sessions: HostSession[]; malformed: number }) => (file: string, _from: number, m: HostMeasure) => {
    const r = read(fs.readFileSync(file, "utf8"));
    m.leftOut.malformedLines += r.malformed;
    return r.sessions;
  };
  return {
    codex: {
      where: path.join(codexHome, "sessions"),
      files: (from, m) => walk(path.join(codexHome, "sessions"), 4, (f) => /^rollout-.*\.jsonl$/.test(path.basename(f)), from, m),
      read: jsonl(readCodex),
      skillRoots: (cwd) => codexEnvironment({ HOME: home, CODEX_HOME: codexHome, SKILLGATE_CODEX_CWD: cwd }).skillRoots,
    },
    gemini: {
      where: path.join(geminiHome, ".gemini", "tmp"),
      files: (from, m) =>
        walk(
          path.join(geminiHome, ".gemini", "tmp"),
          3,
          (f) => path.basename(path.dirname(f)) === "chats" && /^session-.*\.jsonl?$/.test(path.basename(f)),
          from,
          m,
        ),
      read: jsonl(readGemini),
      skillRoots: (cwd) => geminiEnvironment({ HOME: home, GEMINI_CLI_HOME: geminiHome, SKILLGATE_GEMINI_CWD: cwd }).skillRoots,
    },
    copilot: {
      where: path.join(copilotHome, "session-state"),
      files: (from, m) => walk(path.join(copilotHome, "session-state"), 2, (f) => path.basename(f) === "events.jsonl", from, m),
      read: jsonl(readCopilot),
      skillRoots: (cwd) => copilotEnvironment({ HOME: home, COPILOT_HOME: copilotHome, SKILLGATE_COPILOT_CWD: cwd }).skillRoots,
    },
    opencode: {
      where: path.join(dataHome, "opencode", "opencode.db"),
      files: (_from, _m) => (fs.existsSync(path.join(dataHome, "opencode", "opencode.db")) ? [path.join(dataHome, "opencode", "opencode.db")] : []),
      read: (file, from, m) => {
        const got = opencodeRows(file, from);
        if ("error" in got) {
          m.warnings.push(got.error);
          return [];
        }
        const r = readOpencode(got.rows);
        m.leftOut.malformedLines += r.malformed;
        m.leftOut.subagentSessions += r.subagentSessions;
        return r.sessions;
      },
      skillRoots: (cwd) => skillRootsOf({ HOME: home, XDG_DATA_HOME: dataHome, ...(env.XDG_CONFIG_HOME ? { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME } : {}) }, cwd),
    },
  };
}

/** Files under `dir` (at most `depth` folders down) that `want`, changed since `fromMs`. */
function walk(dir: string, depth: number, want: (file: string) => boolean, fromMs: number, m: HostMeasure): string[] {
  const out: string[] = [];
  const visit = (d: string, left: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory() && left > 0) visit(p, left - 1);
      else if (e.isFile() && want(p)) {
        const st = fs.statSync(p, { throwIfNoEntry: false });
        if (!st) continue;
        if (st.mtimeMs < fromMs) m.leftOut.outsideWindow++;
        else out.push(p);
      }
    }
  };
  visit(dir, depth);
  return out.sort();
}

export interface HostsOptions {
  env: Env;
  table: CompiledTable;
  fromMs: number;
  /** Keep one record per session (the report's input). */
  records?: boolean;
  /** Only these hosts (default: all). */
  hosts?: readonly OtherHost[];
}

export function measureHosts(o: HostsOptions): { hosts: Partial<Record<OtherHost, HostMeasure>>; records: SessionRecord[] } {
  const all = sources(o.env);
  const hosts: Partial<Record<OtherHost, HostMeasure>> = {};
  const records: SessionRecord[] = [];
  for (const name of o.hosts ?? OTHER_HOSTS) {
    const src = all[name];
    const m: HostMeasure = {
      where: src.where,
      files: 0,
      bytes: 0,
      sessions: 0,
      rows: [],
      loads: {},
      totals: { rows: 0, sessions: 0, loadedBefore: 0, loadedAny: 0 },
      requests: 0,
      toolCalls: 0,
      compactions: 0,
      leftOut: { outsideWindow: 0, malformedLines: 0, rejectedEvents: 0, subagentSessions: 0 },
      warnings: [],
    };
    const replay = new Replay(o.table);
    for (const file of src.files(o.fromMs, m)) {
      let sessions: HostSession[];
      let mtime = Date.now();
      try {
        const st = fs.statSync(file);
        mtime = st.mtimeMs;
        m.bytes += st.size;
        sessions = src.read(file, o.fromMs, m);
      } catch (e) {
        m.warnings.push(`${file}: ${(e as Error).message}`);
        continue;
      }
      m.files++;
      for (const s of sessions) {
        const r = replay.session("main");
        // Where this host finds skills for the session's folder: a whole read of a SKILL.md there loads it.
        r.table = { ...o.table, skillRoots: [...o.table.skillRoots, ...src.skillRoots(s.cwd)] };
        for (const e of s.events) replay.feed(r, e);
        replay.finish(r);
        m.sessions++;
        m.requests += s.requests;
        m.toolCalls += s.toolCalls;
        m.compactions += s.compactions;
        m.leftOut.rejectedEvents += s.rejected;
        if (o.records)
          records.push({ ...recordOf(name, s, replay.outcomes(r), new Date(mtime).toISOString().slice(0, 10)), budget: budgetRecord(r.budgetResult) });
      }
    }
    m.rows = replay.rows("main");
    m.loads = replay.loadedSkills("main");
    m.totals = totalsOf(m.rows);
    hosts[name] = m;
  }
  return { hosts, records };
}

function recordOf(host: string, s: HostSession, rows: SessionRecord["rows"], day: string): SessionRecord {
  const sizes = [...s.promptSizes].sort((a, b) => a - b);
  const median = sizes.length ? sizes[Math.floor((sizes.length - 1) / 2)]! : null;
  return {
    id: s.id,
    kind: "main",
    host,
    day,
    rows,
    requests: s.requests,
    toolCalls: s.toolCalls,
    promptMedian: median,
    promptMax: sizes.length ? sizes[sizes.length - 1]! : null,
    compactions: s.compactions,
    outputs: 0,
    outputsOver: 0,
    ...(s.tokens ? { tokens: { input: s.tokens[0], output: s.tokens[1], cacheRead: s.tokens[2], cacheWrite: s.tokens[3] } } : {}),
  };
}
