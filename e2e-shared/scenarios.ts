// The scenarios every host must pass, written once. Each host's e2e folder has a
// driver (`e2e-<host>/driver.ts`, Claude Code's in `e2e/driver.ts`) that sets up a
// project the way a user does (`skillgate install --host H --project <repo>
// --with-skills`, nothing copied by hand), turns the steps below into that host's
// own tool calls for the scripted loopback model, and returns what the model was
// fed back. Host tests that prove a column the scenarios cannot share (compaction,
// the stop gate, the output cap: each host triggers them its own way) use hostTest.
// Results go to `e2e-results/<host>/<test file>.json`; `npm run host-matrix` turns
// them into the host matrix of docs/host-support.md and README.md.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { after, test } from "node:test";
import { initRepo } from "./harness.ts";

const ROOT = resolve(import.meta.dirname, "..");
export const RESULTS_DIR = join(ROOT, "e2e-results");

/**
 * One step of the scripted model: the host's shell tool, the host's own way to load a skill, or its file-writing
 * tool. `promptTokens`: the prompt size the model's answer that makes this call reports (its usage; default small).
 */
export type Step = ({ shell: string } | { load: string } | { write: { file: string; text: string } }) & { promptTokens?: number };

export interface DriverProject {
  repo: string;
}

/** What the model was fed back in one run. */
export interface Played {
  /** What the model got for each step, in order (the tool's output or the refusal). */
  outputs: string[];
  /** Everything the client sent the model over the run, as one text (for context the hook added). */
  fed: string;
}

/** A client's run as the scripted model saw it: every request's body, and how the client exited. */
export interface ClientRun<B = unknown> {
  exitCode: number | null;
  timedOut: boolean;
  stderr: string;
  requests: { body?: B }[];
}

/**
 * What a driver's play returns: the client must have exited 0, and step i's output is the first one
 * `outputOf(requests, i)` finds (each host puts tool results in its own request shape).
 */
export function played<B>(client: string, r: ClientRun<B>, steps: number, outputOf: (requests: { body?: B }[], i: number) => string | undefined): Played {
  if (r.timedOut || r.exitCode !== 0) throw new Error(`${client} exited ${r.exitCode}${r.timedOut ? " (timed out)" : ""}: ${r.stderr.slice(-1500)}`);
  const outputs = Array.from({ length: steps }, (_, i) => {
    const out = outputOf(r.requests, i);
    if (out === undefined) throw new Error(`${client}: no output for step ${i + 1} reached the model`);
    return out;
  });
  return { outputs, fed: r.requests.map((q) => JSON.stringify(q.body)).join("\n") };
}

/** The first output a request body holds for `id`, in request order. */
export function firstOutput<B>(requests: { body?: B }[], find: (body: B | undefined) => string | undefined): string | undefined {
  for (const q of requests) {
    const out = find(q.body);
    if (out !== undefined) return out;
  }
  return undefined;
}

export interface Driver<P extends DriverProject = DriverProject> {
  /** The host id as `--host` spells it. */
  host: string;
  /**
   * Whether git's hooks run in the host's shell tool. Gemini CLI 0.61 turns them off there (it sets
   * core.hooksPath to empty through GIT_CONFIG_*): a commit git made is then taken back after the call.
   */
  gitHooks: "run" | "off in the host's shell";
  /** The pinned version of the host's binary. */
  version: string;
  /** Columns the host cannot prove in full, with why (host-matrix shows them). */
  limits?: Partial<Record<ColumnId, Limit>>;
  /** A git repo with one commit ("init"), a bare remote `origin`, skillgate installed for this host as a user installs it. */
  project(): Promise<P>;
  /** One headless run: the prompt, then each step as one tool call, then a final text answer. */
  play(p: P, prompt: string, steps: Step[]): Promise<Played>;
}

export interface Scenario {
  /** The host matrix column it proves (and its test's tag). */
  column: ColumnId;
  title: string;
  run(d: Driver): Promise<void>;
}

const log = (repo: string): string[] => execFileSync("git", ["log", "--format=%s"], { cwd: repo, encoding: "utf8" }).trim().split("\n");

/** A program the shell analysis cannot see into: it assembles "commit" at run time, then commits what it changed. */
const COMMIT_TOOL = `const fs = require('fs');
fs.appendFileSync('README.md', process.argv[2] + '\\n');
const r = require('child_process').spawnSync('git', [['com', 'mit'].join(''), '-qam', process.argv[2]], { stdio: 'inherit' });
process.exit(r.status === null ? 1 : r.status);
`;

/** A program that writes docs/x_RU.md with a path decoded at run time: no word of the command names the file. */
const GEN_TOOL = `const f = Buffer.from('${Buffer.from("docs/x_RU.md").toString("hex")}', 'hex').toString();
require('fs').mkdirSync(require('path').dirname(f), { recursive: true });
require('fs').writeFileSync(f, 'unseen');
console.log('generated');
`;

/** Puts a file into the repo and commits it as a person would (the agent's marker variables cleared). */
function addTool(repo: string, file: string, text: string): void {
  mkdirSync(dirname(join(repo, file)), { recursive: true });
  writeFileSync(join(repo, file), text);
  const env = { ...process.env };
  for (const k of ["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT", "CODEX_THREAD_ID", "OPENCODE", "GEMINI_CLI", "COPILOT_CLI"]) delete env[k];
  execFileSync("git", ["add", file], { cwd: repo, env });
  execFileSync("git", ["commit", "-qm", `add ${file}`], { cwd: repo, env });
}

export const SCENARIOS: Scenario[] = [
  {
    column: "gate",
    title: "a commit before the skill is loaded is refused, and the model reads why",
    async run(d) {
      const p = await d.project();
      const r = await d.play(p, "make a commit", [{ shell: 'git commit --allow-empty -m "feat: x"' }]);
      assert.match(r.outputs[0]!, /skillgate\[commit-gate\]/);
      assert.match(r.outputs[0]!, /skill \\?"?commit/i);
      assert.deepEqual(log(p.repo), ["init"], "the commit must not have run");
    },
  },
  {
    column: "load",
    title: "refused, then the host's own route to load the skill lifts the gate: the same commit runs",
    async run(d) {
      const p = await d.project();
      const commit = { shell: 'git commit --allow-empty -m "feat: after load"' };
      const r = await d.play(p, "make a commit", [commit, { load: "commit" }, commit]);
      assert.match(r.outputs[0]!, /skillgate\[commit-gate\]/);
      assert.doesNotMatch(r.outputs[2]!, /skillgate\[/);
      assert.deepEqual(log(p.repo), ["feat: after load", "init"]);
    },
  },
  {
    column: "block",
    title: "git push origin HEAD is refused whatever is loaded, with the reason",
    async run(d) {
      const p = await d.project();
      const r = await d.play(p, "push it", [{ load: "commit" }, { shell: "git push origin HEAD" }]);
      assert.match(r.outputs[1]!, /skillgate\[push-head-block\]/);
      const remote = execFileSync("git", ["ls-remote", "origin"], { cwd: p.repo, encoding: "utf8" });
      assert.equal(remote.trim(), "", "nothing reached the remote");
    },
  },
  {
    column: "hint",
    title: "a keyword in the prompt adds the skill hint to the model's context, once",
    async run(d) {
      const p = await d.project();
      const r = await d.play(p, "please look at the logs", []);
      assert.match(r.fed, /skillgate\[logs-hint\]/);
    },
  },
  {
    column: "write-gate",
    title: "the host's file-writing tool creating docs/guide_RU.md is refused before the skill",
    async run(d) {
      const p = await d.project();
      const r = await d.play(p, "write the docs", [{ write: { file: "docs/guide_RU.md", text: "привет\n" } }]);
      assert.match(r.outputs[0]!, /skillgate\[paired-docs-write\]/);
      assert.equal(existsSync(join(p.repo, "docs", "guide_RU.md")), false, "the file must not exist");
    },
  },
  {
    column: "git-hook",
    title:
      "a commit made by a program the analysis cannot see into does not stand (git's hook aborts it, or it is taken back after the call) and the model reads why; after the load it commits",
    async run(d) {
      const p = await d.project();
      addTool(p.repo, "tools/commit.js", COMMIT_TOOL);
      const r = await d.play(p, "make a commit", [{ shell: "node tools/commit.js first" }, { load: "commit" }, { shell: "node tools/commit.js second" }]);
      if (d.gitHooks === "run") {
        assert.match(r.outputs[0]!, /skillgate: git refused a new commit/);
        assert.match(r.outputs[0]!, /skillgate\[commit-gate\]/);
      } else {
        assert.match(r.fed, /skillgate\[effects-audit\]: a commit \(main: \\*"commit: first\\*"\)/);
        assert.match(r.fed, /skillgate moved main back to [0-9a-f]{12}/);
      }
      // "first" does not stand either way; after the load "second" does.
      assert.deepEqual(log(p.repo).slice(0, 2), ["second", "add tools/commit.js"]);
    },
  },
  {
    column: "restore",
    title: "a write to docs/x_RU.md by a program the analysis does not know is put back, and the model is told",
    async run(d) {
      const p = await d.project();
      addTool(p.repo, "tools/gen.js", GEN_TOOL);
      const r = await d.play(p, "generate the docs", [{ shell: "node tools/gen.js" }]);
      assert.equal(existsSync(join(p.repo, "docs", "x_RU.md")), false, "the file the program wrote is gone");
      // Told in the call's own output or in the next request's context, as the host allows.
      assert.match(r.fed, /skillgate\[effects-restore\]: that shell command created [^"]*docs\/x_RU\.md/);
    },
  },
  {
    column: "budget",
    title: "a prompt past 100,000 tokens (the size the host's transcript records) adds the context-budget reminder, once",
    async run(d) {
      const p = await d.project();
      // The command takes a second, as a model call does: a host that writes its transcript late (Copilot
      // buffers events.jsonl) has it on disk when the tool's result is handled.
      const big = { shell: "sleep 1 && git status --short", promptTokens: 120_000 };
      const r = await d.play(p, "look around", [big, big, big]);
      assert.match(r.fed, /skillgate\[context-budget\]: the context is past 100,000 tokens/);
      // Once per level: the reminder first reaches the model with one output, and no later output carries another.
      const carrying = r.outputs.map((o, i) => (/skillgate\[context-budget\]/.test(o) ? i : -1)).filter((i) => i >= 0);
      assert.ok(carrying.length <= 1, `the reminder rode on ${carrying.length} outputs`);
    },
  },
];

/** The host matrix's columns (docs/host-support.md): each is proven by a shared scenario or by tagged host tests. */
export const COLUMNS = [
  { id: "gate", label: "gate" },
  { id: "block", label: "block" },
  { id: "hint", label: "hint" },
  { id: "load", label: "load seen" },
  { id: "write-gate", label: "file-write gate" },
  { id: "git-hook", label: "commit effect" },
  { id: "restore", label: "write effect" },
  { id: "budget", label: "budget reminder" },
  { id: "compaction", label: "reset on compaction" },
  { id: "stop", label: "stop gate" },
  { id: "cap", label: "output cap" },
] as const;
export type ColumnId = (typeof COLUMNS)[number]["id"];

/** What a host cannot do, or does only in part: the matrix shows it with the reason instead of a plain ✓. */
export type Limit = { partial: string } | { unitOnly: string } | { cannot: string };

export interface TestResult {
  column: ColumnId;
  title: string;
  outcome: "pass" | "fail";
}

/** One e2e results file: the tests of one test file of one host's suite. */
export interface ResultsFile {
  host: string;
  version: string;
  file: string;
  limits: Partial<Record<ColumnId, Limit>>;
  at: string;
  tests: TestResult[];
}

const recorded: TestResult[] = [];
let recordingFor: Omit<ResultsFile, "at" | "tests"> | undefined;

/** A host test that proves a matrix column: registered with node:test, its outcome kept for the matrix. */
export function hostTest(column: ColumnId, title: string, fn: () => Promise<void>): void {
  const entry: TestResult = { column, title, outcome: "fail" };
  recorded.push(entry);
  test(`[${column}] ${title}`, async () => {
    await fn();
    entry.outcome = "pass";
  });
}

/** Where this test file's results go: e2e-results/<host>/<file>.json, written when the file's tests are over. */
export function recordResults(d: Pick<Driver, "host" | "version" | "limits">, testFile: string): void {
  if (recordingFor) return;
  const self: Omit<ResultsFile, "at" | "tests"> = { host: d.host, version: d.version, file: basename(testFile), limits: d.limits ?? {} };
  recordingFor = self;
  after(() => {
    const dir = join(RESULTS_DIR, self.host);
    mkdirSync(dir, { recursive: true });
    const out: ResultsFile = { ...self, at: new Date().toISOString(), tests: recorded };
    writeFileSync(join(dir, `${self.file.replace(/\.test\.ts$/, "")}.json`), `${JSON.stringify(out, null, 2)}\n`);
  });
}

/** Registers every shared scenario as a test of this host. */
export function runScenarios(d: Driver, testFile: string): void {
  recordResults(d, testFile);
  for (const s of SCENARIOS) hostTest(s.column, s.title, () => s.run(d));
}

/** A bare repository as the project's `origin`, so a push has somewhere to go (and the test can see it did not). */
export function addBareOrigin(repo: string, bare: string): void {
  execFileSync("git", ["init", "-q", "--bare", bare]);
  execFileSync("git", ["remote", "add", "origin", bare], { cwd: repo });
}

/** A fresh repo with one committed README and a bare origin; `tempDir` is the suite's own (its cleanup). */
export function repoWithOrigin(tempDir: (label: string) => string, readme = "old\n"): string {
  const repo = tempDir("repo");
  initRepo(repo, { "README.md": readme });
  addBareOrigin(repo, tempDir("origin"));
  return repo;
}

/** `skillgate install --host H --project <repo> --with-skills …` through the CLI a user runs (bin/skillgate.mjs). */
export function installAsUser(host: string, repo: string, env: Record<string, string>, extra: string[] = []): void {
  const cli = join(ROOT, "bin", "skillgate.mjs");
  try {
    execFileSync(process.execPath, [cli, "install", "--host", host, "--project", repo, "--with-skills", ...extra], {
      stdio: "pipe",
      env: { ...process.env, ...env },
    });
  } catch (e) {
    const x = e as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`skillgate install --host ${host} failed: ${x.stdout ?? ""}${x.stderr ?? ""}`);
  }
}

/** The version a host's e2e folder pins in its package.json. */
export function pinnedVersion(folder: string, pkg: string): string {
  const json = JSON.parse(readFileSync(join(ROOT, folder, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  const v = json.dependencies?.[pkg];
  if (!v) throw new Error(`${folder}/package.json pins no ${pkg}`);
  return v;
}
