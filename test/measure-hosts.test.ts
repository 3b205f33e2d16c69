// measure on every host: one scripted session (the user asks for a commit; the
// commit is refused; the commit skill is loaded; the commit runs; an answer)
// as each host wrote it (test/fixtures/<host>/*-commit-before-after-load.*,
// composed from files the real binaries wrote in e2e runs), put where that
// host keeps its sessions under a home folder, read by `measure --home`:
// every host gives the same per-row counts, and those are the hand count.
// Run: node --import tsx --test test/measure-hosts.test.ts (the CLI tests need `npm run build`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compiledTable } from "../cli/table-file.ts";
import { measure } from "../cli/measure/run.ts";
import { measureHosts } from "../cli/measure/hosts/run.ts";
import { readOpencode, type OpencodeRow } from "../cli/measure/hosts/opencode.ts";
import { readCodex } from "../cli/measure/hosts/codex.ts";
import { readGemini } from "../cli/measure/hosts/gemini.ts";
import { cliRun, defaultTable, root } from "./helpers.ts";

const FIX = path.join(root, "test", "fixtures");
const CODEX = path.join(FIX, "codex", "rollout-commit-before-after-load.jsonl");
const GEMINI = path.join(FIX, "gemini", "session-commit-before-after-load.jsonl");
const COPILOT = path.join(FIX, "copilot", "events-commit-before-after-load.jsonl");
const OPENCODE = path.join(FIX, "opencode", "rows-commit-before-after-load.json");
const rows = (): OpencodeRow[] => JSON.parse(fs.readFileSync(OPENCODE, "utf8"));
const hasSqlite = spawnSync("sqlite3", ["-version"]).status === 0;

/** opencode's database as 1.18.33 lays it out (the tables and columns measure reads), holding the fixture's rows. */
function opencodeDb(file: string): void {
  const r = rows();
  const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const sql = [
    "create table session (id text primary key, project_id text not null, parent_id text, directory text not null, time_created integer not null, time_updated integer not null);",
    "create table message (id text primary key, session_id text not null, time_created integer not null, time_updated integer not null, data text not null);",
    "create table part (id text primary key, message_id text not null, session_id text not null, time_created integer not null, time_updated integer not null, data text not null);",
    `insert into session values (${q(r[0]!.session_id)}, 'p', null, ${q(r[0]!.directory)}, ${Date.now()}, ${Date.now()});`,
    ...[...new Map(r.map((x, i) => [x.message_id, { x, i }])).values()].map(
      ({ x, i }) => `insert into message values (${q(x.message_id)}, ${q(x.session_id)}, ${i}, ${i}, ${q(JSON.stringify({ role: x.role }))});`,
    ),
    ...r.map(
      (x, i) => `insert into part values (${q(`prt_${String(i).padStart(3, "0")}`)}, ${q(x.message_id)}, ${q(x.session_id)}, ${i}, ${i}, ${q(x.data)});`,
    ),
  ].join("\n");
  const done = spawnSync("sqlite3", [file], { input: sql, encoding: "utf8" });
  assert.equal(done.status, 0, done.stderr);
}

/** A home folder with each host's fixture where that host writes its sessions. */
function home(): string {
  const h = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-hosts-home-"));
  const put = (src: string, dest: string) => {
    fs.mkdirSync(path.dirname(path.join(h, dest)), { recursive: true });
    fs.copyFileSync(src, path.join(h, dest));
  };
  fs.mkdirSync(path.join(h, ".claude", "projects"), { recursive: true });
  put(CODEX, ".codex/sessions/2026/12/04/rollout-2026-12-04T02-01-37-01a23ec9-1e4d-7072-996b-fc6d8a8f2b4c.jsonl");
  put(GEMINI, ".gemini/tmp/project/chats/session-2026-12-04T02-01-204beb98.jsonl");
  put(COPILOT, ".copilot/session-state/57770201-9381-4742-a2df-0234f459d057/events.jsonl");
  if (hasSqlite) {
    fs.mkdirSync(path.join(h, ".local", "share", "opencode"), { recursive: true });
    opencodeDb(path.join(h, ".local", "share", "opencode", "opencode.db"));
  }
  return h;
}

const table = await compiledTable(defaultTable, root);
/** The hand count: the commit gate fired twice in the one session, the skill not loaded at the first, loaded later. */
const COMMIT_GATE = { occasions: 2, sessions: 1, loadedBefore: 0, loadedAny: 1 };
const pick = (r: { id: string; occasions: number; sessions: number; loadedBefore: number; loadedAny: number }) => ({
  occasions: r.occasions,
  sessions: r.sessions,
  loadedBefore: r.loadedBefore,
  loadedAny: r.loadedAny,
});

test("the scripted session gives the same counts on every host, and they are the hand count", async (t) => {
  if (!hasSqlite) t.diagnostic("no sqlite3 program: opencode's database is not read here (its rows are checked in the next test)");
  const h = home();
  try {
    const r = await measure({ projects: path.join(h, ".claude", "projects"), since: "30d", table, tableFile: defaultTable, hostsEnv: { HOME: h } });
    const hosts = r.hosts ?? assert.fail("no hosts in the result");
    const names = hasSqlite ? ["codex", "gemini", "copilot", "opencode"] : ["codex", "gemini", "copilot"];
    for (const n of names) {
      const m = hosts[n as keyof typeof hosts] ?? assert.fail(`no ${n}`);
      assert.equal(m.sessions, 1, `${n}: one session`);
      assert.equal(m.files, 1, `${n}: one file`);
      assert.deepEqual(pick(m.rows.find((x) => x.id === "commit-gate")!), COMMIT_GATE, `${n}: commit-gate`);
      assert.deepEqual(m.loads, { commit: 1 }, `${n}: skills loaded`);
      assert.deepEqual(m.leftOut, { outsideWindow: 0, malformedLines: 0, rejectedEvents: 0, subagentSessions: 0 }, n);
    }
    const first = hosts.codex!.rows;
    for (const n of names) assert.deepEqual(hosts[n as keyof typeof hosts]!.rows, first, `${n}: every row as on codex`);
    assert.equal(r.read.sessions, 0, "no Claude Code session in this home");
  } finally {
    fs.rmSync(h, { recursive: true, force: true });
  }
});

test("opencode's rows (as sqlite3 gives them) count as the other hosts' session does", () => {
  const r = readOpencode(rows());
  assert.equal(r.sessions.length, 1);
  const s = r.sessions[0]!;
  assert.deepEqual(
    s.events.map((e) => e.kind),
    ["prompt", "tool-call", "tool-call", "tool-result", "tool-call", "tool-result", "stop"],
  );
  const replay = measureHosts({ env: { HOME: "/nonexistent" }, table, fromMs: 0 });
  assert.equal(replay.hosts.opencode!.sessions, 0, "an empty home has no opencode database");
});

test("a refused call never ran: no result for it, only the call (Codex, Gemini)", () => {
  const codex = readCodex(fs.readFileSync(CODEX, "utf8")).sessions[0]!;
  const gemini = readGemini(fs.readFileSync(GEMINI, "utf8")).sessions[0]!;
  for (const s of [codex, gemini]) {
    const commits = s.events.filter((e) => "tool" in e && e.tool.kind === "shell" && e.tool.command.startsWith("git commit"));
    assert.deepEqual(
      commits.map((e) => e.kind),
      ["tool-call", "tool-call", "tool-result"],
    );
  }
});

test("a broken line is counted and skipped, never fatal", () => {
  const text = fs.readFileSync(CODEX, "utf8").replace("\n", "\n{not json\n");
  const r = readCodex(text);
  assert.equal(r.malformed, 1);
  assert.equal(r.sessions[0]!.events.filter((e) => e.kind === "tool-call").length, 3);
});

/** `skillgate <args>` in this process: cli(), the verbs' code (measure.test.ts and report.test.ts run the built command). */
const sg = async (...args: string[]) => {
  const r = await cliRun(args, { cwd: process.cwd(), env: { ...process.env } });
  return { status: r.code, stdout: r.out, stderr: r.err };
};

test("measure --home --json: per host counts; the text names each host", async () => {
  const h = home();
  try {
    const j = await sg("measure", "--home", h, "--since", "30d", "--table", defaultTable, "--json");
    assert.equal(j.status, 0, j.stderr);
    const r = JSON.parse(j.stdout);
    assert.deepEqual(pick(r.hosts.gemini.rows.find((x: { id: string }) => x.id === "commit-gate")), COMMIT_GATE);
    const text = await sg("measure", "--home", h, "--since", "30d", "--table", defaultTable);
    assert.equal(text.status, 0, text.stderr);
    for (const n of ["codex", "gemini", "copilot"]) assert.match(text.stdout, new RegExp(`^${n}: 1 sessions from 1 files`, "m"));
    assert.match(text.stdout, /^ {2}commit-gate\s+1\s+0\s+1\s+2$/m);
  } finally {
    fs.rmSync(h, { recursive: true, force: true });
  }
});

test("report --home --json shows the sessions per host", async () => {
  const h = home();
  try {
    const r = await sg("report", "--home", h, "--since", "30d", "--table", defaultTable, "--json");
    assert.equal(r.status, 0, r.stderr);
    const d = JSON.parse(r.stdout);
    for (const n of ["codex", "gemini", "copilot", ...(hasSqlite ? ["opencode"] : [])])
      assert.deepEqual(d.hosts[n], { sessions: 1, occasions: 1, loadedBefore: 0 }, n); // the report counts a row once per session
  } finally {
    fs.rmSync(h, { recursive: true, force: true });
  }
});

// Compaction lines as the binaries wrote them in the e2e compaction scenarios (trimmed): each empties the loads.
const COMPACTED = {
  codex: '{"timestamp": "2026-12-04T02:36:20.001Z", "type": "compacted", "payload": {"message": "COMPACT-SUMMARY"}}',
  gemini:
    '{"$set": {"messages": [{"id": "d04923d38bb0f6017037e74183378ef4", "timestamp": "2026-12-04T02:36:38.860Z", "type": "user", "content": [{"text": "<session_context>\\n</session_context>"}]}], "lastUpdated": "2026-12-04T02:36:44.000Z"}}',
  copilot:
    '{"type": "session.compaction_complete", "data": {"success": true, "outcome": "applied", "compactionAttemptId": "3da87382-ab55-42f3-a0c1-3bf108caef85", "messagesRemoved": 3, "summaryContent": "COMPACT-SUMMARY", "trigger": "threshold"}, "id": "c0", "timestamp": "2026-12-04T02:37:00.000Z", "parentId": null}',
};

test("a compaction in the session file is one, before the calls that follow it (Codex, Gemini, Copilot)", async () => {
  const { readCopilot } = await import("../cli/measure/hosts/copilot.ts");
  const cases = [
    { host: "codex", file: CODEX, read: readCodex },
    { host: "gemini", file: GEMINI, read: readGemini },
    { host: "copilot", file: COPILOT, read: readCopilot },
  ] as const;
  for (const c of cases) {
    const lines = fs.readFileSync(c.file, "utf8").trimEnd().split("\n");
    // Before the line of the last commit call.
    const calls = lines.map((l, i) =>
      l.includes("git commit") && !l.includes("_output") && !l.includes('functionResponse": {"id": "run') && !l.includes("execution_complete") ? i : -1,
    );
    const at = Math.max(...calls);
    assert.ok(at > 0, c.host);
    const text = [...lines.slice(0, at), COMPACTED[c.host], ...lines.slice(at)].join("\n") + "\n";
    const s = c.read(text).sessions[0]!;
    assert.equal(s.compactions, 1, c.host);
    const kinds = s.events.map((e) => e.kind);
    const reset = kinds.findIndex((k) => k === "compaction" || k === "session-start");
    const lastCall = kinds.lastIndexOf("tool-call");
    assert.ok(reset > 0 && reset < lastCall, `${c.host}: ${kinds.join(" ")}`);
  }
});
