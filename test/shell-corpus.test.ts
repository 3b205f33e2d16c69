// The 177 hand-labeled commands from ../shared (copied into test/fixtures):
// which programs run, whether a commit happens, which paths are written.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { analyzeCommand } from "../hooks/core/shell/analyze.ts";
import { root } from "./helpers.ts";

interface Labeled {
  id: number;
  cmd: string;
  commit: "yes" | "no" | "unknown";
  commands: string[];
  writes: string[];
  expectError?: boolean;
}
const corpus = JSON.parse(fs.readFileSync(path.join(root, "test/fixtures/shell-corpus-177.json"), "utf8")) as Labeled[];
const uniq = (xs: string[]) => [...new Set(xs)].sort();

for (const r of corpus) {
  test(`corpus #${r.id}: ${JSON.stringify(r.cmd).slice(0, 70)}`, () => {
    const a = analyzeCommand(r.cmd);
    const commits = a.commands.some((c) => c.name === "git" && c.verb >= 0 && c.argv[c.verb] === "commit");
    const unknown = a.opaque.length > 0 || a.commands.some((c) => c.name === "git" && c.verb >= 0 && c.dynamic[c.verb]);
    if (r.expectError) {
      // A deliberate syntax error: never "no match", always opaque.
      assert.ok(
        a.opaque.some((o) => o.reason.includes("does not parse")),
        "a parse error must be opaque",
      );
      return;
    }
    if (r.commit === "yes") assert.ok(commits, "commit missed");
    if (r.commit === "no") assert.ok(!commits && !unknown, "commit reported where there is none");
    if (r.commit === "unknown") assert.ok(commits || unknown, "an undecidable command must be opaque or a commit, never no");
    assert.deepEqual(uniq(a.commands.map((c) => c.name)), uniq(r.commands), "programs run");
    assert.deepEqual(uniq(a.writes.map((w) => (w.dynamic ? "<dynamic>" : w.path))), uniq(r.writes), "paths written");
  });
}
