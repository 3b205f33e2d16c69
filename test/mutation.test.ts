// Row-removal mutation: every row of the default table is pinned by a case.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadCases } from "../cli/cases/format.ts";
import { inProcessInvoker } from "../cli/cases/runner.ts";
import { mutate } from "../cli/cases/mutate.ts";
import { casesDir, defaultTable, root } from "./helpers.ts";

test("removing any row of the default table turns at least one case red", async () => {
  const { baseline, rows } = await mutate(loadCases(casesDir), { casesDir, table: defaultTable, invoke: inProcessInvoker(root) });
  assert.deepEqual(baseline, [], "cases red before any mutation");
  const table = JSON.parse(fs.readFileSync(defaultTable, "utf8"));
  assert.equal(rows.length, table.rows.length);
  const dead = rows.filter((r) => r.red.length === 0).map((r) => r.row);
  assert.deepEqual(dead, [], `rows no case pins: ${dead}`);
  // The blog's figure: the commit row is the most pinned.
  assert.ok(rows.find((r) => r.row === "commit-gate")!.red.length >= 5);
});

test("the mutation tester does report a row no case pins", async () => {
  // A table with an extra row nothing exercises must be reported as dead.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-mut-test-"));
  const table = JSON.parse(fs.readFileSync(defaultTable, "utf8"));
  table.skillsDir = path.join(root, "skills");
  table.rows.push({ id: "unpinned-row", kind: "gate", skill: "review", when: { command: { name: "never-run-this" } } });
  const file = path.join(dir, "triggers.json");
  fs.writeFileSync(file, JSON.stringify(table));
  const cases = loadCases(casesDir).filter((c) => c.id.startsWith("gate-commit") || c.id.startsWith("hint-logs"));
  const { rows } = await mutate(cases, { casesDir, table: file, invoke: inProcessInvoker(root) });
  assert.deepEqual(rows.find((r) => r.row === "unpinned-row")!.red, []);
  assert.ok(rows.find((r) => r.row === "commit-gate")!.red.length > 0);
  fs.rmSync(dir, { recursive: true, force: true });
});
