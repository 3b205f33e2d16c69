// The README's first command ends in `npm run demo`: it must keep telling the truth.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { root } from "./helpers.ts";

test("the demo plays deny → load → allow → compaction → deny on the default table and exits 0", () => {
  const r = spawnSync(process.execPath, [path.join(root, "bin", "skillgate.mjs"), "demo"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const verdicts = [...r.stdout.matchAll(/→ (ALLOW|DENY|HINT)/g)].map((m) => m[1]);
  assert.deepEqual(verdicts, ["ALLOW", "HINT", "ALLOW", "DENY", "DENY", "ALLOW", "ALLOW", "ALLOW", "HINT", "DENY", "HINT"]);
});
