// Tickets: which agent's shell call is running now. The PreToolUse of a shell
// call writes one small file into <state>/tickets/ (session, agent, tool call,
// cwd, and the client process by pid and start time); its PostToolUse (or
// failure) moves it to <state>/tickets/done/. The git hooks (hooks/effects/)
// read them to tell an agent's commit or push from a person's, and whose it is
// (docs/git-hooks.md). The git hook script only tests whether tickets/*.json
// exists before it starts node, so a live ticket is a file directly in tickets/.
// A ticket is checksummed with the state folder's key (io/state-key.ts) on its first
// line: one that fails the check was not written by the hook, and the git hook
// refuses the commit it would have vouched for (docs/git-hooks.md).
import fs from "node:fs";
import path from "node:path";
import { makeDir } from "./make-dir.js";
import { checksumVerified, checksummed, stateKey } from "./state-key.js";

export interface ProcessId {
  pid: number;
  /** Start time in clock ticks since boot (/proc/<pid>/stat field 22): a reused pid has another. */
  start: number;
}

export interface Ticket {
  v: 1;
  /** The host's name (hooks/core/host.ts Host.name): its wording of how to load a skill. */
  host: string;
  sessionId: string;
  agentId?: string;
  toolUseId: string;
  /** The shell tool's own name (rows may name tools). */
  tool: string;
  cwd: string;
  /** The agent client: the nearest ancestor of the hook process that is not a shell. */
  client?: ProcessId;
  /** When the call started (ms since epoch). */
  at: number;
  /** skillgate's folder the hook ran from (default table, skills). */
  packageRoot: string;
  /** The trigger table the call was decided with. */
  tableFile?: string;
  /** The variables the hook's table and skill lookup depend on (never secrets: see TICKET_ENV). */
  env: Record<string, string>;
}

export const TICKETS = "tickets";
export const DONE = "done";

/** A retired ticket older than this no longer attributes anything (docs/git-hooks.md, "Work that outlives the call"). */
export const RECENT_MS = 12 * 60 * 60 * 1000;

/** Variables that choose the table, the skill roots and the state folder; none that holds a credential. */
// skillgate's own and the shared ones; each host adds its own (Host.configEnv).
const TICKET_ENV = /^(SKILLGATE_\w+|XDG_CONFIG_HOME|XDG_STATE_HOME|HOME)$/;
const SECRET = /TOKEN|KEY|SECRET|PASSWORD|AUTH/i;

export function ticketEnv(env: NodeJS.ProcessEnv, hostEnv?: RegExp): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && (TICKET_ENV.test(k) || hostEnv?.test(k)) && !SECRET.test(k)) out[k] = v;
  return out;
}

const safeName = (s: string): string => s.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
const ticketName = (sessionId: string, toolUseId: string): string => `${safeName(sessionId)}--${safeName(toolUseId)}.json`;

// ─── processes (Linux /proc; elsewhere nothing is known and callers fall back to the env marker) ──

export interface ProcStat extends ProcessId {
  ppid: number;
  comm: string;
}

export function procStat(pid: number, proc = "/proc"): ProcStat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`${proc}/${pid}/stat`, "latin1");
  } catch {
    return undefined;
  }
  // comm is in parentheses and may hold spaces or parentheses: the fields after the last ")".
  const close = text.lastIndexOf(")");
  const comm = text.slice(text.indexOf("(") + 1, close);
  const rest = text.slice(close + 2).split(" ");
  const ppid = Number(rest[1]);
  const start = Number(rest[19]);
  return Number.isFinite(ppid) && Number.isFinite(start) ? { pid, ppid, comm, start } : undefined;
}

/** Shells that sit between a client and its hook (`sh -c <command>`): the client is above them. */
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ash", "ksh", "busybox", "env"]);

/** The client that ran this hook: the nearest ancestor of `pid` (the hook) that is not a shell. */
export function clientOf(pid: number, proc = "/proc"): ProcessId | undefined {
  let me = procStat(pid, proc);
  for (let i = 0; me && i < 6; i++) {
    const parent = procStat(me.ppid, proc);
    if (!parent) return undefined;
    if (!SHELLS.has(parent.comm)) return { pid: parent.pid, start: parent.start };
    me = parent;
  }
  return undefined;
}

/** Every ancestor of `pid` (itself first), up to init. */
export function ancestry(pid: number, proc = "/proc"): ProcessId[] {
  const out: ProcessId[] = [];
  for (let p = procStat(pid, proc); p && out.length < 128; p = p.ppid > 0 ? procStat(p.ppid, proc) : undefined) {
    out.push({ pid: p.pid, start: p.start });
    if (p.ppid <= 1) break;
  }
  return out;
}

export function isAlive(p: ProcessId, proc = "/proc"): boolean {
  return procStat(p.pid, proc)?.start === p.start;
}

// ─── write, retire, read ───────────────────────────────────────────

/** The PreToolUse of a shell call: one small file, `<checksum>\n<json>`. */
export function writeTicket(stateDir: string, t: Ticket): void {
  const dir = path.join(stateDir, TICKETS);
  const file = path.join(dir, ticketName(t.sessionId, t.toolUseId));
  makeDir(stateDir, 0o700);
  const body = JSON.stringify(t);
  const text = checksummed(stateKey(stateDir), body);
  try {
    fs.writeFileSync(file, text, { mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    makeDir(path.join(dir, DONE), 0o700);
    fs.writeFileSync(file, text, { mode: 0o600 });
  }
}

/** The PostToolUse (or failure) of that call: the ticket moves to done/ (work the call left running is still attributed). */
export function retireTicket(stateDir: string, sessionId: string, toolUseId: string): void {
  const name = ticketName(sessionId, toolUseId);
  try {
    fs.renameSync(path.join(stateDir, TICKETS, name), path.join(stateDir, TICKETS, DONE, name));
  } catch {
    /* no ticket (written before an upgrade, or the call was refused): nothing to retire */
  }
}

/** A file in tickets/ that skillgate's hook did not write as it is (bad checksum, wrong shape, a link, too big). */
export interface BadTicket {
  file: string;
  why: string;
  /** What it claims, unverified: the client it names, to tell whose call it pretends to be. */
  client?: ProcessId;
  cwd?: string;
}

export interface TicketFiles {
  good: { file: string; ticket: Ticket }[];
  bad: BadTicket[];
}

function readTickets(stateDir: string, dir: string): TicketFiles {
  const out: TicketFiles = { good: [], bad: [] };
  let key: Buffer | undefined;
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return out;
  }
  for (const n of names) {
    const file = path.join(dir, n);
    let text: string;
    try {
      const st = fs.lstatSync(file);
      // Only what skillgate writes: a small regular file.
      if (!st.isFile() || st.size > 64 * 1024) {
        out.bad.push({ file, why: st.isFile() ? "larger than a ticket" : "not a regular file" });
        continue;
      }
      text = fs.readFileSync(file, "utf8");
    } catch {
      continue; // removed in between (retired)
    }
    const nl = text.indexOf("\n");
    const body = text.slice(nl + 1);
    let claimed: Partial<Ticket> | undefined;
    try {
      claimed = JSON.parse(body) as Partial<Ticket>;
    } catch {
      claimed = undefined;
    }
    const ok = checksumVerified((key ??= stateKey(stateDir)), text) !== undefined;
    if (ok && isTicket(claimed)) out.good.push({ file, ticket: claimed });
    else {
      const client = claimed && isProcessId(claimed.client) ? claimed.client : undefined;
      out.bad.push({
        file,
        why: ok ? "not in a ticket's shape" : "its checksum does not match (not written by skillgate's hook, or altered)",
        ...(client ? { client } : {}),
        ...(claimed && typeof claimed.cwd === "string" ? { cwd: claimed.cwd } : {}),
      });
    }
  }
  return out;
}

const isProcessId = (p: unknown): p is ProcessId => !!p && typeof (p as ProcessId).pid === "number" && typeof (p as ProcessId).start === "number";

function isTicket(t: unknown): t is Ticket {
  const o = t as Partial<Ticket> | null;
  return (
    !!o &&
    o.v === 1 &&
    typeof o.sessionId === "string" &&
    typeof o.toolUseId === "string" &&
    typeof o.host === "string" &&
    typeof o.cwd === "string" &&
    typeof o.at === "number" &&
    typeof o.packageRoot === "string" &&
    !!o.env &&
    typeof o.env === "object"
  );
}

/** Calls running now (and files there that skillgate did not write). */
export const liveTickets = (stateDir: string): TicketFiles => readTickets(stateDir, path.join(stateDir, TICKETS));
/** Calls that finished (their background work may still run). */
export const doneTickets = (stateDir: string): TicketFiles => readTickets(stateDir, path.join(stateDir, TICKETS, DONE));

/**
 * Housekeeping the git hook does (never the tool-call hook): a live ticket
 * whose client is gone is retired, a retired one past RECENT_MS removed.
 */
export function cleanTickets(stateDir: string, now = Date.now(), proc = "/proc"): void {
  for (const { file, ticket } of liveTickets(stateDir).good) {
    if (ticket.client && !isAlive(ticket.client, proc)) {
      try {
        fs.renameSync(file, path.join(stateDir, TICKETS, DONE, path.basename(file)));
      } catch {
        /* gone already */
      }
    }
  }
  const done = doneTickets(stateDir);
  for (const { file, ticket } of done.good) {
    if (now - ticket.at > RECENT_MS) fs.rmSync(file, { force: true });
  }
  // What it claims is not to be believed, its age by the file system is.
  for (const { file } of done.bad) {
    try {
      if (now - fs.lstatSync(file).mtimeMs > RECENT_MS) fs.rmSync(file, { force: true });
    } catch {
      /* gone already */
    }
  }
}

/** The shell-call events of one hook run, as the runner hands them over (hooks/runner/hook.ts). */
export interface ShellCallNote {
  kind: "tool-call" | "tool-result" | "tool-failure" | string;
  sessionId: string;
  agentId?: string;
  toolUseId?: string;
  cwd: string;
  tool: { kind: string; name: string };
}

/**
 * Write the ticket of a shell call about to run, or retire the one of a shell
 * call that finished. Nothing for any other event (one file write per shell call).
 */
export function noteShellCall(
  e: ShellCallNote,
  refused: boolean,
  stateDir: string,
  o: { host: string; configEnv?: RegExp; packageRoot: string; env: NodeJS.ProcessEnv; tableFile?: string; client?: ProcessId; hookPid?: number },
): void {
  if (e.tool.kind !== "shell" || !e.toolUseId) return;
  if (e.kind === "tool-result" || e.kind === "tool-failure") return retireTicket(stateDir, e.sessionId, e.toolUseId);
  if (e.kind !== "tool-call" || refused) return;
  // An in-process plugin is the client itself; a hook process is the client's child (the hook server answers for one).
  const client = o.client ?? clientOf(o.hookPid ?? process.pid);
  writeTicket(stateDir, {
    v: 1,
    host: o.host,
    sessionId: e.sessionId,
    ...(e.agentId !== undefined ? { agentId: e.agentId } : {}),
    toolUseId: e.toolUseId,
    tool: e.tool.name,
    cwd: e.cwd,
    ...(client ? { client } : {}),
    at: Date.now(),
    packageRoot: o.packageRoot,
    ...(o.tableFile ? { tableFile: o.tableFile } : {}),
    env: ticketEnv(o.env, o.configEnv),
  });
}
