// The labeled shell corpus: every test/corpus/**/*.jsonl (the four groups
// here, test/corpus/classes/*.jsonl by bypass class, and any file added later)
// run through `explain` with the default table and nothing loaded: every
// record must match exactly (programs run, paths written and read, opaque or
// not, rows fired). A record may bring a context (`cwd`, `files`, `env`): then
// the same decision runs with an in-memory ShellWorld. Records listed in
// test/corpus/known-gaps.json (id → reason) are commands deliberately left
// allowed: they must still fail, so the list only shrinks. Plus the bounds:
// nested `$(` and 1 MB commands end, stay opaque, and cost time linear in their size.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { explainCommand } from "../cli/explain.ts";
import { compiledTable } from "../cli/table-file.ts";
import { analysisSteps, analyzeCommand, MAX_ANALYSIS_STEPS, MAX_COMMAND_BYTES } from "../hooks/core/shell/analyze.ts";
import { factsOf } from "../hooks/core/shell-facts.ts";
import { decide } from "../hooks/core/decide.ts";
import { emptyState, type Event } from "../hooks/core/types.ts";
import { memoryWorld } from "../hooks/core/shell/world.ts";
import { corpusWorld } from "./corpus/world.ts";
import { root, defaultTable } from "./helpers.ts";

/** Records per top-level group. Pinned so the corpus cannot shrink unnoticed: adding a record means raising its count. */
const GROUPS: Record<string, number> = {
  "true-positives": 146,
  "true-negatives": 363,
  "bypass-attempts": 457,
  "edge-cases": 94,
};

interface CorpusRecord {
  id: string;
  command: string;
  runs?: string[][];
  writes?: string[];
  reads?: string[];
  /** false, or a substring of one opaque reason. */
  opaque?: false | string;
  /** Row ids that fire with nothing loaded. */
  rows?: string[];
  /** Context for decision-time reads: the session's folder, files in it (path → text, or {link}), environment. */
  cwd?: string;
  files?: Record<string, string | { link: string }>;
  env?: Record<string, string>;
  /**
   * The class corpus's form (test/corpus/classes/README.md): `expect` refuse|allow with `rows`
   * that must fire (a subset of what fires), and `setup` files (relative to the repo, `~/` = $HOME,
   * `.git/config` appended to the repo's own), symlinks and environment.
   */
  expect?: "refuse" | "allow";
  setup?: { files?: Record<string, string>; symlinks?: Record<string, string>; env?: Record<string, string> };
  note?: string;
}

const setupWorld = (r: CorpusRecord) => corpusWorld(r.setup);

const table = await compiledTable(defaultTable);
const set = (xs: string[]) => [...new Set(xs)].sort();
const corpusDir = path.join(root, "test/corpus");
const gapsFile = path.join(corpusDir, "known-gaps.json");
const gaps: Record<string, string> = fs.existsSync(gapsFile) ? (JSON.parse(fs.readFileSync(gapsFile, "utf8")) as Record<string, string>) : {};

function load(file: string): CorpusRecord[] {
  const rel = path.relative(corpusDir, file);
  const lines = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim());
  const parsed = lines.map((l, i) => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch (e) {
      throw new Error(`${rel}:${i + 1}: not JSON: ${(e as Error).message}`);
    }
  });
  return parsed.filter((r) => !("comment" in r && !("id" in r))) as unknown as CorpusRecord[];
}

/** Every .jsonl under test/corpus, found anew on each run: files added later are run too. */
function corpusFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? corpusFiles(p) : e.name.endsWith(".jsonl") ? [p] : [];
    })
    .sort();
}

/** What the analysis and the decision say about a record, as the list of mismatches (empty: it passes). */
function mismatches(r: CorpusRecord): string[] {
  const out: string[] = [];
  const check = (what: string, f: () => void) => {
    try {
      f();
    } catch (e) {
      out.push(`${what}: ${(e as Error).message.split("\n")[0]}`);
    }
  };
  const world = r.expect ? setupWorld(r) : r.files || r.env || r.cwd ? memoryWorld(r.cwd ?? "/work/repo", r.files ?? {}, r.env ?? {}) : undefined;
  let view: {
    commands: { argv: string[] }[];
    writes: { path: string }[];
    reads: { path: string }[];
    opaque: { reason: string }[];
    matched: string[];
    verdict: string;
  };
  if (!world) {
    const e = explainCommand(r.command, table);
    view = { ...e, matched: e.matched.map((m) => m.id), verdict: e.decision.verdict };
  } else {
    const event: Event = { kind: "tool-call", sessionId: "corpus", cwd: world.cwd, tool: { kind: "shell", name: "Bash", command: r.command } };
    const facts = factsOf(event, world);
    const a = facts.analysis;
    if (!a) throw new Error("no analysis");
    view = {
      commands: a.commands,
      writes: a.writes.map((w) => ({ path: w.dynamic ? "<dynamic>" : w.path })),
      reads: a.reads.map((x) => ({ path: x.dynamic ? "<dynamic>" : x.path })),
      opaque: a.opaque,
      ...(() => {
        const o = decide(event, table, emptyState(), facts);
        return { matched: o.matched, verdict: o.decision.verdict };
      })(),
    };
  }
  if (r.expect) {
    // class corpus: the verdict, and the rows that must fire among those that do
    if (r.expect === "refuse")
      check("refused with its rows", () => {
        assert.equal(view.verdict, "deny");
        for (const id of r.rows ?? []) assert.ok(view.matched.includes(id), `${id} did not fire (fired: ${view.matched.join(",")})`);
      });
    else check("allowed", () => assert.notEqual(view.verdict, "deny", `refused by ${view.matched.join(",")}`));
    return out;
  }
  if (r.runs)
    check("programs run", () =>
      assert.deepEqual(
        view.commands.map((c) => c.argv),
        r.runs,
      ),
    );
  if (r.writes) check("paths written", () => assert.deepEqual(set(view.writes.map((w) => w.path)), set(r.writes!)));
  if (r.reads) check("paths only read", () => assert.deepEqual(set(view.reads.map((x) => x.path)), set(r.reads!)));
  if (r.opaque === false)
    check("must not be opaque", () =>
      assert.deepEqual(
        view.opaque.map((o) => o.reason),
        [],
      ),
    );
  else if (typeof r.opaque === "string") {
    const want = r.opaque;
    check("opaque", () =>
      assert.ok(
        view.opaque.some((o) => o.reason.includes(want)),
        `"${want}" expected, got ${JSON.stringify(view.opaque.map((o) => o.reason))}`,
      ),
    );
  }
  if (r.rows) check("rows fired with nothing loaded", () => assert.deepEqual(set(view.matched), set(r.rows!)));
  return out;
}

const seen = new Set<string>();
const counts: { file: string; records: number; gaps: number }[] = [];
for (const file of corpusFiles(corpusDir)) {
  const rel = path.relative(corpusDir, file).replace(/\.jsonl$/, "");
  const records = load(file);
  counts.push({ file: rel, records: records.length, gaps: records.filter((r) => Object.hasOwn(gaps, r.id)).length });
  const pinned = GROUPS[rel];
  if (pinned !== undefined) {
    test(`${rel}: ${pinned} records (pinned)`, () => {
      assert.equal(records.length, pinned, `${rel} has ${records.length} records; update GROUPS when adding, never to drop cases`);
      const head = JSON.parse(fs.readFileSync(file, "utf8").split("\n")[0] ?? "{}") as { comment?: unknown };
      assert.equal(typeof head.comment, "string", `${rel}.jsonl must open with {"comment": "why this group matters"}`);
    });
  }
  for (const r of records) {
    test(`${rel} ${r.id}`, () => {
      assert.equal(typeof r.id, "string", `a record without an id in ${rel}`);
      assert.equal(typeof r.command, "string", `${r.id}: no command`);
      assert.ok(!seen.has(r.id), `duplicate id ${r.id}`);
      seen.add(r.id);
      const bad = mismatches(r);
      if (Object.hasOwn(gaps, r.id)) {
        assert.ok(bad.length > 0, `${r.id} is listed in known-gaps.json (${gaps[r.id]}) but now passes: remove it from the list`);
      } else {
        assert.deepEqual(bad, [], `${r.id}: ${r.command}`);
      }
    });
  }
}

test("known-gaps.json names only records that exist", () => {
  // a gap of a file not here yet (the class corpus arrives on its own branch) is not checked
  const prefixes = new Set([...seen].map((id) => id.split(".")[0]));
  const missing = Object.keys(gaps).filter((id) => !seen.has(id) && prefixes.has(id.split(".")[0]));
  assert.deepEqual(missing, [], "gaps without a record");
});

test("corpus counts per file", () => {
  const total = counts.reduce((n, c) => n + c.records, 0);
  const width = Math.max(...counts.map((c) => c.file.length));
  console.log(counts.map((c) => `${c.file.padEnd(width)}  ${String(c.records).padStart(4)} records${c.gaps ? `, ${c.gaps} known gaps` : ""}`).join("\n"));
  console.log(`total: ${total} records, ${Object.keys(gaps).length} known gaps`);
  assert.ok(total > 0);
});

function timeOnce(command: string): number {
  const t = performance.now();
  analyzeCommand(command);
  return performance.now() - t;
}

/**
 * Linear time: `large` (4× the input of `small`) within `large < small * 10 + 50` ms (linear is ~4×, quadratic 16×).
 * Each size is timed again (up to `runs` times, the best kept) only while the bound does not hold: the machine's
 * noise only ever adds time, so a first pair within the bound is a pass, and a quadratic cost fails every try.
 */
function linearTimes(small: string, large: string, runs: number): { small: number; large: number } {
  let s = Infinity;
  let l = Infinity;
  for (let i = 0; i < runs; i++) {
    s = Math.min(s, timeOnce(small));
    l = Math.min(l, timeOnce(large));
    if (l < s * 10 + 50) break;
  }
  return { small: s, large: l };
}

const nested = (n: number) => "echo " + "$(".repeat(n) + "git commit -m x" + ")".repeat(n);

test("10,000 nested $( : ends, is opaque, a commit inside is refused", () => {
  for (const command of [nested(10_000), "$(".repeat(10_000) + "git commit -m x", "echo " + '"$('.repeat(10_000) + "x" + ')"'.repeat(10_000)]) {
    const a = analyzeCommand(command);
    assert.ok(a.opaque.length > 0, "deep nesting must be opaque, never a silent pass");
    assert.ok(
      a.opaque.every((o) => o.text.length <= 120 && o.reason.length < 300),
      "reasons stay short",
    );
  }
  const e = explainCommand(nested(10_000), table);
  assert.equal(e.decision.verdict, "deny", "a gated command hidden in deep nesting is refused");
});

test("nesting cost is linear: 10,000 levels vs 2,500", () => {
  timeOnce(nested(500)); // warm up
  const { small, large } = linearTimes(nested(2_500), nested(10_000), 3);
  console.log(`nested $(: 2,500 levels ${small.toFixed(1)} ms, 10,000 levels ${large.toFixed(1)} ms`);
  // 4× the input: linear is ~4×, quadratic 16×.
  assert.ok(large < small * 10 + 50, `10,000 levels took ${large.toFixed(0)} ms vs ${small.toFixed(0)} ms for 2,500`);
});

test("1 MB commands: analysed in linear time, over the cap opaque", () => {
  const words = (bytes: number) => "echo " + "ab ".repeat(Math.floor((bytes - 5) / 3));
  const { small: quarter, large: full } = linearTimes(words(MAX_COMMAND_BYTES / 4), words(MAX_COMMAND_BYTES), 2);
  console.log(`flat command: 256 KiB ${quarter.toFixed(1)} ms, 1 MiB ${full.toFixed(1)} ms`);
  assert.ok(full < quarter * 10 + 50, `1 MiB took ${full.toFixed(0)} ms vs ${quarter.toFixed(0)} ms for 256 KiB`);

  const over = analyzeCommand("git commit -m x; ".repeat(MAX_COMMAND_BYTES / 16 + 1));
  assert.ok(
    over.opaque.some((o) => o.reason.includes("longer than")),
    "over the cap: opaque",
  );
  const deep = analyzeCommand("$(".repeat(MAX_COMMAND_BYTES / 2 - 8));
  assert.ok(deep.opaque.length > 0, "1 MB of nesting: opaque, no crash");
  const shells = analyzeCommand("bash -c ".repeat(MAX_COMMAND_BYTES / 8 - 1) + "x");
  assert.ok(shells.commands.length > 0, "1 MB of wrappers: no crash");
});

// Commands built to be slow to analyse: each runs out of the step budget (deterministic, not a clock) and is
// refused as opaque with a reason naming the budget — the host's timeout never decides.
const PATHOLOGICAL: Record<string, string> = {
  "5,000 chained aliases": Array.from({ length: 5000 }, (_, i) => `alias a${i}='a${i + 1} x'`).join("; ") + "; a0",
  "5,000 aliases, each used": Array.from({ length: 5000 }, (_, i) => `alias a${i}='echo ${i}'; a${i}`).join("; "),
  "5,000 functions calling the next": Array.from({ length: 5000 }, (_, i) => `f${i}() { f${i + 1}; echo $(echo ${i}); }`).join("; ") + "; f0",
  "a 50,000-stage pipeline": Array.from({ length: 50_000 }, () => "cat").join(" | "),
  "3,000 aliases that eval substitutions": Array.from({ length: 3000 }, (_, i) => `alias g${i}='eval "echo $(echo ${i})"'; g${i}; g${i}`).join("; "),
  "20,000 variables built from each other": Array.from({ length: 20_000 }, (_, i) => `v${i}=$v${i > 0 ? i - 1 : 0}x`).join("; ") + "; $v19999 status",
  "2,000 inline programs": Array.from({ length: 2000 }, (_, i) => `python3 -c "import os; os.system('echo ${i}')"`).join("; "),
  "4,000 nested $( ) in a pipeline":
    Array.from({ length: 400 }, () => "echo " + "$(".repeat(10) + "true" + ")".repeat(10)).join(" | ") +
    " | " +
    Array.from({ length: 20_000 }, () => "true").join(" | "),
};

for (const [what, command] of Object.entries(PATHOLOGICAL)) {
  test(`step budget: ${what} is refused as opaque, naming the budget`, () => {
    const a = analyzeCommand(command);
    const spent = a.opaque.filter((o) => o.code === "step-budget");
    assert.equal(spent.length, 1, `one step-budget part expected, got ${JSON.stringify(a.opaque.map((o) => o.code).slice(0, 5))}`);
    assert.match(spent[0]!.reason, new RegExp(`more than ${MAX_ANALYSIS_STEPS} analysis steps \\(the decision's step budget\\)`));
    assert.ok(spent[0]!.text.length <= 120, "the reason's text is clipped");
    assert.equal(a.status, "limited");
    assert.ok(
      a.writes.some((w) => w.dynamic),
      "a spent budget may write anything",
    );
    // deterministic: the same command stops at the same step with the same result (the decision's analysis
    // of it, in explain, is the second run)
    const steps = analysisSteps(command);
    assert.ok(steps > MAX_ANALYSIS_STEPS, `${steps} steps`);
    assert.equal(analysisSteps(command), steps, "the same command takes the same steps");
    const again = explainCommand(command, table);
    assert.equal(again.model.status, a.status);
    assert.equal(again.commands.length, a.commands.length);
    assert.deepEqual(
      again.opaque.map((o) => o.code),
      a.opaque.map((o) => o.code),
    );
    assert.equal(again.decision.verdict, "deny", "a spent budget is refused");
  });
}

test("step budget: a gated command after the budget is refused; a long everyday script stays within it", () => {
  const hidden = Array.from({ length: 30_000 }, () => "true").join(" | ") + "; git commit -m x";
  assert.ok(analyzeCommand(hidden).opaque.some((o) => o.code === "step-budget"));
  assert.equal(explainCommand(hidden, table).decision.verdict, "deny");
  // 1,000 lines of ordinary work: far below the budget, analysed completely, allowed
  const script = Array.from({ length: 1000 }, (_, i) => `grep -c x src/f${i}.js | head -1`).join("\n");
  const a = analyzeCommand(script);
  assert.deepEqual(a.opaque, []);
  assert.equal(a.commands.length, 2000);
  const steps = analysisSteps(script);
  assert.ok(steps < MAX_ANALYSIS_STEPS / 2, `${steps} steps for 1,000 lines`);
  assert.notEqual(explainCommand(script, table).decision.verdict, "deny");
  // an everyday command takes tens of steps
  assert.ok(analysisSteps("git status && git diff --stat | head -20; npm test 2>&1 | tail -5") < 100);
});
