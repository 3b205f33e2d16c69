// The shell pre-filter (hooks/core/shell-prefilter.ts) against the full
// analysis, differentially: over every command of test/corpus and
// a seeded fuzzed set, for the default table and for tables with extra rows,
// whenever the pre-filter skips the parser the facts are the full analysis'
// (but for `reads`) and decide() gives the same outcome, which allows with
// no row matched. Seed: $PREFILTER_SEED (printed), else a fixed one.
// Count: $PREFILTER_COUNT (default 20000).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import picomatch from "picomatch";
import { decide } from "../hooks/core/decide.ts";
import { compileTable, type CompiledTable } from "../hooks/core/table/compile.ts";
import { emptyState, type Event, type Row, type SessionState, type Table } from "../hooks/core/types.ts";
import { factsOf } from "../hooks/core/shell-facts.ts";
import { toolFacts, type Facts } from "../hooks/core/facts.ts";
import { memoryWorld, NO_WORLD, type ShellWorld } from "../hooks/core/shell/world.ts";
import { plainCommands, prefilter, PROGRAMS, MAX_PREFILTER_BYTES, type ProgramRules } from "../hooks/core/shell-prefilter.ts";
import { root } from "./helpers.ts";
import { rngOf } from "../scripts/gen-history.ts";

const SEED = process.env.PREFILTER_SEED ? Number(process.env.PREFILTER_SEED) >>> 0 : 18;
const COUNT = process.env.PREFILTER_COUNT ? Number(process.env.PREFILTER_COUNT) : 20_000;
console.log(`shell-prefilter: fuzz seed ${SEED} (PREFILTER_SEED), ${COUNT} commands`);

// ─── Tables ──────────────────────────────────────────────────────────────

const CWD = "/proj";
const protect = [
  { path: "/pkg/triggers.json", dir: false, what: "a trigger table skillgate may load" },
  { path: "/proj/.claude/triggers.json", dir: false, what: "the active trigger table" },
  { path: "/home/u/.skillgate", dir: true, what: "skillgate's state folder" },
  { path: "/home/u/.claude/settings.json", dir: false, what: "Claude Code settings" },
  { path: "/proj/.claude/settings.json", dir: false, what: "Claude Code settings" },
  { path: "/pkg/skills/commit", dir: true, what: "the text of skill commit" },
];
const compile = (t: Table, extra: Partial<CompiledTable> = {}): CompiledTable => ({ ...compileTable(t, "/pkg/skills", picomatch), protect, ...extra });
const defaultRows = (JSON.parse(fs.readFileSync(path.join(root, "triggers.json"), "utf8")) as { rows: Row[] }).rows;
const tableOf = (rows: Row[], failMode: "open" | "closed" = "open"): Table => ({
  version: 1,
  skillsDir: "skills",
  failMode,
  outputMaxAgeDays: 7,
  stateMaxAgeDays: 30,
  rows,
});
const extraRows: Row[] = [
  { id: "ru-write", kind: "gate", skill: "paired-docs", when: { writes: ["*_RU.md"] } },
  { id: "ls-hint", kind: "hint", skill: "listing", when: { command: { name: "ls" } } },
  { id: "tests", kind: "evidence", when: { command: { name: "wc", args: ["-l"] } }, paths: ["src"] },
  { id: "commit-needs-tests", kind: "gate", when: { command: { name: "git", sub: ["commit"] } }, require: { evidence: "tests" } },
  { id: "tail-follow-risk", kind: "risk", when: { command: { name: "tail", args: ["-f"] } } },
  { id: "rm-block", kind: "block", when: { command: { name: "rm" } } },
  { id: "settings-write", kind: "gate", skill: "settings", when: { writes: ["**/.claude/**", "*.json"] } },
];
const TABLES: { name: string; table: CompiledTable }[] = [
  { name: "default", table: compile(tableOf(defaultRows)) },
  { name: "extra rows", table: compile(tableOf([...defaultRows, ...extraRows])) },
  {
    name: "closed, a disabled row on head",
    table: compile(tableOf(defaultRows, "closed"), {
      disabled: [{ id: "bad-head", error: "field when.command.sub: bad", governs: { program: "head", writes: false, subagent: false, final: false } }],
    }),
  },
];
const skills = [...new Set([...defaultRows, ...extraRows].flatMap((r) => (r.skill ? [r.skill] : [])))];
const STATES: SessionState[] = [emptyState(), { ...emptyState(), loaded: skills }];

// ─── Worlds: what the full analysis may read at decision time ─────────────

interface Recorded extends ShellWorld {
  calls: string[];
}
/** Every file a git-committing script and a git config with aliases, every path a link to git. */
function hostileWorld(): Recorded {
  const calls: string[] = [];
  return {
    calls,
    cwd: CWD,
    env: { HOME: "/home/u", PATH: "/usr/bin:/bin", GIT_CONFIG_GLOBAL: "/home/u/.gitconfig", TMPDIR: "/tmp" },
    readFile: (p) => (calls.push(`read ${p}`), "[alias]\n\tls = commit\n\tcat = push --force\n#!/bin/sh\ngit commit -m x\n"),
    realpath: (p) => (calls.push(`realpath ${p}`), "/usr/bin/git"),
    kind: (p) => (calls.push(`kind ${p}`), "link"),
  };
}

// ─── The check ───────────────────────────────────────────────────────────

const shell = (command: string): Event => ({
  kind: "tool-call",
  sessionId: "s",
  cwd: CWD,
  toolUseId: "toolu_1",
  tool: { kind: "shell", name: "Bash", command },
});
const withoutReads = (f: Facts): Facts => (f.analysis ? { ...f, analysis: { ...f.analysis, reads: [] } } : f);

/**
 * Failures for one command: every way the pre-filter (with this allow-list)
 * would give the hook something else than the full analysis does.
 */
function failures(command: string, worlds: ShellWorld[], programs: ProgramRules = PROGRAMS, decisionsOnly = false): string[] {
  const out: string[] = [];
  const event = shell(command);
  const phase1 = plainCommands(command, programs);
  if (!phase1.skip) return out;
  const full = worlds.map((w) => factsOf(event, w));
  if (!decisionsOnly) {
    for (const [i, f] of full.entries()) {
      const a = f.analysis;
      // What the runner relies on when it loads the table without write globs for a phase-1 pass.
      if (!a || a.opaque.length || a.writes.length || a.status !== "complete" || f.mentions || f.writePatterns || f.writes.length)
        out.push(`world ${i}: the full analysis finds writes or opaque parts: ${JSON.stringify(a?.writes ?? a?.opaque)}`);
      if (!isDeepStrictEqual(withoutReads(f), toolFacts(event, phase1.analysis))) out.push(`world ${i}: facts differ from the full analysis'`);
      const rec = worlds[i] as Partial<Recorded>;
      if (rec.calls?.length)
        out.push(`world ${i}: the full analysis consulted the world (${rec.calls.slice(0, 3).join(", ")}), so it could see more than the pre-filter`);
    }
  }
  for (const { name, table } of TABLES) {
    const v = prefilter(command, table, programs);
    if (!v.skip) continue;
    const pre = toolFacts(event, v.analysis);
    for (const [i, f] of full.entries()) {
      for (const state of STATES) {
        const want = decide(event, table, state, f);
        const got = decide(event, table, state, pre);
        if (!isDeepStrictEqual(want, got))
          out.push(`table ${name}, world ${i}: decision ${want.decision.verdict} [${want.matched}] but ${got.decision.verdict} with the pre-filter`);
        else if (!decisionsOnly && (want.decision.verdict !== "allow" || want.matched.length))
          out.push(`table ${name}: a skipped command matches rows [${want.matched}]`);
      }
    }
  }
  return out;
}

// ─── Commands: the corpus, then a seeded generator ───────────────────────

interface CorpusCommand {
  file: string;
  id: string;
  command: string;
  world?: ShellWorld;
}
function corpus(): CorpusCommand[] {
  const dirs = [path.join(root, "test/corpus"), path.join(root, "test/corpus/classes")];
  const out: CorpusCommand[] = [];
  for (const dir of dirs) {
    for (const f of fs
      .readdirSync(dir)
      .filter((x) => x.endsWith(".jsonl"))
      .sort()) {
      for (const line of fs.readFileSync(path.join(dir, f), "utf8").split("\n")) {
        if (!line.trim()) continue;
        const o = JSON.parse(line) as {
          id?: string;
          command?: unknown;
          setup?: { files?: Record<string, string>; symlinks?: Record<string, string>; env?: Record<string, string> };
        };
        if (typeof o.command !== "string") continue;
        const s = o.setup;
        const links = Object.fromEntries(Object.entries(s?.symlinks ?? {}).map(([k, v]) => [k, { link: v }]));
        const world = s?.files || s?.symlinks ? memoryWorld(CWD, { ...(s.files ?? {}), ...links }, { HOME: "/home/u", ...(s.env ?? {}) }) : undefined;
        out.push({ file: f, id: o.id ?? "?", command: o.command, ...(world ? { world } : {}) });
      }
    }
  }
  return out;
}

/** mulberry32 (scripts/gen-history.ts): small, seeded, reproducible. */
const rng = rngOf;

const SAFE = Object.keys(PROGRAMS);
const DANGEROUS = [
  "xargs",
  "env",
  "find",
  "sh",
  "bash",
  "zsh",
  "git",
  "npm",
  "npx",
  "make",
  "tee",
  "sed",
  "awk",
  "python3",
  "node",
  "perl",
  "less",
  "more",
  "time",
  "nice",
  "nohup",
  "timeout",
  "watch",
  "sudo",
  "eval",
  "exec",
  "source",
  ".",
  "command",
  "builtin",
  "cp",
  "mv",
  "rm",
  "touch",
  "mkdir",
  "ln",
  "chmod",
  "dd",
  "install",
  "rsync",
  "curl",
  "kubectl",
  "journalctl",
  "file",
  "vim",
  "alias",
  "hash",
  "ssh",
  "GIT",
  "Ls",
  "git-commit",
  "/usr/bin/git",
  "./ls",
  "ls/",
  "strace",
  "script",
];
const GIT = [
  "commit -m x",
  "commit",
  "push origin HEAD",
  "push -f",
  "push --force origin main",
  "status",
  "log --oneline",
  "config alias.ci commit",
  "-c alias.l=commit l",
  "add .",
  "ci -m x",
];
const ARGS = [
  "-la",
  "-n",
  "2",
  "-o",
  "out_RU.md",
  "-o out_RU.md",
  "-oout_RU.md",
  "--output=notes_RU.md",
  "--out=x_RU.md",
  "--compress-program=sh",
  "--comp=git",
  "-R",
  "-z",
  "--pre=sh",
  "--pre",
  "git",
  "--hostname-bin=git",
  "--search-zip",
  "-v",
  "-vX",
  "-s",
  "--set=now",
  "-e",
  "-exec",
  "git commit ;",
  "-delete",
  "-fprint",
  "--",
  "-",
  "-i",
  "-f",
  "-rn",
  "foo",
  "src",
  "-c",
  "-l",
  "commit",
  "push",
  "HEAD",
  "--force",
  "a b",
  "-k2,2",
  "-t:",
  "-u",
  "-d",
  "-C",
  "-H",
  ".",
  "..",
  "x",
  "notes_RU.md",
  "a_EN.md",
  "src/app.js",
  "package.json",
  "db/migrations/001.sql",
  "triggers.json",
  "/pkg/triggers.json",
  ".claude/triggers.json",
  "/home/u/.claude/settings.json",
  ".claude/settings.json",
  "/home/u/.skillgate/state.json",
  ".git/config",
  "SKILL.md",
  "/pkg/skills/commit/SKILL.md",
  "x.pem",
  "security/a.ts",
  "check.txt",
  "=git",
  "a=b",
  "%1",
  "@x",
  "+x",
  "x:y",
  "1,2",
  "-1",
  // the redirects the pre-filter handles, and near misses
  "2>/dev/null",
  ">/dev/null",
  "&>/dev/null",
  "2>&1",
  "2>&1",
  "2>/dev/null",
  "2>/dev/nul",
  "2>/dev/null2",
  "1>/dev/null",
  "2>/dev/stdout",
  ">/dev/null_RU.md",
  // quoted specials: literal in single quotes, expanding in double quotes
  "'$HOME'",
  "'*.md'",
  "'!x'",
  "'a;b'",
  "'x > y'",
  '"a\'b"',
  '"a b"',
  "'\\n'",
  '"$HOME"',
  '"*_RU.md"',
  "'-o'",
  '"--pre=sh"',
  "'2>/dev/null'",
  "-'o'",
  "2>&1;",
  "3>&1",
  ">&2",
  "2>&-",
  "2> /dev/null",
  ">/dev/tty",
  ">notes_RU.md",
  "2>notes_RU.md",
  "&>notes_RU.md",
  "2>&1x",
  ">/dev/null/x_RU.md",
  "<<<x",
];
const DECOR = [
  (w: string) => `'${w}'`,
  (w: string) => `"${w}"`,
  (w: string) => `${w.slice(0, 1)}"${w.slice(1)}"`,
  (w: string) => `${w}''`,
  (w: string) => `$${w}`,
  (w: string) => `"$${w}"`,
  (w: string) => `$(${w})`,
  (w: string) => `\`${w}\``,
  (w: string) => `\\${w}`,
  (w: string) => `${w}\\`,
  (w: string) => `{${w},x}`,
  (w: string) => `${w}*`,
  (w: string) => `${w}?`,
  (w: string) => `[${w}]`,
  (w: string) => `~/${w}`,
  (w: string) => `!${w}`,
  (w: string) => `#${w}`,
  (w: string) => `${w} # c`,
  (w: string) => `> ${w}`,
  (w: string) => `>> ${w}`,
  (w: string) => `< ${w}`,
  (w: string) => `${w} 2>&1`,
  (w: string) => `${w} 2>/dev/null`,
  (w: string) => `&> ${w}`,
  (w: string) => `>| ${w}`,
  (w: string) => `<(${w})`,
  (w: string) => `(${w})`,
  (w: string) => `${w}^`,
  (w: string) => `X=1 ${w}`,
  (w: string) => `${w}\n`,
  (w: string) => `${w}\t`,
  (w: string) => `'${w}`,
  (w: string) => `"${w}`,
  (w: string) => `"${w}!"`,
  (w: string) => `${w}=`,
  (w: string) => `=${w}`,
  (w: string) => `'a|b;c&d>e' ${w}`,
];
// Unicode lookalikes: Cyrillic а/с/е/о/р/х, Latin ɡ (U+0261), fullwidth letters, no-break and zero-width spaces, fullwidth ; and |, en dash.
const LOOKALIKE: [string, string][] = [
  ["a", "\u0430"],
  ["c", "\u0441"],
  ["e", "\u0435"],
  ["o", "\u043e"],
  ["g", "\u0261"],
  ["l", "\uff4c"],
  ["s", "\uff53"],
  [" ", "\u00a0"],
  [" ", "\u200b"],
  [";", "\uff1b"],
  ["|", "\uff5c"],
  ["-", "\u2013"],
];
const SEPARATORS = [" | ", " && ", " || ", "; ", ";", "|", "&&", " & ", " |& ", " ;; ", "\n", " ;& ", " | | ", "||"];

function generate(n: number, seed: number): string[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const simple = (): string => {
    const roll = r();
    const prog = roll < 0.6 ? pick(SAFE) : roll < 0.85 ? pick(DANGEROUS) : "git";
    const words = [prog];
    if (prog === "git") words.push(pick(GIT));
    const nargs = Math.floor(r() * 4);
    for (let i = 0; i < nargs; i++) words.push(r() < 0.12 ? pick(DANGEROUS) : pick(ARGS));
    // decorate one word at most, often none: most generated commands stay plain, so the skip path is exercised hard
    if (r() < 0.35) {
      const i = Math.floor(r() * words.length);
      words[i] = pick(DECOR)(words[i] ?? "");
    }
    return words.join(" ");
  };
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const parts = 1 + Math.floor(r() * 3);
    let cmd = simple();
    for (let p = 1; p < parts; p++) cmd += pick(r() < 0.85 ? SEPARATORS.slice(0, 5) : SEPARATORS) + simple();
    if (r() < 0.05) {
      const [from, to] = pick(LOOKALIKE);
      const at = cmd.indexOf(from);
      if (at >= 0) cmd = cmd.slice(0, at) + to + cmd.slice(at + 1);
    }
    if (r() < 0.02) cmd = `${cmd} ${"x".repeat(MAX_PREFILTER_BYTES)}`;
    if (r() < 0.03) cmd = ` ${cmd}; `;
    out.push(cmd);
  }
  return out;
}

// ─── Tests ───────────────────────────────────────────────────────────────

test("the corpus: whenever the pre-filter skips, facts and decisions are the full analysis' (every table, every world)", () => {
  const all = corpus();
  const bad: string[] = [];
  const skipped: Record<string, { n: number; skip: number }> = {};
  for (const c of all) {
    const worlds: ShellWorld[] = [NO_WORLD, hostileWorld(), ...(c.world ? [c.world] : [])];
    for (const f of failures(c.command, worlds)) bad.push(`${c.file} ${c.id} ${JSON.stringify(c.command)}: ${f}`);
    const s = (skipped[c.file] ??= { n: 0, skip: 0 });
    s.n++;
    if (prefilter(c.command, TABLES[0]?.table ?? compile(tableOf([]))).skip) s.skip++;
  }
  console.log(
    `shell-prefilter: corpus skips with the default table: ${Object.entries(skipped)
      .map(([f, s]) => `${f} ${s.skip}/${s.n}`)
      .join(", ")}`,
  );
  assert.deepEqual(bad.slice(0, 20), []);
  // The pre-filter is worth having only if it catches a real share of everyday commands.
  const everyday = skipped["everyday.jsonl"];
  assert.ok(everyday && everyday.skip >= 40, `the pre-filter skips too few everyday commands (${everyday?.skip})`);
});

test(`fuzzed commands (seed ${SEED}): whenever the pre-filter skips, facts and decisions are the full analysis'`, () => {
  const cmds = generate(COUNT, SEED);
  const bad: string[] = [];
  let phase1 = 0;
  const skips = TABLES.map(() => 0);
  for (const cmd of cmds) {
    if (plainCommands(cmd).skip) phase1++;
    TABLES.forEach(({ table }, i) => {
      if (prefilter(cmd, table).skip) skips[i] = (skips[i] ?? 0) + 1;
    });
    for (const f of failures(cmd, [NO_WORLD, hostileWorld()])) bad.push(`${JSON.stringify(cmd)}: ${f}`);
  }
  console.log(
    `shell-prefilter: ${cmds.length} fuzzed commands, ${phase1} pass the syntax and allow-list; skipped per table: ${TABLES.map((t, i) => `${t.name} ${skips[i]}`).join(", ")}`,
  );
  assert.deepEqual(bad.slice(0, 20), [], `seed ${SEED}: rerun with PREFILTER_SEED=${SEED}`);
  // A generator that never reaches the skip path proves nothing.
  assert.ok(phase1 > cmds.length / 10, `only ${phase1} generated commands reach the skip path`);
});

test("the check can fail: a broken allow-list (xargs, sort without its -o check, find, tee) is caught by decisions alone", () => {
  const cmds = generate(4000, SEED ^ 0x5eed);
  const extra = [
    "echo x | xargs rm notes_RU.md",
    "sort -o notes_RU.md a",
    "find . -delete",
    "find docs -name '*_RU.md' -delete",
    "echo x | tee a_RU.md",
    "ls | xargs git commit -m x",
  ];
  const mutants: Record<string, ProgramRules> = {
    xargs: { ...PROGRAMS, xargs: true },
    "sort -o": { ...PROGRAMS, sort: true },
    find: { ...PROGRAMS, find: true },
    tee: { ...PROGRAMS, tee: true },
  };
  for (const [name, programs] of Object.entries(mutants)) {
    // One command whose decision differs is the proof: the search stops at the first.
    const caught = [...extra, ...cmds].some((c) => failures(c, [NO_WORLD], programs, true).length > 0);
    assert.ok(caught, `allow-listing ${name} was not caught`);
  }
});

test("declines: what the pre-filter must leave to the full analysis", () => {
  const table = TABLES[1]?.table ?? compile(tableOf([]));
  const declined = [
    "ls -la",
    "l's'",
    "'LS'", // a row names ls (quotes do not hide it)
    "cat .git/config",
    "grep -rn kubectl src",
    "echo GIT", // a row's program named anywhere
    "sort -o out.txt in.txt",
    "sort --out=x in",
    "uniq in out",
    "tree -o t.txt",
    "tree -R -H x",
    "rg --pre=sh x",
    "rg -z x",
    "printf -v x y",
    "date -s now",
    "cat x > y",
    "cat < x",
    "cat x 2>/dev/null&",
    "cat x 2>/dev/nullx",
    "cat x 2> /dev/null",
    "cat x >/dev/tty",
    "cat x 2>&1&",
    "2>/dev/null",
    "ls && 2>/dev/null",
    "cat x 1>/dev/null",
    "echo $HOME",
    "echo `id`",
    "echo $(id)",
    "cat *.md",
    "cat ~/.bashrc",
    "cat a\\ b",
    "cat {a,b}",
    "echo a # b",
    "echo !x",
    "echo hi &",
    "cat x |& head",
    "cat x;; ls",
    "cat x\nls",
    "cat 'x",
    'echo "$x"',
    "X=1 cat x",
    "=cat x",
    "./cat x",
    "/bin/cat x",
    "сat x",
    "cat x │ head",
    "sort '-o' f",
    "sort -'o' f",
    "rg '--pre=sh' x",
    "tree '-o' t",
    "find . -name x",
    "xargs echo",
    "env",
    "less x",
    "git status",
    "npm test",
    "bash -c 'cat x'",
    "time cat x",
    "command cat x",
    "file x",
    "tee x",
    "cat x |",
    "| cat x",
    "cat x &&",
    "&& cat x",
    ";",
    "",
    "   ",
    `cat ${"x".repeat(600)}`,
  ];
  for (const c of declined) assert.equal(prefilter(c, table).skip, false, `should decline ${JSON.stringify(c)}`);
  const skipped = [
    "pwd",
    "cat x | head -n 2",
    "ls x 2>/dev/null | head",
    "2>/dev/null ls",
    "grep -rn x src 2>&1 | head -5",
    "cat a &>/dev/null && echo ok",
    "ls&>/dev/null",
    "wc -l f >/dev/null 2>&1",
    "grep -rn foo src && wc -l a b",
    "rg -n 'a|b;c' src",
    "sort -k2,2 -t: f | uniq -c",
    "cd src; cat 'a b'",
    'echo "x y";',
    "tree -L 2 -I 'node_modules|dist'",
    "du -sh . || df -h",
  ];
  for (const c of skipped) assert.equal(prefilter(c, TABLES[0]?.table ?? table).skip, true, `should skip ${JSON.stringify(c)}`);
});

test("bundled with lazy chunks, the hook loads no parser chunk for a skipped command (nor for its long output), and does for a declined one", async () => {
  const { spawnSync } = await import("node:child_process");
  const os = await import("node:os");
  const { build } = await import("esbuild");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-prefilter-"));
  try {
    // The hook's entry bundled with code splitting, so every lazy import is a file of its own (the shipped Node route is one script).
    await build({
      entryPoints: { hook: path.join(root, "hooks/skillgate.ts") },
      outdir: path.join(dir, "dist"),
      outExtension: { ".js": ".mjs" },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      logLevel: "warning",
    });
    // The folder above the bundle is taken for skillgate's own (the default table, its skills).
    for (const f of ["triggers.json", "package.json", "skills"]) fs.symlinkSync(path.join(root, f), path.join(dir, f));
    const chunks = fs.readdirSync(path.join(dir, "dist")).filter((f) => f !== "hook.mjs");
    const parser = chunks.filter((f) => fs.readFileSync(path.join(dir, "dist", f), "utf8").includes("node_modules/unbash/"));
    assert.equal(parser.length, 1, `one chunk holds unbash: ${parser}`);
    // A module loader hook that notes every module the hook process loads.
    const log = path.join(dir, "loaded.txt");
    fs.writeFileSync(
      path.join(dir, "hooks.mjs"),
      `import fs from "node:fs";\nexport async function load(url, context, next) { fs.appendFileSync(${JSON.stringify(log)}, url + "\\n"); return next(url, context); }\n`,
    );
    const register = `data:text/javascript,import{register}from"node:module";register(${JSON.stringify(`file://${dir}/hooks.mjs`)})`;
    const lsTable = path.join(dir, "ls.json");
    fs.writeFileSync(
      lsTable,
      JSON.stringify({ version: 1, extends: "default", rows: [{ id: "ls-hint", kind: "hint", skill: "commit", when: { command: { name: "ls" } } }] }),
    );
    const runHook = (command: string, table = path.join(root, "triggers.json"), stdout?: string) => {
      fs.rmSync(log, { force: true });
      const pre = { session_id: "s1", cwd: dir, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: "toolu_1" };
      const payload =
        stdout === undefined ? pre : { ...pre, hook_event_name: "PostToolUse", tool_response: { stdout, stderr: "", interrupted: false, isImage: false } };
      const { SKILLGATE_PREFILTER: _off, ...env } = process.env;
      const r = spawnSync(process.execPath, ["--import", register, path.join(dir, "dist", "hook.mjs")], {
        input: JSON.stringify(payload),
        encoding: "utf8",
        env: { ...env, SKILLGATE_STATE: path.join(dir, "state"), SKILLGATE_TABLE: table },
      });
      assert.equal(r.status, 0, r.stderr);
      const loaded = fs.readFileSync(log, "utf8");
      return { out: r.stdout, parserLoaded: parser.some((p) => loaded.includes(p)) };
    };
    const skipped = runHook("ls -la | head -5");
    assert.equal(skipped.parserLoaded, false, "the parser chunk loaded for a command the pre-filter skips");
    assert.equal(runHook("git status").parserLoaded, true, "git status goes through the parser");
    const named = runHook("ls -la", lsTable);
    assert.equal(named.parserLoaded, true, "a row naming ls sends ls to the parser");
    assert.match(named.out, /ls-hint/, "and the row's hint is given");
    // A long output of a plain command is summarized without the parser too (the output cap classifies it read-only).
    const long = Array.from({ length: 3000 }, (_, i) => `src/file${i}.ts:${i}: const x = ${i};`).join("\n");
    const capped = runHook("grep -rn x src", undefined, long);
    assert.equal(capped.parserLoaded, false, "the parser chunk loaded to classify a plain command's output");
    assert.match(capped.out, /skillgate\[output-cap\]/, "the long output is summarized");
    assert.equal(runHook("git log", undefined, long).parserLoaded, true, "git log's output goes through the parser");
    assert.match(runHook("git commit -m x").out, /"permissionDecision":"deny"/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the shipped hook reports the pre-filter's skip in its timings (SKILLGATE_TIMINGS=1)", async () => {
  const { hookBundle } = await import("./helpers.ts");
  const { spawnSync } = await import("node:child_process");
  const os = await import("node:os");
  assert.ok(fs.existsSync(hookBundle), `${hookBundle} is missing: npm run build`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-prefilter-"));
  try {
    const skip = (command: string, off = false): unknown => {
      const payload = { session_id: "s1", cwd: dir, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: "toolu_1" };
      const { SKILLGATE_PREFILTER: _off, ...env } = process.env;
      const r = spawnSync(process.execPath, [hookBundle], {
        input: JSON.stringify(payload),
        encoding: "utf8",
        env: {
          ...env,
          SKILLGATE_STATE: path.join(dir, "state"),
          SKILLGATE_TABLE: path.join(root, "triggers.json"),
          SKILLGATE_TIMINGS: "1",
          ...(off ? { SKILLGATE_PREFILTER: "off" } : {}),
        },
      });
      const line = r.stderr.split("\n").find((l) => l.startsWith("skillgate-timings "));
      assert.ok(line, `no timings line: ${r.stderr}`);
      return (JSON.parse(line.slice("skillgate-timings ".length)) as { skip?: number }).skip;
    };
    assert.equal(skip("ls -la"), 1);
    assert.equal(skip("cat .git/config"), 0, "a row names git");
    assert.equal(skip("git status"), 0);
    assert.equal(skip("ls -la", true), 0, "SKILLGATE_PREFILTER=off");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
