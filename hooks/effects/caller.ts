// Who is behind a git hook run (docs/git-hooks.md, "How the caller is known"):
//   1. an ancestor of the hook is the client of a live ticket → that call
//      (several live calls of one client: each of them is checked);
//   2. an ancestor is the client of a finished ticket (run_in_background, `&`
//      while the client still runs) → its most recent call;
//   3. the host's environment marker is set (inherited through nohup, setsid,
//      a daemon) → the most recent ticket of this repository, live or finished,
//      younger than RECENT_MS;
//   4. the marker is set but no ticket is known → an agent we cannot place: refused;
//   5. otherwise a person: passes.
// Before all of these: a file in tickets/ that skillgate's hook did not write (its
// checksum fails) and that claims an ancestor as its client, or sits among the
// live calls of this repository while the marker is set → refused: something
// wrote it to vouch for a commit, and what it says cannot be believed.
import fs from "node:fs";
import path from "node:path";
import { ancestry, type BadTicket, doneTickets, liveTickets, RECENT_MS, type ProcessId, type Ticket } from "../io/tickets.js";

/** Variables a host puts into its shell tool's environment (captured from the real binaries, docs/git-hooks.md). */
export const AGENT_MARKERS: Readonly<Record<string, string>> = {
  CLAUDECODE: "Claude Code",
  CLAUDE_CODE_SESSION_ID: "Claude Code",
  CODEX_THREAD_ID: "Codex CLI",
  CODEX_SESSION_ID: "Codex CLI",
  CODEX_CI: "Codex CLI",
  OPENCODE: "opencode",
  GEMINI_CLI: "Gemini CLI",
};

/** Variables that name the session (captured: Claude Code 2.1.328 CLAUDE_CODE_SESSION_ID; Codex 0.171.0 CODEX_SESSION_ID = CODEX_THREAD_ID). */
export const SESSION_VARS = ["CLAUDE_CODE_SESSION_ID", "CODEX_SESSION_ID", "CODEX_THREAD_ID"];

export type Caller =
  | { kind: "person" }
  | { kind: "agent"; tickets: Found[]; how: "live call" | "background of a call" | "marker, recent call" }
  | { kind: "unknown-agent"; marker: string }
  | { kind: "forged-ticket"; bad: BadTicket };

/** A ticket and the state folder it was found in (the session's state is there too). */
export interface Found {
  ticket: Ticket;
  stateDir: string;
}

export function markerOf(env: NodeJS.ProcessEnv): string | undefined {
  return Object.keys(AGENT_MARKERS).find((k) => env[k] !== undefined && env[k] !== "");
}

const same = (a: ProcessId, b: ProcessId | undefined): boolean => !!b && a.pid === b.pid && a.start === b.start;

function real(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** A ticket's cwd inside this repository's work tree (or its git folder, for a bare one). */
function inRepo(ticketCwd: string, top: string): boolean {
  const cwd = real(ticketCwd);
  return cwd === top || cwd.startsWith(top + path.sep);
}

export interface CallerInput {
  env: NodeJS.ProcessEnv;
  stateDirs: string[];
  /** The hook process's pid (its ancestry is read from /proc). */
  pid: number;
  /** The repository's top folder (git runs hooks there). */
  top: string;
  now?: number;
  proc?: string;
}

export function callerOf(i: CallerInput): Caller {
  const now = i.now ?? Date.now();
  const mine = ancestry(i.pid, i.proc);
  const liveFiles = i.stateDirs.map((d) => ({ d, files: liveTickets(d) }));
  const doneFiles = i.stateDirs.map((d) => ({ d, files: doneTickets(d) }));
  const live = liveFiles.flatMap(({ d, files }) => files.good.map((x) => ({ ticket: x.ticket, stateDir: d })));
  const done = doneFiles.flatMap(({ d, files }) => files.good.map((x) => ({ ticket: x.ticket, stateDir: d }))).filter((f) => now - f.ticket.at <= RECENT_MS);
  const marker = markerOf(i.env);
  const top = real(i.top);
  const forged =
    [...liveFiles, ...doneFiles].flatMap(({ files }) => files.bad).find((b) => mine.some((a) => same(a, b.client))) ??
    (marker !== undefined ? liveFiles.flatMap(({ files }) => files.bad).find((b) => b.cwd !== undefined && inRepo(b.cwd, top)) : undefined);
  if (forged) return { kind: "forged-ticket", bad: forged };
  const newest = (found: Found[]) => [...found].sort((a, b) => b.ticket.at - a.ticket.at).slice(0, 1);
  const byAncestor = (found: Found[]) => {
    // The nearest ancestor that is a client: a nested client (an agent started by an agent's shell) is its own caller.
    for (const a of mine) {
      const hit = found.filter((f) => same(a, f.ticket.client));
      if (hit.length) return hit;
    }
    return [];
  };
  const liveHit = byAncestor(live);
  if (liveHit.length) return { kind: "agent", tickets: liveHit, how: "live call" };
  const doneHit = byAncestor(done);
  if (doneHit.length) return { kind: "agent", tickets: newest(doneHit), how: "background of a call" };
  if (marker === undefined) return { kind: "person" };
  // The session the environment names (Claude Code, Codex) and this repository's latest call: both are checked.
  // The environment is the agent's to forge, so what it names can only add a check, never replace one.
  const sessions = SESSION_VARS.map((k) => i.env[k]).filter((v): v is string => !!v);
  const ofSession = newest([...live, ...done].filter((f) => sessions.includes(f.ticket.sessionId)));
  const here = newest([...live, ...done].filter((f) => inRepo(f.ticket.cwd, top)));
  const both = [...new Set([...ofSession, ...here])];
  if (both.length) return { kind: "agent", tickets: both, how: "marker, recent call" };
  return { kind: "unknown-agent", marker };
}
