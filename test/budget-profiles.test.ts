// Budget profiles wired into the hook: the session's profile and
// raw-pass counters in the state file and in `skillgate stats`; the state
// validator knows the new fields; the adapter carries what evidence needs.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runHook } from "../hooks/entries/claude-code.ts";
import { StateStore } from "../hooks/io/state-store.ts";
import { emptyState } from "../hooks/core/types.ts";
import { normalize, render } from "../hooks/hosts/claude-code/adapter.ts";
import { casesDir, cliRun, defaultTable, root } from "./helpers.ts";

const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(casesDir, "fixtures", `${name}.json`), "utf8")) as Record<string, unknown>;

function session() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-budget-"));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    SKILLGATE_TABLE: defaultTable,
    SKILLGATE_STATE: path.join(dir, "state"),
    SKILLGATE_OUTPUT_DIR: path.join(dir, "out"),
  };
  let n = 0;
  const send = async (name: string, over: Record<string, unknown>) => {
    const r = await runHook(JSON.stringify({ ...fixture(name), session_id: "budget-s", tool_use_id: `toolu_${++n}`, ...over }), { env, packageRoot: root });
    return { out: r.stdout ? (JSON.parse(r.stdout) as Record<string, any>) : {}, trace: r.trace };
  };
  return { dir, env, send };
}

const testLog = (fails: number) =>
  Array.from({ length: 400 }, (_, i) =>
    i % 80 === 7 && i / 80 < fails ? `not ok ${i} - computes total ${i}\n  ---\n  error: 'Expected 3, got 4'\n  ...` : `ok ${i} - computes total ${i}`,
  ).join("\n") + `\n# tests 400\n# pass ${400 - fails}\n# fail ${fails}\n`;

test("the session's profile and raw passes are kept in state and shown by stats", async () => {
  const s = session();
  const big = testLog(2);
  assert.ok(big.length > 4_000 && big.length < 20_000);
  // balanced: under the output-cap row's 20,000 nothing happens
  assert.equal(
    (await s.send("post-tool-use-bash", { tool_input: { command: "node --test" }, tool_response: { stdout: big, stderr: "" } })).trace?.verdict,
    "allow",
  );
  await s.send("user-prompt-submit", { prompt: "low token mode now" });
  const summarized = await s.send("post-tool-use-bash", { tool_input: { command: "node --test" }, tool_response: { stdout: big, stderr: "" } });
  const text: string = summarized.out.hookSpecificOutput?.updatedToolOutput?.stdout ?? "";
  assert.match(text, /budget_profile fast/);
  // every failing test name survives, and the raw file holds the whole output
  assert.match(text, /not ok 7 - computes total 7/);
  assert.match(text, /not ok 87 - computes total 87/);
  const rawPath = /raw_evidence (\S+)/.exec(text)?.[1] ?? "";
  assert.equal(fs.readFileSync(rawPath, "utf8"), big);
  assert.ok(text.length < big.length / 2, `${text.length} of ${big.length}`);
  // a writing command's output passes raw, counted
  await s.send("post-tool-use-bash", { tool_input: { command: "node --test > report.txt; cat report.txt" }, tool_response: { stdout: big, stderr: "" } });
  // after a high-risk write the session is audit
  await s.send("pre-tool-use-write", { tool_input: { file_path: "/home/dev/project/src/auth/login.ts", content: "x" } });
  const audited = await s.send("post-tool-use-bash", { tool_input: { command: "node --test" }, tool_response: { stdout: big, stderr: "" } });
  assert.equal(audited.out.hookSpecificOutput?.updatedToolOutput, undefined);
  const state = audited.trace?.state;
  assert.equal(state?.profile, "fast");
  assert.equal(state?.riskRow, "high-risk-writes");
  assert.deepEqual(state?.stats.summarized, { fast: 1 });
  assert.deepEqual(state?.stats.rawPasses, { write: 1, risk: 1 });

  // `skillgate stats` in this process, with the session's environment as its whole environment (measure-budget.test.ts runs the built command's stats).
  const out = await cliRun(["stats", "--session", "budget-s"], { cwd: root, env: s.env });
  assert.equal(out.code, 0, out.err);
  assert.match(out.out, /budget profile\s+audit \(raised to audit by risk row high-risk-writes; fast before\)/);
  assert.match(out.out, /summarized\s+1: fast 1/);
  assert.match(out.out, /passed raw\s+2: (write 1, risk 1|risk 1, write 1)/);
  const json = JSON.parse((await cliRun(["stats", "--session", "budget-s", "--json"], { cwd: root, env: s.env })).out);
  assert.equal(json.budgetProfile, "audit");
});

test("state files: the profile fields round-trip; an unknown profile makes the file corrupt", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-budget-state-"));
  const store = new StateStore(dir);
  const st = {
    ...emptyState(),
    profile: "precision" as const,
    riskRow: "r",
    stats: { ...emptyState().stats, summarized: { fast: 2 }, rawPasses: { write: 1 } },
  };
  store.update("s1", () => st);
  assert.deepEqual(store.read("s1").state, st);
  fs.writeFileSync(path.join(dir, "s2.json"), JSON.stringify({ ...emptyState(), profile: "turbo" }));
  assert.match(store.read("s2").warning ?? "", /unreadable/);
  fs.writeFileSync(path.join(dir, "s3.json"), JSON.stringify({ ...emptyState(), stats: { ...emptyState().stats, rawPasses: { write: "1" } } }));
  assert.match(store.read("s3").warning ?? "", /unreadable/);
});

test("adapter: failure text and duration reach the core; updatedInput is rendered as an allow", () => {
  const f = normalize({ ...fixture("post-tool-use-failure-bash") });
  assert.ok(f.ok && f.event.kind === "tool-failure");
  if (f.ok && f.event.kind === "tool-failure") {
    assert.match(f.event.error ?? "", /^Exit code 128/);
    assert.equal(f.event.durationMs, 31);
  }
  const r = normalize(fixture("post-tool-use-bash"));
  assert.ok(r.ok && r.event.kind === "tool-result" && r.event.durationMs === 19);
  const pre = normalize(fixture("pre-tool-use-bash"));
  assert.ok(pre.ok);
  if (!pre.ok) return;
  assert.deepEqual(pre.event.kind === "tool-call" ? pre.event.input : undefined, { command: "git commit -m 'first'", description: "commit" });
  const out = render(pre.event, { verdict: "allow", rows: [] }, { updatedInput: { command: "printf x", description: "commit" } });
  assert.deepEqual(out, {
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "printf x", description: "commit" } },
  });
  // a refusal wins over a rewrite
  const denied = render(pre.event, { verdict: "deny", rows: ["g"], message: "no" }, { updatedInput: { command: "printf x" } });
  assert.equal(denied?.hookSpecificOutput && (denied.hookSpecificOutput as Record<string, unknown>).permissionDecision, "deny");
});

test("the table's budgetProfile is where a session starts; the schema keeps mode, risk and evidence rows to their fields", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-budget-table-"));
  const t = JSON.parse(fs.readFileSync(defaultTable, "utf8")) as Record<string, unknown>;
  const file = path.join(dir, "triggers.json");
  fs.writeFileSync(file, JSON.stringify({ ...t, $schema: undefined, skillsDir: path.join(root, "skills"), budgetProfile: "fast" }));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    SKILLGATE_TABLE: file,
    SKILLGATE_STATE: path.join(dir, "state"),
    SKILLGATE_OUTPUT_DIR: path.join(dir, "out"),
  };
  const log = testLog(1);
  const r = await runHook(
    JSON.stringify({
      ...fixture("post-tool-use-bash"),
      session_id: "table-fast",
      tool_input: { command: "node --test" },
      tool_response: { stdout: log, stderr: "" },
    }),
    { env, packageRoot: root },
  );
  assert.equal(r.trace?.verdict, "cap", r.stderr);
  assert.match(JSON.parse(r.stdout).hookSpecificOutput.updatedToolOutput.stdout, /budget_profile fast/);

  const { validateTable } = await import("../hooks/core/table/schema.ts");
  const err = (row: unknown) => {
    const v = validateTable({ version: 1, rows: [row] }, "t.json");
    return v.ok ? "" : v.error;
  };
  assert.match(err({ id: "m", kind: "mode", when: { prompt: { words: ["x"] } } }), /mode rows \(and only they\) name a profile/);
  assert.match(err({ id: "m", kind: "mode", profile: "turbo", when: { prompt: { words: ["x"] } } }), /profile/);
  assert.match(err({ id: "m", kind: "mode", profile: "fast", when: { command: { name: "x" } } }), /when\.prompt only/);
  assert.match(err({ id: "r", kind: "risk", when: { prompt: { words: ["x"] } } }), /when\.writes or when\.command/);
  assert.match(err({ id: "h", kind: "hint", skill: "s", profile: "fast", when: { prompt: { words: ["x"] } } }), /name a profile/);
  assert.match(err({ id: "e", kind: "evidence", paths: ["../x"], when: { command: { name: "npm" } } }), /without \.\./);
  assert.match(err({ id: "e", kind: "evidence", paths: ["src"], when: { command: { name: "npm" }, prompt: { words: ["x"] } } }), /when\.command only/);
  assert.equal(
    validateTable({ version: 1, budgetProfile: "precision", rows: [{ id: "r", kind: "risk", when: { writes: ["**/migrations/**"] } }] }, "t.json").ok,
    true,
  );
  assert.equal(validateTable({ version: 1, budgetProfile: "turbo", rows: [{ id: "r", kind: "risk", when: { writes: ["x"] } }] }, "t.json").ok, false);
});
