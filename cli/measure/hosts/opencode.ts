// opencode's sessions: 1.18.33 keeps them in SQLite,
// $XDG_DATA_HOME/opencode/opencode.db (tables session, message, part; each
// message's and part's JSON in `data`). Node has no SQLite reader of its own
// here, so the rows are read with the `sqlite3` program (`-readonly -json`);
// without it, measure says so and reads no opencode session.
// test/fixtures/opencode/rows-commit-before-after-load.json holds such rows,
// from the real binary's database.
//
// Per session, in order: a user message's text parts (not synthetic) are the
// prompt (chat.message); an assistant's tool part is the call
// (tool.execute.before) and, when it completed, its result
// (tool.execute.after; a refused or failed call has status "error"); a
// step-finish reports a request's tokens, and with reason "stop" ends the
// turn: the turn's last text is the final answer; a compaction part is
// session.compacted. A subagent's session (parent_id) is left out.
import { spawnSync } from "node:child_process";
import { normalize } from "../../../hooks/hosts/opencode/adapter.js";
import { add, newSession, num, obj, str, type HostSession, type Json } from "./session.js";

export interface OpencodeRow {
  session_id: string;
  parent_id: string | null;
  directory: string;
  role: string;
  message_id: string;
  data: string;
}

export const ROWS_SQL =
  "select s.id as session_id, s.parent_id, s.directory, json_extract(m.data, '$.role') as role, p.message_id, p.data " +
  "from part p join message m on m.id = p.message_id join session s on s.id = p.session_id " +
  "where s.time_updated >= ?since order by s.id, m.time_created, m.id, p.id";

/** The rows of sessions changed since `sinceMs`, or why they cannot be read. */
export function opencodeRows(db: string, sinceMs: number): { rows: OpencodeRow[] } | { error: string } {
  const r = spawnSync("sqlite3", ["-readonly", "-json", db, ROWS_SQL.replace("?since", String(Math.floor(sinceMs)))], { encoding: "utf8", maxBuffer: 1 << 30 });
  if (r.error) return { error: `opencode keeps its sessions in SQLite (${db}); reading them needs the sqlite3 program: ${r.error.message}` };
  if (r.status !== 0) return { error: `sqlite3 could not read ${db}: ${r.stderr.trim()}` };
  try {
    return { rows: r.stdout.trim() ? (JSON.parse(r.stdout) as OpencodeRow[]) : [] };
  } catch (e) {
    return { error: `sqlite3 gave no JSON for ${db}: ${(e as Error).message}` };
  }
}

export function readOpencode(rows: OpencodeRow[]): { sessions: HostSession[]; malformed: number; subagentSessions: number } {
  const sessions: HostSession[] = [];
  const subagents = new Set<string>();
  let malformed = 0;
  let s: HostSession | undefined;
  let answer = "";
  let turn = "";
  for (const row of rows) {
    if (row.parent_id) {
      subagents.add(row.session_id);
      continue;
    }
    if (s?.id !== row.session_id) {
      s = newSession(row.session_id, row.directory);
      sessions.push(s);
    }
    const cur = s;
    const emit = (p: Json) => add(cur, normalize(p, cur.cwd));
    let part: Json;
    try {
      part = obj(JSON.parse(row.data));
    } catch {
      malformed++;
      continue;
    }
    const input = { sessionID: cur.id };
    if (row.role === "user") {
      if (part.type === "compaction") {
        cur.compactions++;
        emit({ hook: "event", input: { event: { type: "session.compacted", properties: input } } });
      } else if (part.type === "text" && part.synthetic !== true && typeof part.text === "string") {
        turn = row.message_id;
        emit({ hook: "chat.message", input, output: { message: { id: row.message_id }, parts: [part] } });
      }
      continue;
    }
    if (part.type === "tool") {
      const state = obj(part.state);
      const call = { ...input, tool: str(part.tool) ?? "", callID: str(part.callID) ?? "" };
      cur.toolCalls++;
      emit({ hook: "tool.execute.before", input: call, output: { args: obj(state.input) } });
      if (state.status === "completed")
        emit({
          hook: "tool.execute.after",
          input: { ...call, args: obj(state.input) },
          output: { title: state.title, output: str(state.output) ?? "", metadata: state.metadata },
        });
    } else if (part.type === "text" && part.synthetic !== true && typeof part.text === "string") {
      answer = part.text;
    } else if (part.type === "step-finish") {
      const t = obj(part.tokens);
      cur.requests++;
      cur.promptSizes.push(num(t.input) + num(obj(t.cache).read) + num(obj(t.cache).write));
      if (part.reason === "stop" && answer) emit({ hook: "stop", input: { ...input, finalMessage: answer, promptId: turn } });
      if (part.reason === "stop") answer = "";
    }
  }
  return { sessions, malformed, subagentSessions: subagents.size };
}
