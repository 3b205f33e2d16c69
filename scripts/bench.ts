// `npm run bench`: what the hook costs. Every figure is measured in this run,
// against a baseline measured in the same run with samples alternating, so a
// noisy machine moves both sides together. Targets are printed, not asserted.
//   --smoke      few samples (CI runs this; no thresholds)
//   --only S     one section: processes, split, in-process, analysis, cap, measure, restore
//   --samples N  process samples per command (default 30)
//   --ccusage    also time ccusage over the measure history (fetched by npx on first use)
//   --out FILE   the page the figures go into (default: docs/performance.md after a whole run;
//                a --smoke or --only run writes a page only when given --out)
// The hook runs as `install` writes it: node dist/hook.cjs, bun dist/hook.bun.cjs.
// Peers beside it on the same event, same run: cc-safety-net from node_modules,
// else from $SKILLGATE_BENCH_PEERS/node_modules (default /tmp/peers; set it up with
// `npm install --prefix /tmp/peers cc-safety-net@2.4.5`); absent ones are named, not
// installed at run time. hookify (Python) is skipped when absent.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findPackageRoot } from "../hooks/runner/process.js";
import { decide } from "../hooks/core/decide.js";
import { factsOf } from "../hooks/core/shell-facts.js";
import { prefilteredFacts } from "../hooks/core/shell-prefilter.js";
import { shellCommandOf } from "../hooks/core/facts.js";
import { analyzeCommand } from "../hooks/core/shell/analyze.js";
import { normalize } from "../hooks/hosts/claude-code/adapter.js";
import { emptyState, type Event } from "../hooks/core/types.js";
import { compiledTable } from "../cli/table-file.js";
import { findBun } from "../cli/install.js";
import { gitCommitBench } from "./bench-git.js";
import { withFigures, writeFigures } from "./bench-page.js";

const root = findPackageRoot();
const argv = process.argv.slice(2);
const smoke = argv.includes("--smoke");
const samples = Number(argv[argv.indexOf("--samples") + 1]) || (smoke ? 3 : 30);
const hook = path.join(root, "dist", "hook.cjs");
/** The Bun build: bytecode CJS (scripts/build.mjs), when a bun binary was there at build time. */
const bunHook = path.join(root, "dist", "hook.bun.cjs");
const fixture = (name: string) => fs.readFileSync(path.join(root, "cases", "fixtures", `${name}.json`), "utf8");

// An existing working folder: a peer that looks at the cwd must not fail on a missing one.
const benchCwd = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-bench-cwd-"));
const withCwd = (json: string, patch: (o: Record<string, unknown>) => void = () => {}): string => {
  const o = JSON.parse(json) as Record<string, unknown>;
  o.cwd = benchCwd;
  patch(o);
  return JSON.stringify(o);
};
const bashEvent = (command: string, callId?: string) =>
  withCwd(fixture("pre-tool-use-bash"), (o) => {
    o.tool_input = { command, description: "bench" };
    if (callId) o.tool_use_id = callId;
  });
const PARSER = "PreToolUse Bash (parser)";
const PARSER_COMMAND = 'git log --format="%h $USER" | head -5';
const PARSER_CALL_ID = "toolu_bench_parser";
const RESULT = "PostToolUse Bash (its result)";

/** The Bash event of the issue: gated (the commit row names git, so the pre-filter declines and the parser runs). */
const BASH = "PreToolUse Bash cd x && git commit";
const LS = "PreToolUse Bash ls -la";
const EVENTS_SHARED: Record<string, string> = {
  [BASH]: bashEvent("cd x && git commit -m 'bench'"),
  // Skipped by the pre-filter (hooks/core/shell-prefilter.ts): no row names ls, the parser is not loaded.
  [LS]: bashEvent("ls -la"),
  // Outside the pre-filter's subset ($ in double quotes, git): the shell parser loads.
  [PARSER]: bashEvent(PARSER_COMMAND, PARSER_CALL_ID),
  "PreToolUse Write": withCwd(fixture("pre-tool-use-write")),
  "PostToolUse Read": withCwd(fixture("post-tool-use-read")),
  UserPromptSubmit: withCwd(fixture("user-prompt-submit")),
  "SessionStart compact": withCwd(fixture("session-start-compact")),
  "PostToolUse Skill": withCwd(fixture("post-tool-use-skill")),
  // The parser call's result: the restore checks the guarded files it noted before the call.
  [RESULT]: withCwd(fixture("post-tool-use-bash"), (o) => {
    o.tool_input = { command: PARSER_COMMAND, description: "bench" };
    o.tool_use_id = PARSER_CALL_ID;
  }),
};
/**
 * Each event in a session of its own, in the state it usually meets: no shell call in flight. A shell
 * call the hook cannot vouch for as read-only holds its session until its result (runner/restore.ts);
 * sharing one session, every event after the parser's would have paid the check of a call whose
 * result never comes. What an event costs while a call is in flight is its own line
 * (IN_FLIGHT, measured, not judged against the target).
 */
const EVENTS: Record<string, string> = Object.fromEntries(Object.entries(EVENTS_SHARED).map(([label, json], i) => [label, inSession(json, `bench-${i}`)]));
/**
 * Events run untimed around each timed run, so each meets the session it would: the parser call is
 * followed by its result and the next event (the restore's folder is gone again), its result is
 * preceded by the call that noted the files it checks.
 */
const AROUND: Record<string, { before?: string[]; after?: string[] }> = {
  [PARSER]: { after: [sameSession(PARSER, RESULT), sameSession(PARSER, "UserPromptSubmit")] },
  [RESULT]: { before: [sameSession(RESULT, PARSER)], after: [sameSession(RESULT, "UserPromptSubmit")] },
};
/** The event `label` in the session of the event `of`. */
function sameSession(of: string, label: string): string {
  return inSession(EVENTS_SHARED[label] ?? "", (JSON.parse(EVENTS[of] ?? "{}") as { session_id: string }).session_id);
}
const IN_FLIGHT = "UserPromptSubmit [a shell call in flight]";
/** A prompt in a session whose parser-event call is held (the call is made once before timing, never finished). */
const inFlight = {
  call: inSession(EVENTS_SHARED[PARSER] ?? "", "bench-in-flight"),
  prompt: inSession(EVENTS_SHARED.UserPromptSubmit ?? "", "bench-in-flight"),
};
function inSession(json: string, sessionId: string): string {
  return JSON.stringify({ ...(JSON.parse(json) as Record<string, unknown>), session_id: sessionId });
}

interface Cmd {
  label: string;
  argv: string[];
  input?: string;
  /** Added to the run's environment. */
  env?: NodeJS.ProcessEnv;
  /** Inputs run untimed through the same command before and after each timed run (AROUND). */
  before?: string[];
  after?: string[];
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const fmt = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms.toFixed(1));
const load = () =>
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`;

/** Round-robin over all commands so that load spikes hit every command alike. */
function timeProcesses(cmds: Cmd[], n: number, env: NodeJS.ProcessEnv): Map<string, number[]> {
  const times = new Map(cmds.map((c) => [c.label, [] as number[]]));
  for (const c of cmds) aroundRun(c, env, () => run(c, env)); // warm the page cache, the table cache and the peers' compile caches
  for (let i = 0; i < n; i++) {
    for (const c of cmds) {
      aroundRun(c, env, () => {
        const t0 = performance.now();
        run(c, env);
        times.get(c.label)?.push(performance.now() - t0);
      });
    }
  }
  return times;
}

/** `timed` between the command's untimed `before` and `after` runs. */
function aroundRun<T>(c: Cmd, env: NodeJS.ProcessEnv, timed: () => T): T {
  const with_ = (input: string): Cmd => ({ ...c, input, before: [], after: [] });
  for (const input of c.before ?? []) run(with_(input), env);
  const r = timed();
  for (const input of c.after ?? []) run(with_(input), env);
  return r;
}

function run(c: Cmd, env: NodeJS.ProcessEnv): string {
  const [exe, ...args] = c.argv;
  if (!exe) throw new Error(`${c.label}: empty command`);
  const r = spawnSync(exe, args, { input: c.input ?? "", env: c.env ? { ...env, ...c.env } : env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${c.label} exited ${r.status}: ${r.stderr}`);
  return r.stderr;
}

function peakRssMb(cmd: Cmd, env: NodeJS.ProcessEnv): number | undefined {
  if (!fs.existsSync("/usr/bin/time")) return undefined;
  const r = spawnSync("/usr/bin/time", ["-f", "%M", ...cmd.argv], { input: cmd.input ?? "", env, encoding: "utf8" });
  const kb = Number(r.stderr.trim().split("\n").pop());
  return Number.isFinite(kb) ? kb / 1024 : undefined;
}

/** cc-safety-net's hook script: a dev dependency, or the folder $SKILLGATE_BENCH_PEERS (default /tmp/peers) holding its node_modules. */
function ccSafetyNet(): { bin: string; version: string } | undefined {
  const dirs = [path.join(root, "node_modules"), path.join(process.env.SKILLGATE_BENCH_PEERS ?? "/tmp/peers", "node_modules")];
  for (const d of dirs) {
    const pkg = path.join(d, "cc-safety-net", "package.json");
    if (!fs.existsSync(pkg)) continue;
    const json = JSON.parse(fs.readFileSync(pkg, "utf8")) as { version: string; bin?: Record<string, string> };
    const rel = json.bin?.["cc-safety-net"];
    if (rel) return { bin: path.join(d, "cc-safety-net", rel), version: json.version };
  }
  return undefined;
}

function hasHookify(): boolean {
  return spawnSync("python3", ["-c", "import hookify"], { stdio: "ignore" }).status === 0;
}

interface Runtime {
  name: "node" | "bun";
  exe: string;
  /** The hook file `install` writes for this runtime. */
  hook: string;
  target: number;
}

function runtimes(): { list: Runtime[]; notes: string[] } {
  const list: Runtime[] = [{ name: "node", exe: process.execPath, hook, target: 1.5 }];
  const notes: string[] = [];
  const bun = findBun(root);
  if (bun) list.push({ name: "bun", exe: bun, hook: fs.existsSync(bunHook) ? bunHook : hook, target: 3 });
  else notes.push("bun: none on PATH (nor SKILLGATE_BUN): Bun route not measured");
  if (bun && !fs.existsSync(bunHook)) notes.push("dist/hook.bun.cjs missing (bun build failed?): the Bun route runs dist/hook.cjs");
  return { list, notes };
}

function hookProcesses(env: NodeJS.ProcessEnv): string[] {
  const { list, notes } = runtimes();
  const out = [...notes];
  const peer = ccSafetyNet();
  const peerEnv = { ...env, CC_SAFETY_NET_HOME: fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-bench-ccsn-")) };
  out.push(
    peer
      ? `peer: cc-safety-net ${peer.version} (${peer.bin})`
      : "peer: cc-safety-net absent (not under node_modules nor $SKILLGATE_BENCH_PEERS/node_modules): not measured",
  );
  out.push(hasHookify() ? "peer: hookify is installed but not wired into this bench" : "peer: hookify (Python) absent: skipped");
  for (const rt of list) {
    const empty = `${rt.name} -e 0`;
    const cmds: Cmd[] = [{ label: empty, argv: [rt.exe, "-e", "0"] }];
    for (const [ev, input] of Object.entries(EVENTS)) cmds.push({ label: ev, argv: [rt.exe, rt.hook], input, ...AROUND[ev] });
    // The same ls -la with the pre-filter switched off: what the parser costs the commands it now skips.
    cmds.push({
      label: `${LS} [pre-filter off]`,
      argv: [rt.exe, rt.hook],
      input: inSession(EVENTS[LS] ?? "", "bench-prefilter-off"),
      env: { SKILLGATE_PREFILTER: "off" },
    });
    // Decided in-process, as every event is when no hook server answers (docs/hook-server.md): the first event
    // after an upgrade or 15 idle minutes, or SKILLGATE_SERVER=off.
    for (const [i, ev] of [BASH, PARSER, RESULT].entries()) {
      const session = (json: string) => inSession(json, `bench-no-server-${i}`);
      const around = AROUND[ev];
      cmds.push({
        label: `${ev} [no server]`,
        argv: [rt.exe, rt.hook],
        input: session(EVENTS[ev] ?? ""),
        env: { SKILLGATE_SERVER: "off" },
        ...(around?.before ? { before: around.before.map(session) } : {}),
        ...(around?.after ? { after: around.after.map(session) } : {}),
      });
    }
    run({ label: "the call in flight", argv: [rt.exe, rt.hook], input: inFlight.call }, env);
    cmds.push({ label: IN_FLIGHT, argv: [rt.exe, rt.hook], input: inFlight.prompt });
    if (peer) cmds.push({ label: `cc-safety-net, ${BASH}`, argv: [rt.exe, peer.bin, "--claude-code"], input: EVENTS[BASH] });
    const times = timeProcesses(cmds, samples, { ...env, ...peerEnv });
    const base = quantile(times.get(empty) ?? [], 0.5);
    out.push(
      `\n## hook process under ${rt.name}: ${rt.exe} ${path.relative(root, rt.hook)} (${samples} alternating samples each; target median ≤ ${rt.target} × \`${empty}\`; ${load()})`,
    );
    out.push(`${"".padEnd(48)} median     p90   ratio`);
    for (const [label, xs] of times) {
      const med = quantile(xs, 0.5);
      const ratio = med / base;
      const ours = label !== empty && !label.startsWith("cc-safety-net") && !label.endsWith("]");
      const verdict = !ours ? "" : ratio <= rt.target ? "  within target" : "  OVER target";
      out.push(`${label.padEnd(48)} ${fmt(med).padStart(6)} ms ${fmt(quantile(xs, 0.9)).padStart(6)} ms  ${ratio.toFixed(2)}×${verdict}`);
    }
    const rss = peakRssMb({ label: "", argv: [rt.exe, rt.hook], input: EVENTS[BASH] }, env);
    const rssTarget = rt.name === "bun" ? 40 : 60;
    if (rss !== undefined) out.push(`peak memory of the hook process (${rt.name}, ${BASH}): ${rss.toFixed(1)} MB (target ≤ ${rssTarget} MB)`);
    // Node parses $NODE_EXTRA_CA_CERTS at every start (≈ 50 ms on this VM): it inflates
    // `node -e 0` and so flatters every Node ratio. The same events again without it.
    if (rt.name === "node" && env.NODE_EXTRA_CA_CERTS) {
      const bare = { ...env };
      delete bare.NODE_EXTRA_CA_CERTS;
      const some = [BASH, "PreToolUse Write", "PostToolUse Read", "UserPromptSubmit"];
      const t2 = timeProcesses(
        [{ label: empty, argv: [rt.exe, "-e", "0"] }, ...some.map((ev) => ({ label: ev, argv: [rt.exe, rt.hook], input: EVENTS[ev] }))],
        samples,
        bare,
      );
      const base2 = quantile(t2.get(empty) ?? [], 0.5);
      out.push(
        `without $NODE_EXTRA_CA_CERTS (set here: Node reads the CA file at every start): ${[...t2].map(([label, xs]) => `${label} ${fmt(quantile(xs, 0.5))} ms (${(quantile(xs, 0.5) / base2).toFixed(2)}×)`).join("; ")}`,
      );
    }
  }
  // The development route, for comparison only: what a hook run through tsx would cost.
  const tsx = timeProcesses(
    [
      { label: "node -e 0", argv: [process.execPath, "-e", "0"] },
      { label: "tsx hooks/skillgate.ts", argv: [process.execPath, "--import", "tsx", path.join(root, "hooks", "skillgate.ts")], input: EVENTS[BASH] },
    ],
    Math.max(3, Math.round(samples / 5)),
    env,
  );
  const tb = quantile(tsx.get("node -e 0") ?? [], 0.5);
  const tm = quantile(tsx.get("tsx hooks/skillgate.ts") ?? [], 0.5);
  out.push(`\n## tsx route for comparison: node --import tsx hooks/skillgate.ts: median ${fmt(tm)} ms = ${(tm / tb).toFixed(2)}× node -e 0`);
  return out;
}

const STAGES = ["start", "load", "read", "parse", "facts", "table", "state", "decide", "cap", "save", "after", "answer"] as const;
const SPLIT_EVENTS = [BASH, LS, PARSER, RESULT, "PreToolUse Write", "PostToolUse Read", "UserPromptSubmit"];

/** Where the time goes: the hook itself, as install writes it, reports its stages (SKILLGATE_TIMINGS=1, hooks/runner/timings.ts); medians over alternating runs. */
async function split(env: NodeJS.ProcessEnv): Promise<string[]> {
  const { list } = runtimes();
  const n = smoke ? 2 : Math.max(5, Math.round(samples / 2));
  const cols: { label: string; cmd: Cmd; stages: Record<string, number[]> }[] = [];
  for (const rt of list)
    for (const ev of SPLIT_EVENTS)
      cols.push({ label: `${rt.name}: ${ev}`, cmd: { label: ev, argv: [rt.exe, rt.hook], input: EVENTS[ev], ...AROUND[ev] }, stages: {} });
  const splitEnv = { ...env, SKILLGATE_TIMINGS: "1" };
  for (let i = 0; i <= n; i++) {
    for (const c of cols) {
      const [exe, ...args] = c.cmd.argv;
      const r = aroundRun(c.cmd, env, () => spawnSync(exe ?? "", args, { input: c.cmd.input ?? "", env: splitEnv, encoding: "utf8" }));
      const line = r.stderr.split("\n").find((l) => l.startsWith("skillgate-timings "));
      if (!line) throw new Error(`${c.label}: the hook printed no timings (stderr: ${r.stderr.slice(0, 300)})`);
      if (i === 0) continue; // warm-up
      for (const [k, v] of Object.entries(JSON.parse(line.slice("skillgate-timings ".length)) as Record<string, number>)) (c.stages[k] ??= []).push(v);
    }
  }
  const w = 30;
  const out = [
    `\n## where the time goes: median ms per stage, reported by the hook itself (SKILLGATE_TIMINGS=1), ${n} alternating runs (${load()})`,
    `${"stage".padEnd(8)}${cols.map((c) => c.label.slice(0, w - 2).padStart(w)).join("")}`,
  ];
  const med = (c: (typeof cols)[number], st: string) => (c.stages[st] ? quantile(c.stages[st], 0.5) : undefined);
  for (const st of STAGES) out.push(`${st.padEnd(8)}${cols.map((c) => (med(c, st) === undefined ? "—" : fmt(med(c, st) ?? 0)).padStart(w)).join("")}`);
  const total = (c: (typeof cols)[number]) => STAGES.reduce((a, st) => a + (med(c, st) ?? 0), 0);
  out.push(`${"sum".padEnd(8)}${cols.map((c) => fmt(total(c)).padStart(w)).join("")}`);
  const skip = (c: (typeof cols)[number]) =>
    c.stages.skip?.length ? (c.stages.skip.every((x) => x === 1) ? "skip" : c.stages.skip.every((x) => x === 0) ? "parser" : "mixed") : "—";
  out.push(`${"shell".padEnd(8)}${cols.map((c) => skip(c).padStart(w)).join("")}`);
  out.push(
    "start = the runtime's start until the hook's first line (Bun: its bundle loaded too); load = Node's loader: read the bundle, compile it from the code cache, run its top level; read = stdin; parse = JSON + the host's normalize; facts = the shell facts: the pre-filter, or the parser; table = the cached table + the host's environment; state = reading the session; decide = pure; cap = saving a capped output; save = the state under the lock (or a count appended); after = evidence and effects-audit snapshot; answer = render + write(2). The process exit after the answer is not a stage. shell: skip = the pre-filter vouched for the command and the parser was not loaded; parser = it declined.",
  );
  return out;
}

/**
 * Median wall time of fn over enough repetitions to be above timer noise,
 * after a warm-up (a third as long): the in-process figures are a plugin's
 * steady state, not V8's first compilations (the hook process columns show those).
 */
function timeIt(fn: () => void, minMs = smoke ? 50 : 300): number {
  for (const warm = performance.now() + minMs / 3; performance.now() < warm; ) fn();
  const runs: number[] = [];
  const until = performance.now() + minMs;
  while (performance.now() < until || runs.length < 5) {
    const t0 = performance.now();
    fn();
    runs.push(performance.now() - t0);
  }
  return quantile(runs, 0.5);
}

async function inProcess(): Promise<string[]> {
  const out: string[] = [
    "\n## in-process decision per event (decide() with the shell facts as the hook gets them: pre-filter, else parser; target ≤ 0.1 ms at 20 rows, linear growth)",
  ];
  const base = JSON.parse(fs.readFileSync(path.join(root, "triggers.json"), "utf8"));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-bench-"));
  const events = Object.fromEntries(
    Object.entries(EVENTS).map(([k, v]) => {
      const n = normalize(JSON.parse(v));
      if (!n.ok) throw new Error(`fixture ${k} does not normalize`);
      return [k, n.event];
    }),
  ) as Record<string, Event>;
  out.push(
    `${"rows".padEnd(6)} ${Object.keys(events)
      .map((k) => k.padStart(28))
      .join("")}`,
  );
  // The first size is timed twice and its first pass not printed: it is V8's warm-up of the whole path, not the decision.
  for (const [pass, size] of [
    [0, 20],
    [1, 20],
    [1, 200],
    [1, 2000],
  ] as const) {
    // The shipped rows first, then copies of the repeatable ones (a table has at most one budget row).
    const repeatable = base.rows.filter((r: { kind: string }) => r.kind !== "budget");
    const rows = [
      ...base.rows.slice(0, size),
      ...Array.from({ length: Math.max(0, size - base.rows.length) }, (_, i) => {
        const r = repeatable[i % repeatable.length];
        return { ...r, id: `${r.id}-${i}` };
      }),
    ];
    const file = path.join(dir, `t${size}.json`);
    fs.writeFileSync(file, JSON.stringify({ ...base, $schema: undefined, skillsDir: path.join(root, "skills"), rows }));
    const table = await compiledTable(file);
    const cells = Object.values(events).map((ev) => {
      const ms = timeIt(() => decide(ev, table, emptyState(), shellCommandOf(ev) === undefined ? undefined : (prefilteredFacts(ev, table) ?? factsOf(ev))));
      return `${fmt(ms)} ms`.padStart(28);
    });
    if (pass) out.push(`${String(size).padEnd(6)} ${cells.join("")}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

function analysis(): string[] {
  const out = ["\n## shell analysis by command size (target: 1 MB in ≤ 50 ms; linear)"];
  const unit = "git add -A && git commit -m 'fix: typo' > log_RU.md 2>&1; ";
  for (const [label, bytes] of [
    ["100 B", 100],
    ["10 KB", 10_240],
    ["1 MB", 1_000_000],
  ] as const) {
    const cmd = unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
    const ms = timeIt(() => analyzeCommand(cmd), smoke ? 20 : 200);
    out.push(`${label.padEnd(6)} ${fmt(ms).padStart(8)} ms`);
  }
  const nested = "$(".repeat(10_000) + "git commit" + ")".repeat(10_000);
  out.push(`10,000 nested $( ): ${fmt(timeIt(() => analyzeCommand(nested), 20))} ms (opaque: ${analyzeCommand(nested).opaque.length > 0})`);
  return out;
}

/** The output cap path: a PostToolUse Bash with 1 MB of stdout, in-process (file written, head returned). */
async function capPath(): Promise<string[]> {
  const { runHook } = await import("../hooks/entries/claude-code.js");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-bench-cap-"));
  const base = JSON.parse(fixture("post-tool-use-bash"));
  const stdout = "0123456789abcdef\n".repeat(1_048_576 / 17);
  const env = { SKILLGATE_STATE: path.join(dir, "state"), SKILLGATE_OUTPUT_DIR: path.join(dir, "out"), SKILLGATE_TABLE: path.join(root, "triggers.json") };
  let i = 0;
  const runs: number[] = [];
  for (let n = 0; n < (smoke ? 5 : 30); n++) {
    const input = JSON.stringify({ ...base, tool_use_id: `toolu_bench_${i++}`, tool_response: { ...base.tool_response, stdout } });
    const t0 = performance.now();
    const r = await runHook(input, { env, packageRoot: root });
    runs.push(performance.now() - t0);
    // A read-only command's output is summarized by type (budget profiles); anything else keeps the head cap.
    if (!r.stdout.includes("output capped") && !r.stdout.includes("skillgate summary"))
      throw new Error(`the 1 MB output was neither capped nor summarized: ${r.stdout.slice(0, 200)}${r.stderr}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return [
    `\n## output cap path: PostToolUse Bash with ${(stdout.length / 1e6).toFixed(2)} MB of stdout, in-process: median ${fmt(quantile(runs, 0.5))} ms, p90 ${fmt(quantile(runs, 0.9))} ms (file saved, head + path returned)`,
  ];
}

/** `measure` over a synthetic history, and ccusage over the same history in the same run (full mode). */
async function measureThroughput(): Promise<string[]> {
  const { benchMeasure } = await import("./bench-measure.js");
  const mb = smoke ? 16 : 1024;
  // ccusage comes through npx (a download on first use): only when asked, so the bench installs nothing by default.
  const r = await benchMeasure({ mb, ccusage: argv.includes("--ccusage") });
  const out = [
    `\n## measure over a synthetic ${r.historyMb.toFixed(0)} MB history (${r.sessions} sessions; target ≥ 150 MB/s, peak ≤ 200 MB)`,
    `skillgate measure: ${r.seconds.toFixed(2)} s = ${r.mbPerSec.toFixed(1)} MB/s of history (${r.readMbPerSec.toFixed(1)} MB/s of the ${r.readMb.toFixed(0)} MB of main sessions it reads), peak ${r.peakRssMb.toFixed(0)} MB`,
  ];
  if (!r.ccusage) out.push("ccusage: not run (pass --ccusage; it is fetched by npx)");
  else if ("seconds" in r.ccusage)
    out.push(`ccusage 18.0.11 over the same history: ${r.ccusage.seconds.toFixed(2)} s, peak ${r.ccusage.peakRssMb.toFixed(0)} MB`);
  else out.push(`ccusage 18.0.11: could not run (${r.ccusage.error.split("\n")[0]})`);
  return out;
}

async function main(): Promise<void> {
  if (!fs.existsSync(hook)) throw new Error("dist/hook.cjs is missing: run npm run build");
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-bench-state-"));
  const env = { ...process.env, SKILLGATE_STATE: stateDir, SKILLGATE_TABLE: path.join(root, "triggers.json") };
  // `--only processes|split|in-process|analysis|cap|measure|restore|git`: one section, for work on it (the performance page is from a whole run).
  const only = argv.includes("--only") ? argv[argv.indexOf("--only") + 1] : undefined;
  const sections: [string, () => string[] | Promise<string[]>][] = [
    ["processes", () => hookProcesses(env)],
    ["split", () => split(env)],
    ["in-process", inProcess],
    ["analysis", analysis],
    ["cap", capPath],
    ["measure", measureThroughput],
    ["restore", async () => (await import("./bench-restore.js")).benchRestore({ smoke, root })],
    ["git", () => gitCommitBench(samples)],
  ];
  const outArg = argv.includes("--out") ? argv[argv.indexOf("--out") + 1] : undefined;
  if (argv.includes("--out") && (outArg === undefined || outArg.startsWith("--"))) throw new Error("--out wants a file: --out docs/performance.md");
  // Checked before the run, so a wrong page fails in a second, not after the whole bench.
  const out = outArg !== undefined ? path.resolve(outArg) : smoke || only !== undefined ? undefined : path.join(root, "docs", "performance.md");
  if (out !== undefined && fs.existsSync(out)) withFigures(fs.readFileSync(out, "utf8"), out, [], "");
  if (only !== undefined && !sections.some(([name]) => name === only)) throw new Error(`--only wants one of ${sections.map(([n]) => n).join(", ")}`);
  const lines = [
    `# skillgate bench — ${new Date().toISOString()}${smoke ? " (smoke)" : ""}${only ? ` (only ${only})` : ""}`,
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${load()} at start, node ${process.version}`,
  ];
  for (const [name, run] of sections) if (only === undefined || only === name) lines.push(...(await run()));
  fs.rmSync(stateDir, { recursive: true, force: true });
  fs.rmSync(benchCwd, { recursive: true, force: true });
  console.log(lines.join("\n"));
  if (out !== undefined) writeFigures(out, lines, root);
}

await main();
