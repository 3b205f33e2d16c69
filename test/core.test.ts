// The host-neutral core, driven with core events directly (no host payloads):
// observe → match → policies → merge. Host payload shapes are tested in the
// adapter's own test (test/claude-code-adapter.test.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import picomatch from "picomatch";
import { decide } from "../hooks/core/decide.ts";
import { compileTable } from "../hooks/core/table/compile.ts";
import { emptyState, type Event, type Row, type Table } from "../hooks/core/types.ts";
import { factsOf } from "../hooks/core/shell-facts.ts";

const rows: Row[] = [
  { id: "commit-gate", kind: "gate", skill: "commit", when: { command: { name: "git", sub: ["commit"] } } },
  { id: "stand-gate", kind: "gate", skill: "stand", when: { command: { name: "kubectl", sub: ["apply"] } }, why: "x" },
  { id: "push-head-block", kind: "block", when: { command: { name: "git", sub: ["push"], args: ["HEAD"] } } },
  { id: "logs-hint", kind: "hint", skill: "logs", when: { prompt: { words: ["logs"] } } },
  { id: "cap", kind: "cap", when: { output: { tools: ["shell"], maxChars: 10, headChars: 2 } } },
];
const table: Table = { version: 1, skillsDir: "skills", failMode: "open", outputMaxAgeDays: 7, stateMaxAgeDays: 30, rows };
const compiled = { ...compileTable(table, "/pkg/skills", picomatch), skillRoots: ["/pkg/skills", "/proj/.claude/skills"] };
const base = { sessionId: "s", cwd: "/proj" };
const shell = (command: string): Event => ({ ...base, kind: "tool-call", tool: { kind: "shell", name: "Bash", command } });
const run = (e: Event, s = emptyState()) => decide(e, compiled, s, factsOf(e));

test("two refusals read as one line per row", () => {
  const r = run(shell("git commit -m x && kubectl apply -f y"));
  assert.equal(r.decision.verdict, "deny");
  assert.deepEqual(r.decision.rows, ["commit-gate", "stand-gate"]);
  const lines = "message" in r.decision ? r.decision.message.split("\n") : [];
  assert.equal(lines.length, 2);
  assert.match(lines[0] ?? "", /^skillgate\[commit-gate\]: Load skill "commit" first/);
  assert.match(lines[1] ?? "", /^skillgate\[stand-gate\]: Load skill "stand" first.*Why: x$/);
});

test("a refusal discards the other policies' state changes; denials are counted", () => {
  const r = run(shell("git commit -m x"));
  assert.deepEqual(r.state.denials, { "commit-gate": 1 });
  assert.deepEqual(r.state.hintsShown, []);
});

test("a whole SKILL.md read loads only from a trusted root, never from the event's cwd", () => {
  const read = (p: string, cwd = "/elsewhere"): Event => ({
    ...base,
    cwd,
    kind: "tool-result",
    tool: { kind: "read", name: "Read", path: p, whole: true },
    loads: [],
  });
  assert.deepEqual(run(read("/pkg/skills/commit/SKILL.md")).state.loaded, ["commit"]);
  assert.deepEqual(run(read("/proj/.claude/skills/commit/SKILL.md")).state.loaded, ["commit"]);
  assert.deepEqual(run(read("/elsewhere/.claude/skills/commit/SKILL.md")).state.loaded, []);
  assert.deepEqual(run(read(".claude/skills/commit/SKILL.md")).state.loaded, []);
  assert.deepEqual(run(read("/tmp/commit/SKILL.md")).state.loaded, []);
  const slice: Event = { ...base, kind: "tool-result", tool: { kind: "read", name: "Read", path: "/pkg/skills/commit/SKILL.md", whole: false }, loads: [] };
  assert.deepEqual(run(slice).state.loaded, []);
});

test("a subagent's loads do not count for the main thread", () => {
  const e: Event = { ...base, agentId: "a1", kind: "tool-result", tool: { kind: "skill", name: "Skill", skill: "commit" }, loads: ["commit"] };
  assert.deepEqual(run(e).state.loaded, []);
});

test("compaction empties the context: loads and hints are forgotten, counted once", () => {
  const s = { ...emptyState(), loaded: ["commit"], hintsShown: ["logs-hint"] };
  const before = run({ ...base, kind: "compaction", phase: "before" }, s).state;
  assert.deepEqual([before.loaded, before.hintsShown, before.compactions], [[], [], 1]);
  // The session start the same compaction causes does not count it again; a lone one counts.
  assert.equal(run({ ...base, kind: "session-start", source: "compact" }, before).state.compactions, 1);
  assert.equal(run({ ...base, kind: "session-start", source: "compact" }, s).state.compactions, 1);
});

test("a stop refused once per turn, never a loop; another hook's continuation does not open it", () => {
  const stop = (continuing: boolean): Event => ({ ...base, promptId: "p1", kind: "stop", finalMessage: "done", continuing });
  const t2: Table = { ...table, rows: [{ id: "done", kind: "gate", skill: "done", when: { final: { words: ["done"] } } }] };
  const c2 = compileTable(t2, "/pkg/skills");
  const first = decide(stop(false), c2, emptyState());
  assert.equal(first.decision.verdict, "block");
  assert.equal(decide(stop(true), c2, first.state).decision.verdict, "allow");
  assert.equal(decide(stop(true), c2, emptyState()).decision.verdict, "block");
});

test("a cap row names tools by kind or by host name; never a read", () => {
  const out = { response: { stdout: "x".repeat(50) }, fields: ["stdout"], chars: 50 };
  const res = (kind: "shell" | "read"): Event => ({
    ...base,
    kind: "tool-result",
    tool: kind === "shell" ? { kind, name: "Bash", command: "seq 1 99" } : { kind, name: "Read", whole: true },
    loads: [],
    output: out,
  });
  assert.equal(run(res("shell")).decision.verdict, "cap");
  assert.equal(run(res("read")).decision.verdict, "allow");
});

test("hint once per context, with the row id and the way to load", () => {
  const p: Event = { ...base, kind: "prompt", prompt: "show me the logs" };
  const r = run(p);
  assert.equal(r.decision.verdict, "hint");
  assert.deepEqual(run(p, r.state).decision.verdict, "allow");
  assert.ok(path.isAbsolute(compiled.skillsDir));
});

test("words are matched the way people see them: NFKC, case, invisible characters, Latin/Cyrillic lookalikes", async () => {
  const { wordsMatcher } = await import("../hooks/core/table/compile.ts");
  const done = wordsMatcher(["готово"]);
  for (const text of ["Гoтoвo", "ГОТОВО!", "гот\u00ADово", "гот\u200Bово", "✅ Готово."]) assert.ok(done(text) !== undefined, text);
  assert.equal(done("заготовок"), undefined, "still whole words");
  const logs = wordsMatcher(["logs?", "миграци[яиюей]", "\\d+ errors"]);
  for (const text of ["show the lоgs", "ＬＯＧＳ", "миграция", "3 errors"]) assert.ok(logs(text) !== undefined, text);
  assert.equal(logs("login"), undefined);
});

test("Windows-style paths are matched like their forward-slash form", () => {
  const t: Table = { ...table, rows: [{ id: "mig", kind: "gate", skill: "migrations", when: { writes: ["**/migrations/**", "*_RU.md"] } }] };
  const c = compileTable(t, "/pkg/skills", picomatch);
  const w = (p: string): Event => ({ ...base, kind: "tool-call", tool: { kind: "write", name: "Write", paths: [p] } });
  assert.deepEqual(decide(w("C:\\repo\\db\\migrations\\001.sql"), c, emptyState()).decision.rows, ["mig"]);
  assert.deepEqual(decide(w("C:\\docs\\notes_RU.md"), c, emptyState()).decision.rows, ["mig"]);
  assert.equal(decide(w("C:\\repo\\src\\app.ts"), c, emptyState()).decision.verdict, "allow");
});

test("a refused call still tells what already happened: a guarded file put back rides with the refusal", async () => {
  const { merge } = await import("../hooks/core/merge.ts");
  const event: Event = { kind: "tool-call", sessionId: "s", cwd: "/w", tool: { kind: "edit", name: "Edit", paths: ["/w/a_RU.md"] } };
  let counted = 0;
  const r = merge(
    event,
    [
      { refuse: [{ row: "paired-docs-write", line: "skillgate[paired-docs-write]: load skill first" }] },
      { remind: [{ row: "logs-hint", text: "skillgate[logs-hint]: a hint" }] },
      { remind: [{ row: "effects-restore", text: "skillgate[effects-restore]: put back", evenWhenRefused: true }], mark: (s) => (counted++, s) },
    ],
    emptyState(),
  );
  assert.equal(r.decision.verdict, "deny");
  assert.deepEqual(r.decision.rows, ["paired-docs-write", "effects-restore"]);
  assert.equal("message" in r.decision && r.decision.message, "skillgate[paired-docs-write]: load skill first\nskillgate[effects-restore]: put back");
  assert.equal(counted, 1, "the telling proposal's state change is kept");
});
