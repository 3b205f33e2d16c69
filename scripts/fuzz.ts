// Fuzzing the hook: generated and mutated Claude Code events, fed in-process
// through runHook() and through the real process (node dist/hook.cjs).
//
//   npm run fuzz                                                100,000 in-process events + the big specials + 200 process
//                                                               runs, on a new seed each time (printed; FUZZ_SEED or --seed fixes it)
//   npm run fuzz -- --seed 7                                    the same run again
//   npx tsx scripts/fuzz.ts --count 1000000 --seed 7           long in-process run (+ the big specials)
//   npx tsx scripts/fuzz.ts --count 0 --process 2000 --seed 7  process runs only
//   npx tsx scripts/fuzz.ts --seed 7 --index 12345 [--process] one generated event again
//   npx tsx scripts/fuzz.ts --replay .tmp/fuzz/<file> [--source | --process]   a saved failing input again
//
// What every run must do (checkOutput, checkSandbox):
// - runHook resolves; the process exits 0 (never 2: that blocks), within 5 s;
// - stdout is empty or one JSON object with only Claude Code's output keys;
//   `decision` only "block" and only on Stop/SubagentStop, never while
//   stop_hook_active without a prompt id; `permissionDecision` only "deny" and only on PreToolUse;
//   `hookEventName` that of the event; `updatedToolOutput` only on PostToolUse;
//   `continue` never false;
// - stderr starts with "skillgate", has no stack trace and no "internal error",
//   and is non-empty exactly when stdout carries a systemMessage;
// - never silent (a systemMessage) on input that is not JSON, over the cap,
//   without a hook_event_name, a handled event without a string session_id or
//   with an unsafe one, or a corrupt state file;
// - no event over 5 s in-process;
// - files only in the sandbox's state folder (`<id>.json` for safe ids that
//   were sent, moved-aside corrupt files, the table cache), 0600 in a 0700
//   folder, no lock or temp file left; capped outputs only in $SKILLGATE_OUTPUT_DIR.
//
// test/fuzz.test.ts (in `npm test`) runs a smoke of the same generators and checks on a fixed seed.
// No Math.random: the PRNG is seeded per (seed, index), so any event can be regenerated alone.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import vm from "node:vm";
import { fileURLToPath } from "node:url";
import type { HookEnv, HookResult } from "../hooks/runner/hook.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const HOOK_BUNDLE = path.join(ROOT, "dist", "hook.cjs");
export const TABLE = path.join(ROOT, "triggers.json");
/** Failing inputs are saved here (gitignored) for --replay. */
export const FAIL_DIR = path.join(ROOT, ".tmp", "fuzz");
/** One event taking longer than this in-process is a hang (not a speed budget: speed is `npm run bench`'s; a loaded CI machine must not turn this red). */
export const EVENT_BUDGET_MS = 30_000;
/** One process run taking longer than this is a hang (inputs of 1 MB and more get 3x). */
export const PROCESS_TIMEOUT_MS = 20_000;
/** The hook's own cap (hooks/runner/hook.ts MAX_EVENT_BYTES); bigger events must be refused with a notice. */
const EVENT_CAP = 8 * 1024 * 1024;
/** Marker in every session id that tries to climb out of the state folder; swept for afterwards. */
export const ESCAPE_MARK = "sgfz-escape";
/**
 * Sandboxes go on tmpfs when there is one: a state write is a rename, which
 * costs ~0.5 ms on ext4 and ~0.03 ms on tmpfs, and the fuzz writes state often.
 */
export const TMP = process.env.FUZZ_TMP ?? (isWritableDir("/dev/shm") ? "/dev/shm" : os.tmpdir());

function isWritableDir(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Claude Code's entry (hooks/entries/claude-code.ts): the host is optional there. */
export type RunHook = (input: string, h: Omit<HookEnv, "host"> & { host?: HookEnv["host"] }) => Promise<HookResult>;

/**
 * runHook() to fuzz. "bundle" (default): hooks/runner/hook.ts bundled by
 * esbuild into one file, the way dist/ ships it. Under tsx every dynamic
 * import() the engine does per event (the shell parser, picomatch) is a
 * round trip to tsx's loader thread, about a millisecond each, which would
 * triple the cost of an event; the bundle inlines them. "source": the
 * TypeScript modules through tsx, as they are.
 */
export async function loadEngine(
  mode: "bundle" | "source" = process.env.FUZZ_ENGINE === "source" ? "source" : "bundle",
): Promise<{ runHook: RunHook; cleanup: () => void }> {
  if (mode === "source") {
    const m = await import("../hooks/entries/claude-code.js");
    return { runHook: m.runHook, cleanup: () => {} };
  }
  const { file, cleanup } = await engineFile();
  return { runHook: loadBundle(file).runHook, cleanup };
}

/**
 * runHook with each call in an instance of the bundle of its own: module state as fresh as a hook process's (each
 * event loads the engine anew), without a process start (~60 ms of CPU; an instance, from V8's code cache, ~5 ms).
 * For tests of what one event leaves to the next on disk (snapshots, state), where the process adds nothing.
 */
export async function freshEngine(): Promise<{ runHook: RunHook; cleanup: () => void }> {
  const { file, cleanup } = await engineFile();
  const source = `(function (${CJS_PARAMS.join(", ")}) {${fs.readFileSync(file, "utf8")}\n})`;
  let cachedData: Buffer | undefined;
  const runHook: RunHook = (input, h) => {
    const script = new vm.Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
    const instance = instantiate(file, script.runInThisContext() as CjsWrapper);
    cachedData ??= script.createCachedData();
    return instance.runHook(input, h);
  };
  return { runHook, cleanup };
}

/**
 * The bundle's file. Under `npm test` (SKILLGATE_TEST_TMP: the run's own temp folder, removed when it ends) it is
 * built once per run and shared by every test process that loads it (cases, mutation, restore, fuzz and the
 * `npm run fuzz` it starts): ~0.15 s of CPU per build. It is reused only while every file esbuild read for it is
 * unchanged (see cachedEngine).
 */
async function engineFile(): Promise<{ file: string; cleanup: () => void }> {
  const runTmp = process.env.SKILLGATE_TEST_TMP;
  const shared = runTmp ? cachedEngine(runTmp) : undefined;
  if (shared) return { file: shared, cleanup: () => {} };
  const dir = fs.mkdtempSync(path.join(TMP, "skillgate-fuzz-engine-"));
  const outfile = path.join(dir, "engine.cjs");
  const inputs = await buildEngine(outfile);
  if (runTmp) saveEngine(runTmp, outfile, inputs);
  return { file: outfile, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const ENGINE_ENTRY = path.join(ROOT, "hooks", "entries", "claude-code.ts");

/**
 * Bundles runHook's entry to `outfile` as one CommonJS script, as dist/hook.node.cjs is (import.meta.dirname is
 * the script's folder); returns the files esbuild read for it (relative to ROOT).
 */
async function buildEngine(outfile: string): Promise<string[]> {
  const { build } = await import("esbuild");
  const r = await build({
    entryPoints: [ENGINE_ENTRY],
    absWorkingDir: ROOT,
    outfile,
    bundle: true,
    splitting: false,
    format: "cjs",
    platform: "node",
    target: "node20",
    define: { "import.meta.dirname": "__dirname" },
    logOverride: { "empty-import-meta": "silent" },
    logLevel: "warning",
    metafile: true,
  });
  return Object.keys(r.metafile.inputs);
}

const CJS_PARAMS = ["exports", "require", "module", "__filename", "__dirname"];
type CjsWrapper = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

/**
 * The bundle run as Node runs a CommonJS script, with module state of its own. Not through require() or import():
 * under tsx (the test processes, `npm run fuzz`) those hand the 1.6 MB script to tsx's loader to transform, ~0.35 s
 * of CPU, for a script that needs none. No source maps: enabling them makes every Error the engine creates (and
 * catches) costly. Replay with --source for .ts stacks.
 */
function loadBundle(file: string): { runHook: RunHook } {
  return instantiate(file, vm.compileFunction(fs.readFileSync(file, "utf8"), CJS_PARAMS, { filename: file }) as CjsWrapper);
}

function instantiate(file: string, wrapper: CjsWrapper): { runHook: RunHook } {
  const module = { exports: {} as { runHook?: RunHook } };
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  const runHook = module.exports.runHook;
  if (typeof runHook !== "function") throw new Error(`${file} exports no runHook`);
  return { runHook };
}

const engineCacheDir = (tmp: string) => path.join(tmp, "skillgate-fuzz-engine-cache");
const hashOf = (files: string[]): string => {
  const h = createHash("sha256");
  for (const f of files)
    h.update(f)
      .update("\0")
      .update(fs.readFileSync(path.resolve(ROOT, f)))
      .update("\0");
  return h.digest("hex");
};

/** The run's bundle, if one was saved and none of the files it was built from has changed since. */
function cachedEngine(tmp: string): string | undefined {
  try {
    const dir = engineCacheDir(tmp);
    const { inputs, hash } = JSON.parse(fs.readFileSync(path.join(dir, "inputs.json"), "utf8")) as { inputs: string[]; hash: string };
    return hashOf(inputs) === hash ? path.join(dir, `engine-${hash}.cjs`) : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a fresh build for the rest of the run: the bundle first, then (renamed into place) the list that names it. */
function saveEngine(tmp: string, outfile: string, inputs: string[]): void {
  const dir = engineCacheDir(tmp);
  fs.mkdirSync(dir, { recursive: true });
  const hash = hashOf(inputs);
  const bundle = path.join(dir, `engine-${hash}.cjs`);
  const part = `${bundle}.${process.pid}.tmp`;
  fs.copyFileSync(outfile, part);
  fs.renameSync(part, bundle);
  const list = path.join(dir, `inputs.json.${process.pid}.tmp`);
  fs.writeFileSync(list, JSON.stringify({ inputs, hash }));
  fs.renameSync(list, path.join(dir, "inputs.json"));
}

// ───────────────────────────── PRNG ─────────────────────────────

/** sfc32, seeded through splitmix32 from (seed, stream): one independent stream per event. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number, stream = 0) {
    let s = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul((stream >>> 0) + 0x632be5ab, 0x85ebca77) ^ Math.floor(stream / 2 ** 32)) >>> 0;
    const mix = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
      z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
      return (z ^ (z >>> 15)) >>> 0;
    };
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    for (let i = 0; i < 12; i++) this.u32();
  }
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
  float(): number {
    return this.u32() / 4294967296;
  }
  /** 0 ≤ r < n */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }
  /** lo ≤ r ≤ hi */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  /** Small numbers mostly, big ones sometimes: lo ≤ r ≤ hi, log-uniform. */
  size(lo: number, hi: number): number {
    const r = Math.exp(Math.log(lo + 1) + this.float() * (Math.log(hi + 1) - Math.log(lo + 1))) - 1;
    return Math.min(hi, Math.max(lo, Math.floor(r)));
  }
  chance(p: number): boolean {
    return this.float() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  weighted<T>(pairs: readonly (readonly [number, T])[]): T {
    let total = 0;
    for (const [w] of pairs) total += w;
    let r = this.float() * total;
    for (const [w, v] of pairs) if ((r -= w) < 0) return v;
    return pairs[pairs.length - 1]![1];
  }
}

// ───────────────────────────── vocabulary ─────────────────────────────

/** Events the adapter handles (hooks/hosts/claude-code/adapter.ts); others must be ignored. */
export const HANDLED = [
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "SessionStart",
  "PreCompact",
  "PostCompact",
  "Stop",
  "SubagentStop",
] as const;
const OTHER_EVENTS = [
  "SessionEnd",
  "SubagentStart",
  "Notification",
  "PermissionRequest",
  "PermissionDenied",
  "PostToolBatch",
  "StopFailure",
  "Setup",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
  "Elicitation",
  "ConfigChange",
  "WorktreeCreate",
  "InstructionsLoaded",
  "CwdChanged",
  "FileChanged",
  "MessageDisplay",
  "PreSkillShellCommand",
];
const WEIRD_EVENTS = [
  "",
  " ",
  "pretooluse",
  "PRETOOLUSE",
  "PreToolUse ",
  " PreToolUse",
  "PreToolUse\u0000",
  "Pre\u200bToolUse",
  "Stop\n",
  "constructor",
  "__proto__",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "Unknown",
  "🙂",
  "null",
  "undefined",
];
const TOOLS = [
  "Bash",
  "Bash",
  "Bash",
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
  "Read",
  "Skill",
  "Agent",
  "Task",
  "Glob",
  "Grep",
  "WebFetch",
  "mcp__github__create_pr",
  "",
  "bash",
  "Bash ",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
];
const KEYS = [
  "session_id",
  "transcript_path",
  "cwd",
  "prompt_id",
  "permission_mode",
  "effort",
  "hook_event_name",
  "tool_name",
  "tool_input",
  "tool_use_id",
  "tool_response",
  "agent_id",
  "agent_type",
  "source",
  "prompt",
  "command_name",
  "command_args",
  "expansion_type",
  "stop_hook_active",
  "last_assistant_message",
  "command",
  "file_path",
  "notebook_path",
  "skill",
  "subagent_type",
  "offset",
  "limit",
  "success",
  "description",
  "content",
  "error",
  "__proto__",
  "constructor",
  "toString",
  "",
  " ",
  "hook_event_name ",
  "Hook_Event_Name",
  "session-id",
  "x",
];
const WORDS = [
  "git",
  "commit",
  "push",
  "--force",
  "-f",
  "HEAD",
  "kubectl",
  "apply",
  "npm",
  "publish",
  "test",
  "journalctl",
  "логи",
  "логов",
  "пост",
  "стенд",
  "релиз",
  "миграции",
  "зависимости",
  "готово",
  "Готово",
  "✅",
  "release",
  "staging",
  "logs",
  "blog post",
  "review",
  "ревью",
  "handoff",
  "migrations",
  "dependencies",
  "/commit",
  "commit-gate",
  "notes_RU.md",
  "README_EN.md",
  "package.json",
  "db/migrations/001.sql",
  "requirements-dev.txt",
  "SKILL.md",
  "executor",
  "cheap-executor",
  "general-purpose",
  "<task-notification>",
  "please",
  "the",
  "a",
  "done",
];
const STRINGS = [
  "",
  " ",
  "\u0000",
  "\u0000\u0001\u001f",
  "\r\n",
  "\u2028\u2029",
  "\ud800",
  "\udfff",
  "\udc00\ud800",
  "🙂",
  "👨‍👩‍👧",
  "\u202e",
  "\ufeff",
  "ﬁ",
  "İ",
  "ß",
  "é",
  "\\",
  "\\\\",
  '"',
  "'",
  "`",
  "$(",
  "${HOME}",
  "%s%n%x",
  "../../etc/passwd",
  "/home/dev/project/notes_RU.md",
  "C:\\Windows\\x",
  "**/*",
  "(a+)+$",
  "\\p{L}",
  "[",
  "*",
  "?",
  "{a,b}",
  "~",
  "/dev/null",
  "/proc/self/mem",
  "nul",
  "CON",
  "a".repeat(300),
  "x".repeat(4096),
  "ж".repeat(2000),
];
const SAFE_IDS = [
  "b5cc2829-727d-4e5e-8388-e2c758f4060c",
  "0",
  "a",
  "A-b_c",
  "9f8e7d6c-0000-4000-8000-000000000001",
  "sess-1",
  "sess-2",
  "Z".repeat(100),
  "a".repeat(128),
];
/** Ids that must never become a path (or that are near the edge of "safe"). */
function hostileId(rng: Rng): unknown {
  const climb = "../".repeat(rng.range(1, 4));
  return rng.pick<() => unknown>([
    () => `${climb}${ESCAPE_MARK}-${rng.int(1e6)}`,
    () => `${ESCAPE_MARK}/../../${ESCAPE_MARK}-${rng.int(1e6)}`,
    () => `/tmp/${ESCAPE_MARK}-${rng.int(1e6)}`,
    () => `a/b`,
    () => "..",
    () => ".",
    () => "./x",
    () => "a\\b",
    () => "..\\..\\x",
    () => "\u0000",
    () => "x\u0000y",
    () => "",
    () => " ",
    () => "a b",
    () => "-rf",
    () => "_x",
    () => ".hidden",
    () => "x.json",
    () => "x\n",
    () => "é",
    () => "🙂",
    () => "\u202eabc",
    () => "\ud800",
    () => "a".repeat(129),
    () => "a".repeat(300),
    () => "b".repeat(5000),
    () => "CON",
    () => "x:y",
    () => "x*",
    () => "~",
    () => "$(id)",
    () => rng.int(1e9),
    () => -1,
    () => 0,
    () => 1.5,
    () => null,
    () => true,
    () => [],
    () => ["x"],
    () => undefined,
    () => ({ id: "x" }),
  ])();
}
/** My definition of a name that is safe to become `<id>.json` in the state folder. */
export function safeFileId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(id) && id.length <= 200;
}

// ───────────────────────────── generators ─────────────────────────────

interface Fixture {
  name: string;
  value: Record<string, unknown>;
  size: number;
}
let fixtureCache: Fixture[] | undefined;
export function fixtures(): Fixture[] {
  if (fixtureCache) return fixtureCache;
  const dir = path.join(ROOT, "cases", "fixtures");
  fixtureCache = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => {
      const text = fs.readFileSync(path.join(dir, f), "utf8");
      return { name: f, value: JSON.parse(text) as Record<string, unknown>, size: text.length };
    })
    .filter((f) => typeof f.value.hook_event_name === "string");
  return fixtureCache;
}
const clone = <T>(v: T): T => structuredClone(v);

/** A fixture to mutate; the big ones (a 200 kB tool output) one time in five, or they would dominate the cost. */
function pickFixture(rng: Rng, name?: string): Fixture | undefined {
  const all = fixtures().filter((f) => name === undefined || f.value.hook_event_name === name);
  if (all.length === 0) return undefined;
  for (;;) {
    const f = rng.pick(all);
    if (f.size < 20_000 || rng.chance(0.2)) return f;
  }
}

function randString(rng: Rng, max = 200): string {
  const n = rng.size(0, 12);
  let s = "";
  for (let i = 0; i < n && s.length < max; i++) {
    s += rng.weighted<() => string>([
      [4, () => rng.pick(WORDS)],
      [3, () => rng.pick(STRINGS).slice(0, max)],
      [2, () => String.fromCharCode(rng.int(0x80))],
      [1, () => String.fromCharCode(rng.int(0x10000))],
      [1, () => String.fromCodePoint(rng.int(0x110000))],
    ])();
    if (rng.chance(0.5)) s += " ";
  }
  return s;
}

function randNumber(rng: Rng): number {
  return rng.pick<() => number>([
    () => 0,
    () => -0,
    () => 1,
    () => -1,
    () => rng.int(1000),
    () => 2 ** 53,
    () => -(2 ** 53) - 2,
    () => 1e308,
    () => -1e308,
    () => 5e-324,
    () => rng.float(),
    () => (rng.float() - 0.5) * 1e12,
  ])();
}

export function randJson(rng: Rng, depth = 0): unknown {
  const leaf = depth > 4 || rng.chance(0.45);
  if (leaf) {
    return rng.weighted<() => unknown>([
      [1, () => null],
      [1, () => rng.chance(0.5)],
      [2, () => randNumber(rng)],
      [4, () => randString(rng)],
    ])();
  }
  if (rng.chance(0.4)) return Array.from({ length: rng.size(0, 6) }, () => randJson(rng, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = rng.size(0, 6); i > 0; i--) o[rng.chance(0.8) ? rng.pick(KEYS) : randString(rng, 30)] = randJson(rng, depth + 1);
  return o;
}

function eventName(rng: Rng): string {
  return rng.weighted<() => string>([
    [8, () => rng.pick(HANDLED)],
    [2, () => rng.pick(OTHER_EVENTS)],
    [1, () => rng.pick(WEIRD_EVENTS)],
  ])();
}
function sessionId(rng: Rng): unknown {
  return rng.weighted<() => unknown>([
    [6, () => rng.pick(SAFE_IDS)],
    [1, () => `fz-${rng.int(50)}`],
    [3, () => hostileId(rng)],
  ])();
}

// ── shell text ──

const SH_PROGRAMS = [
  "git commit -m x",
  "git commit -am 'wip'",
  "git -C repo commit",
  "git push origin HEAD",
  "git push --force",
  "git log --grep commit",
  "kubectl apply -f x.yaml",
  "npm publish",
  "npm test",
  "journalctl -u x",
  "echo hi",
  "cat notes_RU.md",
  "ls",
  "true",
  "tee -a notes_RU.md",
  "sed -i s/a/b/ package.json",
  "rm -rf db/migrations/1.sql",
  "python3 -c \"open('package.json','w')\"",
  "node -e \"require('fs').writeFileSync('go.mod','')\"",
  "cp a README_EN.md",
  "mv x Cargo.toml",
  "dd of=pyproject.toml",
  "touch db/migrations/2.sql",
  'eval "$CMD"',
  "$CMD",
  '"$(echo git)" commit',
  'bash -c "$X"',
  "xargs rm",
  "find . -delete",
  "find . -name '*.md' -exec sed -i s/x/y/ {} \\;",
  "sudo -u root git commit",
  "env A=1 B=2 git commit",
  "nice -n 5 git commit",
  "timeout 5 git commit",
  "command git commit",
  "builtin echo",
  "exec git commit",
  "/usr/bin/git commit",
  "\\git commit",
  'g"i"t commit',
  "'g'it commit",
  "c\\url x",
  "FOO=1 git commit",
  "base64 -d <<< Z2l0IGNvbW1pdA== | sh",
];
const SH_TOKENS = [
  ...SH_PROGRAMS,
  "git",
  "commit",
  "-m",
  "echo",
  "cat",
  "x",
  "file",
  "notes_RU.md",
  "'",
  '"',
  "`",
  "$(",
  ")",
  "((",
  "))",
  "$((",
  "${",
  "}",
  "{",
  "(",
  ";",
  ";;",
  "&&",
  "||",
  "|",
  "|&",
  "&",
  "\n",
  "\\",
  "\\\n",
  ">",
  ">>",
  ">|",
  "&>",
  "2>&1",
  "<",
  "<>",
  ">&",
  "<<EOF",
  "<<-'EOF'",
  '<<"E"',
  "EOF",
  "<<<",
  "<(",
  ">(",
  "$VAR",
  "${x:-y}",
  "${x//a/b}",
  "${#x}",
  "${!x}",
  "$1",
  "$@",
  "$*",
  "$?",
  "$$",
  "$'\\x41'",
  '$"t"',
  "~",
  "*",
  "?",
  "[a-z]",
  "!",
  "#",
  "# comment",
  "if",
  "then",
  "fi",
  "for",
  "in",
  "do",
  "done",
  "while",
  "case",
  "esac",
  "function",
  "f()",
  "[[",
  "]]",
  "=~",
  "let",
  "declare -A",
  "=",
  "+=",
  "\t",
  "\r",
  "\u0000",
  "🙂",
  "готово",
  "\ud800",
];

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
function dquote(s: string): string {
  return `"${s.replace(/(["\\$`])/g, "\\$1")}"`;
}

/** Random bash-ish token soup. */
export function shellSoup(rng: Rng, maxTokens = 40): string {
  const n = rng.size(1, maxTokens);
  let s = "";
  for (let i = 0; i < n; i++)
    s +=
      rng.pick(SH_TOKENS) +
      rng.weighted([
        [6, " "],
        [3, ""],
        [1, "\n"],
      ] as const);
  return s;
}

/** Balanced, nested shell: substitutions, subshells, wrappers, `bash -c`, here-docs. */
export function shellNested(rng: Rng, depth: number): string {
  if (depth <= 0 || rng.chance(0.2)) return rng.chance(0.8) ? rng.pick(SH_PROGRAMS) : shellSoup(rng, 6);
  const inner = (): string => shellNested(rng, depth - 1);
  return rng.pick<() => string>([
    () => `echo $(${inner()})`,
    () => `echo "$(${inner()})"`,
    () => `echo \`${inner().replace(/[`\\]/g, "\\$&")}\``,
    () => `bash -c ${shellQuote(inner())}`,
    () => `sh -lc ${dquote(inner())}`,
    () => `( ${inner()} )`,
    () => `{ ${inner()}; }`,
    () => `${inner()} | ${inner()}`,
    () => `${inner()} && ${inner()} || ${inner()}`,
    () => `${inner()}; ${inner()} &`,
    () => `sudo ${inner()}`,
    () => `env X=1 ${inner()}`,
    () => `xargs -I{} ${inner()}`,
    () => `find . -exec ${inner()} \\;`,
    () => `cat <(${inner()}) > out.txt`,
    () => `if ${inner()}; then ${inner()}; fi`,
    () => `for i in a b; do ${inner()}; done`,
    () => `case x in x) ${inner()};; esac`,
    () => `f() { ${inner()}; }; f`,
    () => `eval ${dquote(inner())}`,
    () => `${inner()} > notes_RU.md 2>&1`,
    () => `bash <<'EOF'\n${inner()}\nEOF\n`,
    () => `cat <<EOF > db/migrations/x.sql\n${inner()}\nEOF\n`,
  ])();
}

function mutateText(rng: Rng, s: string): string {
  if (s.length === 0) return rng.pick(SH_TOKENS);
  const at = rng.int(s.length + 1);
  switch (rng.int(4)) {
    case 0:
      return s.slice(0, at) + rng.pick(SH_TOKENS) + s.slice(at);
    case 1:
      return s.slice(0, at) + s.slice(Math.min(s.length, at + rng.size(1, 20)));
    case 2:
      return s.slice(0, at);
    default:
      return s.slice(0, at) + s.slice(at, at + rng.size(1, 40)).repeat(rng.size(2, 50)) + s.slice(at);
  }
}

export function shellCommand(rng: Rng): string {
  let c = rng.weighted<() => string>([
    [10, () => shellSoup(rng)],
    [10, () => shellNested(rng, rng.range(1, 6))],
    [1, () => shellSoup(rng, 400)],
    // Long runs of one construct; the 10,000-long ones are in specials().
    [1, () => rng.pick(["$(", "`", "(", "{ ", '"$(', "${", "$((", "<(", "bash -c '", "\\", "'", '"', "a | ", "a && ", "x <<EOF "]).repeat(rng.size(1, 400))],
  ])();
  for (let i = rng.chance(0.4) ? rng.range(1, 3) : 0; i > 0; i--) c = mutateText(rng, c);
  return c;
}

// ── events ──

export interface FuzzEvent {
  index: number;
  gen: string;
  /** A string for in-process runs; a Buffer may carry bytes that are not UTF-8 (process runs). */
  input: string | Buffer;
  /** Before the run, write this text into the state file of this (safe) session id. */
  corrupt?: { id: string; text: string; garbage: boolean };
}

type Obj = Record<string, unknown>;

function pathsOf(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = [], depth = 0): (string | number)[][] {
  if (depth > 6 || v === null || typeof v !== "object") return out;
  if (Array.isArray(v)) v.forEach((x, i) => (out.push([...at, i]), pathsOf(x, [...at, i], out, depth + 1)));
  else for (const k of Object.keys(v)) out.push([...at, k]), pathsOf((v as Obj)[k], [...at, k], out, depth + 1);
  return out;
}
function parentOf(root: unknown, p: (string | number)[]): Obj | unknown[] | undefined {
  let cur: unknown = root;
  for (const k of p.slice(0, -1)) cur = (cur as Obj)[k as string];
  return cur && typeof cur === "object" ? (cur as Obj) : undefined;
}

function retype(rng: Rng, v: unknown): unknown {
  return rng.pick<() => unknown>([
    () => (typeof v === "string" ? Number(v) || rng.int(100) : String(JSON.stringify(v) ?? "")),
    () => randNumber(rng),
    () => [v],
    () => (Array.isArray(v) ? (v[0] ?? null) : { value: v }),
    () => null,
    () => rng.chance(0.5),
    () => randString(rng),
    () => ({}),
    () => [],
    () => randJson(rng),
  ])();
}

/** Structural mutations of a real payload: delete, retype, duplicate, swap. */
function mutateObject(rng: Rng, root: Obj): unknown {
  let top: unknown = root;
  for (let n = rng.range(1, 4); n > 0; n--) {
    const paths = pathsOf(top);
    const p = paths.length ? rng.pick(paths) : undefined;
    const parent = p ? parentOf(top, p) : undefined;
    const key = p?.[p.length - 1];
    const op = rng.int(12);
    if (op === 0 && parent && key !== undefined) {
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete (parent as Obj)[key];
    } else if (op <= 2 && parent && key !== undefined) {
      (parent as Obj)[key as string] = retype(rng, (parent as Obj)[key as string]);
    } else if (op === 3 && parent && key !== undefined) {
      const v = (parent as Obj)[key as string];
      if (Array.isArray(parent)) parent.push(clone(v));
      else (parent as Obj)[rng.chance(0.5) ? rng.pick(KEYS) : `${key}_copy`] = clone(v);
    } else if (op === 4 && parent && key !== undefined) {
      (parent as Obj)[key as string] = randString(rng, rng.chance(0.1) ? 50_000 : 300);
    } else if (op === 5 && top && typeof top === "object" && !Array.isArray(top)) {
      (top as Obj).hook_event_name = eventName(rng);
    } else if (op === 6 && top && typeof top === "object" && !Array.isArray(top)) {
      (top as Obj).tool_name = rng.pick(TOOLS);
    } else if (op === 7 && top && typeof top === "object" && !Array.isArray(top)) {
      (top as Obj).tool_input = rng.chance(0.7) ? clone(pickFixture(rng)!.value.tool_input ?? {}) : randJson(rng);
    } else if (op === 8 && top && typeof top === "object" && !Array.isArray(top)) {
      (top as Obj).session_id = sessionId(rng);
    } else if (op === 9 && top && typeof top === "object" && !Array.isArray(top)) {
      (top as Obj)[rng.pick(KEYS)] = randJson(rng);
    } else if (op === 10 && top && typeof top === "object" && !Array.isArray(top)) {
      (top as Obj).stop_hook_active = rng.pick([true, false, "true", 1, null, [true]]);
    } else if (op === 11) {
      top = rng.pick<() => unknown>([() => [top], () => ({ payload: top }), () => JSON.parse(`{"__proto__":${JSON.stringify(top)}}`)])();
    }
  }
  return top;
}

/** Textual mutations of JSON: truncations, stray characters, duplicated keys, junk around it. */
function mutateJsonText(rng: Rng, text: string): string {
  const at = rng.int(text.length + 1);
  return rng.pick<() => string>([
    () => text.slice(0, at),
    () => text.slice(0, at) + rng.pick(["{", "}", "[", "]", '"', ",", ":", "\\", "\u0000", "NaN", "//c\n", "/*", "\n", "'", "undefined"]) + text.slice(at),
    () => text.slice(0, at) + text.slice(at + rng.size(1, 30)),
    () => text.replace("{", `{"hook_event_name":${JSON.stringify(eventName(rng))},`),
    () => text.replace(/}\s*$/, `,"hook_event_name":${JSON.stringify(eventName(rng))}}`),
    () => text.replace(/}\s*$/, `,"session_id":${JSON.stringify(sessionId(rng)) ?? "null"}}`),
    () => text.replace(/"session_id"/, `"session_id":${JSON.stringify(sessionId(rng)) ?? "null"},"session_id"`),
    () => rng.pick(["\ufeff", " ", "\n\n\t", "\r\n", "\u00a0"]) + text,
    () => text + rng.pick(["", "\n", "}", "{}", "\n{}", " garbage", "\u0000", ",", "]"]),
    () => text + "\n" + text,
    () => text.replace(/"(\w+)":/g, (m, k: string) => (rng.chance(0.2) ? `"${k.toUpperCase()}":` : m)),
    () =>
      text.replace(/:\s*"([^"\\]*)"/, (_m, s: string) => `: "${s}${rng.pick(["\\ud800", "\\udfff", "\\u0000", "\\u2028", "\\\\", "\\x41", "\\u12", "\\"])}"`),
    () => text.replace(/\d+/, rng.pick(["1e999", "-0", "0.1e-999", "00", "01", "1.", ".5", "+1", "0x10", "Infinity"])),
  ])();
}

function baseEvent(rng: Rng, name: string): Obj {
  const f = pickFixture(rng, name);
  const o: Obj = f ? clone(f.value) : { session_id: rng.pick(SAFE_IDS), cwd: "/home/dev/project", hook_event_name: name };
  o.session_id = rng.chance(0.8) ? rng.pick(SAFE_IDS) : `fz-${rng.int(50)}`;
  return o;
}

function bashEvent(rng: Rng): Obj {
  const o = baseEvent(
    rng,
    rng.weighted([
      [8, "PreToolUse"],
      [1, "PostToolUse"],
      [1, "PostToolUseFailure"],
    ] as const),
  );
  o.tool_name = "Bash";
  o.tool_input = { command: shellCommand(rng), description: "fuzz" };
  if (rng.chance(0.2)) o.agent_id = "ad7d092f2e8146deb";
  return o;
}

function writeEvent(rng: Rng): Obj {
  const o = baseEvent(
    rng,
    rng.weighted([
      [8, "PreToolUse"],
      [2, "PostToolUse"],
    ] as const),
  );
  const tool = rng.pick(["Write", "Edit", "MultiEdit", "NotebookEdit", "Read", "__proto__", "constructor"]);
  o.tool_name = tool;
  const file = rng.pick<() => unknown>([
    () => rng.pick(WORDS),
    () =>
      `/home/dev/project/${rng.pick(["", "a/", "../", "./", "db/migrations/", "//", "a/../"])}${rng.pick(["notes_RU.md", "x_EN.md", "package.json", "y.ts", "migrations/z.sql", "SKILL.md"])}`,
    () => randString(rng),
    () => "/" + "a/".repeat(rng.size(1, 5000)) + "package.json",
    () => `${"../".repeat(rng.size(1, 50))}etc/x_RU.md`,
    () => randJson(rng),
  ])();
  const field = tool === "NotebookEdit" ? "notebook_path" : "file_path";
  o.tool_input = { [field]: file, content: randString(rng), old_string: "a", new_string: "b" };
  if (rng.chance(0.2)) (o.tool_input as Obj)[rng.pick(["offset", "limit"])] = randJson(rng);
  if (rng.chance(0.2)) o.cwd = rng.pick(["", "/", "relative/dir", "/home/dev/project/", randString(rng)]);
  return o;
}

function textEvent(rng: Rng): Obj {
  const name = rng.pick(["UserPromptSubmit", "UserPromptExpansion", "Stop", "SubagentStop", "SessionStart", "PostToolUse", "PreToolUse"] as const);
  const o = baseEvent(rng, name);
  const text = (): unknown => (rng.chance(0.9) ? randString(rng, 2000) : randJson(rng));
  if (name === "UserPromptSubmit") o.prompt = rng.chance(0.1) ? `<task-notification>${randString(rng)}` : text();
  if (name === "UserPromptExpansion") Object.assign(o, { command_name: text(), expansion_type: rng.pick(["slash_command", "mcp_prompt", "", 1, null]) });
  if (name === "Stop" || name === "SubagentStop")
    Object.assign(o, { last_assistant_message: text(), stop_hook_active: rng.pick([true, false, false, "true", 1]) });
  if (name === "SessionStart") o.source = rng.pick(["startup", "resume", "clear", "compact", "fork", "", "COMPACT", 1, null]);
  if (name === "PostToolUse" || name === "PreToolUse") {
    o.tool_name = rng.pick(["Skill", "Read", "Agent", "Task"]);
    o.tool_input = { skill: text(), file_path: rng.chance(0.5) ? `/x/${randString(rng, 40)}/SKILL.md` : text(), subagent_type: rng.pick([...WORDS, 1, null]) };
    o.tool_response = rng.pick([{ success: true }, { success: false }, { success: "false" }, null, "ok", [], randJson(rng)]);
  }
  if (rng.chance(0.2)) o.agent_id = rng.pick(["", "ad7d092f2e8146deb", 5, null]);
  return o;
}

/** A file the sandbox provides (transcripts, a folder, a FIFO), by name: replaced with its path just before the run. */
export const inputRef = (name: string): string => `@@INPUT:${name}@@`;
/** Transcripts written into every sandbox (see makeSandbox); "dir" is a folder. */
const TRANSCRIPTS = ["t-120k.jsonl", "t-160k.jsonl", "t-garbage.bin", "t-hugeline.jsonl", "t-weird.jsonl", "t-empty.jsonl", "dir"];

function transcriptPath(rng: Rng): unknown {
  return rng.weighted<() => unknown>([
    [6, () => inputRef(rng.pick(TRANSCRIPTS))],
    [
      1,
      () =>
        rng.pick([
          "/",
          ".",
          "..",
          "",
          "/tmp",
          "/dev/null",
          "/dev/zero",
          "/proc/self/environ",
          "/proc/self/mem",
          "/nonexistent/x.jsonl",
          "rel/x.jsonl",
          "x\u0000y",
          "/etc/passwd",
          "a".repeat(5000),
        ]),
    ],
    [1, () => retype(rng, "x")],
  ])();
}

/** PostToolUse with long and odd tool results: the output cap writes files. */
function toolOutputEvent(rng: Rng): Obj {
  const o = baseEvent(
    rng,
    rng.weighted([
      [8, "PostToolUse"],
      [1, "PostToolUseFailure"],
      [1, "PreToolUse"],
    ] as const),
  );
  o.tool_name = rng.pick(["Bash", "Bash", "WebFetch", "Read", "Grep", "Skill", "mcp__x__y", "mcp__skillgate__z", "Agent"]);
  o.tool_input = o.tool_name === "Bash" ? { command: rng.pick(SH_PROGRAMS) } : { url: "https://x", file_path: "/x" };
  o.tool_use_id = rng.weighted<() => unknown>([
    [5, () => `toolu_${rng.int(1e9).toString(36)}`],
    [2, () => "toolu_cawp2qkut2g"],
    [1, () => hostileId(rng)],
  ])();
  const text = (): unknown => (rng.chance(0.85) ? "o".repeat(rng.size(0, 60_000)) + randString(rng) : randJson(rng));
  const r: Obj = {};
  for (const f of ["stdout", "stderr", "result", "output", "content", "interrupted", "isImage"]) if (rng.chance(0.4)) r[f] = text();
  o.tool_response = rng.weighted<() => unknown>([
    [9, () => r],
    [1, () => rng.pick([null, "x".repeat(30_000), [r], 5])],
  ])();
  if (rng.chance(0.3)) o.transcript_path = transcriptPath(rng);
  return o;
}

/** Events that make the hook read the transcript's tail (budget rows). */
function transcriptEvent(rng: Rng): Obj {
  const o = baseEvent(rng, rng.pick(["UserPromptSubmit", "PostToolUse", "PreToolUse", "Stop"] as const));
  o.transcript_path = transcriptPath(rng);
  if (o.hook_event_name === "PostToolUse") Object.assign(o, { tool_name: "Bash", tool_input: { command: "ls" }, tool_response: { stdout: "x", stderr: "" } });
  if (rng.chance(0.3)) o.context_tokens = rng.pick<unknown>([0, 99_999, 100_000, 150_001, -1, 1e308, "120000", null, [1], 2 ** 53]);
  if (rng.chance(0.2)) o.agent_id = "ad7d092f2e8146deb";
  return o;
}

function deepNest(rng: Rng, levels: number): string {
  const open = rng.pick(["[", '{"a":', '{"tool_input":', '[{"x":']);
  const close = open === "[" ? "]" : open === '[{"x":' ? "}]" : "}";
  const core = `${open.repeat(levels)}1${close.repeat(levels)}`;
  return rng.pick([
    () => core,
    () => JSON.stringify({ ...baseEvent(rng, "PreToolUse"), tool_name: "Bash" }).replace(/"tool_input":\{[^}]*\}/, `"tool_input":${core}`),
    () => `{"hook_event_name":${core},"session_id":"a"}`,
    () => `{"hook_event_name":"Stop","session_id":${core}}`,
    () => core.slice(0, -1),
  ])();
}

function corruptState(rng: Rng): FuzzEvent["corrupt"] {
  const id = `fzc-${rng.int(20)}`;
  const garbage = rng.chance(0.6);
  const text = garbage
    ? rng.pick([
        "",
        "{",
        "null",
        "[]",
        '{"version":1,"loaded":["commit"',
        '{"version":2,"loaded":[],"hintsShown":[]}',
        '{"version":1,"loaded":"commit","hintsShown":[]}',
        "\u0000\u0000\u0000",
        randString(rng),
      ])
    : JSON.stringify({
        version: 1,
        loaded: rng.pick([[], ["commit"], [1, null, {}], [["commit"]], ["__proto__"]]),
        hintsShown: rng.pick([[], [5], [null], ["logs-hint"]]),
        ...(rng.chance(0.5) ? { denials: rng.pick([5, "abc", null, [], { "commit-gate": "x" }, JSON.parse(`{"__proto__":{"x":1}}`)]) } : {}),
        ...(rng.chance(0.5) ? { compactions: rng.pick(["x", null, -1, 1e308, {}]) } : {}),
        ...(rng.chance(0.3) ? { extra: randJson(rng) } : {}),
      });
  return { id, text, garbage };
}

const GENERATORS: readonly (readonly [number, string])[] = [
  [5, "json-random"],
  [8, "json-object"],
  [28, "fixture-mutated"],
  [9, "fixture-text"],
  [22, "bash"],
  [7, "session-id"],
  [6, "write-path"],
  [8, "text-fields"],
  [2, "corrupt-state"],
  [3, "garbage"],
  [2, "deep-nesting"],
  [3, "tool-output"],
  [3, "transcript"],
];

/** Event number `index` of the run seeded `seed`: the same pair always gives the same event. */
export function makeEvent(seed: number, index: number): FuzzEvent {
  const rng = new Rng(seed, index);
  const gen = rng.weighted(GENERATORS);
  let input: string;
  let corrupt: FuzzEvent["corrupt"];
  const pretty = (v: unknown): string => JSON.stringify(v, null, rng.chance(0.2) ? 2 : undefined) ?? "null";
  switch (gen) {
    case "json-random":
      input = pretty(randJson(rng));
      break;
    case "json-object": {
      const o = randJson(rng, 3);
      const obj: Obj = o && typeof o === "object" && !Array.isArray(o) ? (o as Obj) : {};
      if (rng.chance(0.9)) obj.hook_event_name = eventName(rng);
      if (rng.chance(0.8)) obj.session_id = sessionId(rng);
      if (rng.chance(0.5)) obj.tool_name = rng.pick(TOOLS);
      input = pretty(obj);
      break;
    }
    case "fixture-mutated":
      input = pretty(mutateObject(rng, clone(pickFixture(rng)!.value)));
      break;
    case "fixture-text": {
      let t = pretty(rng.chance(0.5) ? pickFixture(rng)!.value : mutateObject(rng, clone(pickFixture(rng)!.value)));
      for (let i = rng.range(1, 3); i > 0; i--) t = mutateJsonText(rng, t);
      input = t;
      break;
    }
    case "bash":
      input = pretty(bashEvent(rng));
      break;
    case "session-id": {
      const o = clone(pickFixture(rng)!.value);
      o.session_id = rng.chance(0.85) ? hostileId(rng) : rng.pick(SAFE_IDS);
      input = pretty(o);
      break;
    }
    case "write-path":
      input = pretty(writeEvent(rng));
      break;
    case "text-fields":
      input = pretty(textEvent(rng));
      break;
    case "tool-output":
      input = pretty(toolOutputEvent(rng));
      break;
    case "transcript":
      input = pretty(transcriptEvent(rng));
      break;
    case "corrupt-state": {
      corrupt = corruptState(rng);
      const o = clone(pickFixture(rng)!.value);
      o.session_id = corrupt!.id;
      input = pretty(o);
      break;
    }
    case "garbage":
      input = rng.pick<() => string>([
        () => "",
        () => randString(rng, 500),
        () => shellSoup(rng),
        () => Array.from({ length: rng.size(1, 200) }, () => String.fromCharCode(rng.int(0x10000))).join(""),
        () => rng.pick(["null", "true", "0", '"PreToolUse"', "[]", "{}", "[{}]", '{"hook_event_name":null}', "1e999"]),
      ])();
      break;
    default:
      input = deepNest(rng, rng.size(100, 3000));
  }
  return { index, gen, input, corrupt };
}

/** Bytes that are not UTF-8, spliced into (mostly) the string values of an event. */
export function invalidUtf8(rng: Rng, text: string): Buffer {
  const bad = (): Buffer =>
    Buffer.from(
      rng.pick([
        [0xff],
        [0xfe],
        [0x80],
        [0xc0, 0x80],
        [0xc3],
        [0xed, 0xa0, 0x80],
        [0xed, 0xbf, 0xbf],
        [0xe2, 0x82],
        [0xf0, 0x9f, 0x98],
        [0xf4, 0x90, 0x80, 0x80],
        [0xf8, 0x88, 0x80, 0x80, 0x80],
        [0x00],
        [0xef, 0xbb, 0xbf],
      ]),
    );
  if (rng.chance(0.1)) return Buffer.from(Array.from({ length: rng.size(1, 2000) }, () => rng.int(256)));
  let buf = Buffer.from(text, "utf8");
  for (let n = rng.range(1, 5); n > 0; n--) {
    // Prefer positions right after a quote: inside a string value.
    let at = rng.int(buf.length + 1);
    if (rng.chance(0.7)) {
      const q = buf.indexOf(0x22, at);
      if (q >= 0) at = q + 1;
    }
    buf = Buffer.concat([buf.subarray(0, at), bad(), buf.subarray(at)]);
  }
  return buf;
}

/** Process-path event: the ordinary generators, a third of them with bytes that are not UTF-8. */
export function makeProcessEvent(seed: number, index: number): FuzzEvent {
  const stream = 0x40000000 + index;
  let ev = makeEvent(seed, stream);
  const rng = new Rng(seed ^ 0x5bd1e995, stream);
  if (ev.corrupt) {
    // Runs go several at a time: each corrupt state file gets a session of its own.
    const id = `fzp-${index}`;
    ev = { ...ev, input: String(ev.input).split(JSON.stringify(ev.corrupt.id)).join(JSON.stringify(id)), corrupt: { ...ev.corrupt, id } };
  }
  if (rng.chance(0.35)) ev = { ...ev, gen: `${ev.gen}+bad-utf8`, input: invalidUtf8(rng, String(ev.input)) };
  return { ...ev, index };
}

// ── the few big ones (1–10 MB strings, 10,000-level nesting, 10,000 nested `$(`) ──

export interface Special {
  name: string;
  input: () => string | Buffer;
  /** Also run it through the process (a few only: each costs a node start and a big pipe). */
  process?: boolean;
  /** Only through the process: it could block the thread that runs it (a FIFO). */
  processOnly?: boolean;
}

export function specials(seed: number): Special[] {
  const rng = new Rng(seed, 0x7fffffff);
  const event = (name: string, extra: Obj): string =>
    JSON.stringify({ ...clone(fixtures().find((f) => f.value.hook_event_name === name)!.value), session_id: "fz-big", ...extra });
  const bash = (command: string): string => event("PreToolUse", { tool_name: "Bash", tool_input: { command } });
  const soup = (bytes: number): string => {
    let s = "";
    while (s.length < bytes) s += shellSoup(rng, 60) + "\n";
    return s.slice(0, bytes);
  };
  const N = 10_000;
  return [
    { name: "bash: 10,000 unclosed $(", input: () => bash("echo " + "$(".repeat(N)), process: true },
    { name: "bash: 10,000 nested $( … ) around git commit", input: () => bash("$(".repeat(N) + "git commit -m x" + ")".repeat(N)), process: true },
    { name: 'bash: 10,000 nested "$( … )"', input: () => bash("echo " + '"$('.repeat(N) + "git commit" + ')"'.repeat(N)) },
    { name: "bash: 10,000 backticks", input: () => bash("`".repeat(N)) },
    { name: "bash: 10,000 nested ( )", input: () => bash("(".repeat(N) + "git commit" + ")".repeat(N)) },
    { name: "bash: 10,000 nested { ; }", input: () => bash("{ ".repeat(N) + "git commit" + "; }".repeat(N)) },
    { name: "bash: 10,000 ${", input: () => bash("echo " + "${".repeat(N)) },
    { name: "bash: 5,000 $((", input: () => bash("echo " + "$((".repeat(N / 2)) },
    { name: "bash: 10,000-stage pipeline", input: () => bash("a | ".repeat(N) + "git commit") },
    { name: "bash: 10,000 && chain", input: () => bash("true && ".repeat(N) + "git commit") },
    { name: "bash: 1,000 pending here-docs", input: () => bash("cat <<EOF ".repeat(1000)) },
    { name: "bash: 100,000 backslashes", input: () => bash("\\".repeat(100_000)) },
    { name: "bash: 100,001 single quotes", input: () => bash("'".repeat(100_001)) },
    {
      name: "bash: bash -c '…' nested 9 deep",
      input: () => bash(Array.from({ length: 9 }).reduce<string>((s) => `bash -c ${shellQuote(s)}`, "git commit -m x")),
    },
    {
      name: 'bash: bash -c "…" nested 17 deep',
      input: () => bash(Array.from({ length: 17 }).reduce<string>((s) => `bash -c ${dquote(s)}`, "git commit -m x")),
    },
    { name: "bash: 1 MB of shell soup (under the command cap)", input: () => bash(soup(1_040_000)) },
    { name: "bash: 1.2 MB command (over the command cap)", input: () => bash("git commit -m " + "x".repeat(1_200_000)) },
    { name: "prompt: 3 MB", input: () => event("UserPromptSubmit", { prompt: "логи ".repeat(600_000) }) },
    { name: "final message: 6 MB ending in ✅", input: () => event("Stop", { last_assistant_message: "ж".repeat(6_000_000) + " ✅" }), process: true },
    {
      name: "write: 7.9 MB file_path",
      input: () => event("PreToolUse", { tool_name: "Write", tool_input: { file_path: "a/".repeat(3_950_000) + "x_RU.md", content: "" } }),
    },
    { name: "event: 9 MB (over the event cap)", input: () => event("UserPromptSubmit", { prompt: "x".repeat(9_000_000) }), process: true },
    { name: "event: 10 MB string in an unused field", input: () => event("SessionStart", { transcript_path: "t".repeat(10_000_000) }) },
    { name: "json: 10,000-level arrays", input: () => "[".repeat(N) + "]".repeat(N), process: true },
    {
      name: "json: 10,000-level objects in tool_input",
      input: () => bash("x").replace(/"tool_input":\{[^}]*\}/, `"tool_input":${'{"a":'.repeat(N)}1${"}".repeat(N)}`),
      process: true,
    },
    { name: "json: 10,000-level unclosed arrays", input: () => "[".repeat(N) },
    { name: "json: 100,000-level arrays", input: () => "[".repeat(100_000) + "]".repeat(100_000) },
    { name: "stdin: empty", input: () => "", process: true },
    { name: "stdin: whitespace", input: () => " \n\t\r\n", process: true },
    { name: "stdin: UTF-8 BOM before a real event", input: () => "\ufeff" + event("Stop", {}), process: true },
    { name: "fixture: commit gate (sanity: deny)", input: () => bash("git commit -m 'first'"), process: true },
    { name: "transcript_path: a folder", input: () => event("UserPromptSubmit", { transcript_path: inputRef("dir") }), process: true },
    { name: "transcript_path: /dev/stdin", input: () => event("UserPromptSubmit", { transcript_path: "/dev/stdin" }), process: true },
    {
      name: "transcript_path: a FIFO nobody writes to",
      input: () => event("UserPromptSubmit", { transcript_path: inputRef("fifo") }),
      process: true,
      processOnly: true,
    },
    {
      name: "tool output: 5 MB of Bash stdout",
      input: () =>
        event("PostToolUse", {
          tool_name: "Bash",
          tool_input: { command: "cat big" },
          tool_use_id: "toolu_big",
          tool_response: { stdout: "y".repeat(5_000_000), stderr: "" },
        }),
    },
  ];
}

// ───────────────────────────── checks ─────────────────────────────

const OUTPUT_KEYS = new Set(["continue", "stopReason", "suppressOutput", "decision", "reason", "systemMessage", "hookSpecificOutput"]);
const SPECIFIC_KEYS = new Set(["hookEventName", "permissionDecision", "permissionDecisionReason", "additionalContext", "updatedToolOutput"]);
const BLOCKABLE = new Set(["Stop", "SubagentStop"]);

interface InputFacts {
  json: boolean;
  overCap: boolean;
  name?: string;
  handled: boolean;
  sessionId?: unknown;
  stopHookActive: boolean;
  hasPromptId?: boolean;
}
function inputFacts(text: string): InputFacts {
  const f: InputFacts = { json: false, overCap: text.length > EVENT_CAP, handled: false, stopHookActive: false };
  let v: unknown;
  try {
    v = JSON.parse(text);
    f.json = true;
  } catch {
    return f;
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return f;
  const o = v as Obj;
  if (typeof o.hook_event_name === "string") f.name = o.hook_event_name;
  f.handled = (HANDLED as readonly string[]).includes(f.name ?? "");
  f.sessionId = o.session_id;
  f.stopHookActive = o.stop_hook_active === true;
  f.hasPromptId = typeof o.prompt_id === "string" && o.prompt_id !== "";
  return f;
}

export type Outcome = "empty" | "notice" | "deny" | "block" | "hint" | "cap";

/** Everything wrong with one run's output, given the input the hook saw. */
export function checkOutput(
  input: string,
  out: { stdout: string; stderr: string },
  corrupt?: FuzzEvent["corrupt"],
): { problems: string[]; outcome: Outcome; sessionId?: unknown } {
  const problems: string[] = [];
  const f = inputFacts(input);
  let o: Obj = {};
  if (out.stdout !== "") {
    if (!out.stdout.startsWith("{")) problems.push("stdout is not a JSON object (Claude Code would take it as plain text)");
    try {
      const v = JSON.parse(out.stdout) as unknown;
      if (!v || typeof v !== "object" || Array.isArray(v)) problems.push("stdout JSON is not an object");
      else o = v as Obj;
    } catch (e) {
      problems.push(`stdout is not valid JSON: ${(e as Error).message}`);
    }
  }
  for (const k of Object.keys(o)) if (!OUTPUT_KEYS.has(k)) problems.push(`unknown output key ${JSON.stringify(k)}`);
  const isStr = (v: unknown): boolean => typeof v === "string" && v.length > 0;
  if ("continue" in o && o.continue !== true) problems.push(`continue is ${JSON.stringify(o.continue)} (would stop Claude entirely)`);
  if ("suppressOutput" in o && typeof o.suppressOutput !== "boolean") problems.push("suppressOutput is not a boolean");
  if ("stopReason" in o && typeof o.stopReason !== "string") problems.push("stopReason is not a string");
  if ("systemMessage" in o && !isStr(o.systemMessage)) problems.push("systemMessage is not a non-empty string");
  if ("reason" in o && !isStr(o.reason)) problems.push("reason is not a non-empty string");
  if ("decision" in o) {
    if (o.decision !== "block") problems.push(`decision is ${JSON.stringify(o.decision)}, only "block" is allowed`);
    if (!isStr(o.reason)) problems.push("a block without a reason");
    if (!BLOCKABLE.has(f.name ?? "")) problems.push(`a block on a ${JSON.stringify(f.name)} event`);
    // With a prompt id the hook blocks once per turn even if another hook set stop_hook_active; without one it trusts the flag.
    if (f.stopHookActive && !f.hasPromptId) problems.push("a block while stop_hook_active is true and no prompt id (stop loop)");
  }
  let verdict: Outcome = "empty";
  if ("hookSpecificOutput" in o) {
    const h = o.hookSpecificOutput as Obj;
    if (!h || typeof h !== "object" || Array.isArray(h)) problems.push("hookSpecificOutput is not an object");
    else {
      for (const k of Object.keys(h)) if (!SPECIFIC_KEYS.has(k)) problems.push(`unknown hookSpecificOutput key ${JSON.stringify(k)}`);
      if (typeof h.hookEventName !== "string") problems.push("hookSpecificOutput without hookEventName");
      else if (h.hookEventName !== f.name) problems.push(`hookEventName ${JSON.stringify(h.hookEventName)} for a ${JSON.stringify(f.name)} event`);
      if ("permissionDecision" in h) {
        if (h.permissionDecision !== "deny") problems.push(`permissionDecision is ${JSON.stringify(h.permissionDecision)}, only "deny" is allowed`);
        if (f.name !== "PreToolUse") problems.push(`a deny on a ${JSON.stringify(f.name)} event`);
        if (!isStr(h.permissionDecisionReason)) problems.push("a deny without a permissionDecisionReason");
        verdict = "deny";
      } else if ("permissionDecisionReason" in h) problems.push("permissionDecisionReason without a permissionDecision");
      if ("updatedToolOutput" in h) {
        const u = h.updatedToolOutput;
        if (!u || typeof u !== "object" || Array.isArray(u)) problems.push("updatedToolOutput is not an object");
        if (f.name !== "PostToolUse") problems.push(`updatedToolOutput on a ${JSON.stringify(f.name)} event`);
        verdict = "cap";
      }
      if ("additionalContext" in h) {
        if (!isStr(h.additionalContext)) problems.push("additionalContext is not a non-empty string");
        if (verdict === "empty") verdict = "hint";
      }
    }
  }
  if ("decision" in o) verdict = "block";
  if (verdict === "empty" && "systemMessage" in o) verdict = "notice";

  // stderr: skillgate's own messages (which may quote the input over several lines), never a stack trace; never on stderr alone.
  const lines = out.stderr.split("\n").filter((l) => l.trim() !== "");
  if (lines.length > 0 && !lines[0]!.startsWith("skillgate"))
    problems.push(`stderr does not start with "skillgate": ${JSON.stringify(lines[0]!.slice(0, 160))}`);
  for (const l of lines) {
    if (
      !l.startsWith("skillgate") &&
      /\b(Type|Range|Reference|Syntax|Eval|URI|Internal|Aggregate)?Error\b|Uncaught|EPIPE|ENOENT|EACCES/.test(l) &&
      !input.includes(l.trim())
    ) {
      problems.push(`stderr line looks like an uncaught error: ${JSON.stringify(l.slice(0, 160))}`);
      break;
    }
  }
  if (/skillgate: internal error/.test(out.stderr)) problems.push("internal error (an exception caught by the last-resort handler)");
  if (/^\s+at .+(:\d+:\d+\)?|\(native\))$/m.test(out.stderr)) problems.push("a stack trace on stderr");
  const noticed = lines.some((l) => !l.startsWith("skillgate-trace "));
  if (noticed !== isStr(o.systemMessage))
    problems.push(noticed ? "a notice on stderr but no systemMessage (the user never sees it)" : "a systemMessage but nothing on stderr");
  if (isStr(o.systemMessage) && !(o.systemMessage as string).startsWith("skillgate")) problems.push("systemMessage does not say it is from skillgate");

  // Never silent about an event it could not read.
  const mustNotice = f.overCap
    ? "an event over the size cap"
    : !f.json
      ? "input that is not JSON"
      : f.name === undefined
        ? "an event without a string hook_event_name"
        : f.handled && typeof f.sessionId !== "string"
          ? "a handled event without a string session_id"
          : f.handled && !safeFileId(f.sessionId as string)
            ? "an unsafe session id"
            : f.handled && corrupt?.garbage && corrupt.id === f.sessionId
              ? "a corrupt state file"
              : undefined;
  if (mustNotice && !isStr(o.systemMessage)) problems.push(`silent on ${mustNotice}`);
  if (f.name !== undefined && !f.handled && (verdict === "deny" || verdict === "block"))
    problems.push(`a decision on the unhandled event ${JSON.stringify(f.name)}`);
  return { problems, outcome: verdict, sessionId: f.sessionId };
}

// ───────────────────────────── state folder ─────────────────────────────

export interface Sandbox {
  /** mkdtemp'd; nothing but the state folder, the output folder and our inputs may appear in it. */
  base: string;
  stateDir: string;
  /** $SKILLGATE_OUTPUT_DIR: capped tool outputs (else they would go to a folder in the system temp dir). */
  outputDir: string;
  /** Files the events point at (transcripts, a folder, a FIFO), made here. */
  inputsDir: string;
  inputs: string[];
  env: NodeJS.ProcessEnv;
}

const usage = (tokens: number): string =>
  JSON.stringify({
    type: "assistant",
    isSidechain: false,
    message: { usage: { input_tokens: tokens - 20_001, cache_read_input_tokens: 20_000, cache_creation_input_tokens: 0, output_tokens: 1 } },
  });

/**
 * The state folder sits four levels below the sandbox base, so ids climbing `../` up to 4 levels land inside the sandbox.
 * `fifo`: also make a FIFO (only for process runs: opening it would block the thread).
 */
export function makeSandbox(prefix = "skillgate-fuzz-", fifo = false): Sandbox {
  const base = fs.mkdtempSync(path.join(TMP, prefix));
  const parent = path.join(base, "d1", "d2", "d3");
  const inputsDir = path.join(parent, "inputs");
  fs.mkdirSync(path.join(inputsDir, "dir"), { recursive: true });
  const sidechain = JSON.stringify({ type: "assistant", isSidechain: true, message: { usage: { input_tokens: 500_000 } } });
  const files: Record<string, string | Buffer> = {
    "t-120k.jsonl": [JSON.stringify({ type: "user", message: { content: "hi" } }), usage(120_000), sidechain, ""].join("\n"),
    "t-160k.jsonl": [usage(90_000), usage(160_000)].join("\r\n"),
    "t-garbage.bin": Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) & 0xff)),
    "t-hugeline.jsonl": `{"type":"assistant","usage":${"[".repeat(500_000)}\n{"assistant" "usage"}\n`,
    "t-weird.jsonl": [
      JSON.stringify({ type: "assistant", message: { usage: { input_tokens: "120000", output_tokens: 1e308 } } }),
      JSON.stringify({ type: "assistant", message: { usage: { input_tokens: -5, cache_read_input_tokens: 2 ** 60 } } }),
      JSON.stringify({ type: "assistant", message: { usage: null } }),
      `{"type":"assistant","message":{"usage":{"__proto__":{"input_tokens":999999}}}}`,
    ].join("\n"),
    "t-empty.jsonl": "",
  };
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(inputsDir, name), content);
  if (fifo) spawnSync("mkfifo", [path.join(inputsDir, "fifo")]);
  const stateDir = path.join(parent, "state"); // created by the hook itself (0700)
  const outputDir = path.join(parent, "outputs");
  return {
    base,
    stateDir,
    outputDir,
    inputsDir,
    inputs: listTree(inputsDir),
    env: { SKILLGATE_STATE: stateDir, SKILLGATE_TABLE: TABLE, SKILLGATE_OUTPUT_DIR: outputDir },
  };
}

/** The input as this sandbox runs it: references to its files replaced by their paths. */
export function resolveInputs<T extends string | Buffer>(input: T, sb: Sandbox): T {
  const re = /@@INPUT:([\w.-]+)@@/g;
  if (typeof input === "string") return (input.includes("@@INPUT:") ? input.replace(re, (_m, name: string) => path.join(sb.inputsDir, name)) : input) as T;
  if (input.indexOf("@@INPUT:") < 0) return input;
  const latin = input.toString("latin1");
  return (
    re.test(latin)
      ? Buffer.from(
          latin.replace(re, (_m, name: string) => path.join(sb.inputsDir, name)),
          "latin1",
        )
      : input
  ) as T;
}

function listTree(dir: string, rel = ""): string[] {
  let out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name);
    out.push(e.isDirectory() ? r + "/" : r);
    if (e.isDirectory()) out = out.concat(listTree(dir, r));
  }
  return out;
}

/** Files the hook may leave: state files of safe ids it was sent, corrupt files moved aside, the table cache. */
export function checkSandbox(sb: Sandbox, sentIds: Set<string>, corruptedIds: Set<string>): string[] {
  const problems: string[] = [];
  const allowedDirs = new Set(["d1/", "d1/d2/", "d1/d2/d3/", "d1/d2/d3/state/", "d1/d2/d3/outputs/", "d1/d2/d3/inputs/"]);
  const stateRel = "d1/d2/d3/state/";
  const outRel = "d1/d2/d3/outputs/";
  const inRel = "d1/d2/d3/inputs/";
  const inputsNow = fs.existsSync(sb.inputsDir) ? listTree(sb.inputsDir) : [];
  if (JSON.stringify(inputsNow) !== JSON.stringify(sb.inputs))
    problems.push(`the inputs folder changed: ${inputsNow.filter((x) => !sb.inputs.includes(x)).join(", ")}`);
  for (const entry of listTree(sb.base)) {
    if (allowedDirs.has(entry) || entry.startsWith(inRel)) continue;
    // saveRaw clips the call id to 120 characters and adds -N when that name is taken (hooks/io/output-store.ts).
    if (entry.startsWith(outRel)) {
      const name = entry.slice(outRel.length);
      const st = fs.lstatSync(path.join(sb.outputDir, name));
      if (!st.isFile() || !/^[A-Za-z0-9_-]{1,120}(-[0-9]+)?\.txt$/.test(name)) problems.push(`unexpected entry in the output folder: ${JSON.stringify(name)}`);
      if ((st.mode & 0o077) !== 0) problems.push(`capped output readable by others (mode ${(st.mode & 0o777).toString(8)}): ${name}`);
      continue;
    }
    if (!entry.startsWith(stateRel)) {
      problems.push(`written outside the state folder: ${entry}`);
      continue;
    }
    const name = entry.slice(stateRel.length);
    // Effects-audit snapshots: one 0600 file per shell call whose result has not come (yet), named by a safe id.
    if (name === "audit/") continue;
    if (name.startsWith("audit/")) {
      const file = name.slice("audit/".length);
      const st = fs.lstatSync(path.join(sb.stateDir, name));
      if (!st.isFile() || !/^[A-Za-z0-9_-]+-[A-Za-z0-9_-]{1,128}\.json$/.test(file))
        problems.push(`unexpected entry in the audit folder: ${JSON.stringify(file)}`);
      if ((st.mode & 0o077) !== 0) problems.push(`audit snapshot readable by others (mode ${(st.mode & 0o777).toString(8)}): ${file}`);
      continue;
    }
    // The restore's baselines, kept copies and blobs, and its stat and listing caches: private files only.
    if (/^(restore|listing-cache|fingerprint-cache)\//.test(name)) {
      const st = fs.lstatSync(path.join(sb.stateDir, name));
      if (!st.isFile() && !st.isDirectory()) problems.push(`not a file or folder in the state folder: ${name}`);
      if ((st.mode & 0o077) !== 0) problems.push(`restore or cache entry readable by others (mode ${(st.mode & 0o777).toString(8)}): ${name}`);
      continue;
    }
    // Tickets of shell calls for the git hooks (hooks/io/tickets.ts): one 0600 file per call, live or done.
    if (name === "tickets/" || name === "tickets/done/") continue;
    if (name.startsWith("tickets/")) {
      const file = name.slice("tickets/".length).replace(/^done\//, "");
      const st = fs.lstatSync(path.join(sb.stateDir, name));
      if (!st.isFile() || !/^[A-Za-z0-9_-]{1,100}--[A-Za-z0-9_-]{1,100}\.json$/.test(file))
        problems.push(`unexpected entry in the tickets folder: ${JSON.stringify(name)}`);
      if ((st.mode & 0o077) !== 0) problems.push(`ticket readable by others (mode ${(st.mode & 0o777).toString(8)}): ${name}`);
      continue;
    }
    if (name.endsWith("/") || name.includes("/")) {
      problems.push(`a folder inside the state folder: ${name}`);
      continue;
    }
    const st = fs.lstatSync(path.join(sb.stateDir, name));
    if (!st.isFile()) problems.push(`not a regular file in the state folder: ${name}`);
    if ((st.mode & 0o077) !== 0) problems.push(`state file readable by others (mode ${(st.mode & 0o777).toString(8)}): ${name}`);
    let m: RegExpExecArray | null;
    if (/^\.table-[\w-]+\.json$/.test(name)) continue; // the validated-table cache
    if (name === ".cache-key" || name === ".mac-key") continue; // keys of the table cache's digest and of evidence records
    if (name === ".output-root") {
      // Written only when $SKILLGATE_OUTPUT_DIR is not set, which it is here: the hook made a folder outside the sandbox.
      problems.push(`output folder made outside the sandbox despite $SKILLGATE_OUTPUT_DIR: ${fs.readFileSync(path.join(sb.stateDir, name), "utf8").trim()}`);
      continue;
    }
    if ((m = /^(.*)\.json(\.calls)?$/.exec(name))) {
      if (!safeFileId(m[1]!)) problems.push(`state file for an unsafe id: ${JSON.stringify(name)}`);
      else if (!sentIds.has(m[1]!)) problems.push(`state file for an id never sent: ${JSON.stringify(name)}`);
      continue;
    }
    if ((m = /^(.*)\.json\.corrupt-\d+$/.exec(name)) && corruptedIds.has(m[1]!)) continue;
    if (/\.lock$/.test(name)) problems.push(`lock file left behind: ${name}`);
    else if (/\.tmp$/.test(name)) problems.push(`temp file left behind: ${name}`);
    else problems.push(`unexpected file in the state folder: ${JSON.stringify(name)}`);
  }
  for (const [what, dir] of [
    ["state", sb.stateDir],
    ["output", sb.outputDir],
  ] as const) {
    if (fs.existsSync(dir) && (fs.statSync(dir).mode & 0o077) !== 0)
      problems.push(`${what} folder mode ${(fs.statSync(dir).mode & 0o777).toString(8)}, not 0700`);
  }
  // Ids that climbed further than the sandbox would land in the temp folder or the repo.
  for (const dir of new Set([TMP, os.tmpdir(), path.dirname(TMP), ROOT, path.join(ROOT, "state")])) {
    try {
      for (const e of fs.readdirSync(dir)) if (e.includes(ESCAPE_MARK)) problems.push(`escaped the sandbox: ${path.join(dir, e)}`);
    } catch {
      /* unreadable: nothing to see */
    }
  }
  return problems;
}

// ───────────────────────────── runners ─────────────────────────────

export interface Failure {
  where: "in-process" | "process";
  gen: string;
  index: number | string;
  seed: number;
  problems: string[];
  stdout: string;
  stderr: string;
  file?: string;
}

export interface Stats {
  events: number;
  byGen: Record<string, number>;
  /** Milliseconds spent per generator. */
  msByGen: Record<string, number>;
  outcomes: Record<Outcome, number>;
  maxMs: number;
  maxAt: string;
  slowest: { ms: number; what: string; bytes: number }[];
  maxStdout: number;
  ms: number;
  /** CPU time of this process (in-process runs only: a child's CPU is its own). */
  cpuMs: number;
}

export const newStats = (): Stats => ({
  events: 0,
  byGen: {},
  msByGen: {},
  outcomes: { empty: 0, notice: 0, deny: 0, block: 0, hint: 0, cap: 0 },
  maxMs: 0,
  maxAt: "",
  slowest: [],
  maxStdout: 0,
  ms: 0,
  cpuMs: 0,
});

function note(stats: Stats, gen: string, what: string, ms: number, bytes: number, outcome: Outcome, stdoutLen: number): void {
  stats.events++;
  stats.byGen[gen] = (stats.byGen[gen] ?? 0) + 1;
  stats.msByGen[gen] = (stats.msByGen[gen] ?? 0) + ms;
  stats.outcomes[outcome]++;
  stats.maxStdout = Math.max(stats.maxStdout, stdoutLen);
  if (ms > stats.maxMs) (stats.maxMs = ms), (stats.maxAt = what);
  if (stats.slowest.length < 8 || ms > stats.slowest[stats.slowest.length - 1]!.ms) {
    stats.slowest.push({ ms, what, bytes });
    stats.slowest.sort((a, b) => b.ms - a.ms);
    stats.slowest.length = Math.min(stats.slowest.length, 8);
  }
}

/** Saves the input (references to sandbox files kept as such); a corrupt state file goes beside it as <file>.state.json. */
export function saveFailure(f: Failure, input: string | Buffer, corrupt?: FuzzEvent["corrupt"]): string {
  fs.mkdirSync(FAIL_DIR, { recursive: true });
  const name = `${f.where}-seed${f.seed}-${String(f.index)
    .replace(/[^\w-]+/g, "_")
    .slice(0, 60)}-${f.gen.replace(/[^\w-]+/g, "_")}.${typeof input === "string" ? "json" : "bin"}`;
  const file = path.join(FAIL_DIR, name);
  fs.writeFileSync(file, input);
  if (corrupt) fs.writeFileSync(`${file}.state.json`, JSON.stringify(corrupt));
  return file;
}

export class Fuzzer {
  readonly stats = newStats();
  readonly processStats = newStats();
  /** The first `maxFailures` failing runs, inputs saved. */
  readonly failures: Failure[] = [];
  /** All failing runs, counted. */
  readonly failCount = { "in-process": 0, process: 0 };
  /** Problems over all failing runs, counted. */
  readonly kinds = new Map<string, number>();

  summary(where?: Failure["where"]): string {
    return [...this.kinds]
      .filter(([k]) => !where || k.startsWith(`[${where}]`))
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${String(n).padStart(7)} × ${k}`)
      .join("\n");
  }
  /** Output of the latest run (for --index and --replay). */
  last = { stdout: "", stderr: "" };
  /** Session ids sent (as the hook parses them): a state file for any other name is a bug. */
  readonly sentIds = new Set<string>();
  readonly corruptedIds = new Set<string>();
  /** In-process runs and process runs (which overlap in time) each have their own state folder. */
  readonly sb: Sandbox;
  readonly psb: Sandbox;

  constructor(
    readonly seed: number,
    readonly runHook: RunHook,
    opts: { maxFailures?: number; save?: boolean } = {},
  ) {
    this.sb = makeSandbox();
    this.psb = makeSandbox("skillgate-fuzz-", true);
    this.maxFailures = opts.maxFailures ?? 50;
    this.save = opts.save ?? true;
  }
  private maxFailures: number;
  private save: boolean;

  private prepare(ev: { input: string | Buffer; corrupt?: FuzzEvent["corrupt"] }, sb: Sandbox): string {
    const input = resolveInputs(ev.input, sb);
    const text = typeof input === "string" ? input : input.toString("utf8");
    if (ev.corrupt) {
      fs.mkdirSync(sb.stateDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(path.join(sb.stateDir, `${ev.corrupt.id}.json`), ev.corrupt.text, { mode: 0o600 });
      this.corruptedIds.add(ev.corrupt.id);
      this.sentIds.add(ev.corrupt.id);
    }
    return text;
  }

  private fail(f: Failure, input: string | Buffer, corrupt?: FuzzEvent["corrupt"]): void {
    this.failCount[f.where]++;
    // Group by what went wrong (an internal error by its message), so one bug hit 200 times reads as one line.
    const err = /skillgate: internal error: (.*)/.exec(f.stderr)?.[1]?.slice(0, 100);
    for (const p of f.problems) {
      const key = `[${f.where}] ${p.replace(/\d+ ms/g, "N ms")}${err && p.startsWith("internal error") ? `: ${err}` : ""}`;
      this.kinds.set(key, (this.kinds.get(key) ?? 0) + 1);
    }
    if (this.failures.length >= this.maxFailures) return;
    if (this.save) f.file = saveFailure(f, input, corrupt);
    this.failures.push(f);
  }

  /** One event through runHook(). */
  async inProcess(ev: { gen: string; index: number | string; input: string; corrupt?: FuzzEvent["corrupt"] }): Promise<void> {
    const text = this.prepare(ev, this.sb);
    const t0 = performance.now();
    let r: HookResult;
    try {
      r = await this.runHook(text, { env: this.sb.env, packageRoot: ROOT });
    } catch (e) {
      this.stats.events++;
      this.fail(
        {
          where: "in-process",
          gen: ev.gen,
          index: ev.index,
          seed: this.seed,
          problems: [`runHook rejected: ${(e as Error).stack ?? e}`],
          stdout: "",
          stderr: "",
        },
        ev.input,
      );
      return;
    }
    const ms = performance.now() - t0;
    this.last = r;
    const { problems, outcome, sessionId } = checkOutput(text, r, ev.corrupt);
    if (typeof sessionId === "string") this.sentIds.add(sessionId);
    if (ms > EVENT_BUDGET_MS) problems.push(`took ${ms.toFixed(0)} ms (budget ${EVENT_BUDGET_MS} ms)`);
    note(this.stats, ev.gen, `${ev.gen} #${ev.index}`, ms, text.length, outcome, r.stdout.length);
    if (problems.length)
      this.fail({ where: "in-process", gen: ev.gen, index: ev.index, seed: this.seed, problems, stdout: r.stdout, stderr: r.stderr }, ev.input, ev.corrupt);
  }

  /** One event through `node dist/hook.cjs`, raw bytes on stdin. */
  async viaProcess(ev: { gen: string; index: number | string; input: string | Buffer; corrupt?: FuzzEvent["corrupt"] }): Promise<void> {
    const text = this.prepare(ev, this.psb);
    const resolved = resolveInputs(ev.input, this.psb);
    const bytes = typeof resolved === "string" ? Buffer.from(resolved, "utf8") : resolved;
    const timeout = bytes.length >= 1_000_000 ? PROCESS_TIMEOUT_MS * 3 : PROCESS_TIMEOUT_MS;
    const t0 = performance.now();
    const r = await runProcess(bytes, { PATH: process.env.PATH, ...this.psb.env }, timeout);
    const ms = performance.now() - t0;
    this.last = r;
    const problems: string[] = [];
    if (r.timedOut) problems.push(`no exit within ${timeout} ms (killed)`);
    if (r.error) problems.push(`spawn failed: ${r.error}`);
    if (r.signal) problems.push(`killed by ${r.signal}`);
    if (r.code !== 0 && !r.timedOut) problems.push(`exit code ${r.code}${r.code === 2 ? " (Claude Code would BLOCK)" : ""}`);
    let stdout = r.stdout;
    if (stdout !== "") {
      if (!stdout.endsWith("\n") || stdout.indexOf("\n") !== stdout.length - 1) problems.push("stdout is not exactly one line");
      stdout = stdout.replace(/\n$/, "");
    }
    const checked = checkOutput(text, { stdout, stderr: r.stderr }, ev.corrupt);
    if (typeof checked.sessionId === "string") this.sentIds.add(checked.sessionId);
    problems.push(...checked.problems);
    note(this.processStats, ev.gen, `${ev.gen} #${ev.index}`, ms, bytes.length, checked.outcome, stdout.length);
    if (problems.length)
      this.fail({ where: "process", gen: ev.gen, index: ev.index, seed: this.seed, problems, stdout: r.stdout, stderr: r.stderr }, ev.input, ev.corrupt);
  }

  /** Filesystem check; call once every run is over. */
  finish(keep = false): string[] {
    const problems = [this.sb, this.psb].flatMap((sb) => checkSandbox(sb, this.sentIds, this.corruptedIds));
    if (!keep) for (const sb of [this.sb, this.psb]) fs.rmSync(sb.base, { recursive: true, force: true });
    return [...new Set(problems)];
  }
}

interface ProcResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  error?: string;
}

export function runProcess(input: Buffer, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<ProcResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HOOK_BUNDLE], { env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    let error: string | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.stdin.on("error", () => {}); // EPIPE if it died early: the exit code tells
    child.on("error", (e) => (error = e.message));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal: timedOut ? null : signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        timedOut,
        error,
      });
    });
    child.stdin.end(input);
  });
}

/** The big and deep specials through the process, `jobs` at a time. Run them alone: a busy event loop here would hold up their stdin. */
export async function processSpecialRuns(fz: Fuzzer, seed: number, jobs: number): Promise<void> {
  await pool(
    specials(seed)
      .filter((x) => x.process)
      .map((s) => () => fz.viaProcess({ gen: "special", index: s.name, input: s.input() })),
    jobs,
  );
}

/** `count` generated events through the process, `jobs` at a time. */
export async function processRuns(fz: Fuzzer, seed: number, count: number, jobs: number, onDone?: () => void): Promise<void> {
  await pool(
    Array.from({ length: count }, (_, i) => () => fz.viaProcess(makeProcessEvent(seed, i))),
    jobs,
    onDone,
  );
}

async function pool(queue: (() => Promise<void>)[], jobs: number, onDone?: () => void): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < queue.length) {
      await queue[next++]!();
      onDone?.();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
}

/** In-process events [from, to), yielding to the event loop now and then (child processes need it). */
export async function inProcessRuns(fz: Fuzzer, seed: number, from: number, to: number, onTick?: (i: number) => void): Promise<void> {
  for (let i = from; i < to; i++) {
    const ev = makeEvent(seed, i);
    await fz.inProcess({ ...ev, input: ev.input as string });
    // Yield often: the process runs going on meanwhile need the event loop to feed their stdin and time them.
    if (i % 16 === 0) {
      await new Promise((r) => setImmediate(r));
      onTick?.(i);
    }
  }
}

export async function specialRuns(fz: Fuzzer, seed: number): Promise<void> {
  for (const s of specials(seed).filter((x) => !x.processOnly)) {
    const input = s.input();
    await fz.inProcess({ gen: "special", index: s.name, input: typeof input === "string" ? input : input.toString("utf8") });
    await new Promise((r) => setImmediate(r));
  }
}

export function formatFailure(f: Failure): string {
  const proc = f.where === "process" ? " --process" : "";
  const again = [
    typeof f.index === "number" ? `npx tsx scripts/fuzz.ts --seed ${f.seed} --index ${f.index}${proc}` : "",
    f.file ? `npx tsx scripts/fuzz.ts --replay ${path.relative(ROOT, f.file)}${proc || " --source"}` : "",
  ].filter(Boolean);
  return [
    `[${f.where}] ${f.gen} ${typeof f.index === "number" ? `#${f.index}` : JSON.stringify(f.index)} (seed ${f.seed})`,
    ...f.problems.map((p) => `    - ${p}`),
    `    stdout: ${JSON.stringify(f.stdout.slice(0, 400))}${f.stdout.length > 400 ? `… (${f.stdout.length} chars)` : ""}`,
    `    stderr: ${f.stderr.slice(0, 1500).replace(/\n/g, "\n            ")}`,
    ...again.map((c) => `    again: ${c}`),
  ].join("\n");
}

export function formatStats(label: string, s: Stats): string {
  const rate = s.ms > 0 ? Math.round(s.events / (s.ms / 1000)) : 0;
  const gens = Object.entries(s.byGen)
    .sort((a, b) => b[1] - a[1])
    .map(([g, n]) => `${g} ${n} (${((s.msByGen[g] ?? 0) / n).toFixed(2)} ms)`)
    .join(", ");
  const outs = Object.entries(s.outcomes)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  return [
    `${label}: ${s.events} events in ${(s.ms / 1000).toFixed(1)} s (${rate}/s${s.cpuMs ? `, ${((s.cpuMs / Math.max(1, s.events)) * 1000).toFixed(0)} µs CPU each` : ""}), max ${s.maxMs.toFixed(1)} ms (${s.maxAt}), largest stdout ${s.maxStdout} chars`,
    `  generators: ${gens}`,
    `  outcomes:   ${outs}`,
    `  slowest:    ${s.slowest
      .slice(0, 5)
      .map((x) => `${x.ms.toFixed(0)} ms ${x.what} (${x.bytes} B)`)
      .join("; ")}`,
  ].join("\n");
}

// ───────────────────────────── CLI ─────────────────────────────

/** Seconds since the epoch mixed: a different seed for every run, small enough to type. */
function rotatingSeed(): number {
  return (Math.imul(Math.floor(Date.now() / 1000), 0x9e3779b1) ^ process.pid) >>> 0;
}

function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(
      "usage: npm run fuzz -- [--count N (100000)] [--seed N (new each run)] [--process N (200)] [--jobs N] [--no-specials] [--keep] [--source] [--max-failures N]\n" +
        "       npx tsx scripts/fuzz.ts --seed N --index I [--process | --source]\n       npx tsx scripts/fuzz.ts --replay FILE [--process | --source]\n" +
        "--source: run the TypeScript engine through tsx (stacks name .ts files) instead of an esbuild bundle of it.",
    );
    return 0;
  }
  // A new seed each run finds new events; it is printed first, and --seed N replays the whole run.
  const seedArg = arg(args, "--seed") ?? (process.env.FUZZ_SEED || undefined);
  const seed = seedArg !== undefined ? Number(seedArg) >>> 0 : rotatingSeed();
  const replay = arg(args, "--replay");
  const index = arg(args, "--index");
  const engine = await loadEngine(args.includes("--source") ? "source" : "bundle");
  const fz = new Fuzzer(seed, engine.runHook, { maxFailures: Number(arg(args, "--max-failures") ?? 50), save: !replay && index === undefined });
  const viaProc = args.includes("--process");
  if ((replay || index !== undefined) && viaProc && !fs.existsSync(HOOK_BUNDLE)) {
    console.error(`${HOOK_BUNDLE} is missing: npm run build`);
    return 2;
  }
  if (replay || index !== undefined) {
    const ev: FuzzEvent | { gen: string; index: string; input: string | Buffer; corrupt?: FuzzEvent["corrupt"] } = replay
      ? {
          gen: "replay",
          index: path.basename(replay),
          input: replay.endsWith(".bin") ? fs.readFileSync(replay) : fs.readFileSync(replay, "utf8"),
          corrupt: fs.existsSync(`${replay}.state.json`) ? (JSON.parse(fs.readFileSync(`${replay}.state.json`, "utf8")) as FuzzEvent["corrupt"]) : undefined,
        }
      : viaProc
        ? makeProcessEvent(seed, Number(index))
        : makeEvent(seed, Number(index));
    const text = typeof ev.input === "string" ? ev.input : ev.input.toString("utf8");
    console.log(`${ev.gen}: ${text.length} chars: ${JSON.stringify(text.slice(0, 600))}${text.length > 600 ? "…" : ""}`);
    if (viaProc) await fz.viaProcess(ev);
    else await fz.inProcess({ ...ev, input: text });
    const s = viaProc ? fz.processStats : fz.stats;
    const r = s.slowest[0];
    console.log(`outcome: ${Object.entries(s.outcomes).find(([, n]) => n > 0)?.[0] ?? "?"} in ${r?.ms.toFixed(1)} ms`);
    console.log(`stdout: ${fz.last.stdout.slice(0, 1000)}\nstderr: ${fz.last.stderr.slice(0, 2000)}`);
    const tree = fz.finish();
    engine.cleanup();
    for (const f of fz.failures) console.log(formatFailure(f));
    for (const p of tree) console.log(`sandbox: ${p}`);
    console.log(fz.failures.length || tree.length ? "FAIL" : "ok");
    return fz.failures.length || tree.length ? 1 : 0;
  }

  const count = Number(arg(args, "--count") ?? 100_000);
  const procCount = Number(arg(args, "--process") ?? 200);
  const jobs = Number(arg(args, "--jobs") ?? Math.max(1, os.availableParallelism() - 1));
  const keep = args.includes("--keep");
  if (procCount > 0 && !fs.existsSync(HOOK_BUNDLE)) {
    console.error(`${HOOK_BUNDLE} is missing: npm run build`);
    return 2;
  }
  console.log(
    `skillgate fuzz: seed ${seed}${seedArg === undefined ? " (new each run; this one again: npm run fuzz -- --seed " + seed + ")" : ""}, ${count} in-process events${args.includes("--no-specials") ? "" : " + specials"}, ${procCount} process runs (${jobs} at a time)`,
  );
  console.log(`sandboxes: ${fz.sb.base} (in-process), ${fz.psb.base} (process)`);
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  if (!args.includes("--no-specials")) {
    let t = performance.now();
    await specialRuns(fz, seed);
    console.log(`specials in-process: ${specials(seed).length} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    if (procCount > 0) {
      t = performance.now();
      await processSpecialRuns(fz, seed, jobs);
      console.log(`specials through the process: ${specials(seed).filter((x) => x.process).length} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
  }
  let procDone = 0;
  const proc = (async () => {
    const t = performance.now();
    await processRuns(fz, seed, procCount, jobs, () => procDone++);
    fz.processStats.ms = performance.now() - t;
  })();
  const t1 = performance.now();
  let lastPrint = t1;
  await inProcessRuns(fz, seed, 0, count, (i) => {
    const now = performance.now();
    if (now - lastPrint < 5_000) return;
    lastPrint = now;
    const rate = Math.round(i / ((now - t1) / 1000));
    console.log(
      `  ${i}/${count}  ${rate}/s  failures ${fz.failures.length}  max ${fz.stats.maxMs.toFixed(1)} ms (${fz.stats.maxAt})${procCount ? `  process ${procDone}/${procCount}` : ""}`,
    );
  });
  fz.stats.ms = performance.now() - t1;
  const cpu = process.cpuUsage(cpu0);
  fz.stats.cpuMs = (cpu.user + cpu.system) / 1000;
  await proc;
  const tree = fz.finish(keep);
  engine.cleanup();
  console.log(formatStats("in-process", fz.stats));
  if (procCount) console.log(formatStats("process", fz.processStats));
  console.log(`wall time ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const f of fz.failures) console.log(formatFailure(f));
  if (fz.kinds.size) console.log(`problems, counted:\n${fz.summary()}`);
  for (const p of tree) console.log(`sandbox: ${p}`);
  const failed = fz.failCount["in-process"] + fz.failCount.process;
  console.log(`seed ${seed}`);
  console.log(
    failed + tree.length
      ? `FAIL: ${fz.failCount["in-process"]} in-process and ${fz.failCount.process} process runs failed (${fz.failures.length} recorded above), ${tree.length} sandbox problems`
      : "ok: no failures",
  );
  return failed + tree.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(); // `| head`
  });
  process.exitCode = await main(process.argv.slice(2));
}
