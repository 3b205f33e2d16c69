// Evidence-bound gates and budget profiles with the real
// client: the model's commit is refused until the tests ran green on this tree,
// a later edit makes its "✅ Готово" refused (the reason names the file), and a
// long failing test run under the fast profile reaches the model as a typed
// summary whose failing test names are in the next request, the raw file whole.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentText, mainRequests, tempDir, toolResults, type RunResult } from "./harness.ts";
import { installed, play, ROOT } from "./project.ts";

// The scenario's own `node --test` must not think it runs inside this test file (node:test sets this for children).
delete process.env["NODE_TEST_CONTEXT"];

const bash = (command: string, id: string) => ({ toolUse: { name: "Bash", input: { command, description: "e2e" }, id } });
const write = (file: string, content: string, id: string) => ({ toolUse: { name: "Write", input: { file_path: file, content }, id } });

function result(r: RunResult, id: string): { text: string; error: boolean } {
  for (const q of r.requests) {
    for (const b of toolResults(q.body)) if (b.tool_use_id === id) return { text: contentText(b.content), error: b.is_error === true };
  }
  throw new Error(`no tool_result for ${id}`);
}

function gitLog(repo: string): string[] {
  return execFileSync("git", ["log", "--format=%s"], { cwd: repo, encoding: "utf8" }).trim().split("\n");
}

test("a commit needs a green npm test on this tree; after an edit the done answer is refused, naming the file", async () => {
  const table = join(tempDir("table"), "triggers.json");
  writeFileSync(
    table,
    JSON.stringify({
      version: 1,
      skillsDir: join(ROOT, "skills"),
      rows: [
        { id: "tests", kind: "evidence", when: { command: { name: "npm", sub: ["test"] } }, paths: ["src", "package.json"] },
        { id: "commit-needs-tests", kind: "gate", when: { command: { name: "git", sub: ["commit"] } }, require: { evidence: "tests" } },
        { id: "done-needs-tests", kind: "gate", when: { final: { pattern: "✅" } }, require: { evidence: "tests" } },
      ],
    }),
  );
  const p = installed([], { SKILLGATE_TABLE: table });
  mkdirSync(join(p.repo, "src"));
  writeFileSync(join(p.repo, "src", "x.js"), "export const x = 1;\n");
  writeFileSync(join(p.repo, "package.json"), JSON.stringify({ name: "e2e", version: "1.0.0", scripts: { test: "node -e \"console.log('all green')\"" } }));
  const r = await play(p, {
    prompt: "commit and finish",
    script: [
      bash('git commit --allow-empty -m "before tests"', "toolu_c1"),
      bash("npm test", "toolu_t1"),
      bash('git commit --allow-empty -m "after green tests"', "toolu_c2"),
      write(join(p.repo, "src", "x.js"), "export const x = 2;\n", "toolu_w"),
      { text: "✅ Готово" },
      bash("npm test", "toolu_t2"),
      { text: "✅ Готово: tests re-run on the edited tree" },
    ],
  });
  const c1 = result(r, "toolu_c1");
  assert.equal(c1.error, true, c1.text);
  assert.match(c1.text, /skillgate\[commit-needs-tests\]/);
  assert.match(c1.text, /npm test/);
  assert.equal(result(r, "toolu_t1").error, false);
  assert.equal(result(r, "toolu_c2").error, false, result(r, "toolu_c2").text);
  assert.deepEqual(gitLog(p.repo).slice(0, 1), ["after green tests"]);
  // The done answer after the edit: refused once, the reason naming what changed since the green run.
  const feedback = mainRequests(r).flatMap((q) =>
    (q.body?.messages ?? []).filter((m) => m.role === "user" && contentText(m.content).includes("Stop hook feedback")),
  );
  assert.ok(feedback.length >= 1, "the stop was refused");
  assert.match(contentText(feedback[0]!.content), /done-needs-tests[\s\S]*src\/x\.js/);
});

test("fast profile: a long failing test run reaches the model as a typed summary with the failing names; the raw file holds it all", async () => {
  const p = installed([]);
  mkdirSync(join(p.repo, "test"));
  const cases = Array.from({ length: 180 }, (_, i) => `test('case number ${i} works as documented', () => { assert.equal(${i}, ${i}); });`);
  cases.splice(40, 0, "test('FAILING-ALPHA parses the header', () => { assert.equal(1, 2); });");
  cases.splice(120, 0, "test('FAILING-BETA keeps the order', () => { assert.deepEqual([1, 2], [2, 1]); });");
  writeFileSync(join(p.repo, "test", "big.test.mjs"), `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n${cases.join("\n")}\n`);
  const cmd = 'node --test --test-reporter=tap test/big.test.mjs 2>&1; echo "exit $?"';
  const full = execFileSync("bash", ["-c", cmd], { cwd: p.repo, encoding: "utf8" });
  assert.ok(full.length > 20_000, `the output is long (${full.length}): ${full.slice(0, 300)}`);
  const r = await play(p, { prompt: "low token mode please, then run the tests", script: [bash(cmd, "toolu_tests"), { text: "ok" }] });
  const got = result(r, "toolu_tests");
  assert.ok(got.text.length < full.length / 3, `summarized: ${got.text.length} of ${full.length} characters reached the model`);
  assert.match(got.text, /budget_profile[^\n]*fast/);
  assert.match(got.text, /FAILING-ALPHA/);
  assert.match(got.text, /FAILING-BETA/);
  const raw = /raw_evidence[=: ]+(\S+)/.exec(got.text)?.[1];
  assert.ok(raw && existsSync(raw), `raw file named: ${got.text.slice(0, 400)}`);
  const saved = readFileSync(raw, "utf8");
  for (const needle of ["FAILING-ALPHA", "FAILING-BETA", "case number 179 works"]) assert.ok(saved.includes(needle), `${needle} is in the raw file`);
});
