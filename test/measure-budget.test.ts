// `skillgate measure` per budget profile, on a synthetic
// transcript in Claude Code's shapes, hand-counted: which profile each session
// was in (the replay's own: table default, mode words, risk rows), what the
// hook would do with each long output (summarize, head cap, raw and why),
// characters kept out, and raw_fallback (a raw file a summary pointed to, read later).
// Run: node --import tsx --test test/measure-budget.test.ts (the CLI test needs `npm run build`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compiledTable } from "../cli/table-file.ts";
import { measure, type MeasureResult } from "../cli/measure/run.ts";
import { renderText } from "../cli/measure/report.ts";
import { pointersIn } from "../cli/measure/budget.ts";
import { cliRun, root } from "./helpers.ts";

const CWD = "/home/dev/project";
let n = 0;
const uuid = () => `00000000-0000-4000-a000-${String(++n).padStart(12, "0")}`;

/** Claude Code 2.1.328 transcript lines, one session. */
function session(id: string) {
  const lines: unknown[] = [];
  const base = () => ({ uuid: uuid(), sessionId: id, cwd: CWD, timestamp: "2026-12-01T10:00:00.000Z", version: "2.1.328", isSidechain: false });
  let msg = 0;
  const s = {
    prompt(text: string) {
      lines.push({ ...base(), type: "user", message: { role: "user", content: text } });
      return s;
    },
    /** A tool call and its result; `response` null: the line holds no toolUseResult. */
    tool(
      name: string,
      input: Record<string, unknown>,
      content: string,
      response: Record<string, unknown> | null = { stdout: content, stderr: "", interrupted: false },
    ) {
      const toolId = `toolu_${id.slice(0, 4)}_${++msg}`;
      lines.push({
        ...base(),
        type: "assistant",
        message: {
          id: `msg_${id.slice(0, 4)}_${msg}`,
          role: "assistant",
          model: "claude-x",
          content: [{ type: "tool_use", id: toolId, name, input }],
          stop_reason: "tool_use",
          usage: { input_tokens: 10, output_tokens: 5 },
        },
      });
      lines.push({
        ...base(),
        type: "user",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolId, content }] },
        ...(response ? { toolUseResult: response } : {}),
      });
      return s;
    },
    text: () => lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  };
  return s;
}

/** `git log` output of `commits` commits (about 190 characters each). */
const gitLog = (commits: number) =>
  Array.from(
    { length: commits },
    (_, i) =>
      `commit ${(i + 1).toString(16).padStart(40, "a")}\nAuthor: Dev <dev@example.test>\nDate:   Mon Dec 1 10:00:00 2026 +0000\n\n    change number ${i + 1} of the parser\n`,
  ).join("\n");
const noise = (chars: number) => "build step ok: compiled module without warnings\n".repeat(Math.ceil(chars / 49)).slice(0, chars);

const TABLE_ROWS = [
  { id: "output-cap", kind: "cap", when: { output: { tools: ["Bash"], maxChars: 20000, headChars: 4000 } } },
  { id: "mode-fast", kind: "mode", profile: "fast", when: { prompt: { words: ["low tokens"] } } },
  { id: "migrations-risk", kind: "risk", when: { writes: ["**/migrations/**"] } },
];

async function setUp(): Promise<{ projects: string; table: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-measure-budget-"));
  const table = path.join(dir, "triggers.json");
  fs.writeFileSync(table, JSON.stringify({ version: 1, rows: TABLE_ROWS }));
  const projects = path.join(dir, "projects", "-home-dev-project");
  fs.mkdirSync(projects, { recursive: true });
  const big = gitLog(140); // ≈ 26,000 characters: over balanced's 20,000
  const mid = gitLog(64); // ≈ 12,000: under balanced, over fast's 4,000
  assert.ok(big.length > 20_000 && mid.length > 4_000 && mid.length < 20_000, `${big.length} ${mid.length}`);
  // A: balanced all along. git log summarized; a writing command, an opaque one: raw; an unknown program: head cap; a mid-size log: untouched.
  const a = session("aaaaaaaa-0000-4000-a000-000000000001")
    .prompt("show me the history")
    .tool("Bash", { command: "git log" }, big)
    .tool("Bash", { command: "sed -i s/a/b/ notes.txt && cat notes.txt" }, noise(25_000))
    .tool("Bash", { command: 'eval "$BUILD"' }, noise(25_000))
    .tool("Bash", { command: "make all" }, noise(30_000))
    .tool("Bash", { command: "git log -n 64" }, mid);
  // B: "low tokens" → fast (the mid-size log is summarized now); a migration written → audit: the big log passes raw (risk).
  const b = session("bbbbbbbb-0000-4000-a000-000000000002")
    .prompt("low tokens please, we are short")
    .tool("Bash", { command: "git log -n 64" }, mid)
    .tool("Write", { file_path: `${CWD}/db/migrations/001.sql`, content: "alter table x;" }, "File created", { type: "create" })
    .tool("Bash", { command: "git log" }, big);
  // C: skillgate ran: a summary (balanced) and a plain cap pointed to raw files; the model read the first one back.
  // One long output has no toolUseResult: it cannot be re-decided.
  const summary = `[skillgate summary: git-log · read_tier L1 · budget_profile balanced · confidence medium · raw_evidence /tmp/sg-out/c-1.txt (26,000 chars, 700 lines)]\n[fallback_condition: read it]\ncommit aaaa`;
  const capped = `head of it\n[skillgate[output-cap]: output capped: showing the first 4,000 of 50,000 characters; the full output is in /tmp/sg-out/c-2.txt — read or grep it there, in slices]`;
  const c = session("cccccccc-0000-4000-a000-000000000003")
    .prompt("look at the log")
    .tool("Bash", { command: "git log" }, summary, { stdout: summary, stderr: "" })
    .tool("Bash", { command: "make" }, capped, { stdout: capped, stderr: "" })
    .tool("Read", { file_path: "/tmp/sg-out/c-1.txt" }, "commit aaaa…", { type: "text" })
    .tool("Bash", { command: "git log --all" }, big, null);
  fs.writeFileSync(path.join(projects, "a.jsonl"), a.text());
  fs.writeFileSync(path.join(projects, "b.jsonl"), b.text());
  fs.writeFileSync(path.join(projects, "c.jsonl"), c.text());
  return { projects: path.dirname(projects), table };
}

test("per budget profile: sessions in it, summarized, head caps, raw passes by reason, characters kept out, raw_fallback", async () => {
  const { projects, table } = await setUp();
  const r = await measure({ projects, since: "100000d", table: await compiledTable(table), tableFile: table });
  const b = r.budget;
  assert.equal(b.defaultProfile, "balanced");
  const p = b.profiles;
  // Sessions: A, B (until its prompt), C balanced; B fast, then audit.
  assert.deepEqual([p.balanced.sessions, p.fast.sessions, p.audit.sessions, p.precision.sessions], [3, 1, 1, 0]);
  // Balanced: A's big git log summarized, sed -i (write) and eval (unknown) raw, make capped; the mid-size log is under the threshold.
  assert.equal(p.balanced.summarized, 1);
  assert.equal(p.balanced.capped, 1);
  assert.deepEqual(p.balanced.raw, { write: 1, risk: 0, audit: 0, unknown: 1, short: 0 });
  // Fast: B's mid-size log. Audit: B's big log after the migration write.
  assert.equal(p.fast.summarized, 1);
  assert.deepEqual(p.fast.raw, { write: 0, risk: 0, audit: 0, unknown: 0, short: 0 });
  assert.deepEqual(p.audit.raw, { write: 0, risk: 1, audit: 0, unknown: 0, short: 0 });
  assert.equal(p.audit.summarized + p.audit.capped + p.audit.charsSaved, 0);
  // Characters kept out: the head cap keeps 4,000 of make's 30,000; each summary saves most of its log.
  const big = gitLog(140).length,
    mid = gitLog(64).length;
  assert.ok(p.balanced.charsSaved - 26_000 >= 0.8 * big && p.balanced.charsSaved - 26_000 < big, `summary saved ${p.balanced.charsSaved - 26_000} of ${big}`);
  assert.ok(p.fast.charsSaved >= 0.8 * mid && p.fast.charsSaved < mid, `${p.fast.charsSaved} of ${mid}`);
  // raw_fallback: C was shown two pointers (its summary names balanced; the plain cap takes the session's profile), read one back.
  assert.deepEqual([p.balanced.pointers, p.balanced.rawFallback], [2, 1]);
  assert.deepEqual([p.fast.pointers, p.audit.pointers], [0, 0]);
  // C's last output has no tool response: not re-decided, and said so.
  assert.equal(b.noResponse, 1);
  assert.equal(r.subagents.budget.profiles.balanced.sessions, 0);

  const text = renderText(r);
  assert.match(
    text,
    /budget profile\s+kind\s+sessions\s+summarized\s+head cap\s+raw write\s+raw risk\s+raw audit\s+raw unknown\s+raw short\s+chars kept out\s+summaries seen\s+raw_fallback/,
  );
  assert.match(text, /balanced \(default\)\s+main\s+3\s+1\s+1\s+1\s+0\s+0\s+1\s+0\s+[\d,]+\s+2\s+1 \(50%\)/);
  assert.match(text, /audit\s+main\s+1\s+0\s+0\s+0\s+1\s+0\s+0\s+0\s+0\s+0\s+0 \(—\)/);
  assert.match(text, /not re-decided: 1 long outputs/);
});

test("a Bash command naming the raw file counts as a raw fallback too; each file once", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-measure-fallback-"));
  const table = path.join(dir, "triggers.json");
  fs.writeFileSync(table, JSON.stringify({ version: 1, budgetProfile: "precision", rows: [TABLE_ROWS[0]] }));
  const projects = path.join(dir, "projects", "-p");
  fs.mkdirSync(projects, { recursive: true });
  const summary = `[skillgate summary: test · read_tier L2 · budget_profile precision · confidence low · raw_evidence /tmp/o/x-9.txt (50,000 chars, 900 lines)]`;
  const s = session("dddddddd-0000-4000-a000-000000000004")
    .prompt("run the tests")
    .tool("Bash", { command: "npm test" }, summary, { stdout: summary, stderr: "" })
    .tool("Bash", { command: "grep -n FAIL /tmp/o/x-9.txt | head" }, "12: FAIL x")
    .tool("Bash", { command: "sed -n 1,40p /tmp/o/x-9.txt" }, "…");
  fs.writeFileSync(path.join(projects, "d.jsonl"), s.text());
  const r = await measure({ projects: path.dirname(projects), since: "100000d", table: await compiledTable(table), tableFile: table });
  assert.equal(r.budget.defaultProfile, "precision");
  assert.deepEqual([r.budget.profiles.precision.sessions, r.budget.profiles.precision.pointers, r.budget.profiles.precision.rawFallback], [1, 1, 1]);
  assert.equal(r.budget.profiles.balanced.sessions, 0);
});

test("pointersIn reads the evidence header and the plain cap line, nothing else", () => {
  assert.deepEqual(
    pointersIn("[skillgate summary: diff · read_tier L1 · budget_profile fast · confidence high · raw_evidence /t/a.txt (5,000 chars, 10 lines)]"),
    [["/t/a.txt", "fast"]],
  );
  assert.deepEqual(
    pointersIn("x\n[skillgate[cap]: output capped: showing the first 10 of 99 characters; the full output is in /t/b.txt — read or grep it there, in slices]"),
    [["/t/b.txt", undefined]],
  );
  assert.deepEqual(pointersIn("[skillgate summary without a path]"), []);
});

test("the CLI's --json carries budget (main) and subagents.budget", async () => {
  const { projects, table } = await setUp();
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-measure-budget-state-"));
  // The verb in this process (measure.test.ts runs the built command's measure).
  const run = await cliRun(["measure", "--projects", projects, "--since", "100000d", "--table", table, "--json"], {
    cwd: process.cwd(),
    env: { ...process.env, SKILLGATE_STATE: state },
  });
  assert.equal(run.code, 0, run.err);
  const r = JSON.parse(run.out) as MeasureResult;
  assert.equal(r.budget.profiles.fast.summarized, 1);
  assert.equal(r.budget.profiles.balanced.rawFallback, 1);
  assert.equal(r.subagents.budget.noResponse, 0);
});

test("stats: raw_fallback from the session's transcript where Claude Code keeps it; said when there is none", async () => {
  assert.ok(fs.existsSync(path.join(root, "dist", "cli.mjs")), "dist/cli.mjs is missing: npm test builds it first");
  const { projects, table } = await setUp();
  const { StateStore } = await import("../hooks/io/state-store.ts");
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-stats-fallback-"));
  const config = path.join(path.dirname(projects), "claude-config");
  fs.mkdirSync(path.join(config, "projects"), { recursive: true });
  const env = { ...process.env, SKILLGATE_STATE: state, SKILLGATE_TABLE: table, CLAUDE_CONFIG_DIR: config };
  const session = "cccccccc-0000-4000-a000-000000000003";
  new StateStore(state).update(session, (st) => ({ ...st, compactions: 1 }));
  const args = (json: boolean) => ["stats", "--session", session, ...(json ? ["--json"] : [])];
  // The built command once (its stats chunk); the later runs are the same verb in this process.
  const built = execFileSync(process.execPath, [path.join(root, "bin", "skillgate.mjs"), ...args(false)], {
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stats = async (json: boolean) => {
    const r = await cliRun(args(json), { cwd: process.cwd(), env });
    assert.equal(r.code, 0, r.err);
    return r.out;
  };
  assert.match(built, /raw fallback\s+unknown: no transcript of this session under .*claude-config\/projects/);
  fs.cpSync(projects, path.join(config, "projects"), { recursive: true });
  fs.renameSync(path.join(config, "projects", "-home-dev-project", "c.jsonl"), path.join(config, "projects", "-home-dev-project", `${session}.jsonl`));
  assert.match(await stats(false), /raw fallback\s+1 of 2 raw files a summary or cap pointed to were read back \(balanced 1\/2\); from .*cccccccc/);
  const j = JSON.parse(await stats(true)) as { rawFallback: { transcript: string; byProfile: Record<string, { pointers: number; read: number }> } };
  assert.deepEqual(j.rawFallback.byProfile, { balanced: { pointers: 2, read: 1 } });
});

test("a transcript of the real client (2.1.328, e2e/evidence-budget.test.ts's fast-profile run, its session lines only)", async () => {
  const dir = path.join(root, "test", "fixtures", "transcripts", "captured-budget-2.1.328");
  const table = path.join(root, "triggers.json");
  const r = await measure({ projects: dir, since: "100000d", table: await compiledTable(table), tableFile: table });
  const p = r.budget.profiles;
  // «low token mode please, then run the tests»: balanced at the start, fast after the prompt (the default table's mode-fast row).
  assert.deepEqual([p.balanced.sessions, p.fast.sessions], [1, 1]);
  // The transcript holds what the model saw (Claude Code writes the hook's updatedToolOutput): the summary, 1 pointer,
  // not the raw output, so nothing is left to re-decide.
  assert.deepEqual([p.fast.pointers, p.fast.rawFallback, p.fast.summarized], [1, 0, 0]);
  // The model reading the raw file back (a line added to a copy): raw_fallback 1.
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-measure-real-"));
  fs.cpSync(dir, copy, { recursive: true });
  const file = path.join(copy, "-tmp-skillgate-e2e-repo", "83e58d99-cfeb-4309-afff-77db10ee09ac.jsonl");
  const raw = /raw_evidence (\S+) \(/.exec(fs.readFileSync(file, "utf8"))?.[1];
  assert.ok(raw);
  const read = {
    type: "assistant",
    uuid: "added-read-1",
    sessionId: "83e58d99-cfeb-4309-afff-77db10ee09ac",
    cwd: "/tmp",
    message: {
      id: "msg_added",
      role: "assistant",
      model: "m",
      content: [{ type: "tool_use", id: "toolu_added", name: "Read", input: { file_path: raw } }],
      stop_reason: "tool_use",
    },
  };
  fs.appendFileSync(file, `${JSON.stringify(read)}\n`);
  const again = await measure({ projects: copy, since: "100000d", table: await compiledTable(table), tableFile: table });
  assert.equal(again.budget.profiles.fast.rawFallback, 1);
});
