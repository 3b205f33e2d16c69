// The JSON cases: every one in-process through runHook() (what `skillgate
// cases` does), a smoke of representative ones through the built hook under
// Node and Bun, and the case format's own checks (strict schema, rows from
// the trace, never from message text).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { caseJsonSchema, CaseFormatError, fixturesIn, loadCases, type Case } from "../cli/cases/format.ts";
import { inProcessInvoker, processInvoker, runCase, runCases, type Invoke } from "../cli/cases/runner.ts";
import { resolveSuite, rowIds, suiteCases } from "../cli/cases/suite.ts";
import { CASE_HOSTS } from "../cli/cases/hosts/index.ts";
import { HOST_NAMES } from "../cli/cases/format.ts";
import { findBun } from "../cli/install.ts";
import { loadEngine } from "../scripts/fuzz.ts";
import { bunHookBundle, casesDir, cliRun, defaultTable, hookBundle, legacyHookBundle, root } from "./helpers.ts";

// runHook bundled (as dist/ ships it, as in mutation.test.ts): under tsx each dynamic import the engine
// does per event is a round trip to tsx's loader thread. The CLI's verbs below (cliRun) run the source.
const engine = await loadEngine("bundle");
process.on("exit", engine.cleanup);
const inProcess = inProcessInvoker(root, engine.runHook);

const suite = await resolveSuite({ packageRoot: root, table: defaultTable, cases: casesDir });
const cases = suiteCases(suite);
const byId = new Map(cases.map((c) => [c.id, c]));

describe("every case, in-process through runHook()", () => {
  for (const c of cases) {
    test(c.id, async () => {
      const r = await runCase(c, { table: defaultTable, invoke: inProcess });
      assert.deepEqual(r.failures, [], r.failures.join("\n"));
    });
  }
});

// Each case again as every other host's payloads, through that host's adapter: it passes, or is skipped
// with the reason (an event the host cannot send), or leaves named expectations unchecked (a cap on a host
// that cannot replace output). The floors keep the cases that really run on a host from shrinking unnoticed.
const RUN_FLOOR: Record<string, number> = { "claude-code": 97, codex: 80, gemini: 79, copilot: 86, opencode: 76, cursor: 69 };

describe("every case, as every host's payloads", () => {
  for (const host of CASE_HOSTS.filter((h) => !h.native)) {
    test(host.name, async () => {
      const results = await runCases(cases, { table: defaultTable, invoke: inProcess, host, skillsDir: suite.compiled.skillsDir });
      const failed = results.filter((r) => !r.ok);
      assert.deepEqual(
        failed.map((r) => `${r.id}: ${r.failures.join("; ")}`),
        [],
      );
      for (const r of results) {
        assert.equal(r.host, host.name);
        if (r.skipped !== undefined) assert.match(r.skipped, /^(step \d+ \(.+\): |the case says|its table)/, `${r.id}: a skip names its step and reason`);
        for (const u of r.unchecked) assert.match(u, /^step \d+ \(.+\): /, `${r.id}: an unchecked expectation names its step`);
      }
      const ran = results.filter((r) => r.skipped === undefined).length;
      assert.ok(ran >= (RUN_FLOOR[host.name] ?? Infinity), `${host.name}: ${ran} cases run, pinned at ${RUN_FLOOR[host.name]}`);
    });
  }
});

test("the case format and the runner name the same hosts", () => {
  assert.deepEqual([...HOST_NAMES].sort(), CASE_HOSTS.map((h) => h.name).sort());
});

test("a host that cannot do what a step expects says so: Codex leaves a cap unchecked, never passes it silently", async () => {
  const c = byId.get("cap-bash-output-30000-lines") ?? assert.fail("no cap case");
  const codex = CASE_HOSTS.find((h) => h.name === "codex")!;
  const r = await runCase(c, { table: defaultTable, invoke: inProcess, host: codex, skillsDir: suite.compiled.skillsDir });
  assert.equal(r.skipped, undefined);
  assert.ok(
    r.unchecked.some((u) => /expects cap, but Codex cannot replace a tool's output/.test(u)),
    r.unchecked.join("\n"),
  );
});

test("an event a host cannot send skips the case there, with the step and the reason", async () => {
  const c = byId.get("allow-general-purpose-subagent") ?? assert.fail("no subagent case");
  const codex = CASE_HOSTS.find((h) => h.name === "codex")!;
  const r = await runCase(c, { table: defaultTable, invoke: inProcess, host: codex, skillsDir: suite.compiled.skillsDir });
  assert.equal(r.skipped, "step 1 (tool-call subagent): Codex has no subagent tool");
});

test("a host's wrong answer turns the case red: the commit gate expected to allow on Gemini fails", async () => {
  const c = byId.get("gate-commit-denied-without-skill") ?? assert.fail("no case");
  const wrong: Case = { ...c, steps: c.steps.map((s) => ({ ...s, expect: { ...s.expect, verdict: "allow" as const, rows: [] } })) };
  const gemini = CASE_HOSTS.find((h) => h.name === "gemini")!;
  const r = await runCase(wrong, { table: defaultTable, invoke: inProcess, host: gemini, skillsDir: suite.compiled.skillsDir });
  assert.equal(r.ok, false);
  assert.match(r.failures.join("\n"), /expected allow \[\], got deny \[commit-gate\]: .*call activate_skill with name "commit"/);
});

test("the case corpus does not shrink: at least as many cases per family as today", () => {
  const floor: Record<string, number> = { allow: 5, block: 4, broken: 2, budget: 3, cap: 3, gate: 28, hint: 13, judgment: 3, stop: 6, opaque: 3, subagent: 3 };
  const count: Record<string, number> = {};
  for (const c of cases) {
    const family = c.id.split("-")[0] ?? "";
    count[family] = (count[family] ?? 0) + 1;
  }
  for (const [family, n] of Object.entries(floor)) assert.ok((count[family] ?? 0) >= n, `family ${family}: ${count[family] ?? 0} cases, pinned at ${n}`);
  assert.ok(cases.length >= 88, `only ${cases.length} cases`);
});

// ≈10 cases covering every verdict, a failure path, a transcript read, a capped output and state across steps.
const SMOKE = [
  "gate-commit-deny-load-allow",
  "block-force-push",
  "gate-paired-docs-heredoc-into-file",
  "gate-delegate-executor",
  "hint-logs-once",
  "stop-done-blocked",
  "cap-bash-output-30000-lines",
  "budget-reminder-once-per-level",
  "handoff-reminder-after-first-compaction",
  "broken-table-fail-closed",
  "hostile-session-id",
];

test("the process smoke covers every verdict", () => {
  const verdicts = new Set(SMOKE.flatMap((id) => byId.get(id)?.steps.map((s) => s.expect.verdict) ?? assert.fail(`no case ${id}`)));
  assert.deepEqual([...verdicts].sort(), ["allow", "block", "cap", "deny", "hint"]);
});

/** Bun is the runtime `install --runtime bun` writes: missing is a failure in CI, a visible skip on a developer's machine. */
function bunLeg(bun: string | undefined, env: NodeJS.ProcessEnv): { run: true } | { run: false; fail?: string; skip?: string } {
  if (bun) return { run: true };
  const why = "no bun on PATH nor SKILLGATE_BUN (.ci/run puts a pinned one in .ci/tools)";
  return env.CI ? { run: false, fail: `${why}; CI is set, so the Bun leg must run` } : { run: false, skip: why };
}

test("a missing Bun fails in CI and is a visible skip locally", () => {
  assert.deepEqual(bunLeg("/x/bun", { CI: "1" }), { run: true });
  assert.match(String((bunLeg(undefined, { CI: "true" }) as { fail?: string }).fail), /CI is set/);
  const local = bunLeg(undefined, {}) as { skip?: string; fail?: string };
  assert.equal(local.fail, undefined);
  assert.match(String(local.skip), /no bun on PATH/);
});

// The dist/hook.mjs leg only proves that older installs' settings still reach the bundle the dist/hook.cjs
// leg runs every smoke case through (hook.mjs loads dist/hook.cjs and calls its run()): a case that decides
// across steps (6 processes) and a fail-closed one show that; the other nine would test that bundle again.
const LEGACY_SMOKE = ["gate-commit-deny-load-allow", "broken-table-fail-closed"];

const bun = findBun(root);
// Each route as install writes it (Node: dist/hook.cjs; Bun: its bytecode build), and the
// dist/hook.mjs older installs' settings still run.
for (const [name, exe, bundle, ids] of [
  ["node", process.execPath, hookBundle, SMOKE],
  ["node", process.execPath, legacyHookBundle, LEGACY_SMOKE],
  ["bun", bun, bunHookBundle, SMOKE],
] as const) {
  test(`process smoke: ${ids.length} cases through dist/${path.basename(bundle)} under ${name}`, async (t) => {
    if (name === "bun") {
      const leg = bunLeg(exe, process.env);
      if (!leg.run) {
        if (leg.fail) assert.fail(leg.fail);
        t.skip(leg.skip);
        return;
      }
    }
    assert.ok(fs.existsSync(bundle), `${bundle} is missing: npm run build`);
    assert.ok(exe);
    const smoke = ids.map((id) => byId.get(id) ?? assert.fail(`no case ${id}`));
    const results = await runCases(smoke, { table: defaultTable, invoke: processInvoker([exe, bundle]), parallel: 3 });
    const failed = results.filter((r) => !r.ok);
    assert.deepEqual(failed, [], failed.map((r) => `${r.id}:\n  ${r.failures.join("\n  ")}`).join("\n"));
  });
}

// ───────────── the format ─────────────

/** A cases folder with the given files (name → JSON value or raw text). */
function folder(files: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-casefmt-"));
  for (const [name, v] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), typeof v === "string" ? v : JSON.stringify(v, null, 2));
  return dir;
}

const good = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  description: "d",
  steps: [{ fixture: "pre-tool-use-bash", expect: { verdict: "deny", rows: ["commit-gate"] } }],
  ...extra,
});

function problemsOf(files: Record<string, unknown>): string[] {
  const dir = folder(files);
  try {
    loadCases(dir, { fixtureDirs: suite.fixtureDirs, tableRows: rowIds(suite.compiled) });
    return [];
  } catch (e) {
    if (!(e instanceof CaseFormatError)) throw e;
    return e.problems.map((p) => p.replace(dir + path.sep, ""));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("the case format is strict", () => {
  test("a well-formed case loads", () => {
    assert.deepEqual(problemsOf({ "a.json": good("a") }), []);
  });
  test('a typo ("say" for "expect") is an error naming file, step and field', () => {
    const c = good("a");
    c.steps.push({ fixture: "stop", say: { verdict: "allow", rows: [] } } as never);
    const p = problemsOf({ "a.json": c });
    assert.ok(
      p.some((x) => x === 'a.json: step 2 (stop), unknown key "say"'),
      p.join("\n"),
    );
    assert.ok(
      p.some((x) => /a\.json: step 2 \(stop\), expect: /.test(x)),
      p.join("\n"),
    );
  });
  test("an unknown key inside expect, with a suggestion; the old names say what they became", () => {
    const c = good("a");
    (c.steps[0]!.expect as Record<string, unknown>).matchd = [];
    (c.steps[0]!.expect as Record<string, unknown>).says = "x";
    const p = problemsOf({ "a.json": c });
    assert.ok(p.includes('a.json: step 1 (pre-tool-use-bash), expect: unknown key "matchd" (did you mean "matched"?)'), p.join("\n"));
    assert.ok(p.includes('a.json: step 1 (pre-tool-use-bash), expect: unknown key "says" (renamed: use "messageIncludes")'), p.join("\n"));
  });
  test("unknown keys at the top and in state are errors", () => {
    const p = problemsOf({ "a.json": good("a", { expectStat: {}, state: { loaded: [], lodaed: [] } }) });
    assert.ok(p.includes('a.json: unknown key "expectStat" (did you mean "expectState"?)'), p.join("\n"));
    assert.ok(p.includes('a.json: state: unknown key "lodaed" (did you mean "loaded"?)'), p.join("\n"));
  });
  test("id must be the file name; duplicate ids name both files", () => {
    const p = problemsOf({ "a.json": good("a"), "b.json": good("a") });
    assert.ok(p.includes('b.json: id is "a" but the file is b.json: they must be the same'), p.join("\n"));
    assert.ok(
      p.some((x) => x.startsWith('b.json: id "a" is also the id of ') && x.endsWith("a.json")),
      p.join("\n"),
    );
  });
  test("an unknown fixture is an error with the nearest name", () => {
    const c = good("a");
    c.steps[0]!.fixture = "pre-tool-use-bsh";
    const p = problemsOf({ "a.json": c });
    assert.deepEqual(p, ['a.json: step 1 (pre-tool-use-bsh), fixture: no fixture "pre-tool-use-bsh" (did you mean "pre-tool-use-bash"?)']);
  });
  test("rows named in expectations must exist in the table under test", () => {
    const c = good("a");
    c.steps[0]!.expect = { verdict: "deny", rows: ["comit-gate"], matched: ["nope"] } as never;
    const p = problemsOf({ "a.json": c });
    assert.ok(
      p.includes('a.json: step 1 (pre-tool-use-bash), expect.rows: no row "comit-gate" in the table under test (did you mean "commit-gate"?)'),
      p.join("\n"),
    );
    assert.ok(
      p.some((x) => x.startsWith('a.json: step 1 (pre-tool-use-bash), expect.matched: no row "nope"')),
      p.join("\n"),
    );
  });
  test("a field of `with` no event has is an error (tool_imput)", () => {
    const c = good("a");
    (c.steps[0] as Record<string, unknown>).with = { tool_imput: { command: "git commit" } };
    const p = problemsOf({ "a.json": c });
    assert.deepEqual(p, ['a.json: step 1 (pre-tool-use-bash), with.tool_imput: not a field of any event (did you mean "tool_input"?)']);
  });
  test("bad verdicts, empty steps and broken JSON are reported, every file at once", () => {
    const c = good("b");
    c.steps[0]!.expect.verdict = "refuse";
    const p = problemsOf({ "a.json": "{ not json", "b.json": c, "c.json": { id: "c", description: "d", steps: [] } });
    assert.equal(p.length, 3, p.join("\n"));
    assert.match(p[0]!, /^a\.json: not valid JSON/);
    assert.match(p[1]!, /^b\.json: step 1 \(pre-tool-use-bash\), expect\.verdict: /);
    assert.match(p[2]!, /^c\.json: steps: /);
  });
});

test("cases/case.schema.json is the schema the loader enforces (regenerate: node --import tsx cli/cases/case-schema.ts)", () => {
  const want = caseJsonSchema([...fixturesIn(suite.fixtureDirs).keys()]);
  const file = path.join(casesDir, "case.schema.json");
  assert.deepEqual(JSON.parse(fs.readFileSync(file, "utf8")), want);
  // Strict for editors too: an unknown key is flagged in the editor, not only by the loader.
  const s = want as {
    additionalProperties?: boolean;
    properties: { steps: { items: { additionalProperties?: boolean; properties: { expect: { additionalProperties?: boolean } } } } };
  };
  assert.equal(s.additionalProperties, false);
  assert.equal(s.properties.steps.items.additionalProperties, false);
  assert.equal(s.properties.steps.items.properties.expect.additionalProperties, false);
});

describe("expectations are checked against the trace", () => {
  const c: Case = byId.get("gate-commit-denied-without-skill") ?? assert.fail("no case");
  const deny = JSON.stringify({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "skillgate[commit-gate] load skill commit" },
  });
  // The first step, verdict and rows only: the point here is where they are read from.
  const first = c.steps[0] ?? assert.fail("no step");
  const run = (invoke: Invoke) =>
    runCase({ ...c, expectState: undefined, steps: [{ ...first, expect: { verdict: "deny", rows: ["commit-gate"] } }] }, { table: defaultTable, invoke });

  test("rows are never read from the message text", async () => {
    // The message names a row the trace does not: the trace wins, so the case is red.
    const r = await run(async () => ({ stdout: deny, stderr: "", trace: { verdict: "deny", rows: [], matched: [], state: {} as never } }));
    assert.ok(
      r.failures.some((f) => f.includes("expected deny [commit-gate], got deny []")),
      r.failures.join("\n"),
    );
  });
  test("a run without a trace decided nothing: no rows, whatever the text says", async () => {
    const r = await run(async () => ({ stdout: deny, stderr: "" }));
    assert.ok(
      r.failures.some((f) => f.includes("got deny []")),
      r.failures.join("\n"),
    );
  });
  test("the answer must express the trace's verdict", async () => {
    const r = await run(async () => ({
      stdout: "",
      stderr: "",
      trace: { verdict: "deny", rows: ["commit-gate"], matched: ["commit-gate"], state: {} as never },
    }));
    assert.deepEqual(r.failures, ["step 1 (tool-call shell): the trace says deny but the answer says allow"]);
  });
  test("the process leg reads the trace from the skillgate-trace stderr line", async () => {
    const fake = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-fakehook-"));
    const script = path.join(fake, "hook.mjs");
    const trace = { verdict: "deny", rows: ["commit-gate"], matched: ["commit-gate"], state: { loaded: [] } };
    fs.writeFileSync(
      script,
      `process.stdout.write(${JSON.stringify(deny)}); process.stderr.write("note\\nskillgate-trace " + ${JSON.stringify(JSON.stringify(trace))} + "\\n");`,
    );
    try {
      const ran = await processInvoker([process.execPath, script])("{}", { PATH: process.env.PATH });
      assert.deepEqual(ran.trace, trace);
      assert.equal(ran.stderr.includes("skillgate-trace"), false);
      assert.deepEqual((await run(processInvoker([process.execPath, script]))).failures, []);
    } finally {
      fs.rmSync(fake, { recursive: true, force: true });
    }
  });
});

// ───────────── a project's own table and cases ─────────────

// One project, the tests in order: each builds on the cases the one before wrote.
describe("a project's own cases: skillgate cases / --new / mutate from the project root", () => {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-project-"));
  const claude = path.join(project, ".claude");
  const own = path.join(claude, "skillgate", "cases");
  const table = {
    version: 1,
    skillsDir: "skills",
    rows: [
      { id: "deploy-gate", kind: "gate", skill: "deploy", when: { command: { name: "make", sub: ["deploy"] } } },
      { id: "rm-rf-block", kind: "block", when: { command: { name: "rm", args: ["-rf"] } } },
      { id: "secrets-write-gate", kind: "gate", skill: "secrets", when: { writes: ["**/secrets/**"] } },
      { id: "deploy-hint", kind: "hint", skill: "deploy", when: { prompt: { words: ["deploy(ment)?"] } } },
      { id: "done-gate", kind: "gate", skill: "done", when: { final: { words: ["done"] } } },
      { id: "test-judgment", kind: "judgment", skill: "testing", when: { command: { name: "npm", sub: ["test"] } } },
      { id: "big-output-cap", kind: "cap", when: { output: { tools: ["shell"], maxChars: 1000 } } },
      { id: "context-budget", kind: "budget", when: { context: { levels: [100000] } } },
      { id: "handoff-after-compaction", kind: "hint", skill: "deploy", when: { compactions: { max: 2 } } },
      // A lookbehind is beyond the starter's sampler: its case is a TODO.
      { id: "odd-pattern-hint", kind: "hint", skill: "deploy", when: { prompt: { pattern: "(?<=re)deploy" } } },
    ],
  };
  fs.mkdirSync(claude, { recursive: true });
  fs.writeFileSync(path.join(claude, "triggers.json"), JSON.stringify(table, null, 2));
  for (const s of ["deploy", "secrets", "done", "testing"]) {
    fs.mkdirSync(path.join(claude, "skills", s), { recursive: true });
    fs.writeFileSync(path.join(claude, "skills", s, "SKILL.md"), `---\nname: ${s}\ndescription: ${s}\n---\n# ${s}\n`);
  }
  const env = { ...process.env };
  for (const k of ["SKILLGATE_TABLE", "CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "SKILLGATE_STATE"]) delete env[k];
  // In-process: the verbs' output and exit codes are what is tested, not the process (cli.test.ts runs the binary).
  const sg = (...args: string[]) => cliRun(args, { cwd: project, env });
  process.on("exit", () => fs.rmSync(project, { recursive: true, force: true }));

  test("no cases yet: a one-line setup error (exit 3) that says how to start", async () => {
    const r = await sg("cases");
    assert.equal(r.code, 3, r.out + r.err);
    assert.match(r.err, /^skillgate cases: no cases folder .*\.claude\/skillgate\/cases: write a first case with `skillgate cases --new <row id>`/);
    assert.equal(r.err.trim().split("\n").length, 1);
  });

  test("--new ROW writes a starter case that passes for gate, block, hint, judgment, cap, budget and compaction rows", async () => {
    const passing = table.rows.filter((r) => r.id !== "odd-pattern-hint");
    const r = await sg("cases", "--new", passing[0]?.id ?? "");
    assert.equal(r.code, 0, r.out + r.err);
    // --new takes a list too (and `all`: every row without a case of its name).
    const rest = await sg(
      "cases",
      "--new",
      passing
        .slice(1)
        .map((x) => x.id)
        .join(","),
    );
    assert.equal(rest.code, 0, rest.out + rest.err);
    for (const row of passing) {
      assert.match(r.out + rest.out, new RegExp(`wrote .*${row.id}\\.json\\nit passes on .*triggers\\.json`), `${row.id}: ${r.out + rest.out}`);
      const c = JSON.parse(fs.readFileSync(path.join(own, `${row.id}.json`), "utf8"));
      assert.equal(c.id, row.id);
      assert.ok(
        c.steps.some((s: { expect: { rows: string[]; matched?: string[] } }) => s.expect.rows.includes(row.id) || s.expect.matched?.includes(row.id)),
        JSON.stringify(c),
      );
      // The $schema reference resolves to the package's schema.
      assert.ok(fs.existsSync(path.resolve(own, c.$schema)), c.$schema);
    }
    const again = await sg("cases", "--new", "deploy-gate");
    assert.equal(again.code, 1, "an existing case is never overwritten");
    assert.match(again.err, /deploy-gate\.json already exists; it is left as it is/);
    assert.match((await sg("cases", "--new", "no-such-row")).err, /no row "no-such-row" in .*triggers\.json/);
  });

  test("a row no event can be generated for gets a TODO case that fails until filled in", async () => {
    const r = await sg("cases", "--new", "all");
    assert.equal(r.code, 0, r.err);
    assert.equal((r.out.match(/^wrote /gm) ?? []).length, 1, r.out);
    assert.match(r.out, /it FAILS until you fill it in \(no matching event could be made/);
    assert.match(JSON.parse(fs.readFileSync(path.join(own, "odd-pattern-hint.json"), "utf8")).description, /^TODO/);
    const all = await sg("cases");
    assert.equal(all.code, 1, all.out);
    assert.match(all.out, /^table: .*\.claude\/triggers\.json \(10 rows\)\ncases: .*\.claude\/skillgate\/cases\n/);
    assert.match(all.out, /FAIL odd-pattern-hint/);
    assert.match(all.out, /9\/10 cases pass/);
  });

  test("mutate runs the project's cases against the project's table and names the unpinned row", async () => {
    fs.rmSync(path.join(own, "odd-pattern-hint.json"));
    assert.equal((await sg("cases")).code, 0);
    const r = await sg("mutate", "--json");
    assert.equal(r.code, 1, r.out + r.err);
    const report = JSON.parse(r.out);
    assert.deepEqual(report.table, { path: path.join(claude, "triggers.json"), rows: table.rows.length });
    assert.deepEqual(report.unpinned, ["odd-pattern-hint"]);
    assert.deepEqual(report.baseline, []);
    for (const row of report.rows) if (row.row !== "odd-pattern-hint") assert.ok(row.red.length > 0, row.row);
  });

  test("--cases DIR and --table FILE point elsewhere; a typo in a case is a one-line error per problem (exit 1)", async () => {
    const dir = path.join(project, "other-cases");
    fs.mkdirSync(dir);
    const c = JSON.parse(fs.readFileSync(path.join(own, "rm-rf-block.json"), "utf8"));
    c.steps[0].say = c.steps[0].expect;
    fs.writeFileSync(path.join(dir, "rm-rf-block.json"), JSON.stringify(c));
    const r = await sg("cases", "--cases", dir, "--table", path.join(claude, "triggers.json"));
    assert.equal(r.code, 1);
    assert.match(r.err, /rm-rf-block\.json: step 1 \(tool-call shell\), unknown key "say"/);
    const json = await sg("cases", "--cases", dir, "--json");
    assert.equal(json.code, 1);
    assert.deepEqual(JSON.parse(json.out), { ok: false, problems: [`${path.join(dir, "rm-rf-block.json")}: step 1 (tool-call shell), unknown key "say"`] });
  });
});

test("the examples in docs/cases.md are valid cases that pass on the default table", async () => {
  const doc = fs.readFileSync(path.join(root, "docs", "cases.md"), "utf8");
  const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1] ?? "") as { id: string; $schema?: string });
  assert.ok(blocks.length >= 4, `${blocks.length} examples`);
  const files: Record<string, unknown> = {};
  for (const b of blocks) files[`${b.id}.json`] = { ...b, $schema: undefined };
  const dir = folder(files);
  try {
    const docCases = loadCases(dir, { fixtureDirs: suite.fixtureDirs, tableRows: rowIds(suite.compiled) });
    const results = await runCases(docCases, { table: defaultTable, invoke: inProcess });
    assert.deepEqual(
      results.filter((r) => !r.ok),
      [],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a step-level typo suggests a step field", () => {
  const c = good("a");
  (c.steps[0] as Record<string, unknown>).expct = {};
  assert.ok(problemsOf({ "a.json": c }).includes('a.json: step 1 (pre-tool-use-bash), unknown key "expct" (did you mean "expect"?)'));
});

// ───────────── host-neutral events ─────────────

describe("steps in the host-neutral vocabulary", () => {
  const skillMd = path.join(root, "skills", "commit", "SKILL.md");
  const neutral: Record<string, unknown>[] = [
    good("n-shell-gate", {
      steps: [
        { event: { kind: "tool-call", tool: "shell", command: "git commit -m x" }, expect: { verdict: "deny", rows: ["commit-gate"] } },
        { event: { kind: "tool-result", tool: "skill", skill: "commit", ok: false }, expect: { verdict: "allow", rows: [] } },
        { event: { kind: "tool-call", tool: "shell", command: "git commit -m x" }, expect: { verdict: "deny", rows: ["commit-gate"] } },
        { event: { kind: "tool-result", tool: "skill", skill: "commit" }, expect: { verdict: "allow", rows: [] } },
        { event: { kind: "tool-call", tool: "shell", command: "git commit -m x" }, expect: { verdict: "allow", rows: [], matched: ["commit-gate"] } },
        { event: { kind: "compaction", phase: "before" }, expect: { verdict: "allow", rows: [] } },
        { event: { kind: "session-start", source: "compact" }, expect: { verdict: "hint", rows: ["handoff-after-compaction"] } },
        { event: { kind: "tool-call", tool: "shell", command: "git commit -m x" }, expect: { verdict: "deny", rows: ["commit-gate"] } },
      ],
      expectState: { compactions: 1 },
    }),
    good("n-files", {
      steps: [
        { event: { kind: "tool-call", tool: "write", path: "docs/a_RU.md", content: "x" }, expect: { verdict: "deny", rows: ["paired-docs-write"] } },
        { event: { kind: "tool-call", tool: "edit", path: "/srv/b_EN.md" }, expect: { verdict: "deny", rows: ["paired-docs-write"] } },
        { event: { kind: "tool-call", tool: "read", path: "docs/a_RU.md" }, expect: { verdict: "allow", rows: [] } },
        { event: { kind: "tool-call", tool: "write", path: "db/migrations/001.sql" }, expect: { verdict: "deny", rows: ["migrations-write-gate"] } },
      ],
    }),
    good("n-loads", {
      steps: [
        { event: { kind: "tool-result", tool: "read", path: skillMd }, expect: { verdict: "allow", rows: [] } },
        { event: { kind: "prompt-expansion", command: "release" }, expect: { verdict: "allow", rows: [] } },
        { event: { kind: "tool-call", tool: "shell", command: "npm publish" }, expect: { verdict: "allow", rows: [], matched: ["release-publish-gate"] } },
        { event: { kind: "tool-failure", tool: "shell", command: "git commit -m x", error: "exit 1" }, expect: { verdict: "allow", rows: [] } },
      ],
      expectState: { loaded: ["commit", "release"] },
    }),
    good("n-subagents-and-stops", {
      steps: [
        { event: { kind: "tool-call", tool: "subagent", subagentType: "executor" }, expect: { verdict: "deny", rows: ["delegate-executor"] } },
        {
          event: { kind: "tool-call", tool: "shell", command: "git push origin HEAD", inSubagent: true },
          expect: { verdict: "deny", rows: ["push-head-block"] },
        },
        // Skill rows apply in subagents too (they have the skill tool): each agent loads for itself.
        { event: { kind: "tool-call", tool: "shell", command: "git commit -m x", inSubagent: true }, expect: { verdict: "deny", rows: ["commit-gate"] } },
        { event: { kind: "prompt", text: "check the logs" }, expect: { verdict: "hint", rows: ["logs-hint"] } },
        { event: { kind: "stop", final: "✅ готово", inSubagent: true }, expect: { verdict: "block", rows: ["done-check-final"] } },
        { event: { kind: "stop", final: "✅ готово", inSubagent: true, continuing: true }, expect: { verdict: "allow", rows: [] } },
        { event: { kind: "stop", final: "✅ готово" }, expect: { verdict: "block", rows: ["done-check-final"] } },
        { event: { kind: "stop", final: "✅ готово", continuing: true }, expect: { verdict: "allow", rows: [] } },
        { event: { kind: "session-start", source: "clear" }, expect: { verdict: "allow", rows: [] } },
      ],
    }),
    good("n-output", {
      steps: [
        {
          event: { kind: "tool-result", tool: "shell", command: "seq 1 9999", output: "1\n".repeat(12_000) },
          expect: { verdict: "cap", rows: ["output-cap"], messageIncludes: "output capped" },
        },
        { event: { kind: "tool-result", tool: "shell", command: "ls", output: "a\nb\n" }, expect: { verdict: "allow", rows: [] } },
      ],
    }),
  ];
  // n-* ids are written to files named after them.
  const files = Object.fromEntries(neutral.map((c) => [`${c.id}.json`, c]));

  test("each kind of event, played on Claude Code, decides as the fixture-based cases do", async () => {
    const dir = folder(files);
    try {
      const loaded = loadCases(dir, { fixtureDirs: suite.fixtureDirs, tableRows: rowIds(suite.compiled) });
      const results = await runCases(loaded, { table: defaultTable, invoke: inProcess });
      assert.deepEqual(
        results.filter((r) => !r.ok),
        [],
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a neutral step is checked as strictly: missing fields, unknown kinds, event with fixture", () => {
    const c = good("a", {
      steps: [
        { event: { kind: "tool-call", tool: "shell" }, expect: { verdict: "deny", rows: [] } },
        { event: { kind: "tool-call", tool: "shell", comand: "x", command: "x" }, expect: { verdict: "allow", rows: [] } },
        { event: { kind: "tool cal", tool: "shell", command: "x" }, expect: { verdict: "allow", rows: [] } },
        { event: { kind: "prompt", text: "x" }, fixture: "stop", expect: { verdict: "allow", rows: [] } },
        { event: { kind: "prompt", text: "x" }, with: { prompt: "y" }, expect: { verdict: "allow", rows: [] } },
        { expect: { verdict: "allow", rows: [] } },
      ],
    });
    const p = problemsOf({ "a.json": c });
    assert.ok(p.includes('a.json: step 1 (tool-call shell), event.command: a tool-call of a shell tool needs "command"'), p.join("\n"));
    assert.ok(p.includes('a.json: step 2 (tool-call shell), event: unknown key "comand" (did you mean "command"?)'), p.join("\n"));
    assert.ok(
      p.some((x) => x.startsWith("a.json: step 3 (tool cal shell), event.kind: ")),
      p.join("\n"),
    );
    assert.ok(p.includes('a.json: step 4 (stop), (top): give "event" (host-neutral) or "fixture" (a captured payload): one of them'), p.join("\n"));
    assert.ok(p.includes('a.json: step 5 (prompt), with: "with" changes a fixture; with "event", say it in the event'), p.join("\n"));
    assert.ok(p.includes('a.json: step 6, (top): give "event" (host-neutral) or "fixture" (a captured payload): one of them'), p.join("\n"));
  });
});
