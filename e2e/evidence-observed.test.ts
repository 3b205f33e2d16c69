// Evidence records only what was observed, with the real client: a red
// `npm test || true` (exit 0 for the client), and `npm test` the client runs in
// the background (run_in_background: its result comes back before the command
// ends), are not recorded; the commit and the "✅" answer stay refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentText, mainRequests, tempDir, toolResults, type RunResult } from "./harness.ts";
import { installed, play, ROOT } from "./project.ts";

delete process.env["NODE_TEST_CONTEXT"];

const bash = (command: string, id: string, extra: Record<string, unknown> = {}) => ({
  toolUse: { name: "Bash", input: { command, description: "e2e", ...extra }, id },
});

function result(r: RunResult, id: string): { text: string; error: boolean } {
  for (const q of r.requests) {
    for (const b of toolResults(q.body)) if (b.tool_use_id === id) return { text: contentText(b.content), error: b.is_error === true };
  }
  throw new Error(`no tool_result for ${id}`);
}

test("a masked or backgrounded red npm test is not a pass: the commit and the done answer stay refused", async () => {
  const table = join(tempDir("table"), "triggers.json");
  writeFileSync(
    table,
    JSON.stringify({
      version: 1,
      skillsDir: join(ROOT, "skills"),
      rows: [
        { id: "tests", kind: "evidence", when: { command: { name: "npm", sub: ["test"] } }, paths: ["src"] },
        { id: "commit-needs-tests", kind: "gate", when: { command: { name: "git", sub: ["commit"] } }, require: { evidence: "tests" } },
        { id: "done-needs-tests", kind: "gate", when: { final: { pattern: "✅" } }, require: { evidence: "tests" } },
      ],
    }),
  );
  const p = installed([], { SKILLGATE_TABLE: table });
  mkdirSync(join(p.repo, "src"));
  writeFileSync(join(p.repo, "src", "x.js"), "export const x = 1;\n");
  writeFileSync(
    join(p.repo, "package.json"),
    JSON.stringify({ name: "e2e", version: "1.0.0", scripts: { test: "node -e \"console.log('not ok 1'); process.exit(1)\"" } }),
  );
  const r = await play(p, {
    prompt: "commit and finish",
    script: [
      bash("npm test || true", "toolu_t1"),
      bash('git commit --allow-empty -m "after a masked run"', "toolu_c1"),
      bash("npm test", "toolu_t2", { run_in_background: true }),
      bash('sleep 2; git commit --allow-empty -m "after a background run"', "toolu_c2"),
      { text: "✅ Готово" },
      { text: "not done yet" },
    ],
  });
  // The client saw exit 0 for the masked line: a plain success.
  assert.equal(result(r, "toolu_t1").error, false, result(r, "toolu_t1").text);
  const c1 = result(r, "toolu_c1");
  assert.equal(c1.error, true, c1.text);
  assert.match(c1.text, /skillgate\[commit-needs-tests\][\s\S]*none is recorded/);
  // The background start is a success in the client's eyes too.
  assert.equal(result(r, "toolu_t2").error, false, result(r, "toolu_t2").text);
  const c2 = result(r, "toolu_c2");
  assert.equal(c2.error, true, c2.text);
  assert.match(c2.text, /none is recorded/);
  const feedback = mainRequests(r).flatMap((q) =>
    (q.body?.messages ?? []).filter((m) => m.role === "user" && contentText(m.content).includes("Stop hook feedback")),
  );
  assert.ok(feedback.length >= 1, "the done answer was refused");
  assert.match(contentText(feedback[0]!.content), /done-needs-tests/);
});
