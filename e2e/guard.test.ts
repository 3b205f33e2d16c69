// skillgate's session guard rows end to end: `output-cap`,
// `context-budget`, `handoff-after-compaction` of the default triggers.json,
// installed with `skillgate install --project <temp repo>` and driven through
// the real Claude Code binary against the scripted mock API. Assertions are on
// what the client did: the next request body (what the model was fed), the
// files on disk; `skillgate stats --json` only for the compaction count (the
// product's own report).
// Run from the repo root after `npm run build`:
//   node --import tsx --test --test-concurrency=1 e2e/guard.test.ts
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  bodyText,
  compact,
  contentText,
  mainRequests,
  tempDir,
  toolResults,
  type ContentBlock,
  type RecordedRequest,
  type Turn,
  type Usage,
} from "./harness.ts";

import { CLI, installed, play, type Project } from "./project.ts";
import { hostTest, recordResults } from "../e2e-shared/scenarios.ts";
import { claudeDriver } from "./driver.ts";

recordResults(claudeDriver, import.meta.filename);

const bash = (command: string, id: string, usage?: Usage): Turn => ({
  toolUse: { name: "Bash", input: { command, description: "e2e" }, id },
  ...(usage ? { usage } : {}),
});
const count = (hay: string, needle: string) => hay.split(needle).length - 1;

/** The tool_result Claude Code sent back for a tool call, in the request that first carried it. */
function resultIn(q: RecordedRequest, id: string): ContentBlock {
  const b = toolResults(q.body).find((x) => x.tool_use_id === id);
  assert.ok(b, `no tool_result for ${id} in request ${q.seq}`);
  return b;
}

/** What the skillgate CLI reports for a session, with the scenario's state folder. */
function stats(p: Project, session: string): { compactions: number; budgetLevel: number; stats: Record<string, unknown> } {
  const out = execFileSync(process.execPath, [CLI, "stats", "--session", session, "--json"], { env: { ...process.env, ...p.env }, encoding: "utf8" });
  return JSON.parse(out) as { compactions: number; budgetLevel: number; stats: Record<string, unknown> };
}

const CAP_NOTE =
  /\n\[skillgate\[output-cap\]: output capped: showing the first ([\d,]+) of ([\d,]+) characters; the full output is in (\S+) — read or grep it there, in slices\]$/;

/** The capped tool_result: head, then the note; returns the file the note names. */
function assertCapped(text: string, full: string, total: string): string {
  const m = CAP_NOTE.exec(text);
  assert.ok(m, `no output-cap note at the end of the tool_result: ${JSON.stringify(text.slice(0, 200))} ... ${JSON.stringify(text.slice(-300))}`);
  assert.equal(m[1], "4,000", "head size in the note");
  assert.equal(m[2], total, "full size in the note");
  const head = text.slice(0, m.index);
  assert.equal(head, full.slice(0, 4000), "the head is the first 4,000 characters of the output");
  return m[3]!;
}

/** The file is 0600 in a 0700 folder, both ours, outside the work tree, and holds the whole output. */
function assertSavedPrivately(file: string, p: Project, full: string): void {
  const dir = dirname(file);
  const fst = statSync(file);
  const dst = statSync(dir);
  assert.equal((fst.mode & 0o777).toString(8), "600", `mode of ${file}`);
  assert.equal((dst.mode & 0o777).toString(8), "700", `mode of ${dir}`);
  assert.equal(fst.uid, process.getuid!(), "file owner");
  assert.equal(dst.uid, process.getuid!(), "folder owner");
  assert.ok(!file.startsWith(p.repo + "/"), `the capped output landed in the work tree: ${file}`);
  const saved = readFileSync(file, "utf8");
  assert.ok(
    saved.includes(full.trimEnd()),
    `${file} does not hold the whole output (${saved.length} chars saved, ${full.length} produced; ends ${JSON.stringify(saved.slice(-80))})`,
  );
}

hostTest("cap", "a 30,000-line seq output is capped: the model gets the head and the path, the whole output is in a private file", async () => {
  const p = installed();
  const full = execFileSync("seq", ["1", "30000"], { encoding: "utf8" });
  assert.equal(full.length, 168_894);
  const r = await play(p, { prompt: "count to 30000", script: [bash("seq 1 30000", "toolu_seq"), { text: "ok" }] });
  const main = mainRequests(r);
  assert.equal(main.length, 2);
  const block = resultIn(main[1]!, "toolu_seq");
  const text = contentText(block.content);
  assert.notEqual(block.is_error, true, text.slice(0, 300));
  // Claude Code's own >30,000-char handling (a 2 KB preview of a file in ~/.claude) must not be what the model got.
  assert.ok(
    !text.includes("<persisted-output>"),
    `the model got Claude Code's own persisted-output preview, not skillgate's head: ${JSON.stringify(text.slice(0, 300))}`,
  );
  assert.ok(text.startsWith("1\n2\n3\n"), `head: ${JSON.stringify(text.slice(0, 100))}`);
  assert.ok(!text.includes("29999"), "the tail of the output reached the model");
  const file = assertCapped(text, full, "168,894");
  // Default root: a private folder under the temp dir, its name kept in <state>/.output-root.
  const root = readFileSync(join(p.env["SKILLGATE_STATE"]!, ".output-root"), "utf8").trim();
  assert.equal(dirname(file), root);
  assertSavedPrivately(file, p, full);
});

test("a 23,892-character seq output (under Claude Code's own 30,000 limit) is capped into SKILLGATE_OUTPUT_DIR", async () => {
  const out = join(tempDir("out"), "capped"); // not there yet: the hook makes it 0700
  const p = installed([], { SKILLGATE_OUTPUT_DIR: out });
  const full = execFileSync("seq", ["1", "5000"], { encoding: "utf8" });
  const r = await play(p, { prompt: "count to 5000", script: [bash("seq 1 5000", "toolu_seq"), { text: "ok" }] });
  const block = resultIn(mainRequests(r)[1]!, "toolu_seq");
  const text = contentText(block.content);
  assert.ok(!text.includes("4999"), "the tail of the output reached the model");
  // Claude Code hands the hook stdout without its trailing newline: 23,893 - 1 characters.
  const file = assertCapped(text, full, "23,892");
  assert.equal(dirname(file), out);
  assertSavedPrivately(file, p, full);
});

test("a Read of a 60,000-character file is never capped, even when the table lists Read", async () => {
  // Only a cap row, naming Read too: the engine's never-cap rule must win.
  const table = join(tempDir("table"), "triggers.json");
  writeFileSync(
    table,
    JSON.stringify({ version: 1, rows: [{ id: "output-cap", kind: "cap", when: { output: { tools: ["Bash", "Read"], maxChars: 20000, headChars: 4000 } } }] }),
  );
  const out = join(tempDir("out"), "capped");
  const p = installed([], { SKILLGATE_TABLE: table, SKILLGATE_OUTPUT_DIR: out });
  const lines = Array.from({ length: 6000 }, (_, i) => `line ${String(i).padStart(4, "0")}`); // 10 characters a line with the newline
  const content = lines.join("\n") + "\n";
  assert.equal(content.length, 60_000);
  const file = join(p.repo, "big.txt");
  writeFileSync(file, content);
  const r = await play(p, { prompt: "read it", script: [{ toolUse: { name: "Read", input: { file_path: file }, id: "toolu_read" } }, { text: "ok" }] });
  const main = mainRequests(r);
  const block = resultIn(main[1]!, "toolu_read");
  const text = contentText(block.content);
  assert.notEqual(block.is_error, true, text.slice(0, 300));
  // Read numbers the lines ("6000\tline 5999", then an empty line 6001 after the last newline): all of it, first to last.
  assert.ok(text.startsWith("1\tline 0000\n"), JSON.stringify(text.slice(0, 60)));
  assert.ok(text.endsWith("6000\tline 5999\n6001\t"), JSON.stringify(text.slice(-60)));
  for (const l of lines) assert.ok(text.includes(l), `${l} missing from the Read result`);
  assert.ok(!bodyText(main[1]!).includes("output capped"), "an output-cap note reached the model");
  assert.ok(!bodyText(main[1]!).includes("skillgate["), "skillgate said something to the model");
  assert.ok(!existsSync(out) || readdirSync(out).length === 0, `something was saved to ${out}: ${existsSync(out) ? readdirSync(out).join(", ") : ""}`);
});

const R100 = "skillgate[context-budget]: the context is past 100,000 tokens.";
const R150 = "skillgate[context-budget]: the context is past 150,000 tokens.";

test("budget reminders: once when the prompt crosses 100,000 (PostToolUse), once when it crosses 150,000 (UserPromptSubmit)", async () => {
  const p = installed();
  // Prompt size = input + cache_read + cache_creation + output of the last main-thread assistant message.
  const r1 = await play(p, {
    prompt: "work",
    script: [
      bash("echo a", "toolu_a"), // 120 tokens
      bash("echo b", "toolu_b", { input_tokens: 40_000, cache_read_input_tokens: 50_000, cache_creation_input_tokens: 15_000, output_tokens: 30 }), // 105,030
      bash("echo c", "toolu_c", { input_tokens: 20_000, cache_read_input_tokens: 100_000 }), // 120,020: same level
      { text: "ok", usage: { input_tokens: 5_000, cache_read_input_tokens: 146_000 } }, // 151,020: read by the next prompt
    ],
  });
  const m1 = mainRequests(r1);
  assert.equal(m1.length, 4);
  const t1 = m1.map(bodyText);
  assert.equal(count(t1[0]! + t1[1]!, "context-budget"), 0, "a reminder before the crossing");
  // Crossed on Bash b: its PostToolUse additionalContext rides along with that tool_result.
  assert.match(t1[2]!, /PostToolUse:Bash hook additional context: skillgate\[context-budget\]: the context is past 100,000 tokens\. /);
  // Kept in history, never added again: exactly one copy in every later request.
  for (const t of t1.slice(2)) assert.equal(count(t, R100), 1);
  assert.equal(count(t1.join(""), R150), 0, "the 150,000 reminder came early");

  // The last answer said 151,020: the next prompt's UserPromptSubmit crosses 150,000.
  const r2 = await play(p, {
    prompt: "more",
    home: r1.home,
    resume: r1.sessionId,
    script: [
      bash("echo d", "toolu_d", { input_tokens: 2_000, cache_read_input_tokens: 155_000 }), // 157,020: same level
      { text: "done", usage: { input_tokens: 2_000, cache_read_input_tokens: 158_000 } },
    ],
  });
  assert.equal(r2.sessionId, r1.sessionId);
  const m2 = mainRequests(r2);
  assert.equal(m2.length, 2);
  const first = bodyText(m2[0]!);
  assert.match(first, /UserPromptSubmit hook additional context: skillgate\[context-budget\]: the context is past 150,000 tokens\. /);
  const last = bodyText(m2.at(-1)!);
  assert.equal(count(last, R100), 1, "the 100,000 reminder, once in the final request");
  assert.equal(count(last, R150), 1, "the 150,000 reminder, once in the final request");
  assert.equal(count(last, "skillgate[context-budget]"), 2);
});

const HANDOFF = "write the handoff, and start a new session";

test("two /compact runs: the handoff reminder reaches the model once, and stats counts 2 compactions", async () => {
  const p = installed();
  const r1 = await play(p, { prompt: "start", script: [bash("echo one", "toolu_1"), { text: "ok" }] });
  assert.equal(count(r1.requests.map(bodyText).join(""), HANDOFF), 0);

  const c1 = await compact(r1, p.repo, { env: p.env });
  assert.equal(c1.exitCode, 0);
  assert.ok(
    c1.events.some((e) => e.type === "system" && e.subtype === "compact_boundary"),
    "no compact_boundary in the first /compact",
  );
  const r2 = await play(p, { prompt: "go on", home: r1.home, resume: r1.sessionId, script: [{ text: "ok" }] });
  const after1 = bodyText(mainRequests(r2)[0]!);
  assert.equal(count(after1, HANDOFF), 1, "the handoff reminder, once after the first compaction");
  // Delivered by SessionStart (source compact) of the /compact run; Claude Code puts it in the
  // session's environment system message, so the first request after the compaction has it.
  assert.match(
    after1,
    /SessionStart hook additional context: skillgate\[handoff-after-compaction\]: this session has been compacted 1 time; the slice should close\. Load skill \\"handoff\\", write the handoff, and start a new session\./,
  );

  const c2 = await compact(r1, p.repo, { env: p.env });
  assert.equal(c2.exitCode, 0);
  assert.ok(
    c2.events.some((e) => e.type === "system" && e.subtype === "compact_boundary"),
    "no compact_boundary in the second /compact",
  );
  const r3 = await play(p, { prompt: "and on", home: r1.home, resume: r1.sessionId, script: [{ text: "ok" }] });
  const after2 = bodyText(mainRequests(r3)[0]!);
  assert.ok(after2.includes("and on"), "the resumed prompt is not in the request");
  assert.equal(count(after2, HANDOFF), 0, "the handoff reminder came again after the second compaction");
  assert.equal(count(after2, "handoff-after-compaction"), 0);

  const s = stats(p, r1.sessionId!);
  assert.equal(s.compactions, 2);
});
