// The host matrix is written from e2e results (scripts/host-matrix.ts): a cell is
// ✓ only when a test of that column passed on that host, a failed test shows as
// FAILED, a missing one as "not run", and a host's declared limit as ◐ or ✗.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { COLUMNS, SCENARIOS, type ResultsFile } from "../e2e-shared/scenarios.ts";
import { docsTable, matrix, readmeTable, replaceBetween } from "../scripts/host-matrix.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const file = (host: string, tests: ResultsFile["tests"], limits: ResultsFile["limits"] = {}): ResultsFile => ({
  host,
  version: "1.2.3",
  file: "scenarios.test.ts",
  limits,
  at: "2026-12-04T00:00:00.000Z",
  tests,
});
const allPass = COLUMNS.map((c) => ({ column: c.id, title: `t ${c.id}`, outcome: "pass" as const }));

test("a cell is ✓ only when a test of its column passed; a failure is FAILED, an absent one 'not run'", () => {
  const rows = matrix([
    file("codex", allPass),
    file("gemini", [...allPass.filter((t) => t.column !== "gate"), { column: "gate", title: "t gate", outcome: "fail" }]),
    file(
      "copilot",
      allPass.filter((t) => t.column !== "hint"),
    ),
  ]);
  const codex = rows.find((r) => r.id === "codex")!;
  for (const c of COLUMNS) assert.equal(codex.cells[c.id].mark, "✓", c.id);
  assert.equal(codex.version, "1.2.3");
  assert.equal(rows.find((r) => r.id === "gemini")!.cells.gate.mark, "FAILED");
  assert.equal(rows.find((r) => r.id === "copilot")!.cells.hint.mark, "not run");
  assert.equal(rows.find((r) => r.id === "claude-code")!.cells.gate.mark, "not run", "no results at all");
});

test("a declared limit: partial → ◐ with its reason (still needs a passing test), cannot → ✗, unit tests only → ◐", () => {
  const rows = matrix([
    file(
      "codex",
      allPass.filter((t) => t.column !== "cap"),
      { cap: { cannot: "ignores replacement output" } },
    ),
    file("gemini", allPass, { "git-hook": { partial: "hooks off in its shell" } }),
    file(
      "opencode",
      allPass.filter((t) => t.column !== "stop"),
      { stop: { unitOnly: "no blocking stop hook" } },
    ),
    file(
      "copilot",
      allPass.filter((t) => t.column !== "cap"),
      { cap: { partial: "spills itself" } },
    ),
  ]);
  const cell = (h: string, c: (typeof COLUMNS)[number]["id"]) => rows.find((r) => r.id === h)!.cells[c];
  assert.deepEqual([cell("codex", "cap").mark, cell("codex", "cap").why], ["✗", "ignores replacement output"]);
  assert.deepEqual([cell("gemini", "git-hook").mark, cell("gemini", "git-hook").why], ["◐", "hooks off in its shell"]);
  assert.equal(cell("opencode", "stop").mark, "◐");
  assert.match(cell("opencode", "stop").why ?? "", /unit tests only/);
  assert.equal(cell("copilot", "cap").mark, "not run", "a partial limit still needs its test to have passed");
  // Cursor has no binary here: its row comes from what the unit tests prove.
  assert.equal(cell("cursor", "gate").mark, "◐");
  assert.equal(cell("cursor", "stop").mark, "✗");
});

test("the tables: one row per host, one column per matrix column, the test titles in the docs version", () => {
  const rows = matrix([file("codex", allPass)]);
  const readme = readmeTable(rows);
  assert.match(readme, /^\| host \| gate \| block \|/);
  assert.match(readme, /\| Codex CLI 1\.2\.3 \| ✓ \| ✓ \|/);
  assert.equal(readme.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| host")).length, 6);
  const docs = docsTable(rows);
  assert.match(docs, /### Codex CLI 1\.2\.3/);
  assert.match(docs, /- \*\*gate\*\* ✓: "t gate" \(e2e-codex\/scenarios\.test\.ts\)/);
});

test("every shared scenario proves a column; README and docs/host-support.md carry the markers", () => {
  const ids = new Set<string>(COLUMNS.map((c) => c.id));
  for (const s of SCENARIOS) assert.ok(ids.has(s.column), s.title);
  for (const f of ["README.md", "docs/host-support.md"]) {
    const text = fs.readFileSync(path.join(ROOT, f), "utf8");
    assert.doesNotThrow(() => replaceBetween(text, "x", f), f);
  }
  assert.throws(() => replaceBetween("no markers here", "x", "X.md"), /X\.md: no <!-- host-matrix:start/);
});
