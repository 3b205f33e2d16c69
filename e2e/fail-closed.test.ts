// What the real client does when skillgate's PreToolUse hook fails: it
// crashes, times out, or prints a broken answer. install writes
// `"onFailure": "block"` on that handler, so the call is refused; the same
// failure without the field lets the call through (the control runs). The
// failing hook is skillgate's installed handler with its hook file swapped for
// a script that fails in that way (the handler's other fields as install wrote them).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentText, tempDir, type RunResult } from "./harness.ts";
import { installed, play } from "./project.ts";

function resultOf(r: RunResult, id: string): { text: string; error: boolean } {
  for (const q of r.requests) {
    for (const m of q.body?.messages ?? []) {
      for (const b of Array.isArray(m.content) ? m.content : []) {
        if (b.type === "tool_result" && b.tool_use_id === id) return { text: contentText(b.content), error: b.is_error === true };
      }
    }
  }
  throw new Error(`no tool_result for ${id}`);
}

const FAILURES: { name: string; script: string; timeout?: number }[] = [
  { name: "crashes (exit 1, nothing printed)", script: "process.exit(1)" },
  { name: "times out", script: "setTimeout(() => {}, 20000)", timeout: 1 },
  { name: "prints a broken JSON answer and exits 1", script: 'process.stdout.write(\'{"hookSpecificOutput": {"permissionDecision"\'); process.exitCode = 1' },
];

// A broken answer with exit status 0 is not a failure to the client: it reads the output as plain text, and the call runs,
// onFailure or not (2.1.328 and 2.1.332). skillgate's hook writes its answer whole or exits non-zero (an internal error
// answers in JSON; a crash or a kill mid-write is a non-zero exit), so this is a limit of the field, not a path skillgate takes.
test('a broken JSON answer with exit status 0 lets the call through even with onFailure "block" (the client reads it as text)', async () => {
  const p = installed();
  failingHook(p.repo, 'process.stdout.write(\'{"hookSpecificOutput": {"permissionDecision"\')', true);
  const marker = join(p.repo, "ran.txt");
  const r = await play(p, {
    prompt: "go",
    script: [{ toolUse: { name: "Bash", input: { command: `echo ran > ${marker}`, description: "e2e" }, id: "toolu_x" } }, { text: "ok" }],
  });
  assert.equal(
    existsSync(marker),
    true,
    `the client now refuses a broken answer with exit 0 (update docs/settings-protection.md): ${resultOf(r, "toolu_x").text}`,
  );
});

/** The installed PreToolUse handler now runs `script` instead of skillgate's hook; `onFailure` kept or dropped. */
function failingHook(repo: string, script: string, keepOnFailure: boolean, timeout?: number): Record<string, unknown> {
  const file = join(repo, ".claude", "settings.json");
  const s = JSON.parse(readFileSync(file, "utf8"));
  const group = s.hooks.PreToolUse.find((g: { matcher?: string }) => /Bash/.test(g.matcher ?? ""));
  const h = group.hooks[0];
  const js = join(tempDir("failing-hook"), "hook.cjs");
  writeFileSync(js, script);
  h.args = [js];
  if (timeout !== undefined) h.timeout = timeout;
  if (!keepOnFailure) delete h.onFailure;
  writeFileSync(file, JSON.stringify(s, null, 2));
  return h;
}

for (const f of FAILURES) {
  test(`a PreToolUse hook that ${f.name} refuses the call: install writes onFailure "block"`, async () => {
    const p = installed();
    const h = failingHook(p.repo, f.script, true, f.timeout);
    assert.equal(h.onFailure, "block", "install wrote the field");
    const marker = join(p.repo, "ran.txt");
    const r = await play(p, {
      prompt: "go",
      script: [{ toolUse: { name: "Bash", input: { command: `echo ran > ${marker}`, description: "e2e" }, id: "toolu_x" } }, { text: "ok" }],
    });
    const res = resultOf(r, "toolu_x");
    assert.equal(existsSync(marker), false, `the call ran: ${res.text}`);
    assert.equal(res.error, true, res.text);
  });

  test(`control: the same hook without onFailure lets the call through when it ${f.name}`, async () => {
    const p = installed();
    failingHook(p.repo, f.script, false, f.timeout);
    const marker = join(p.repo, "ran.txt");
    const r = await play(p, {
      prompt: "go",
      script: [{ toolUse: { name: "Bash", input: { command: `echo ran > ${marker}`, description: "e2e" }, id: "toolu_x" } }, { text: "ok" }],
    });
    assert.equal(existsSync(marker), true, `the call did not run: ${resultOf(r, "toolu_x").text}`);
  });
}
