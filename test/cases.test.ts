// Every JSON case in cases/, through the real hook process (node dist/hook.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadCases } from "../scripts/cases/format.ts";
import { processInvoker, runCase } from "../scripts/cases/runner.ts";
import { casesDir, defaultTable, hookBundle } from "./helpers.ts";

const cases = loadCases(casesDir);

test("the case corpus is not allowed to shrink below 41", () => {
  assert.ok(cases.length >= 41, `only ${cases.length} cases`);
});

const invoke = processInvoker([process.execPath, hookBundle]);
for (const c of cases) {
  test(`case ${c.id} (node)`, async () => {
    const r = await runCase(c, { casesDir, table: defaultTable, invoke });
    assert.deepEqual(r.failures, [], r.failures.join("\n"));
  });
}
