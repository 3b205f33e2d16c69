// The CLI contract: exit codes, usage errors, --json, the table in use. Verbs
// run in-process through cli() (the code the binary bundles), with the run's
// environment, folder and console swapped in; the built command
// (node bin/skillgate.mjs, `npm run build` first) runs where the process itself
// is what is tested: the hook verb, --version, an unknown verb. Every run gets a
// private state folder and a temp project, so nothing here touches the real
// ~/.claude or the package's state.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestContext } from "node:test";
import { cli } from "../cli/main.ts";
import { parseWith, usageLine, UsageError } from "../cli/args.ts";
import { cliRun } from "./helpers.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "bin", "skillgate.mjs");
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const VERBS = [
  "hook",
  "explain",
  "lint",
  "cases",
  "mutate",
  "demo",
  "install",
  "uninstall",
  "doctor",
  "measure",
  "stats",
  "schema",
  "report",
  "fingerprint",
  "evidence",
];

let tmp = "";
/** The runs' temp folder (TMPDIR): what a run leaves in it is a leak (the test at the end checks). */
let tmpdir = "";
let project = "";
let state = "";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function envFor(opts: { env?: Record<string, string | undefined> }): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, SKILLGATE_STATE: state, HOME: tmp, TMPDIR: tmpdir };
  // Nothing from the calling session may pick the table or the colours.
  for (const k of ["SKILLGATE_TABLE", "CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_DATA", "CLAUDE_PLUGIN_ROOT", "NO_COLOR", "FORCE_COLOR", "SKILLGATE_DEBUG"])
    delete env[k];
  return { ...env, ...opts.env };
}

/** The built command in a process of its own. */
function bin(args: string[], opts: { cwd?: string; env?: Record<string, string | undefined>; input?: string } = {}): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? project, env: envFor(opts), input: opts.input, encoding: "utf8", timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * `skillgate <args>` as a user runs it, in this process: cli() with the run's
 * environment, current folder and console; the hook verb (it reads stdin and
 * exits the process) runs the built command.
 */
async function sg(args: string[], opts: { cwd?: string; env?: Record<string, string | undefined>; input?: string } = {}): Promise<Run> {
  if (args[0] === "hook") return bin(args, opts);
  const r = await cliRun(args, { cwd: opts.cwd ?? project, env: envFor(opts) });
  return { code: r.code, stdout: r.out, stderr: r.err };
}

/** cli(argv) in this process, console captured (and put back, so this file can share a test process). */
async function inProcess(_t: TestContext, argv: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const { log, error } = console;
  console.log = (...a: unknown[]) => void out.push(a.join(" "));
  console.error = (...a: unknown[]) => void err.push(a.join(" "));
  try {
    const code = await cli(argv);
    return { code, stdout: out.join("\n") + "\n", stderr: err.join("\n") + "\n" };
  } finally {
    console.log = log;
    console.error = error;
  }
}

const lines = (s: string) => s.split("\n").filter((l) => l.trim() !== "");
const STACK = /^\s+at .+[:(]|node:internal|file:\/\/|^\s*\^\s*$/m;

/** A user error: one line saying what, nothing that looks like a stack. */
function assertOneLineError(r: Run, code: number, says: RegExp) {
  assert.equal(r.code, code, `exit ${r.code}, want ${code}; stderr:\n${r.stderr}`);
  assert.doesNotMatch(r.stderr, STACK, `a stack trace reached the user:\n${r.stderr}`);
  assert.equal(lines(r.stderr).length, 1, `want one line on stderr, got:\n${r.stderr}`);
  assert.match(r.stderr, says);
}

/** A usage error: the problem, then the verb's usage line. */
function assertUsageError(r: Run, verb: string, says: RegExp) {
  assert.equal(r.code, 2, `exit ${r.code}, want 2; stderr:\n${r.stderr}\nstdout:\n${r.stdout}`);
  assert.doesNotMatch(r.stderr, STACK, `a stack trace reached the user:\n${r.stderr}`);
  const l = lines(r.stderr);
  assert.equal(l.length, 2, `want the error and the usage line, got:\n${r.stderr}`);
  assert.match(l[0] as string, says);
  assert.match(l[1] as string, new RegExp(`^usage: skillgate ${verb}\\b`));
}

function json(r: Run): Record<string, unknown> {
  try {
    return JSON.parse(r.stdout) as Record<string, unknown>;
  } catch (e) {
    throw new Error(`stdout is not JSON (${(e as Error).message}), exit ${r.code}:\n${r.stdout.slice(0, 600)}\nstderr:\n${r.stderr.slice(0, 600)}`);
  }
}

/** The table a verb says it used, from its --json. */
function tableOf(j: Record<string, unknown>): { path: string; rows: number } {
  const t = j.table as { path?: unknown; rows?: unknown } | undefined;
  assert.ok(t && typeof t.path === "string" && typeof t.rows === "number", `no "table": {path, rows} in ${JSON.stringify(j).slice(0, 300)}`);
  return { path: t.path, rows: t.rows };
}

const BAD_TABLE = { rows: [{ id: "broken-row", kind: "gate" }] };

before(() => {
  assert.ok(fs.existsSync(path.join(ROOT, "dist", "cli.mjs")), "dist/cli.mjs is missing: run npm run build first");
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-cli-test-")));
  project = path.join(tmp, "project");
  state = path.join(tmp, "state");
  tmpdir = path.join(tmp, "tmp");
  fs.mkdirSync(tmpdir);
  fs.mkdirSync(project);
  fs.mkdirSync(state);
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("skillgate (top level)", () => {
  test("--version prints the package version", async () => {
    const r = bin(["--version"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), `skillgate ${VERSION}`);
  });

  test("--help lists every verb and the exit codes", async () => {
    const r = await sg(["--help"]);
    assert.equal(r.code, 0, r.stderr);
    for (const v of VERBS) assert.match(r.stdout, new RegExp(`^  ${v}\\b`, "m"), `verb ${v} missing from the help`);
    for (const c of ["0", "1", "2", "3"]) assert.match(r.stdout, new RegExp(`^\\s+${c}\\s+\\S`, "m"), `exit code ${c} not documented`);
  });

  test("an unknown verb is a usage error", async () => {
    const r = bin(["frobnicate"]);
    assert.equal(r.code, 2);
    assert.match(lines(r.stderr)[0] ?? "", /unknown verb "frobnicate"/);
  });
});

describe("--help", () => {
  const HOSTS = ["claude-code", "codex", "gemini", "copilot", "opencode", "cursor"];
  test("names every host, and where --with-skills puts each host's skills", async (t) => {
    const top = await inProcess(t, ["--help"]);
    for (const label of ["Claude Code", "Codex", "Gemini CLI", "Copilot CLI", "opencode", "Cursor"])
      assert.match(top.stdout, new RegExp(label), `${label} missing from --help`);
    const install = (await inProcess(t, ["install", "--help"])).stdout;
    for (const host of HOSTS) assert.match(install, new RegExp(`--host [^\\n]*\\b${host}\\b`), `--host does not list ${host}`);
    const withSkills = install.split("\n").find((l) => l.trimStart().startsWith("--with-skills")) ?? "";
    for (const [host, dir] of [
      ["claude-code", ".claude/skills"],
      ["codex", ".agents/skills"],
      ["gemini", ".gemini/skills"],
      ["copilot", ".github/skills"],
      ["opencode", ".opencode/skills"],
      ["cursor", ".cursor/skills"],
    ]) {
      assert.ok(withSkills.includes(`${host} ${dir}`), `--with-skills does not say ${host} → ${dir}: ${withSkills}`);
    }
    assert.match(install, /^exit codes: 0 ok, 1 .+, 2 usage, 3 configuration or I\/O$/m);
  });

  test("the hook verb reads one event of the host named by --host, not only Claude Code's", async (t) => {
    const hook = (await inProcess(t, ["hook", "--help"])).stdout;
    assert.doesNotMatch(hook, /Claude Code hook event/);
    assert.match(hook, /one hook event/);
    assert.match(hook, /--host claude-code\|codex\|copilot\|cursor\|gemini/);
  });

  test("no verb's help speaks of how the project was made (issue, seed, round, wave)", async (t) => {
    const texts = [(await inProcess(t, ["--help"])).stdout];
    for (const v of VERBS) texts.push((await inProcess(t, [v, "--help"])).stdout);
    for (const text of texts) assert.doesNotMatch(text, /\b(issues?|seeds?|round\d*|waves?)\b/i, text.split("\n")[0]);
  });
});

describe("hook --host", () => {
  test("reads the event as the named host's entry does, and answers in that host's shape", async () => {
    const payload = fs.readFileSync(path.join(ROOT, "test", "fixtures", "copilot", "preToolUse-bash-2.json"), "utf8");
    const copilot = await sg(["hook", "--host", "copilot", "--event", "preToolUse"], { input: payload });
    assert.equal(copilot.code, 0, copilot.stderr);
    assert.equal((JSON.parse(copilot.stdout) as { permissionDecision?: string }).permissionDecision, "deny", copilot.stdout);
    // Read as Claude Code's (no --host), the same payload names no event.
    const claude = await sg(["hook"], { input: payload });
    assert.match(claude.stdout, /no hook_event_name/);
  });
});

describe("options", () => {
  // These two loops run in-process through cli() (the same code the binary bundles): 24 process starts
  // would cost seconds and prove nothing more than the binary runs below.
  test("every verb's --help shows its usage, options with value names, and examples", async (t) => {
    for (const v of VERBS) {
      const r = await inProcess(t, [v, "--help"]);
      assert.equal(r.code, 0, `${v} --help: ${r.stderr}`);
      assert.match(r.stdout, new RegExp(`^usage: skillgate ${v}\\b`, "m"), `${v} --help has no usage line`);
      assert.match(r.stdout, /^examples:$/m, `${v} --help has no examples`);
    }
    assert.match((await sg(["lint", "--help"])).stdout, /--table FILE/);
  });

  test("every verb refuses an unknown option (exit 2, the verb's usage line)", async (t) => {
    for (const v of VERBS) assertUsageError(await inProcess(t, [v, "--frobnicate"]), v, /unknown option --frobnicate/);
  });

  test("install --frobnicate installs nothing", async () => {
    assertUsageError(await sg(["install", "--project", project, "--frobnicate"]), "install", /--frobnicate/);
    assert.equal(fs.existsSync(path.join(project, ".claude")), false, "install wrote settings despite an unknown option");
  });

  test("install --project without a value: exit 2, no stack", async () => {
    assertUsageError(await sg(["install", "--project"]), "install", /--project needs a value/);
    assertUsageError(await sg(["install", "--project", "--dry-run"]), "install", /--project needs a value/);
  });

  test("lint --table=FILE lints FILE (the = form), like --table FILE", async () => {
    const bad = path.join(tmp, "bad.json");
    fs.writeFileSync(bad, JSON.stringify(BAD_TABLE));
    for (const args of [[`--table=${bad}`], ["--table", bad]]) {
      const r = await sg(["lint", ...args]);
      assert.equal(r.code, 1, `lint ${args.join(" ")} exit ${r.code}:\n${r.stdout}${r.stderr}`);
      assert.match(r.stdout, new RegExp(`table: ${bad}`), `lint ${args.join(" ")} did not lint ${bad}:\n${r.stdout}`);
      assert.match(r.stdout, /broken-row|skill/);
    }
  });

  test("a flag given a value, a value outside the choices, a stray argument, two exclusive options: usage errors", async () => {
    assertUsageError(await sg(["lint", "--json=yes"]), "lint", /--json takes no value/);
    assertUsageError(await sg(["install", "--runtime", "deno", "--dry-run"]), "install", /--runtime must be one of: bun, node/);
    assertUsageError(await sg(["stats", "extra"]), "stats", /unexpected argument "extra"/);
    assertUsageError(await sg(["install", "--project", project, "--user"]), "install", /--project and --user cannot be used together/);
  });

  test("stats --session ../x is refused as a session id, in one line", async () => {
    assertUsageError(await sg(["stats", "--session", "../x"]), "stats", /--session/);
  });
});

describe("explain", () => {
  test("without --, everything after explain's own options is the command (--force kept)", async () => {
    const r = await sg(["explain", "git", "push", "--force", "origin", "main"]);
    assert.match(r.stdout, /git push --force origin main/);
    assert.match(r.stdout, /force-push-block/);
    assert.equal(r.code, 1, "a command explain says would be refused exits 1");
  });

  test("options before the command still count; a command that would run exits 0", async () => {
    const r = await sg(["explain", "--json", "git", "push", "--force", "origin", "main"]);
    assert.deepEqual(
      (json(r).matched as { id: string }[]).map((m) => m.id),
      ["force-push-block"],
    );
    assert.equal((await sg(["explain", "--", "ls", "-la"])).code, 0);
  });

  test("explain --table /nope: exit 3, one line; SKILLGATE_DEBUG=1 shows the stack", async () => {
    assertOneLineError(await sg(["explain", "--table", "/nope", "--", "x"]), 3, /\/nope/);
    assert.match((await sg(["explain", "--table", "/nope", "--", "x"], { env: { SKILLGATE_DEBUG: "1" } })).stderr, /^\s+at /m);
  });

  test("no command is a usage error", async () => {
    assertUsageError(await sg(["explain"]), "explain", /give the command/);
  });
});

describe("--json on every verb that reports, with the table in use", () => {
  let caseDir = "";
  const session = "cli-test-session";
  before(async () => {
    // One case (the force-push one) with whatever fixtures the case folder has.
    caseDir = path.join(tmp, "cases");
    fs.mkdirSync(caseDir);
    const src = path.join(ROOT, "cases");
    for (const e of fs.readdirSync(src, { withFileTypes: true })) {
      if (e.isDirectory()) fs.cpSync(path.join(src, e.name), path.join(caseDir, e.name), { recursive: true });
      else if (e.name === "block-force-push.json") fs.copyFileSync(path.join(src, e.name), path.join(caseDir, e.name));
    }
    // A session for stats, written by the real hook (a refusal is counted, so the state file exists).
    const payload = {
      session_id: session,
      transcript_path: "",
      cwd: project,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "git push --force origin main" },
    };
    const h = await sg(["hook"], { input: JSON.stringify(payload) });
    assert.equal(h.code, 0, h.stderr);
  });

  const cases: [string, () => string[]][] = [
    ["lint", () => ["lint", "--json"]],
    ["explain", () => ["explain", "--json", "--", "git status"]],
    ["doctor", () => ["doctor", "--project", project, "--json"]],
    ["measure", () => ["measure", "--projects", path.join(tmp, "no-history"), "--json"]],
    ["stats", () => ["stats", "--session", session, "--json"]],
    ["cases", () => ["cases", "--dir", caseDir, "--runtime", "node", "--json"]],
    ["mutate", () => ["mutate", "--dir", caseDir, "--json"]],
  ];
  for (const [verb, args] of cases) {
    test(`${verb} --json`, async () => {
      if (verb === "measure") fs.mkdirSync(path.join(tmp, "no-history"), { recursive: true });
      const r = await sg(args());
      const j = json(r);
      const t = tableOf(j);
      assert.equal(t.path, path.join(ROOT, "triggers.json"));
      assert.ok(t.rows > 0);
    });
  }

  test("install --dry-run --json", async () => {
    // --with-skills: the default table's skills are not in this bare project (a dry run copies nothing).
    const r = await sg(["install", "--project", project, "--runtime", "node", "--with-skills", "--dry-run", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    const j = json(r);
    assert.equal(j.file, path.join(project, ".claude", "settings.json"));
    assert.equal(j.changed, true);
    assert.equal(j.dryRun, true);
    assert.equal(fs.existsSync(path.join(project, ".claude")), false, "--dry-run wrote something");
  });
});

describe("uninstall --json", () => {
  test("the report is on stdout (dry run and real), the notes on stderr", async () => {
    const dir = path.join(tmp, "uninstall-json");
    fs.mkdirSync(dir);
    const inst = await sg(["install", "--project", dir, "--runtime", "node", "--with-skills"]);
    assert.equal(inst.code, 0, inst.stderr);
    const dry = await sg(["uninstall", "--project", dir, "--dry-run", "--json"]);
    assert.equal(dry.code, 0, dry.stderr);
    const d = json(dry);
    assert.equal(d.file, path.join(dir, ".claude", "settings.json"));
    assert.deepEqual([d.dryRun, d.changed, d.removedFile], [true, true, true]);
    const real = await sg(["uninstall", "--project", dir, "--json"]);
    assert.equal(real.code, 0, real.stderr);
    const j = json(real);
    assert.deepEqual([j.dryRun, j.changed, j.removedFile], [false, true, true]);
    assert.equal(fs.existsSync(path.join(dir, ".claude", "settings.json")), false);
    const again = json(await sg(["uninstall", "--project", dir, "--json"]));
    assert.equal(again.changed, false);
  });
});

describe("doctor", () => {
  test("its probe of the hook command leaves no session behind for stats to report", async () => {
    const dir = path.join(tmp, "doctor-probe");
    const own = path.join(tmp, "doctor-probe-state");
    fs.mkdirSync(dir);
    const env = { SKILLGATE_STATE: own };
    assert.equal((await sg(["install", "--project", dir, "--local", "--runtime", "node", "--with-skills"], { env })).code, 0);
    const d = await sg(["doctor", "--project", dir, "--local"], { env });
    assert.equal(d.code, 0, d.stdout + d.stderr);
    assert.match(d.stdout, /the hook command starts and answers/);
    const left = fs.readdirSync(own).filter((f) => f.startsWith("skillgate-doctor"));
    assert.deepEqual(left, [], "doctor's probe session is left in the state folder");
    const st = await sg(["stats"], { env, cwd: dir });
    assert.doesNotMatch(st.stdout + st.stderr, /skillgate-doctor/, "stats reports doctor's probe as the latest session");
  });
});

describe("lint and doctor on a table with invalid rows", () => {
  test("each invalid row (OFF in the hook) is an error naming the file, the row and the field", async () => {
    const dir = path.join(tmp, "invalid-rows");
    fs.mkdirSync(path.join(dir, ".claude"), { recursive: true });
    const table = JSON.parse(fs.readFileSync(path.join(ROOT, "templates", "starter", "triggers.json"), "utf8")) as { rows: Record<string, unknown>[] };
    table.rows = table.rows.map((r) =>
      r.id === "commit-gate" ? { ...r, when: { command: { name: "git", sub: "commit" } } } : r.id === "force-push-block" ? { ...r, kind: "gatez" } : r,
    );
    const file = path.join(dir, ".claude", "triggers.json");
    fs.writeFileSync(file, JSON.stringify(table, null, 2));
    const r = await sg(["lint"], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const out = r.stdout + r.stderr;
    assert.match(out, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: row "commit-gate": field when\\.command\\.sub`));
    assert.match(out, /row "force-push-block": field kind/);
    const j = json(await sg(["lint", "--json"], { cwd: dir })) as { errors: string[] };
    assert.equal(j.errors.filter((e) => /row "(commit-gate|force-push-block)": field/.test(e)).length, 2, JSON.stringify(j.errors));
  });
});

describe("cases --new", () => {
  test("an unknown row: one line, prefixed with the verb, naming the table and its rows", async () => {
    const r = await sg(["cases", "--new", "no-such-row"]);
    assertOneLineError(r, 1, /^skillgate cases: no row "no-such-row" in \S+triggers\.json \(rows: .*commit-gate/);
  });
});

describe("measure --projects", () => {
  test("a folder that does not exist: exit 3, one line naming it (not a table of zeros and exit 0)", async () => {
    const missing = path.join(tmp, "no-such-projects");
    assertOneLineError(
      await sg(["measure", "--projects", missing]),
      3,
      new RegExp(`^skillgate measure: --projects ${missing.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: no such folder`),
    );
    const file = path.join(tmp, "a-file");
    fs.writeFileSync(file, "x");
    assertOneLineError(await sg(["measure", "--projects", file]), 3, /--projects .*a-file: not a folder/);
  });
});

describe("explain --loaded", () => {
  test("a skill no row names is a usage error naming the skills the table knows (a typo would silently explain a deny)", async () => {
    const r = await sg(["explain", "--loaded", "comit", "--", "git commit -m x"]);
    assertUsageError(r, "explain", /^skillgate explain: --loaded comit: no row of \S+triggers\.json names skill "comit" \(skills: .*commit/);
    assert.equal((await sg(["explain", "--loaded", "commit", "--", "git commit -m x"])).code, 0);
  });
});

describe("one table, named in every verb's header", () => {
  test("from a project with .claude/triggers.json, lint, explain, stats, doctor, measure and mutate all use it", async () => {
    const own = path.join(project, ".claude", "triggers.json");
    const def = JSON.parse(fs.readFileSync(path.join(ROOT, "triggers.json"), "utf8")) as Record<string, unknown>;
    fs.mkdirSync(path.dirname(own), { recursive: true });
    fs.writeFileSync(own, JSON.stringify({ ...def, $schema: undefined, skillsDir: path.join(ROOT, "skills") }));
    try {
      const n = (def.rows as unknown[]).length;
      const header = new RegExp(`^table: ${own.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(${n} rows\\)$`, "m");
      for (const args of [
        ["lint"],
        ["explain", "--", "ls"],
        ["doctor", "--project", project],
        ["measure", "--projects", tmp],
        ["stats", "--session", "cli-test-session"],
      ]) {
        const r = await sg(args);
        assert.match(r.stdout, header, `${args.join(" ")} does not name ${own}:\n${r.stdout.slice(0, 500)}\n${r.stderr.slice(0, 300)}`);
      }
    } finally {
      fs.rmSync(path.dirname(own), { recursive: true, force: true });
    }
  });
});

describe("colours", () => {
  test("none when stdout is not a TTY; FORCE_COLOR turns them on; NO_COLOR wins", async () => {
    const bad = path.join(tmp, "bad-colour.json");
    fs.writeFileSync(bad, JSON.stringify(BAD_TABLE));
    const esc = /\x1b\[/;
    assert.doesNotMatch((await sg(["lint", "--table", bad])).stdout, esc);
    assert.match((await sg(["lint", "--table", bad], { env: { FORCE_COLOR: "1" } })).stdout, esc);
    assert.doesNotMatch((await sg(["lint", "--table", bad], { env: { FORCE_COLOR: "1", NO_COLOR: "1" } })).stdout, esc);
  });
});

describe("the parser (cli/args.ts) on its own", () => {
  const spec = {
    summary: "test",
    options: {
      table: { type: "string", value: "FILE", help: "" },
      since: { type: "string", value: "AGE", help: "", default: "7d" },
      runtime: { type: "string", value: "R", help: "", choices: ["bun", "node"] },
      loaded: { type: "list", value: "S,...", help: "", comma: true },
      approve: { type: "list", value: "PATH", help: "" },
      json: { type: "flag", help: "" },
      user: { type: "flag", help: "" },
      project: { type: "string", value: "DIR", help: "" },
    },
    exclusive: [["project", "user"]],
    operand: { name: "ROOT", help: "" },
    examples: [],
  } as const;
  const verbatim = { ...spec, operand: { name: "COMMAND", help: "", verbatim: true, missing: "give the command" } } as const;
  const usage = (argv: string[], s: typeof spec | typeof verbatim = spec) => assert.throws(() => parseWith(s, argv), UsageError);

  test("values: = and space forms, defaults, choices, lists (comma only where the spec says)", async () => {
    const a = parseWith(spec, ["--table=t.json", "--runtime", "bun", "--loaded", "a,b", "--loaded=c", "--approve", "x,y", "--approve", "z"]);
    assert.equal(a.get("table"), "t.json");
    assert.equal(a.get("since"), "7d");
    assert.equal(a.has("since"), false);
    assert.equal(a.get("runtime"), "bun");
    assert.deepEqual(a.get("loaded"), ["a", "b", "c"]);
    assert.deepEqual(a.get("approve"), ["x,y", "z"]);
    assert.equal(a.has("json"), false);
    assert.equal(a.get("project"), undefined);
  });

  test("usage errors: unknown, flag with a value, missing value, bad choice, given twice, exclusive pair", async () => {
    usage(["--nope"]);
    usage(["-x"]);
    usage(["--json=1"]);
    usage(["--table"]);
    usage(["--table", "--json"]);
    usage(["--table="]);
    usage(["--runtime", "deno"]);
    usage(["--table", "a", "--table", "b"]);
    usage(["--project", "p", "--user"]);
    assert.throws(() => parseWith(spec, ["--tabel", "x"]), /did you mean --table\?/);
  });

  test("operands: between options, or verbatim from the first free word; -- ends options", async () => {
    const a = parseWith(spec, ["r1", "--json", "r2", "--", "--r3"]);
    assert.deepEqual(a.rest, ["r1", "r2", "--r3"]);
    assert.equal(a.has("json"), true);
    const v = parseWith(verbatim, ["--json", "git", "push", "--force", "--json"]);
    assert.deepEqual(v.rest, ["git", "push", "--force", "--json"]);
    assert.equal(v.has("json"), true);
    assert.deepEqual(parseWith(verbatim, ["--", "--json"]).rest, ["--json"]);
    usage(["--json"], verbatim);
    assert.equal(parseWith(verbatim, ["--help"]).help, true, "--help needs no operand");
    const { operand: _, ...noOperand } = spec;
    usage(["stray"], noOperand as typeof spec);
  });

  test("the usage line shows value names, choices and exclusive pairs", async () => {
    assert.match(usageLine("install"), /^usage: skillgate install .*\[--project DIR \| --user\].*\[--runtime bun\|node\]/);
    assert.match(usageLine("explain"), /^usage: skillgate explain .*\[--loaded SKILL,\.\.\.\].* \[--\] COMMAND\.\.\.$/);
  });
});
