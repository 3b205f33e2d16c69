// The labeled shell corpus (test/corpus/*.jsonl, docs/shell-analysis.md) run
// through `explain` with the default table and nothing loaded: every record
// must match exactly (programs run, paths written and read, opaque or not, rows
// fired). Plus the bounds: nested `$(` and 1 MB commands end, stay opaque, and
// cost time linear in their size.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { explainCommand } from "../cli/explain.ts";
import { compiledTable } from "../cli/table-file.ts";
import { analyzeCommand, MAX_COMMAND_BYTES } from "../hooks/core/shell/analyze.ts";
import { root, defaultTable } from "./helpers.ts";

/** Records per group. Pinned so the corpus cannot shrink unnoticed: adding a record means raising its count. */
const GROUPS: Record<string, number> = {
  "true-positives": 120,
  "true-negatives": 101,
  "bypass-attempts": 139,
  "edge-cases": 86,
};

interface CorpusRecord {
  id: string;
  command: string;
  runs: string[][];
  writes: string[];
  reads: string[];
  /** false, or a substring of one opaque reason. */
  opaque: false | string;
  /** Row ids that fire with nothing loaded (optional). */
  rows?: string[];
  note?: string;
}

const table = await compiledTable(defaultTable);
const set = (xs: string[]) => [...new Set(xs)].sort();

function load(group: string): CorpusRecord[] {
  const lines = fs.readFileSync(path.join(root, "test/corpus", `${group}.jsonl`), "utf8").split("\n").filter((l) => l.trim());
  const [head, ...records] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(typeof head?.comment, "string", `${group}.jsonl must open with {"comment": "why this group matters"}`);
  return records as unknown as CorpusRecord[];
}

const seen = new Set<string>();
for (const [group, count] of Object.entries(GROUPS)) {
  const records = load(group);
  test(`${group}: ${count} records (pinned)`, () => {
    assert.equal(records.length, count, `${group} has ${records.length} records; update GROUPS when adding, never to drop cases`);
  });
  for (const r of records) {
    test(`${group} ${r.id}`, () => {
      assert.ok(!seen.has(r.id), `duplicate id ${r.id}`);
      seen.add(r.id);
      const e = explainCommand(r.command, table);
      // `explain` passes reads on once cli/explain.ts lists them; until then from the same analysis.
      const reads = (e as { reads?: { path: string }[] }).reads ?? analyzeCommand(r.command).reads.map((x) => ({ path: x.dynamic ? "<dynamic>" : x.path }));
      assert.deepEqual(e.commands.map((c) => c.argv), r.runs, "programs run");
      assert.deepEqual(set(e.writes.map((w) => w.path)), set(r.writes), "paths written");
      assert.deepEqual(set(reads.map((x) => x.path)), set(r.reads), "paths only read");
      if (r.opaque === false) assert.deepEqual(e.opaque, [], "must not be opaque");
      else assert.ok(e.opaque.some((o) => o.reason.includes(r.opaque as string)), `opaque "${r.opaque}" expected, got ${JSON.stringify(e.opaque.map((o) => o.reason))}`);
      if (r.rows) assert.deepEqual(set(e.matched.map((m) => m.id)), set(r.rows), "rows fired with nothing loaded");
    });
  }
}

/** Best of a few runs: the machine's noise only ever adds time. */
function timeOf(command: string, runs = 3): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    analyzeCommand(command);
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

const nested = (n: number) => "echo " + "$(".repeat(n) + "git commit -m x" + ")".repeat(n);

test("10,000 nested $( : ends, is opaque, a commit inside is refused", () => {
  for (const command of [nested(10_000), "$(".repeat(10_000) + "git commit -m x", "echo " + '"$('.repeat(10_000) + "x" + ')"'.repeat(10_000)]) {
    const a = analyzeCommand(command);
    assert.ok(a.opaque.length > 0, "deep nesting must be opaque, never a silent pass");
    assert.ok(a.opaque.every((o) => o.text.length <= 120 && o.reason.length < 300), "reasons stay short");
  }
  const e = explainCommand(nested(10_000), table);
  assert.equal(e.decision.verdict, "deny", "a gated command hidden in deep nesting is refused");
});

test("nesting cost is linear: 10,000 levels vs 2,500", () => {
  timeOf(nested(500), 1); // warm up
  const small = timeOf(nested(2_500));
  const large = timeOf(nested(10_000));
  console.log(`nested $(: 2,500 levels ${small.toFixed(1)} ms, 10,000 levels ${large.toFixed(1)} ms`);
  // 4× the input: linear is ~4×, quadratic 16×.
  assert.ok(large < small * 10 + 50, `10,000 levels took ${large.toFixed(0)} ms vs ${small.toFixed(0)} ms for 2,500`);
});

test("1 MB commands: analysed in linear time, over the cap opaque", () => {
  const words = (bytes: number) => "echo " + "ab ".repeat(Math.floor((bytes - 5) / 3));
  const quarter = timeOf(words(MAX_COMMAND_BYTES / 4), 2);
  const full = timeOf(words(MAX_COMMAND_BYTES), 2);
  console.log(`flat command: 256 KiB ${quarter.toFixed(1)} ms, 1 MiB ${full.toFixed(1)} ms`);
  assert.ok(full < quarter * 10 + 50, `1 MiB took ${full.toFixed(0)} ms vs ${quarter.toFixed(0)} ms for 256 KiB`);

  const over = analyzeCommand("git commit -m x; ".repeat(MAX_COMMAND_BYTES / 16 + 1));
  assert.ok(over.opaque.some((o) => o.reason.includes("longer than")), "over the cap: opaque");
  const deep = analyzeCommand("$(".repeat(MAX_COMMAND_BYTES / 2 - 8));
  assert.ok(deep.opaque.length > 0, "1 MB of nesting: opaque, no crash");
  const shells = analyzeCommand("bash -c ".repeat(MAX_COMMAND_BYTES / 8 - 1) + "x");
  assert.ok(shells.commands.length > 0, "1 MB of wrappers: no crash");
});
