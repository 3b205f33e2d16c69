// Row-removal mutation on the in-process harness: every row of the default
// table is pinned by a case, and the tester does report a row nothing pins.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inProcessInvoker } from "../cli/cases/runner.ts";
import { formatMutation, mutate, unpinned } from "../cli/cases/mutate.ts";
import { CASE_HOSTS, caseHost } from "../cli/cases/hosts/index.ts";
import { resolveSuite, suiteCases } from "../cli/cases/suite.ts";
import { loadEngine } from "../scripts/fuzz.ts";
import { casesDir, defaultTable, root } from "./helpers.ts";

// runHook bundled (as dist/ ships it): under tsx each dynamic import per event is a round trip to tsx's loader thread.
const engine = await loadEngine("bundle");
const invoke = inProcessInvoker(root, engine.runHook);
process.on("exit", engine.cleanup);

test("removing any row of the default table turns at least one case red, on every host that can run its cases", async (t) => {
  const suite = await resolveSuite({ packageRoot: root, table: defaultTable, cases: casesDir });
  // A witness per row and host is the proof; the CLI's full search of the first host is the same code path (the test below).
  const report = await mutate(suiteCases(suite), { compiled: suite.compiled, table: suite.table, invoke, hosts: CASE_HOSTS, witnessOnly: true });
  for (const h of report.hosts) t.diagnostic(`\n${h.host}:\n${formatMutation(h.rows)}\n${h.rows.length} mutants in ${(h.ms / 1000).toFixed(1)} s`);
  assert.deepEqual(
    report.hosts.map((h) => h.host),
    CASE_HOSTS.map((h) => h.name),
  );
  for (const h of report.hosts) {
    assert.deepEqual(h.baseline, [], `cases red on ${h.host} before any mutation`);
    assert.equal(h.rows.length, suite.compiled.rows.length);
    assert.deepEqual(unpinned(h), [], `rows no case pins on ${h.host}`);
  }
  // Claude Code runs every case; only what a host cannot send or cannot answer may go unpinned there.
  assert.deepEqual(
    report.hosts[0]?.rows.filter((r) => r.cannot),
    [],
  );
  const cannot = Object.fromEntries(report.hosts.map((h) => [h.host, h.rows.filter((r) => r.cannot).map((r) => r.row)]));
  assert.deepEqual(cannot.codex, ["delegate-executor", "output-cap"]);
  // Budget rows are pinned wherever the prompt size comes from the host's transcript (Codex, Gemini, Copilot in
  // their own formats); opencode's comes from its message events, which cases do not play.
  for (const h of ["codex", "gemini", "copilot"]) assert.ok(!cannot[h]?.includes("context-budget"), `context-budget unpinned on ${h}`);
  assert.deepEqual(cannot.opencode, ["context-budget"]);
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
    // three cases are enough to pin one row and leave the extra one unpinned (every gate-commit case took 10 s here)
    const few = ["gate-commit-deny-load-allow", "gate-commit-denied-without-skill", "hint-logs-once"];
    const cases = suiteCases(suite).filter((c) => few.includes(c.id));
    assert.equal(cases.length, few.length, "the cases this test names exist");
    const hosts = [caseHost("claude-code"), caseHost("gemini")].flatMap((h) => (h ? [h] : []));
    const report = await mutate(cases, { compiled: suite.compiled, table: file, invoke, hosts });
    assert.deepEqual(report.rows.find((r) => r.row === "unpinned-row")?.red, []);
    assert.ok((report.rows.find((r) => r.row === "commit-gate")?.red.length ?? 0) > 0);
    assert.match(formatMutation(report.rows), /unpinned-row\s+gate\s+0\s+NONE/);
    // A later host, searched for one witness, reports it too.
    assert.deepEqual(
      report.hosts.map((h) => unpinned(h).includes("unpinned-row")),
      [true, true],
    );
    assert.ok((report.hosts[1]?.rows.find((r) => r.row === "commit-gate")?.red.length ?? 0) > 0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
