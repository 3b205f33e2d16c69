// Row-removal mutation on the in-process harness: every row of the default
// table is pinned by a case, and the tester does report a row nothing pins.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inProcessInvoker } from "../cli/cases/runner.ts";
import { formatMutation, mutate } from "../cli/cases/mutate.ts";
import { resolveSuite, suiteCases } from "../cli/cases/suite.ts";
import { loadEngine } from "../scripts/fuzz.ts";
import { casesDir, defaultTable, root } from "./helpers.ts";

// runHook bundled (as dist/ ships it): under tsx each dynamic import per event is a round trip to tsx's loader thread.
const engine = await loadEngine("bundle");
const invoke = inProcessInvoker(root, engine.runHook);
process.on("exit", engine.cleanup);

test("removing any row of the default table turns at least one case red", async (t) => {
  const suite = await resolveSuite({ packageRoot: root, table: defaultTable, cases: casesDir });
  const report = await mutate(suiteCases(suite), { compiled: suite.compiled, table: suite.table, invoke });
  t.diagnostic(`\n${formatMutation(report.rows)}\n${report.rows.length} mutants in ${(report.ms / 1000).toFixed(1)} s`);
  assert.deepEqual(report.baseline, [], "cases red before any mutation");
  assert.equal(report.rows.length, suite.compiled.rows.length);
  const dead = report.rows.filter((r) => r.red.length === 0).map((r) => r.row);
  assert.deepEqual(dead, [], `rows no case pins: ${dead}`);
  // The blog's figure: the commit row is the most pinned.
  assert.ok((report.rows.find((r) => r.row === "commit-gate")?.red.length ?? 0) >= 5);
});

test("the mutation tester does report a row no case pins", async () => {
  // A table with an extra row nothing exercises must be reported as dead.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-mut-test-"));
  try {
    const table = JSON.parse(fs.readFileSync(defaultTable, "utf8"));
    table.skillsDir = path.join(root, "skills");
    table.rows.push({ id: "unpinned-row", kind: "gate", skill: "review", when: { command: { name: "never-run-this" } } });
    const file = path.join(dir, "triggers.json");
    fs.writeFileSync(file, JSON.stringify(table));
    const suite = await resolveSuite({ packageRoot: root, table: file, cases: casesDir });
    const cases = suiteCases(suite).filter((c) => c.id.startsWith("gate-commit") || c.id.startsWith("hint-logs"));
    const report = await mutate(cases, { compiled: suite.compiled, table: file, invoke });
    assert.deepEqual(report.rows.find((r) => r.row === "unpinned-row")?.red, []);
    assert.ok((report.rows.find((r) => r.row === "commit-gate")?.red.length ?? 0) > 0);
    assert.match(formatMutation(report.rows), /unpinned-row\s+gate\s+0\s+NONE/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
