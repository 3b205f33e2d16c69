// Session guard I/O: the private output folder, capped files, transcript tail.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cleanOldOutputs, outputRoot, saveCapped } from "../hooks/io/output-store.ts";
import { contextTokensFromTranscript, TAIL_BYTES } from "../hooks/io/transcript-tail.ts";
import { claudePromptSize } from "../hooks/hosts/claude-code/prompt-size.ts";
import { codexPromptSize } from "../hooks/hosts/codex/prompt-size.ts";
import { geminiPromptSize } from "../hooks/hosts/gemini/prompt-size.ts";
import { copilotPromptSize } from "../hooks/hosts/copilot/prompt-size.ts";
import { casesDir } from "./helpers.ts";
import { claudeCode } from "../hooks/hosts/claude-code/adapter.ts";
import type { ToolOutput } from "../hooks/core/types.ts";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "sg-guard-"));

test("the default output folder is made once per installation, private, and remembered", () => {
  const state = tmp();
  const a = outputRoot(undefined, state);
  assert.equal(a.ok, true);
  const dir = (a as { dir: string }).dir;
  assert.match(path.basename(dir), /^skillgate-out-[0-9a-f]{18}$/);
  assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
  assert.deepEqual(outputRoot(undefined, state), a, "the same folder next time");
  fs.rmSync(dir, { recursive: true });
});

test("a folder open to others, or not a plain directory, is refused", () => {
  const dir = path.join(tmp(), "out");
  fs.mkdirSync(dir, { mode: 0o755 });
  fs.chmodSync(dir, 0o755);
  assert.match((outputRoot(dir, tmp()) as { error: string }).error, /open to group or others \(mode 755\)/);
  const link = path.join(tmp(), "link");
  fs.symlinkSync(tmp(), link);
  assert.equal(outputRoot(link, tmp()).ok, false);
});

test("a capped output keeps the whole text in a 0600 file and gives the head plus the path in the tool's shape", () => {
  const dir = path.join(tmp(), "out");
  assert.equal(outputRoot(dir, tmp()).ok, true);
  const stdout = Array.from({ length: 30000 }, (_, i) => String(i + 1)).join("\n");
  const response = { stdout, stderr: "warn", interrupted: false, isImage: false, noOutputExpected: false };
  const r = saveCapped(dir, "s1-toolu_1", { response, fields: ["stdout", "stderr"], chars: stdout.length + 4 }, 4000, "output-cap");
  assert.equal(fs.statSync(r.file).mode & 0o777, 0o600);
  assert.equal(fs.readFileSync(r.file, "utf8"), `--- stdout ---\n${stdout}\n--- stderr ---\nwarn`);
  assert.ok((r.updated.stdout as string).startsWith(stdout.slice(0, 4000)));
  assert.match(r.updated.stdout as string, new RegExp(`full output is in ${r.file.replace(/[.]/g, "\\.")}`));
  assert.equal(r.updated.stderr, "");
  assert.equal(r.updated.interrupted, false);
  assert.equal(r.charsSaved, stdout.length + 4 - 4000);
  assert.throws(() => saveCapped(dir, "s1-toolu_1", { response, fields: ["stdout"], chars: stdout.length }, 10, "x"), /EEXIST/, "never overwrites");
});

test("old capped outputs are cleaned, fresh ones kept", () => {
  const dir = tmp();
  fs.writeFileSync(path.join(dir, "old.txt"), "x");
  fs.writeFileSync(path.join(dir, "new.txt"), "y");
  const old = new Date(Date.now() - 8 * 86_400_000);
  fs.utimesSync(path.join(dir, "old.txt"), old, old);
  assert.equal(cleanOldOutputs(dir, 7), 1);
  assert.deepEqual(fs.readdirSync(dir), ["new.txt"]);
});

test("the prompt size comes from the last main-thread assistant usage, reading only the tail", async () => {
  assert.equal(await contextTokensFromTranscript(path.join(casesDir, "fixtures/transcript-120k.jsonl"), claudePromptSize), 120_000);
  const dir = tmp();
  const file = path.join(dir, "t.jsonl");
  const line = (tokens: number, side = false) =>
    JSON.stringify({ type: "assistant", isSidechain: side, message: { usage: { input_tokens: tokens, output_tokens: 0 } } });
  // A huge head the reader must not need, then a main line, then a sidechain line that must be skipped.
  fs.writeFileSync(file, `${"x".repeat(TAIL_BYTES * 4)}\n${line(5000)}\n${line(99, true)}\n`);
  assert.equal(await contextTokensFromTranscript(file, claudePromptSize), 5000);
  assert.equal(await contextTokensFromTranscript(path.join(dir, "missing.jsonl"), claudePromptSize), undefined);
});

test("a PostToolUse read before the client wrote the call's message waits for it (the size of that message counts)", async () => {
  const dir = tmp();
  const file = path.join(dir, "t.jsonl");
  const line = (tokens: number, id: string) =>
    JSON.stringify({ type: "assistant", message: { content: [{ type: "tool_use", id }], usage: { input_tokens: tokens } } });
  fs.writeFileSync(file, `${line(120, "toolu_a")}\n`);
  // The client's write lands 60 ms after the hook starts reading.
  const late = new Promise<void>((r) => setTimeout(() => (fs.appendFileSync(file, `${line(105_030, "toolu_b")}\n`), r()), 60));
  assert.equal(await contextTokensFromTranscript(file, claudePromptSize, "toolu_b"), 105_030);
  await late;
  // Already on file: no wait; never written: the last size on file, after the bounded wait.
  assert.equal(await contextTokensFromTranscript(file, claudePromptSize, "toolu_a"), 105_030);
  assert.equal(await contextTokensFromTranscript(file, claudePromptSize, "toolu_never"), 105_030);
  // Another host's format (no assistant sizes at all): nothing to wait for.
  const other = path.join(dir, "other.jsonl");
  fs.writeFileSync(other, `${JSON.stringify({ type: "response_item", payload: {} })}\n`);
  assert.equal(await contextTokensFromTranscript(other, claudePromptSize, "call_1"), undefined);
});

test("each host's transcript gives the prompt size its own way: Codex's token_count, Gemini's tokens, Copilot's usage_record", async () => {
  const dir = tmp();
  const write = (name: string, lines: unknown[]) => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    return f;
  };
  // Codex: input (cached included) + output of the last response; other event_msg lines and a cut first line skipped.
  const tokenCount = (input: number, output: number) => ({
    type: "event_msg",
    payload: {
      type: "token_count",
      info: {
        total_token_usage: { input_tokens: 1, output_tokens: 1 },
        last_token_usage: { input_tokens: input, cached_input_tokens: 90_000, output_tokens: output },
      },
    },
  });
  const codexFile = write("rollout.jsonl", [
    tokenCount(50, 5),
    tokenCount(120_000, 300),
    { type: "event_msg", payload: { type: "agent_message", message: "x" } },
  ]);
  assert.equal(await contextTokensFromTranscript(codexFile, codexPromptSize, "call_1"), 120_300);
  // Gemini: the last gemini message with tokens (a user message and a message without tokens skipped).
  const geminiFile = write("session.jsonl", [
    { sessionId: "s" },
    { id: "m1", type: "gemini", content: "", tokens: { input: 130_000, output: 200, cached: 129_000, total: 130_200 } },
    { id: "m2", type: "user", content: [{ text: "go on" }] },
    { id: "m3", type: "gemini", content: "" },
  ]);
  assert.equal(await contextTokensFromTranscript(geminiFile, geminiPromptSize), 130_200);
  // Copilot: input, cache read and write, and output of the last usage record.
  const copilotFile = write("events.jsonl", [
    { type: "session.usage_record", data: { usage: { inputTokens: 1000, outputTokens: 50, cacheReadTokens: 150_000, cacheWriteTokens: 10 } } },
    { type: "assistant.message", data: { content: "x" } },
  ]);
  assert.equal(await contextTokensFromTranscript(copilotFile, copilotPromptSize), 151_060);
  // Each reader ignores the others' formats (a host never takes another's line for a size).
  for (const [reader, file] of [
    [codexPromptSize, geminiFile],
    [geminiPromptSize, copilotFile],
    [copilotPromptSize, codexFile],
    [claudePromptSize, codexFile],
  ] as const)
    assert.equal(await contextTokensFromTranscript(file, reader), undefined);
  // The files the real binaries wrote (test/fixtures): the mock model reported 100 in, 10 out.
  const fixtures = path.join(casesDir, "..", "test", "fixtures");
  assert.equal(await contextTokensFromTranscript(path.join(fixtures, "codex/rollout-commit-before-after-load.jsonl"), codexPromptSize), 110);
  assert.equal(await contextTokensFromTranscript(path.join(fixtures, "gemini/session-commit-before-after-load.jsonl"), geminiPromptSize), 110);
  assert.equal(await contextTokensFromTranscript(path.join(fixtures, "copilot/events-commit-before-after-load.jsonl"), copilotPromptSize), 110);
});

/** A Claude Code PostToolUse Bash with this tool_response, normalized: its ToolOutput. */
function outputOfPayload(response: Record<string, unknown>): ToolOutput {
  const n = claudeCode.normalize({
    hook_event_name: "PostToolUse",
    session_id: "s1",
    cwd: "/",
    tool_name: "Bash",
    tool_use_id: "toolu_9",
    tool_input: { command: "seq 30000" },
    tool_response: response,
  });
  assert.ok(n.ok && n.event.kind === "tool-result" && n.event.output, "a tool result with output");
  return n.event.output;
}

test("a persistedOutputPath outside Claude Code's tool-results folder is never read: only the head is saved", () => {
  const dir = path.join(tmp(), "out");
  assert.equal(outputRoot(dir, tmp()).ok, true);
  const secret = path.join(tmp(), "secret.txt");
  fs.writeFileSync(secret, "SECRET\n");
  const output = outputOfPayload({ stdout: "head", stderr: "", persistedOutputPath: secret, persistedOutputSize: 100_000 });
  assert.equal(output.persistedPath, undefined);
  const r = saveCapped(dir, "s1-toolu_8", output, 2, "output-cap");
  assert.equal(fs.readFileSync(r.file, "utf8"), "head");
});

test("an output Claude Code already saved (persistedOutputPath) is copied whole and its preview keys dropped", () => {
  const dir = path.join(tmp(), "out");
  assert.equal(outputRoot(dir, tmp()).ok, true);
  const results = path.join(tmp(), "session", "tool-results");
  fs.mkdirSync(results, { recursive: true });
  const full = Array.from({ length: 30000 }, (_, i) => String(i + 1)).join("\n");
  const saved = path.join(results, "toolu_9.txt");
  fs.writeFileSync(saved, full, { mode: 0o644 });
  // 2.1.328 hands the hook the first 30,000 characters plus the path and the full size.
  const response = { stdout: full.slice(0, 30000), stderr: "", interrupted: false, persistedOutputPath: saved, persistedOutputSize: full.length };
  // The adapter names Claude Code's copy (a file in its tool-results folder) and drops its preview keys from the response.
  const output = outputOfPayload(response);
  assert.equal(output.persistedPath, saved);
  assert.equal(output.chars, full.length);
  const r = saveCapped(dir, "s1-toolu_9", output, 4000, "output-cap");
  assert.equal(fs.readFileSync(r.file, "utf8"), full);
  assert.equal(fs.statSync(r.file).mode & 0o777, 0o600);
  assert.equal("persistedOutputPath" in r.updated, false);
  assert.equal("persistedOutputSize" in r.updated, false);
  assert.match(r.updated.stdout as string, /showing the first 4,000 of 168,893 characters/);
});
