// `skillgate measure` on transcript fixtures: hand-counted tables for sessions
// built from the captured 2.1.328 shapes, the captured transcripts themselves,
// and public transcripts of Claude Code 1.0.17–2.1.39 (test/fixtures/transcripts).
// Subagent transcripts are sessions of their own kind (r.subagents): the main
// figures (r.rows, r.totals, r.metrics, r.read.sessions) are what they were when
// subagents were left out, and every hand-counted main number below is unchanged.
// Run: node --import tsx --test test/measure.test.ts (the CLI test needs `npm run build`).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compiledTable } from "../cli/table-file.ts";
import { measure, type MeasureResult } from "../cli/measure/run.ts";
import { readLines } from "../cli/measure/lines.ts";
import { hasLongString, hasToolResult, peekSidechain, peekToolUseIds, peekType } from "../cli/measure/peek.ts";
import { parseSince } from "../cli/measure/files.ts";
import { median, percentile } from "../cli/measure/metrics.ts";
import { renderCompare, renderSvg, renderText } from "../cli/measure/report.ts";
import { slashCommand } from "../cli/measure/extract.ts";
import { cliRun, defaultTable, root } from "./helpers.ts";

const FIX = path.join(root, "test", "fixtures", "transcripts");
/** The default table's 20 rows as of this test's writing: hand-counted expectations must not move with triggers.json. */
const TABLE = path.join(FIX, "table.json");
const SYNTH = path.join(FIX, "synthetic");
const CAPTURED = path.join(FIX, "captured-2.1.328");
const PUBLIC = path.join(FIX, "public");
const SUBAGENTS = path.join(FIX, "synthetic-subagents");
const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), `skillgate-measure-${p}-`));

async function run(projects: string, tableFile = TABLE): Promise<MeasureResult> {
  return measure({ projects, since: "100000d", table: await compiledTable(tableFile), tableFile });
}

/** row id → [sessions with occasion, loaded before the first, loaded at any time, occasions] for rows that had any (main sessions). */
function tableOf(r: MeasureResult): Record<string, [number, number, number, number]> {
  return Object.fromEntries(r.rows.filter((x) => x.sessions > 0).map((x) => [x.id, [x.sessions, x.loadedBefore, x.loadedAny, x.occasions]]));
}

/** The same for subagent sessions. */
function subTableOf(r: MeasureResult): Record<string, [number, number, number, number]> {
  return Object.fromEntries(r.subagents.rows.filter((x) => x.sessions > 0).map((x) => [x.id, [x.sessions, x.loadedBefore, x.loadedAny, x.occasions]]));
}

/** A table file with these rows (and a skills folder holding `skills`), in a temp dir. */
function tableWith(rows: unknown[], skills: string[] = []): string {
  const dir = tmp("table");
  for (const s of skills) {
    fs.mkdirSync(path.join(dir, "skills", s), { recursive: true });
    fs.writeFileSync(path.join(dir, "skills", s, "SKILL.md"), `---\nname: ${s}\ndescription: test\n---\n# ${s}\n`);
  }
  const file = path.join(dir, "triggers.json");
  fs.writeFileSync(file, JSON.stringify({ version: 1, skillsDir: "skills", failMode: "open", rows }));
  return file;
}

/** Copies a fixture folder to a temp dir (to change it). */
function copyOf(dir: string): string {
  const to = tmp("copy");
  fs.cpSync(dir, to, { recursive: true });
  return to;
}

describe("synthetic sessions in the 2.1.328 shapes (hand-counted)", () => {
  test("the table", async () => {
    const r = await run(SYNTH);
    // S1: Skill commit → git commit (loaded) → compaction → git commit; notes_RU.md; ✅ Готово; «логи».
    // S2: whole Read of commit/SKILL.md → compaction → git commit (not loaded; loaded at some time).
    // S3: /commit → git commit (loaded); /model; failed Skill paired-docs; partial Read; Edit guide_EN.md;
    //     Agent executor + Task cheap-executor; «готово» with stop_reason null, ended by turn_duration.
    // S4: three of S2's lines again (same uuids), «release», npm publish.  S5: «стенд», kubectl apply, broken lines.
    assert.deepEqual(tableOf(r), {
      "commit-gate": [3, 2, 3, 4],
      "paired-docs-write": [2, 0, 0, 2],
      "delegate-executor": [1, 0, 0, 2],
      "done-check-final": [2, 0, 0, 2],
      "logs-hint": [1, 0, 0, 1],
      "stand-hint": [1, 0, 0, 1],
      "stand-deploy-gate": [1, 0, 0, 1],
      "release-publish-gate": [1, 0, 0, 1],
      "release-hint": [1, 0, 0, 1],
    });
    assert.deepEqual(r.totals, { rows: 18, sessions: 13, loadedBefore: 2, loadedAny: 3 });
    assert.equal(r.read.sessions, 5);
    assert.equal(r.read.files, 6);
  });

  test("the session metrics", async () => {
    const m = (await run(SYNTH)).metrics;
    // Prompt sizes, one per message id (S1's split message counted once, S4's copy of S2 not at all):
    // 1000 2510 3005 4107 4501 | 100 50 60 | 1001 … 7001 | 8001 | 9001 → 17 requests.
    assert.equal(m.requests, 17);
    assert.equal(m.promptTokens.median, 3005);
    assert.equal(m.promptTokens.p90, 8001);
    assert.equal(m.promptTokens.max, 9001);
    assert.deepEqual(m.compactions, { total: 2, perSession: 0.4, max: 1, sessionsWithCompaction: 2, byTrigger: { auto: 1, manual: 1 } });
    assert.equal(m.toolCalls, 14);
    assert.equal(m.toolsPerTurn, 0.824);
    assert.deepEqual(m.bigResults.byTool, { Bash: { calls: 6, over: 1 }, WebFetch: { calls: 0, over: 0 } });
    assert.equal(m.bigResults.share, 0.1667);
  });

  test("what was left out, and why", async () => {
    const r = await run(SYNTH);
    // Was leftOut.files.subagent = 2: those two files are now read, as subagent sessions; nothing is an internal agent.
    assert.equal(r.subagents.read.files, 2, "subagents/agent-*.jsonl and a flat agent-*.jsonl");
    assert.equal(r.leftOut.files.internalAgent, 0);
    assert.equal(r.leftOut.files.truncated, 1);
    assert.equal(r.leftOut.files.notJsonl, 1);
    const l = r.leftOut.lines;
    // Was leftOut.lines.sidechain = 3: the same three inline lines, now read as one subagent's session.
    assert.equal(r.subagents.read.inlineLines, 3);
    assert.equal(r.subagents.read.sessions, 3, "the subagents/ file, the flat file, the inline sidechain");
    assert.equal(l.progress, 1);
    assert.equal(l.malformed, 6, "3 broken lines and a cut last line in S5, 2 lines of notes.jsonl");
    assert.equal(l.unknownType, 1);
    assert.deepEqual(r.leftOut.unknownTypes, { "mystery-line": 1 });
    assert.equal(l.summary, 1);
    assert.equal(l.duplicate, 3, "S2's prompt, Read call and its result, repeated in S4's file");
  });

  test("a subagent transcript never adds to the main counts", async () => {
    const dir = copyOf(SYNTH);
    const withSub = await run(dir);
    // Its subagent file commits, writes docs/a_RU.md, loads paired-docs and says «✅ Готово».
    const sub = path.join(dir, "-home-dev-project", "11111111-0000-4000-a000-000000000001", "subagents", "agent-a0123456789abcdef.jsonl");
    assert.ok(fs.readFileSync(sub, "utf8").includes("git commit"));
    // More subagent files, in both layouts, copied from the ones that commit.
    for (let i = 0; i < 5; i++) fs.copyFileSync(sub, path.join(path.dirname(sub), `agent-b${i}.jsonl`));
    fs.copyFileSync(sub, path.join(dir, "-home-dev-project", "agent-flat2.jsonl"));
    const more = await run(dir);
    fs.rmSync(path.join(dir, "-home-dev-project", "11111111-0000-4000-a000-000000000001"), { recursive: true });
    for (const f of fs.readdirSync(path.join(dir, "-home-dev-project"))) if (f.startsWith("agent-")) fs.rmSync(path.join(dir, "-home-dev-project", f));
    const without = await run(dir);
    // Was leftOut.files.subagent (8, 0): subagent files are now read, as subagent sessions.
    assert.equal(more.subagents.read.files, 8);
    assert.equal(without.subagents.read.files, 0);
    for (const r of [more, without]) {
      assert.deepEqual(r.rows, withSub.rows);
      assert.deepEqual(r.metrics, withSub.metrics);
      assert.equal(r.read.sessions, withSub.read.sessions);
    }
    // The copies repeat the same lines (same uuids, same agentId): counted once, no new subagent session.
    assert.deepEqual(more.subagents.rows, withSub.subagents.rows);
    assert.equal(more.subagents.read.sessions, withSub.subagents.read.sessions);
    assert.ok(more.leftOut.lines.duplicate > withSub.leftOut.lines.duplicate);
    // Without subagent files, only the inline sidechain of S1 is left as a subagent session.
    assert.equal(without.subagents.read.sessions, 1);
    // And a history of subagent files only has no main session at all (one subagent session).
    const only = tmp("only-sub");
    fs.mkdirSync(path.join(only, "p", "s", "subagents"), { recursive: true });
    fs.copyFileSync(sub.replace(dir, SYNTH), path.join(only, "p", "s", "subagents", "agent-x.jsonl"));
    const o = await run(only);
    assert.equal(o.read.sessions, 0);
    assert.equal(o.totals.sessions, 0);
    assert.equal(o.subagents.read.sessions, 1);
  });

  test("a compaction between a load and the first occasion makes it 'not loaded'", async () => {
    const dir = tmp("compact");
    const s2 = path.join(SYNTH, "-home-dev-project", "22222222-0000-4000-a000-000000000002.jsonl");
    fs.copyFileSync(s2, path.join(dir, "s2.jsonl"));
    const r = await run(dir);
    assert.deepEqual(tableOf(r)["commit-gate"], [1, 0, 1, 1], "loaded at some time, but not at the occasion");
    // The same session without its compaction (boundary + summary lines): loaded before.
    const lines = fs
      .readFileSync(s2, "utf8")
      .split("\n")
      .filter((l) => !l.includes("compact_boundary") && !l.includes("isCompactSummary"));
    fs.writeFileSync(path.join(dir, "s2.jsonl"), lines.join("\n"));
    assert.deepEqual(tableOf(await run(dir))["commit-gate"], [1, 1, 1, 1]);
  });

  test("bad input is counted, never fatal", async () => {
    const dir = tmp("bad");
    const rnd = Buffer.alloc(300_000);
    for (let i = 0; i < rnd.length; i++) rnd[i] = (i * 7919 + 13) & 0xff;
    fs.writeFileSync(path.join(dir, "binary.jsonl"), rnd);
    fs.writeFileSync(path.join(dir, "empty.jsonl"), "");
    fs.writeFileSync(path.join(dir, "blank.jsonl"), "\n\n  \n\r\n");
    fs.writeFileSync(
      path.join(dir, "array.jsonl"),
      '[{"type":"user"}]\n"text"\nnull\n{"type":"user","message":7}\n{"type":"assistant","message":{"content":"not an array","usage":"x"}}\n',
    );
    fs.copyFileSync(path.join(SYNTH, "-home-dev-project", "55555555-0000-4000-a000-000000000005.jsonl"), path.join(dir, "cut.jsonl"));
    const r = await run(dir);
    assert.equal(r.read.files, 5);
    assert.ok(r.leftOut.lines.malformed >= 3 + 4, `malformed ${r.leftOut.lines.malformed}`);
    assert.equal(r.leftOut.lines.invalid, 1);
    assert.equal(r.leftOut.files.truncated, 2, "cut.jsonl, and binary.jsonl's last line");
    assert.equal(r.leftOut.files.notJsonl, 1, "binary.jsonl (array.jsonl has a few objects)");
    assert.deepEqual(tableOf(r), { "stand-hint": [1, 0, 0, 1], "stand-deploy-gate": [1, 0, 0, 1] });
    // A folder that is not there: a warning, not a crash.
    const missing = await run(path.join(dir, "nope"));
    assert.match(missing.warnings.join("\n"), /cannot read folder .*nope: ENOENT/);
    assert.equal(missing.read.files, 0);
  });
});

describe("subagent sessions (hand-counted, test/fixtures/transcripts/synthetic-subagents)", () => {
  // S6 (2.1.328 layout): Agent B → main `git commit` (not loaded: B's load is B's own) → main Skill commit →
  //   Agent A → «All done.».  subagents/agent-b6…: task "commit the docs fix"; Skill commit; git commit (loaded);
  //   «✅ Готово».  subagents/agent-a6…: task "… read the логи" (logs-hint at its start); git commit (not loaded:
  //   the main thread's load does not pass into it); «A finished».
  // S7 (1.0.98 layout, no agentId): two Task calls; two sidechains inline, interleaved line by line, each starting
  //   at parentUuid null. C: git commit (not loaded). D: Skill commit; git commit (loaded); «готово».
  test("the table: main and subagent sessions side by side", async () => {
    const r = await run(SUBAGENTS);
    assert.deepEqual(tableOf(r), { "commit-gate": [1, 0, 1, 1] });
    assert.deepEqual(subTableOf(r), {
      "commit-gate": [4, 2, 2, 4],
      "done-check-final": [2, 0, 0, 2],
      "logs-hint": [1, 0, 0, 1],
    });
    assert.equal(r.read.sessions, 2);
    assert.deepEqual(r.subagents.read, { files: 2, bytes: r.subagents.read.bytes, sessions: 4, inlineLines: 10 });
    assert.deepEqual(r.totals, { rows: 18, sessions: 1, loadedBefore: 0, loadedAny: 1 });
    assert.deepEqual(r.subagents.totals, { rows: 18, sessions: 7, loadedBefore: 2, loadedAny: 2 });
    assert.deepEqual(r.loads, { commit: 1 });
    assert.deepEqual(r.subagents.loads, { commit: 2 });
    // Main metrics count main lines only: 5 requests of S6, 3 of S7; the 10 subagent requests are the subagents'.
    assert.equal(r.metrics.requests, 8);
    assert.equal(r.subagents.metrics.requests, 10);
  });

  test("each layout alone", async () => {
    const s6 = tmp("s6");
    fs.cpSync(path.join(SUBAGENTS, "-home-dev-project"), s6, { recursive: true });
    fs.rmSync(path.join(s6, "77777777-0000-4000-a000-000000000007.jsonl"));
    assert.deepEqual(subTableOf(await run(s6)), { "commit-gate": [2, 1, 1, 2], "done-check-final": [1, 0, 0, 1], "logs-hint": [1, 0, 0, 1] });
    const s7 = path.join(SUBAGENTS, "-home-dev-project", "77777777-0000-4000-a000-000000000007.jsonl");
    const legacy = await run(s7);
    assert.deepEqual(subTableOf(legacy), { "commit-gate": [2, 1, 1, 2], "done-check-final": [1, 0, 0, 1] });
    assert.deepEqual(tableOf(legacy), {}, "the main thread of S7 only calls Task");
    // One subagent file named alone is its agent's session.
    const a = await run(path.join(SUBAGENTS, "-home-dev-project", "66666666-0000-4000-a000-000000000006", "subagents", "agent-a6a6a6a6a6a6a6a6a.jsonl"));
    assert.equal(a.read.sessions, 0);
    assert.deepEqual(subTableOf(a), { "commit-gate": [1, 0, 0, 1], "logs-hint": [1, 0, 0, 1] });
  });

  test("the core decides as for a subagent: row scopes and the host capability apply", async () => {
    const commit = { id: "c", kind: "gate", skill: "commit", when: { command: { name: "git", sub: ["commit"] } } };
    const main = await run(SUBAGENTS, tableWith([{ ...commit, scope: "main" }], ["commit"]));
    assert.deepEqual([tableOf(main), subTableOf(main)], [{ c: [1, 0, 1, 1] }, {}]);
    const sub = await run(SUBAGENTS, tableWith([{ ...commit, scope: "subagent" }], ["commit"]));
    assert.deepEqual([tableOf(sub), subTableOf(sub)], [{}, { c: [4, 2, 2, 4] }]);
    // A host whose subagents have no skill tool: skill rows stay in the main thread, and a subagent's Skill call loads nothing.
    const file = tableWith([commit, { ...commit, id: "all", scope: "all" }], ["commit"]);
    const t = { ...(await compiledTable(file)), subagentsLoadSkills: false };
    const r = await measure({ projects: SUBAGENTS, since: "100000d", table: t, tableFile: file });
    assert.deepEqual(subTableOf(r), { all: [4, 0, 0, 4] });
    assert.deepEqual(r.subagents.loads, {});
  });

  test("text, --compare with a snapshot from before subagents, chart", async () => {
    const r = await run(SUBAGENTS);
    const text = renderText(r);
    assert.match(text, /commit-gate\s+gate\s+commit\s+1\s+0 \(0%\)\s+1 \(100%\)\s+1\s+0\s+│\s+4\s+2 \(50%\)\s+2 \(50%\)\s+4\s+0/);
    assert.match(text, /total \(rows with a skill\)\s+1\s+0 \(0%\)\s+1 \(100%\)\s+│\s+7\s+2 \(29%\)\s+2 \(29%\)/);
    assert.match(text, /main sessions\s+subagent sessions/);
    assert.match(text, /main and subagent sessions together \(what the seed counted first\): 8 with an occasion, 2 \(25%\)/);
    assert.match(text, /skills loaded \(sessions\): main commit 1; subagent commit 2/);
    // A format 1 snapshot has no subagent part: its figures show as "—", the main ones compare as before.
    const old = structuredClone(r) as Partial<MeasureResult>;
    delete old.subagents;
    const cmp = renderCompare(r, old as MeasureResult, "old.json");
    assert.match(cmp, /subagent total: sessions with occasion\s+—\s+7/);
    assert.match(cmp, /commit-gate: sessions with occasion\s+1\s+1\s+0/);
    assert.match(renderSvg(r), /2 main sessions \(subagent sessions not shown\)/);
  });
});

describe("session guard rows (output cap, context budget, compaction reminder)", () => {
  test("fire in the replay as in the hook", async () => {
    const file = tableWith([
      { id: "cap", kind: "cap", when: { output: { tools: ["Bash", "WebFetch"], maxChars: 20000 } } },
      { id: "budget", kind: "budget", when: { context: { levels: [3000, 8000] } } },
      { id: "after-compact", kind: "hint", skill: "handoff", when: { compactions: { max: 1 } } },
    ]);
    await compiledTable(file);
    const r = await run(SYNTH, file);
    // cap: S1's 25,600-character git output. budget: S1 (3005, 4107, 4501), S3 (3001…7001), S4 (8001), S5 (9001).
    // after-compact: the sessions with a compaction, S1 and S2.
    assert.deepEqual(tableOf(r).cap, [1, 0, 0, 1]);
    assert.deepEqual(tableOf(r)["after-compact"], [2, 0, 0, 2]);
    assert.equal(tableOf(r).budget?.[0], 4);
  });
});

describe("transcripts captured from Claude Code 2.1.328", () => {
  test("the table (hand-counted from the transcripts)", async () => {
    const r = await run(CAPTURED);
    // b5cc…: «please check the логи»; Skill commit; git commit (loaded); Write + Edit notes_RU.md; Read SKILL.md;
    // Agent general-purpose; «✅ Готово»; task notification; «All done.»; /compact. 3989…: /commit please; ls; Read SKILL.md; «ok».
    assert.deepEqual(tableOf(r), {
      "commit-gate": [1, 1, 1, 1],
      "paired-docs-write": [1, 0, 0, 2],
      "done-check-final": [1, 0, 0, 1],
      "logs-hint": [1, 0, 0, 1],
    });
    assert.equal(r.read.sessions, 2);
    // Was leftOut.files.subagent = 1: that file is now read as one subagent session.
    assert.equal(r.subagents.read.files, 1);
    assert.equal(r.subagents.read.sessions, 1);
    // It runs `cat notes_RU.md` (a read: no paired-docs occasion) and says "sub finished": no occasion at all.
    assert.deepEqual(subTableOf(r), {});
    assert.equal(r.metrics.requests, 12);
    assert.equal(r.metrics.toolCalls, 9);
    assert.deepEqual(r.metrics.compactions.byTrigger, { manual: 1 });
    assert.equal(r.metrics.promptTokens.median, 1000);
  });

  test("a slash command of a skill is a load; /compact is not", async () => {
    // A row on `ls`: both sessions run `ls /nonexistent` after loading commit (Skill tool; /commit please).
    const t = tableWith([{ id: "ls-gate", kind: "gate", skill: "commit", when: { command: { name: "ls" } } }]);
    assert.deepEqual(tableOf(await run(CAPTURED, t)), { "ls-gate": [2, 2, 2, 2] });
    // Loads per skill: commit in both sessions; the built-in /compact is no skill of the table.
    assert.deepEqual((await run(CAPTURED)).loads, { commit: 2 });
  });
});

describe("public transcripts (Claude Code 1.0.17–2.1.39)", () => {
  const set = (name: string) => path.join(PUBLIC, fs.readdirSync(PUBLIC).find((d) => d.startsWith(name))!);

  test("02: five git commits, a failed Skill call is not a load, an automatic compaction", async () => {
    const r = await run(set("02"));
    assert.deepEqual(tableOf(r)["commit-gate"], [1, 0, 0, 5]);
    // The Skill call that failed was for a commit skill (handgemacht:commit): with a row naming it, still not loaded.
    const t = tableWith([{ id: "commit", kind: "gate", skill: "handgemacht:commit", when: { command: { name: "git", sub: ["commit"] } } }]);
    assert.deepEqual(tableOf(await run(set("02"), t)), { commit: [1, 0, 0, 5] });
    assert.deepEqual(r.metrics.compactions.byTrigger, { auto: 1 });
    assert.equal(r.read.sessions, 1);
    // Was leftOut.files.subagent = 2: agent-a7be2f0 is now read as a subagent session; the compaction agent is left out.
    assert.equal(r.subagents.read.files, 1, "agent-a7be2f0");
    assert.equal(r.leftOut.files.internalAgent, 1, "agent-acompact-f46190");
    // /mcp, /model and /handgemacht:create-beads lines are commands, not loads of any table skill.
    assert.deepEqual(r.loads, {});
  });

  test("01: a successful Skill load, a manual compaction, agent_progress tool calls not counted", async () => {
    // 14 git commits; the Skill elixir:hex-docs-search is loaded before the first.
    const t = tableWith([{ id: "hex", kind: "gate", skill: "elixir:hex-docs-search", when: { command: { name: "git", sub: ["commit"] } } }]);
    const r = await run(set("01"), t);
    assert.deepEqual(tableOf(r), { hex: [1, 1, 1, 14] });
    // A plugin's skill keeps its plugin name: only skillgate's own prefix is dropped.
    assert.deepEqual(r.loads, { "elixir:hex-docs-search": 1 });
    assert.deepEqual(r.metrics.compactions.byTrigger, { manual: 1 });
    // 242 tool_use blocks in the main thread (SOURCES.md); the 12 a subagent made inside
    // agent_progress lines are not among them.
    assert.equal(r.metrics.toolCalls, 242);
    assert.ok(r.leftOut.lines.progress >= 25);
    // Was leftOut.lines.sidechain = 0: the count moved to subagents.read.inlineLines.
    assert.equal(r.subagents.read.inlineLines, 0, "the progress lines say isSidechain: false and are skipped as progress");
    // The subagent's own file (agent-aac57f5) has its 12 tool calls; agent-acompact-946d2b is the compaction's.
    assert.equal(r.subagents.read.sessions, 1);
    assert.equal(r.subagents.metrics.toolCalls, 12);
    assert.equal(r.leftOut.files.internalAgent, 1);
  });

  test("03: a slash command loads a plugin skill", async () => {
    // /handgemacht:create-beads, then a Task with subagent_type Plan.
    const row = { id: "plan", kind: "gate", when: { subagent: ["Plan"] } };
    // The plugin skill is "handgemacht:create-beads"; a row names it so (another plugin's create-beads is another skill).
    assert.deepEqual(tableOf(await run(set("03"), tableWith([{ ...row, skill: "handgemacht:create-beads" }]))), { plan: [1, 1, 1, 1] });
    assert.deepEqual(tableOf(await run(set("03"), tableWith([{ ...row, skill: "create-beads" }]))), { plan: [1, 0, 0, 1] });
    // Not a skill: no load.
    assert.deepEqual(tableOf(await run(set("03"), tableWith([{ ...row, skill: "beads" }]))), { plan: [1, 0, 0, 1] });
  });

  test("05: inline sidechain lines (v1.0.98) do not count for the main session; each Task's chain is a subagent session", async () => {
    const r = await run(
      set("05"),
      tableWith([
        { id: "gp", kind: "gate", skill: "delegate", when: { subagent: ["general-purpose"] } },
        { id: "bash", kind: "judgment", skill: "x", when: { command: { name: "npx" } } },
      ]),
    );
    // Was leftOut.lines.sidechain = 405: the same lines, now read as subagent sessions.
    assert.equal(r.subagents.read.inlineLines, 405);
    assert.equal(r.subagents.read.sessions, 5, "five Task calls, five chains starting at parentUuid null");
    assert.equal(r.read.sessions, 1);
    // Five Task calls in the main thread; the 61 Bash calls are all but a few inside the sidechain.
    assert.deepEqual(tableOf(r).gp, [1, 0, 0, 5]);
    assert.ok(r.metrics.toolCalls < 30, `main-thread tool calls ${r.metrics.toolCalls}`);
  });

  test("07: a summary line is a title, not a compaction", async () => {
    const r = await run(set("07"));
    assert.equal(r.leftOut.lines.summary, 1);
    assert.equal(r.metrics.compactions.total, 0);
    assert.equal(r.read.sessions, 1);
  });

  test("08 and 09: malformed lines are counted, the rest is read", async () => {
    const a = await run(set("08"));
    assert.equal(a.leftOut.lines.malformed, 3, "a string, a number and an array");
    assert.equal(a.leftOut.lines.invalid, 1, '"message": "error"');
    assert.deepEqual(a.leftOut.unknownTypes, { "(no type)": 1 });
    assert.equal(a.leftOut.lines.summary, 1);
    assert.ok(a.metrics.requests > 0);
    const b = await run(set("09"));
    assert.equal(b.leftOut.lines.malformed, 2);
    assert.deepEqual(b.leftOut.unknownTypes, { message: 3 });
  });

  test("all sets together, with the shipped default table: main figures as before", async () => {
    const r = await run(PUBLIC, defaultTable);
    // Was leftOut.files.subagent = 5: the three subagents' files are now read; the two compaction agents' are left out.
    assert.equal(r.subagents.read.files, 3, "agent-aac57f5 (01), agent-a7be2f0 (02), the flat agent file (06)");
    assert.equal(r.leftOut.files.internalAgent, 2, "agent-acompact-* of 01 and 02");
    assert.deepEqual(tableOf(r)["commit-gate"], [2, 0, 0, 19]);
    assert.equal(r.read.sessions, 8);
  });
});

describe("pieces", () => {
  test("readLines: lines across chunk borders, CRLF, no final newline, oversized lines", async () => {
    const dir = tmp("lines");
    const long = "x".repeat(3 * 1024 * 1024 + 17);
    const file = path.join(dir, "a.jsonl");
    fs.writeFileSync(file, `a\r\n${long}\n\nb\nc`);
    const got: string[] = [];
    const r = await readLines(file, (l) => got.push(l.length > 10 ? `long:${l.length}` : l.toString()));
    assert.deepEqual(got, ["a", `long:${long.length}`, "b", "c"]);
    assert.equal(r.unterminated, true);
    assert.equal(r.bytes, fs.statSync(file).size);
  });

  test("peekType reads the top-level type only when sure", () => {
    const t = (s: string) => peekType(Buffer.from(s));
    assert.equal(t('{"type":"progress","data":{"type":"agent_progress"}}'), "progress");
    assert.equal(t('{"parentUuid": null, "isSidechain": false, "type": "user", "message": {}}'), "user");
    assert.equal(t('{"message":{"type":"message"},"type":"assistant"}'), undefined, "nested type first: parse");
    assert.equal(t('{"a":[1],"type":"x"}'), undefined);
    assert.equal(t('{"a":"say \\"type\\": 1","type":"x"}'), "x");
    assert.equal(t('{"noType":1}'), undefined);
    assert.equal(peekSidechain(Buffer.from('{"parentUuid":null,"isSidechain":true,"type":"user"}')), true);
    assert.equal(peekSidechain(Buffer.from('{"data":{"isSidechain":true},"type":"progress"}')), false);
    assert.equal(hasToolResult(Buffer.from('{"type":"user","message":{"content":[{"type": "tool_result","tool_use_id":"t"}]}}')), true);
    assert.equal(
      hasToolResult(Buffer.from(JSON.stringify({ type: "user", message: { content: 'a prompt ending in "tool_result' } }))),
      false,
      "the tail of a prompt's text",
    );
    assert.deepEqual(peekToolUseIds(Buffer.from('{"content":[{"tool_use_id":"toolu_1","type":"tool_result"},{"tool_use_id": "toolu_2"}]}')), [
      "toolu_1",
      "toolu_2",
    ]);
    const long = (n: number, esc = "") => Buffer.from(JSON.stringify({ a: "x", content: esc + "y".repeat(n), b: ["z"] }));
    assert.equal(hasLongString(long(30), 40), false);
    assert.equal(hasLongString(long(41), 40), true);
    assert.equal(hasLongString(long(30, '\\"quoted\\" '), 40), true, "escaped quotes do not end the string");
    assert.equal(hasLongString(Buffer.from('{"content":"' + "y".repeat(50)), 40), true, "unterminated: unsure");
  });

  test("slash commands, --since, median and p90", () => {
    assert.deepEqual(slashCommand("<command-message>commit</command-message>\n<command-name>/commit</command-name>\n<command-args>please</command-args>"), {
      name: "commit",
      args: "please",
    });
    assert.deepEqual(slashCommand("<command-name>/handgemacht:create-beads</command-name>"), { name: "handgemacht:create-beads", args: "" });
    assert.equal(slashCommand("please run <command-name>/x</command-name>"), undefined);
    const now = Date.parse("2026-12-02T12:00:00Z");
    assert.equal(parseSince("7d", now), now - 7 * 86_400_000);
    assert.equal(parseSince("12h", now), now - 12 * 3_600_000);
    assert.equal(parseSince("2026-11-25", now), Date.parse("2026-11-25"));
    assert.equal(parseSince("soon", now), undefined);
    assert.equal(median([1, 2, 3, 4]), 2.5);
    assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90), 9);
    assert.equal(median([]), null);
  });

  test("files outside the window are skipped by modification time", async () => {
    const dir = copyOf(SYNTH);
    const old = new Date(Date.now() - 30 * 86_400_000);
    const f = path.join(dir, "-home-dev-project", "11111111-0000-4000-a000-000000000001.jsonl");
    fs.utimesSync(f, old, old);
    const r = await measure({ projects: dir, since: "7d", table: await compiledTable(TABLE), tableFile: TABLE });
    assert.equal(r.leftOut.files.outsideWindow, 1);
    assert.equal(r.read.sessions, 4);
    assert.equal(tableOf(r)["logs-hint"], undefined);
  });

  test("text, comparison and chart render", async () => {
    const r = await run(SYNTH);
    const text = renderText(r);
    assert.match(text, /commit-gate\s+gate\s+commit\s+3\s+2 \(67%\)\s+3 \(100%\)\s+4/);
    // Was /left out: 2 subagent files/: they are read now, and said so in the summary line.
    assert.match(text, /5 main sessions from 6 files .*; 3 subagent sessions from 2 files .* and 3 inline sidechain lines/);
    assert.match(text, /left out: 0 files of the client's internal agents/);
    const earlier = structuredClone(r);
    earlier.rows.find((x) => x.id === "commit-gate")!.loadedBefore = 1;
    assert.match(renderCompare(r, earlier, "old.json"), /commit-gate: loaded before 1st\s+1\s+2\s+\+1/);
    const svg = renderSvg(r);
    assert.match(svg, /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.ok(svg.includes("commit-gate (commit)"));
  });
});

describe("the CLI (built bin)", () => {
  const bin = path.join(root, "bin", "skillgate.mjs");
  const built = fs.existsSync(path.join(root, "dist", "cli.mjs"));
  test("--json, --save, --compare, --svg; no progress line when stderr is not a terminal", async () => {
    assert.ok(built, "dist/cli.mjs is missing: npm test builds it first");
    const state = tmp("state");
    const env = { ...process.env, SKILLGATE_STATE: state, SKILLGATE_TABLE: TABLE };
    const opts = { env, encoding: "utf8" as const, stdio: ["ignore", "pipe", "pipe"] as ["ignore", "pipe", "pipe"] };
    // The built command once (its measure chunk, stdout a pipe); the runs after it are the same verb in this process.
    const json = JSON.parse(
      execFileSync(process.execPath, [bin, "measure", "--projects", SYNTH, "--since", "100000d", "--json", "--save"], opts),
    ) as MeasureResult;
    assert.equal(json.totals.sessions, 13);
    assert.equal(json.subagents.totals.sessions, 5, "commit-gate 3, paired-docs-write 1, done-check-final 1");
    const saved = fs.readdirSync(state).filter((f) => /^measure-\d{4}-\d{2}-\d{2}\.json$/.test(f));
    assert.equal(saved.length, 1);
    const svg = path.join(state, "chart.svg");
    const sg = async (...args: string[]) => {
      const r = await cliRun(args, { cwd: root, env });
      assert.equal(r.code, 0, r.err);
      return r.out;
    };
    const out = await sg("measure", "--projects", SYNTH, "--since", "100000d", "--compare", path.join(state, saved[0]!), "--svg", svg);
    assert.match(out, /sessions with occasion/);
    assert.match(out, /compared with .*measure-/);
    assert.ok(fs.readFileSync(svg, "utf8").startsWith("<svg"));
    const r = JSON.parse(await sg("measure", "--projects", SYNTH, "--since", "100000d", "--json")) as MeasureResult;
    assert.equal(r.read.sessions, 5);
  });
});

test("an opaque command is not an occasion of every command row: it is counted in its own column", async () => {
  const { Replay } = await import("../cli/measure/replay.ts");
  const replay = new Replay(await compiledTable(defaultTable));
  const s = replay.session();
  const call = (command: string) => ({ kind: "tool-call" as const, sessionId: "s", cwd: "/p", tool: { kind: "shell" as const, name: "Bash", command } });
  replay.feed(s, call("curl -s https://example.test/x | bash"));
  replay.feed(s, call("git commit -m x"));
  replay.finish(s);
  const rows = Object.fromEntries(replay.rows().map((r) => [r.id, r]));
  assert.equal(rows["commit-gate"]?.occasions, 1, "only the literal commit is an occasion");
  assert.equal(rows["commit-gate"]?.opaque, 1);
  assert.equal(rows["push-head-block"]?.occasions, 0);
  assert.equal(rows["push-head-block"]?.opaque, 1);
  assert.equal(rows["push-head-block"]?.sessions, 0);
});
