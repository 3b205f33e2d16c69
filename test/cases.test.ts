// Every JSON case in cases/, through the real hook process, under Node and
// under Bun (the two routes `skillgate install` can write), so they can never drift.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { loadCases } from "../cli/cases/format.ts";
import { processInvoker, runCase } from "../cli/cases/runner.ts";
import { findBun } from "../cli/install.ts";
import { casesDir, defaultTable, hookBundle, root } from "./helpers.ts";

const cases = loadCases(casesDir);

test("the case corpus is not allowed to shrink below 41", () => {
  assert.ok(cases.length >= 41, `only ${cases.length} cases`);
});

const bun = findBun(root);
test("the Bun runtime is installed (optional dependency `bun`)", () => {
  // Set SKILLGATE_NO_BUN=1 to run the Node half only, e.g. where bun cannot be fetched.
  if (process.env.SKILLGATE_NO_BUN === "1") return;
  assert.ok(bun, "no working bun binary under node_modules; npm ci should install the optional dependency");
});

const runtimes: [string, string][] = [["node", process.execPath]];
if (bun) runtimes.push(["bun", bun]);
for (const [name, exe] of runtimes) {
  const invoke = processInvoker([exe, hookBundle]);
  describe(`cases under ${name}`, { concurrency: 4 }, () => {
    for (const c of cases) {
      test(`case ${c.id} (${name})`, async () => {
        const r = await runCase(c, { casesDir, table: defaultTable, invoke });
        assert.deepEqual(r.failures, [], r.failures.join("\n"));
      });
    }
  });
}
