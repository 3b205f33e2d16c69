// `skillgate report`: the fixture transcripts spread over three weeks, read
// back from the page a real headless Chromium renders, checked against --json
// and against `measure`; two machines' snapshots merged with shared sessions once.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { cliRun, root } from "./helpers.ts";

const fixtures = path.join(root, "test", "fixtures", "transcripts");
const table = path.join(fixtures, "table.json");
const WEEKS = ["2026-11-16T10:00:00Z", "2026-11-24T10:00:00Z", "2026-12-02T10:00:00Z"];

/**
 * `skillgate <args>` in this process (cli(), the code the binary bundles: the verbs' output and exit codes
 * are what is tested here; cli.test.ts runs the built command), with a state folder of its own.
 */
async function sg(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const r = await cliRun(args, { cwd: root, env: { ...process.env, SKILLGATE_STATE: fs.mkdtempSync(path.join(os.tmpdir(), "sg-report-state-")) } });
  return { status: r.code, stdout: r.out, stderr: r.err };
}

/** The fixture sessions copied into one folder, their files dated into three weeks (the report buckets by a file's day). */
function projects(dirs: string[] = ["captured-2.1.328", "synthetic", "synthetic-subagents", "captured-budget-2.1.328"]): string {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "sg-report-"));
  let i = 0;
  for (const d of dirs) {
    fs.cpSync(path.join(fixtures, d), path.join(out, d), { recursive: true });
    const walk = (p: string): void => {
      for (const e of fs.readdirSync(p, { withFileTypes: true })) {
        const q = path.join(p, e.name);
        if (e.isDirectory()) walk(q);
        else if (e.name.endsWith(".jsonl")) {
          const t = new Date(WEEKS[i++ % WEEKS.length]!);
          fs.utimesSync(q, t, t);
        }
      }
    };
    walk(path.join(out, d));
  }
  return out;
}

const common = (dir: string) => ["--projects", dir, "--since", "2026-11-01", "--table", table];

test("report --json agrees with measure per row, and buckets sessions into weeks", async () => {
  const dir = projects();
  const r = await sg("report", ...common(dir), "--json");
  assert.equal(r.status, 0, r.stderr);
  const d = JSON.parse(r.stdout);
  assert.deepEqual(d.weeks, ["2026-11-16", "2026-11-23", "2026-11-30"]);
  const m = JSON.parse((await sg("measure", ...common(dir), "--json")).stdout);
  assert.equal(d.sessions.main, m.read.sessions);
  for (const row of m.rows) {
    const mine = d.rows.find((x: { id: string }) => x.id === row.id);
    const weeks = Object.values(mine.weeks) as { main: { sessions: number; loadedBefore: number } }[];
    assert.equal(
      weeks.reduce((a, w) => a + w.main.sessions, 0),
      row.sessions,
      `${row.id}: sessions summed over weeks`,
    );
    assert.equal(mine.total.main.loadedBefore, row.loadedBefore, `${row.id}: loaded before the first occasion`);
  }
  assert.ok(d.rows.find((x: { id: string }) => x.id === "commit-gate").total.main.refused > 0, "the fixtures hold refused commits");
  assert.equal(d.budget.length, 3);
  for (const b of d.budget) assert.ok(["prompt", "compactions", "toolCalls", "capped"].every((k) => k in b.pass));
});

const chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => fs.existsSync(p));
const chromiumFlags = () => [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  `--user-data-dir=${fs.mkdtempSync(path.join(os.tmpdir(), "sg-chromium-"))}`,
];

/**
 * The page as headless Chromium renders it: each data-k key → the text shown. `extra` adds flags to the same
 * start (a screenshot: one Chromium start, ~1.5 s of CPU, gives both the DOM and the picture).
 */
function rendered(html: string, extra: string[] = []): Map<string, string> {
  const dom = spawnSync(chromium!, [...chromiumFlags(), ...extra, "--dump-dom", `file://${html}`], { encoding: "utf8", timeout: 60_000 });
  assert.equal(dom.status, 0, dom.stderr);
  return new Map([...dom.stdout.matchAll(/data-k="([^"]+)">([^<]*)</g)].map((m) => [m[1]!.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(+c)), m[2]!]));
}

/** No chromium: .ci/run installs Debian's; a machine without it is told, not passed. */
function needChromium(t: { skip: (m: string) => void }): boolean {
  if (chromium) return true;
  if (process.env.SKILLGATE_NO_BROWSER === "1") {
    t.skip("no chromium (SKILLGATE_NO_BROWSER=1)");
    return false;
  }
  assert.fail("chromium is not installed (apt-get install chromium, or set SKILLGATE_NO_BROWSER=1 to skip this test on purpose)");
}

interface Report {
  tokens: {
    week: string;
    host: string;
    sessions: number;
    recorded: number;
    input: number | null;
    output: number | null;
    cacheRead: number | null;
    cacheWrite: number | null;
  }[];
  profiles: Record<
    string,
    { outputs: number; summarized: number; capped: number; charsSaved: number; tokensSaved: number; pointers: number; rawFallback: number }
  >;
  hooks: { hosts: string[]; slowest: { event: string; tool: string | null; ms: number; day: string }[] };
}

/** Token usage, budget profiles and the slowest hooks: the page shows what --json holds. */
function samePage(shown: Map<string, string>, d: Report): number {
  let n = 0;
  const eq = (k: string, v: unknown) => {
    assert.equal(shown.get(k), String(v), k);
    n++;
  };
  for (const t of d.tokens) {
    eq(`tokens.${t.week}.${t.host}.sessions`, t.sessions);
    eq(`tokens.${t.week}.${t.host}.recorded`, t.recorded);
    for (const c of ["input", "output", "cacheRead", "cacheWrite"] as const) eq(`tokens.${t.week}.${t.host}.${c}`, t[c] ?? "not recorded");
  }
  for (const [name, p] of Object.entries(d.profiles)) for (const [f, v] of Object.entries(p)) eq(`profile.${name}.${f}`, v);
  d.hooks.slowest.forEach((h, i) => {
    eq(`hook.${i}.event`, h.event);
    eq(`hook.${i}.tool`, h.tool ?? "–");
    eq(`hook.${i}.ms`, h.ms);
    eq(`hook.${i}.day`, h.day);
  });
  assert.equal(shown.has("hooks.none"), d.hooks.hosts.length === 0, "the no-timings line exactly when no host timed a hook");
  return n;
}

test("the HTML page, rendered by headless Chromium, shows the same numbers as --json; a screenshot is kept", async (t) => {
  if (!needChromium(t)) return;
  const dir = projects();
  const html = path.join(dir, "report.html");
  assert.equal((await sg("report", ...common(dir), "--installed", "2026-11-24", "--out", html)).status, 0);
  const page = fs.readFileSync(html, "utf8");
  assert.doesNotMatch(page, /<script|https?:\/\//, "self-contained: no script, no network");
  const d = JSON.parse((await sg("report", ...common(dir), "--installed", "2026-11-24", "--json")).stdout);
  const artifacts = path.join(root, "test", "artifacts");
  fs.mkdirSync(artifacts, { recursive: true });
  const png = path.join(artifacts, "report.png");
  fs.rmSync(png, { force: true });
  const shown = rendered(html, ["--hide-scrollbars", "--window-size=1200,2200", `--screenshot=${png}`]);
  assert.ok(samePage(shown, d) > 0);
  assert.ok(d.tokens.length > 0 && d.hooks.slowest.length > 0, "the fixture transcripts carry usage and Stop hook timings");
  assert.equal(shown.get("sessions.main"), String(d.sessions.main));
  assert.equal(shown.get("sessions.subagent"), String(d.sessions.subagent));
  let checked = 0;
  for (const r of d.rows.filter(
    (x: { skill?: string; total: { main: { sessions: number }; subagent: { sessions: number } } }) =>
      x.skill && x.total.main.sessions + x.total.subagent.sessions > 0,
  )) {
    for (const w of d.weeks) {
      const c = r.weeks[w]?.main ?? { sessions: 0, loadedBefore: 0 };
      assert.equal(shown.get(`row.${r.id}.${w}.main.sessions`), String(c.sessions), `${r.id} ${w}`);
      assert.equal(shown.get(`row.${r.id}.${w}.main.loadedBefore`), String(c.loadedBefore), `${r.id} ${w}`);
      checked++;
    }
  }
  for (const b of d.budget) assert.equal(shown.get(`budget.${b.week}.sessions`), String(b.sessions));
  for (const [h, v] of Object.entries(d.hosts) as [string, { sessions: number }][]) assert.equal(shown.get(`host.${h}.sessions`), String(v.sessions));
  assert.ok(checked > 0);
  assert.match(page, /stroke-dasharray/, "the install week is marked");
  assert.ok(fs.statSync(png).size > 10_000, "a screenshot with content");
});

test("two machines' snapshots merge: totals are the sum, a session both read counts once; snapshots hold no paths or prompt text", async () => {
  const a = projects(["captured-2.1.328", "synthetic"]);
  const b = projects(["synthetic", "synthetic-subagents"]);
  const team = fs.mkdtempSync(path.join(os.tmpdir(), "sg-team-"));
  assert.equal((await sg("report", ...common(a), "--machine", "alice", "--save", path.join(team, "alice.json"), "--json")).status, 0);
  assert.equal((await sg("report", ...common(b), "--machine", "bob", "--save", path.join(team, "bob.json"), "--json")).status, 0);
  const snaps = ["alice", "bob"].map((m) => JSON.parse(fs.readFileSync(path.join(team, `${m}.json`), "utf8")));
  for (const [i, s] of snaps.entries()) {
    const text = JSON.stringify(s);
    assert.ok(!text.includes([a, b][i]!) && !text.includes(os.tmpdir()), "no paths");
    for (const r of s.sessions)
      assert.deepEqual(
        Object.keys(r).filter(
          (k) =>
            ![
              "id",
              "agent",
              "kind",
              "host",
              "day",
              "rows",
              "requests",
              "toolCalls",
              "promptMedian",
              "promptMax",
              "compactions",
              "outputs",
              "outputsOver",
              "tokens",
              "budget",
              "hooks",
            ].includes(k),
        ),
        [],
      );
  }
  const key = (r: { id: string; agent?: string }) => `${r.id}/${r.agent ?? ""}`;
  const all = new Set([...snaps[0].sessions, ...snaps[1].sessions].map(key));
  const shared = snaps[0].sessions.filter((r: { id: string }) => snaps[1].sessions.some((q: { id: string; agent?: string }) => key(q) === key(r))).length;
  assert.ok(shared > 0, "the two machines share the synthetic sessions");
  const r = await sg("report", team, "--json");
  assert.equal(r.status, 0, r.stderr);
  const d = JSON.parse(r.stdout);
  assert.deepEqual(d.machines, ["alice", "bob"]);
  assert.equal(d.sessions.main + d.sessions.subagent, all.size);
  assert.equal(d.sessions.duplicates, shared);
  const one = (s: { sessions: { kind: string; rows: Record<string, unknown>; id: string; agent?: string }[] }[], id: string) => {
    const seen = new Map<string, boolean>();
    for (const x of s) for (const r of x.sessions) if (r.kind === "main" && r.rows[id]) seen.set(key(r), true);
    return seen.size;
  };
  const commit = d.rows.find((x: { id: string }) => x.id === "commit-gate");
  assert.equal(commit.total.main.sessions, one(snaps, "commit-gate"));
});

const CWD = "/home/dev/project";
const SID = "7d3f0c2a-5b1e-4c8d-9a6f-2e4b8c1d0f37";
let line = 0;
const meta = () => ({
  parentUuid: null,
  isSidechain: false,
  uuid: `00000000-0000-4000-a000-${String(++line).padStart(12, "0")}`,
  timestamp: "2026-12-02T11:59:07.617Z",
  userType: "external",
  entrypoint: "sdk-cli",
  cwd: CWD,
  sessionId: SID,
  version: "2.1.328",
  gitBranch: "master",
});
/** Usage as Claude Code 2.1.328 writes it on an assistant line. */
const usage = (input: number, cacheWrite: number, cacheRead: number, output: number) => ({
  input_tokens: input,
  cache_creation_input_tokens: cacheWrite,
  cache_read_input_tokens: cacheRead,
  output_tokens: output,
  service_tier: "standard",
  cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: cacheWrite },
});
const assistant = (id: string, content: unknown[], u: object, stop: string | null) => ({
  ...meta(),
  type: "assistant",
  message: { id, type: "message", role: "assistant", model: "claude-opus-5-5", content, stop_reason: stop, stop_sequence: null, usage: u },
  requestId: `req_${id}`,
});
const bash = (tool: string, command: string) => ({ type: "tool_use", id: tool, name: "Bash", input: { command, description: command } });
const result = (tool: string, out: string) => ({
  ...meta(),
  type: "user",
  message: { role: "user", content: [{ type: "tool_result", tool_use_id: tool, content: out, is_error: false }] },
  toolUseResult: { stdout: out, stderr: "", interrupted: false, isImage: false, noOutputExpected: false },
});
const stopHooks = (...ms: number[]) => ({
  ...meta(),
  type: "system",
  subtype: "stop_hook_summary",
  hookCount: ms.length,
  hookInfos: ms.map((d) => ({ command: "/home/dev/project/log.sh", durationMs: d })),
  hookErrors: [],
  failedHookErrorIndexes: [],
  hookAdditionalContext: [],
  preventedContinuation: false,
  stopReason: "",
  hasOutput: false,
  level: "suggestion",
});
const gitLog = (commits: number) =>
  Array.from(
    { length: commits },
    (_, i) =>
      `commit ${(i + 1).toString(16).padStart(40, "a")}\nAuthor: Dev <dev@example.test>\nDate:   Mon Dec 1 10:00:00 2026 +0000\n\n    change number ${i + 1} of the parser\n`,
  ).join("\n");
const BIG = gitLog(140);
const NOISE = "build step ok: compiled module without warnings\n".repeat(700).slice(0, 30_000);
const SUMMARY = `[skillgate summary: git-log · read_tier L1 · budget_profile balanced · confidence medium · raw_evidence /tmp/sg-out/r-1.txt (26,000 chars, 700 lines)]\n[fallback_condition: read it]\ncommit aaaa`;

/** One Claude Code session, hand-counted: usage on five responses (the first written as two lines), a git log to summarize, a build log to cap, a summary whose raw file is read back, two Stop hook summaries. */
function handSession(): string {
  return [
    { ...meta(), type: "user", message: { role: "user", content: "show me the history" } },
    assistant("msg_r1", [{ type: "text", text: "Looking." }], usage(1000, 200, 5000, 10), null),
    assistant("msg_r1", [bash("toolu_r1", "git log")], usage(1000, 200, 5000, 40), "tool_use"),
    result("toolu_r1", BIG),
    assistant("msg_r2", [bash("toolu_r2", "make all")], usage(300, 0, 31000, 25), "tool_use"),
    result("toolu_r2", NOISE),
    assistant("msg_r3", [bash("toolu_r3", "git log --oneline")], usage(50, 100, 32000, 15), "tool_use"),
    result("toolu_r3", SUMMARY),
    assistant("msg_r4", [{ type: "tool_use", id: "toolu_r4", name: "Read", input: { file_path: "/tmp/sg-out/r-1.txt" } }], usage(20, 0, 32500, 12), "tool_use"),
    { ...result("toolu_r4", "commit aaaa"), toolUseResult: { type: "text", file: { filePath: "/tmp/sg-out/r-1.txt", content: "commit aaaa" } } },
    assistant("msg_r5", [{ type: "text", text: "Done." }], usage(10, 50, 33000, 30), "end_turn"),
    stopHooks(1200, 35),
    { ...meta(), type: "user", message: { role: "user", content: "thanks" } },
    assistant("msg_r6", [{ type: "text", text: "You are welcome." }], usage(0, 0, 0, 0), "end_turn"),
    stopHooks(480),
  ]
    .map((l) => JSON.stringify(l))
    .join("\n")
    .concat("\n");
}

/** A home with that session under .claude/projects and a Gemini CLI session (its files carry no usage skillgate reads). */
function handHome(): { home: string; table: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "sg-report-hand-"));
  const day = new Date("2026-12-02T12:00:00Z");
  const claude = path.join(home, ".claude", "projects", "-home-dev-project", `${SID}.jsonl`);
  fs.mkdirSync(path.dirname(claude), { recursive: true });
  fs.writeFileSync(claude, handSession());
  const gemini = path.join(home, ".gemini", "tmp", "project", "chats", "session-2026-12-02T11-59-204beb98.jsonl");
  fs.mkdirSync(path.dirname(gemini), { recursive: true });
  fs.copyFileSync(path.join(root, "test", "fixtures", "gemini", "session-commit-before-after-load.jsonl"), gemini);
  const codex = path.join(home, ".codex", "sessions", "2026", "12", "02", "rollout-2026-12-02T11-58-01a23ec9-1e4d-7072-996b-fc6d8a8f2b4c.jsonl");
  fs.mkdirSync(path.dirname(codex), { recursive: true });
  fs.copyFileSync(path.join(root, "test", "fixtures", "codex", "rollout-commit-before-after-load.jsonl"), codex);
  const copilot = path.join(home, ".copilot", "session-state", "57770201-9381-4742-a2df-0234f459d057", "events.jsonl");
  fs.mkdirSync(path.dirname(copilot), { recursive: true });
  fs.copyFileSync(path.join(root, "test", "fixtures", "copilot", "events-commit-before-after-load.jsonl"), copilot);
  for (const f of [claude, gemini, codex, copilot]) fs.utimesSync(f, day, day);
  const table = path.join(home, "triggers.json");
  fs.writeFileSync(
    table,
    JSON.stringify({ version: 1, rows: [{ id: "output-cap", kind: "cap", when: { output: { tools: ["Bash"], maxChars: 20000, headChars: 4000 } } }] }),
  );
  return { home, table };
}

test("token usage per week and host, long outputs per budget profile, the slowest hook events: the hand count, on the page as in --json", async (t) => {
  const { home, table } = handHome();
  const args = ["--home", home, "--since", "2026-11-01", "--table", table];
  const r = await sg("report", ...args, "--json");
  assert.equal(r.status, 0, r.stderr);
  const d: Report = JSON.parse(r.stdout);
  const claude = d.tokens.find((x) => x.host === "claude-code")!;
  // msg_r1 counted once (its later line's 40 output tokens, not 10 + 40).
  assert.equal(claude.week, "2026-11-30");
  assert.equal(claude.input, 1000 + 300 + 50 + 20 + 10);
  assert.equal(claude.output, 40 + 25 + 15 + 12 + 30);
  assert.equal(claude.cacheRead, 5000 + 31000 + 32000 + 32500 + 33000);
  assert.equal(claude.cacheWrite, 200 + 100 + 50);
  // Codex and Copilot CLI record each request's usage: summed straight from the fixture files here.
  const lines = (f: string) =>
    fs
      .readFileSync(path.join(root, "test", "fixtures", f), "utf8")
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
  const cx = lines("codex/rollout-commit-before-after-load.jsonl")
    .filter((l) => l.type === "event_msg" && l.payload?.type === "token_count" && l.payload.info?.last_token_usage)
    .map((l) => l.payload.info.last_token_usage);
  const cp = lines("copilot/events-commit-before-after-load.jsonl")
    .filter((l) => l.type === "session.usage_record")
    .map((l) => l.data.usage);
  assert.ok(cx.length > 0 && cp.length > 0, "the fixtures carry usage");
  const sum = (xs: Record<string, number>[], f: (x: Record<string, number>) => number) => xs.reduce((a, x) => a + f(x), 0);
  const codexT = d.tokens.filter((x) => x.host === "codex");
  const copilotT = d.tokens.filter((x) => x.host === "copilot");
  const total = (ts: typeof codexT, k: "input" | "output" | "cacheRead" | "cacheWrite") => ts.reduce((a, x) => a + (x[k] ?? 0), 0);
  assert.deepEqual(
    (["input", "output", "cacheRead", "cacheWrite"] as const).map((k) => total(codexT, k)),
    [
      sum(cx, (u) => u.input_tokens! - u.cached_input_tokens!),
      sum(cx, (u) => u.output_tokens!),
      sum(cx, (u) => u.cached_input_tokens!),
      sum(cx, (u) => u.cache_write_input_tokens!),
    ],
  );
  assert.deepEqual(
    (["input", "output", "cacheRead", "cacheWrite"] as const).map((k) => total(copilotT, k)),
    [sum(cp, (u) => u.inputTokens!), sum(cp, (u) => u.outputTokens!), sum(cp, (u) => u.cacheReadTokens!), sum(cp, (u) => u.cacheWriteTokens!)],
  );
  const gemini = d.tokens.find((x) => x.host === "gemini")!;
  assert.deepEqual([gemini.sessions, gemini.recorded, gemini.input, gemini.output, gemini.cacheRead, gemini.cacheWrite], [1, 0, null, null, null, null]);
  // Balanced: the git log summarized, make's log capped to its 4,000-character head; one summary seen, its raw file read back.
  const p = d.profiles.balanced!;
  assert.equal(p.summarized, 1);
  assert.equal(p.capped, 1);
  assert.equal(p.outputs, 2);
  assert.ok(p.charsSaved - 26_000 >= 0.8 * BIG.length && p.charsSaved - 26_000 < BIG.length, `kept out ${p.charsSaved}`);
  assert.equal(p.tokensSaved, Math.round(p.charsSaved / 4));
  assert.deepEqual([p.pointers, p.rawFallback], [1, 1]);
  const m = JSON.parse((await sg("measure", ...args, "--json")).stdout);
  assert.deepEqual(
    [p.summarized, p.capped, p.charsSaved, p.pointers, p.rawFallback],
    [
      m.budget.profiles.balanced.summarized,
      m.budget.profiles.balanced.capped,
      m.budget.profiles.balanced.charsSaved,
      m.budget.profiles.balanced.pointers,
      m.budget.profiles.balanced.rawFallback,
    ],
    "the same figures as measure",
  );
  assert.deepEqual(d.hooks.hosts, ["claude-code"]);
  assert.deepEqual(
    d.hooks.slowest.map((h) => [h.event, h.tool, h.ms, h.day]),
    [1200, 480, 35].map((ms) => ["Stop", null, ms, "2026-12-02"]),
  );
  if (!needChromium(t)) return;
  const html = path.join(home, "report.html");
  assert.equal((await sg("report", ...args, "--out", html)).status, 0);
  const shown = rendered(html);
  assert.ok(samePage(shown, d) >= 6 * 2 + 7 + 3 * 4);
  assert.equal(shown.get("tokens.2026-11-30.gemini.input"), "not recorded");
});

test("a page of sessions that time no hook says so in one line", async (t) => {
  if (!needChromium(t)) return;
  const dir = projects(["synthetic-subagents"]);
  const html = path.join(dir, "report.html");
  assert.equal((await sg("report", ...common(dir), "--out", html)).status, 0);
  const d: Report = JSON.parse((await sg("report", ...common(dir), "--json")).stdout);
  assert.deepEqual(d.hooks, { hosts: [], slowest: [] });
  assert.match(rendered(html).get("hooks.none") ?? "", /No host's session files record hook durations/);
});

test("a file that is not a snapshot is named, exit 3; --save without transcripts is a usage error", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bad-"));
  fs.writeFileSync(path.join(dir, "x.json"), JSON.stringify({ tool: "skillgate measure" }));
  const r = await sg("report", path.join(dir, "x.json"), "--json");
  assert.equal(r.status, 3);
  assert.match(r.stderr, /x\.json: not a skillgate report snapshot/);
  assert.equal((await sg("report", path.join(dir, "x.json"), "--save", path.join(dir, "s.json"))).status, 2);
});
