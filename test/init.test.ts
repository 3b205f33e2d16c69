// `skillgate init --extends`: a fresh project whose table extends the default.
// The table has no rows of its own; the default's skills are copied where the
// Skill tool finds them; the default's own cases are written and pass; install,
// doctor, lint and mutation work on it; the hook gates commits with the default's row.
// Run: node --import tsx --test test/init.test.ts (needs dist/, as npm test builds it)
import { test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { initMain } from "../cli/init.ts";
import { cli } from "../cli/main.ts";
import { doctorMain, installMain } from "../cli/install.ts";
import { lintProject } from "../cli/lint.ts";
import { casesMain } from "../cli/cases/main.ts";
import { mutate } from "../cli/cases/mutate.ts";
import { inProcessInvoker } from "../cli/cases/runner.ts";
import { resolveSuite, suiteCases } from "../cli/cases/suite.ts";
import { runHook } from "../hooks/entries/claude-code.ts";
import { root as ROOT, casesDir } from "./helpers.ts";

function setEnv(t: TestContext, name: string, value: string | undefined): void {
  const old = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  t.after(() => (old === undefined ? delete process.env[name] : (process.env[name] = old)));
}

async function run(t: TestContext, fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  t.mock.method(console, "log", (...a: unknown[]) => lines.push(a.join(" ")));
  t.mock.method(console, "error", (...a: unknown[]) => lines.push(a.join(" ")));
  try {
    return { code: await fn(), out: lines.join("\n") };
  } finally {
    t.mock.restoreAll();
  }
}

/** A fresh project with skillgate as a dependency, and a private HOME and state folder. */
function freshProject(t: TestContext): { dir: string; state: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-init-"));
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  const dir = path.join(base, "project");
  const home = path.join(base, "home");
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  fs.mkdirSync(home);
  fs.symlinkSync(ROOT, path.join(dir, "node_modules", "skillgate"));
  setEnv(t, "HOME", home);
  setEnv(t, "XDG_STATE_HOME", undefined);
  setEnv(t, "SKILLGATE_TABLE", undefined);
  setEnv(t, "CLAUDE_PROJECT_DIR", undefined);
  const state = path.join(base, "state");
  setEnv(t, "SKILLGATE_STATE", state);
  return { dir, state };
}

const defaultRows = () => (JSON.parse(fs.readFileSync(path.join(ROOT, "triggers.json"), "utf8")) as { rows: { id: string; skill?: string }[] }).rows;

test("init --extends: a table that extends the default, its skills, the default's cases (green), install, doctor, lint", async (t) => {
  const { dir } = freshProject(t);
  const r = await run(t, () => initMain(["--project", dir, "--extends"], ROOT));
  assert.equal(r.code, 0, r.out);
  const tableFile = path.join(dir, ".claude", "triggers.json");
  const table = JSON.parse(fs.readFileSync(tableFile, "utf8")) as Record<string, unknown>;
  assert.deepEqual(table, { $schema: "../node_modules/skillgate/triggers.schema.json", version: 1, extends: "default", rows: [] });
  assert.ok(fs.existsSync(path.resolve(path.dirname(tableFile), String(table.$schema))));

  // Every skill the default's rows name, where the Skill tool looks.
  const skills = [...new Set(defaultRows().flatMap((row) => (row.skill ? [row.skill] : [])))];
  assert.ok(skills.length > 5);
  for (const s of skills) assert.ok(fs.existsSync(path.join(dir, ".claude", "skills", s, "SKILL.md")), s);

  // The default's own cases, minus those with a table of their own; their $schema resolves from the project.
  const cases = path.join(dir, ".claude", "skillgate", "cases");
  const written = fs.readdirSync(cases).filter((f) => f.endsWith(".json"));
  const own = fs.readdirSync(casesDir).filter((f) => f.endsWith(".json") && f !== "case.schema.json");
  const withTable = own.filter((f) => (JSON.parse(fs.readFileSync(path.join(casesDir, f), "utf8")) as { table?: string }).table !== undefined);
  assert.ok(withTable.length > 0);
  assert.deepEqual(written.sort(), own.filter((f) => !withTable.includes(f)).sort());
  const ref = (JSON.parse(fs.readFileSync(path.join(cases, written[0] ?? ""), "utf8")) as { $schema: string }).$schema;
  assert.ok(fs.existsSync(path.resolve(cases, ref)), ref);

  // `skillgate cases` from the project: every case passes on the extending table.
  process.chdir(dir);
  t.after(() => process.chdir(ROOT));
  const c = await run(t, () => casesMain(["--json"], ROOT));
  assert.equal(c.code, 0, c.out);
  const report = JSON.parse(c.out) as { table: { path: string; rows: number }; passed: number; failed: number };
  assert.equal(report.table.path, tableFile);
  assert.equal(report.table.rows, defaultRows().length);
  assert.deepEqual([report.passed, report.failed], [written.length, 0]);

  // lint merges the default too (rows: [] alone would be "too small").
  const lint = await lintProject(tableFile, ROOT);
  assert.deepEqual(lint.errors, []);
  assert.equal(lint.rows, defaultRows().length);

  // install refuses nothing (the skills are loadable); doctor finds no problem.
  const inst = await run(t, () => installMain(["--project", dir], ROOT));
  assert.equal(inst.code, 0, inst.out);
  const doc = await run(t, () => doctorMain(["--project", dir], ROOT));
  assert.equal(doc.code, 0, doc.out);

  // A second init changes nothing.
  const before = fs.readFileSync(tableFile, "utf8");
  const again = await run(t, () => initMain(["--project", dir, "--extends"], ROOT));
  assert.equal(again.code, 0, again.out);
  assert.match(again.out, /exists, left as is/);
  assert.equal(fs.readFileSync(tableFile, "utf8"), before);
});

test("init --extends: the hook gates commits with the default's commit-gate; mutation removes inherited rows", async (t) => {
  const { dir, state } = freshProject(t);
  assert.equal((await run(t, () => initMain(["--project", dir, "--extends"], ROOT))).code, 0);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    CLAUDE_PROJECT_DIR: dir,
    SKILLGATE_STATE: state,
    SKILLGATE_OUTPUT_DIR: path.join(state, "out"),
  };
  const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(casesDir, "fixtures", `${name}.json`), "utf8")) as Record<string, unknown>;
  const send = async (name: string) => {
    const r = await runHook(JSON.stringify({ ...fixture(name), session_id: "init-extends", cwd: dir }), { env, packageRoot: ROOT });
    return { verdict: r.trace?.verdict, rows: r.trace?.rows ?? [], stdout: r.stdout };
  };
  const denied = await send("pre-tool-use-bash");
  assert.equal(denied.verdict, "deny", denied.stdout);
  assert.deepEqual(denied.rows, ["commit-gate"]);
  await send("post-tool-use-skill");
  assert.equal((await send("pre-tool-use-bash")).verdict, "allow");

  // Mutation works on the merged table: removing the inherited commit-gate turns its case red.
  const suite = await resolveSuite({ packageRoot: ROOT, cwd: dir });
  assert.equal(suite.table, path.join(dir, ".claude", "triggers.json"));
  const pick = suiteCases(suite).filter((c) => c.id === "gate-commit-denied-without-skill");
  assert.equal(pick.length, 1);
  const m = await mutate(pick, { compiled: suite.compiled, table: suite.table, invoke: inProcessInvoker(ROOT) });
  assert.deepEqual(m.baseline, []);
  assert.deepEqual(
    m.rows.filter((row) => row.red.length).map((row) => row.row),
    ["commit-gate"],
  );
  assert.equal(m.rows.length, defaultRows().length);
});

test("init --extends --full: a usage error, exit 2, nothing written", async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-init-usage-"));
  const r = await run(t, () => cli(["init", "--project", dir, "--extends", "--full"]));
  assert.equal(r.code, 2, r.out);
  assert.match(r.out.split("\n")[0] ?? "", /--full and --extends cannot be used together/);
  assert.deepEqual(fs.readdirSync(dir), []);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("init --full: the full table gets skillgate's own cases, so `cases` and `mutate` run out of the box", async (t) => {
  const { dir } = freshProject(t);
  const r = await run(t, () => initMain(["--project", dir, "--full"], ROOT));
  assert.equal(r.code, 0, r.out);
  assert.doesNotMatch(r.out, /README's "Cases" section/, "points at a README section that does not exist");
  const cases = path.join(dir, ".claude", "skillgate", "cases");
  assert.ok(fs.existsSync(cases), `no cases written:\n${r.out}`);
  const written = fs.readdirSync(cases).filter((f) => f.endsWith(".json"));
  assert.ok(written.length > defaultRows().length, `${written.length} cases`);
  process.chdir(dir);
  t.after(() => process.chdir(ROOT));
  // On Claude Code: the table and the cases are the package's own (asserted below), which test/cases.test.ts runs
  // on every host; what this adds is `cases` finding the project's table and cases from its folder.
  const c = await run(t, () => casesMain(["--json", "--host", "claude-code"], ROOT));
  assert.equal(c.code, 0, c.out);
  const report = JSON.parse(c.out) as { table: { path: string; rows: number }; passed: number; failed: number };
  assert.equal(report.table.path, path.join(dir, ".claude", "triggers.json"));
  assert.deepEqual([report.passed, report.failed], [written.length, 0]);
  // Mutation: the project's rows and cases are the package's own, which test/mutation.test.ts
  // mutates row by row (every row turns a case red); running it again here would prove nothing more.
  const suite = await resolveSuite({ packageRoot: ROOT, cwd: dir });
  const own = await resolveSuite({ packageRoot: ROOT, table: path.join(ROOT, "triggers.json"), cases: path.join(ROOT, "cases") });
  assert.deepEqual(suite.compiled.table.rows, own.compiled.table.rows, "the project's table has the package's rows");
  const byId = (cs: { id: string }[]) =>
    Object.fromEntries(cs.map(({ $schema: _s, file: _f, ...c }: { id: string; $schema?: unknown; file?: unknown }) => [c.id, c]));
  const mine = byId(suiteCases(suite)),
    theirs = byId(suiteCases(own));
  for (const id of Object.keys(mine)) assert.deepEqual(mine[id], theirs[id], `case ${id} is the package's`);
});

test("init --no-cases: the hint names a command that exists, not a missing README section", async (t) => {
  const { dir } = freshProject(t);
  const r = await run(t, () => initMain(["--project", dir, "--no-cases"], ROOT));
  assert.equal(r.code, 0, r.out);
  assert.doesNotMatch(r.out, /README's "Cases" section/);
  assert.match(r.out, /skillgate cases --new/);
});

test("init --extends over an existing table: left as is, and the user is told how to get what they asked for", async (t) => {
  const { dir } = freshProject(t);
  assert.equal((await run(t, () => initMain(["--project", dir], ROOT))).code, 0);
  const before = fs.readFileSync(path.join(dir, ".claude", "triggers.json"), "utf8");
  const r = await run(t, () => initMain(["--project", dir, "--extends"], ROOT));
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /triggers\.json: exists, left as is \(init never overwrites it: move it away and run init --extends again for that table\)/);
  assert.equal(fs.readFileSync(path.join(dir, ".claude", "triggers.json"), "utf8"), before);
});
