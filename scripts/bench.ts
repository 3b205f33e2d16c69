// `npm run bench`: what the hook costs. Every figure is measured in this run,
// against a baseline measured in the same run with samples alternating, so a
// noisy machine moves both sides together. Targets are printed, not asserted.
//   --smoke      few samples (CI runs this; no thresholds)
//   --samples N  process samples per command (default 30)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findPackageRoot } from "../hooks/runner/process.js";
import { decide } from "../hooks/core/decide.js";
import { factsOf } from "../hooks/core/shell-facts.js";
import { analyzeCommand } from "../hooks/core/shell/analyze.js";
import { normalize } from "../hooks/hosts/claude-code/adapter.js";
import { emptyState, type Event } from "../hooks/core/types.js";
import { compiledTable } from "../cli/table-file.js";
import { findBun } from "../cli/install.js";

const root = findPackageRoot();
const argv = process.argv.slice(2);
const smoke = argv.includes("--smoke");
const samples = Number(argv[argv.indexOf("--samples") + 1]) || (smoke ? 5 : 30);
const hook = path.join(root, "dist", "hook.mjs");
const fixture = (name: string) => fs.readFileSync(path.join(root, "cases", "fixtures", `${name}.json`), "utf8");

const EVENTS: Record<string, string> = {
  "PreToolUse Bash git commit": fixture("pre-tool-use-bash"),
  "PreToolUse Write": fixture("pre-tool-use-write"),
  UserPromptSubmit: fixture("user-prompt-submit"),
  "SessionStart compact": fixture("session-start-compact"),
  "PostToolUse Skill": fixture("post-tool-use-skill"),
};

interface Cmd {
  label: string;
  argv: string[];
  input?: string;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const fmt = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms.toFixed(1));

/** Round-robin over all commands so that load spikes hit every command alike. */
function timeProcesses(cmds: Cmd[], n: number, env: NodeJS.ProcessEnv): Map<string, number[]> {
  const times = new Map(cmds.map((c) => [c.label, [] as number[]]));
  for (const c of cmds) spawnSync(c.argv[0]!, c.argv.slice(1), { input: c.input ?? "", env }); // warm the page cache and the table cache
  for (let i = 0; i < n; i++) {
    for (const c of cmds) {
      const t0 = performance.now();
      const r = spawnSync(c.argv[0]!, c.argv.slice(1), { input: c.input ?? "", env });
      times.get(c.label)!.push(performance.now() - t0);
      if (r.status !== 0) throw new Error(`${c.label} exited ${r.status}: ${r.stderr}`);
    }
  }
  return times;
}

function peakRssMb(cmd: Cmd, env: NodeJS.ProcessEnv): number | undefined {
  if (!fs.existsSync("/usr/bin/time")) return undefined;
  const r = spawnSync("/usr/bin/time", ["-f", "%M", ...cmd.argv], { input: cmd.input ?? "", env, encoding: "utf8" });
  const kb = Number(r.stderr.trim().split("\n").pop());
  return Number.isFinite(kb) ? kb / 1024 : undefined;
}

function hookProcesses(env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  const bun = findBun(root);
  const runtimes: [string, string, number][] = [["node", process.execPath, 1.2]];
  if (bun) runtimes.push(["bun", bun, 4]);
  else out.push("bun: not installed (optional dependency); Bun route not measured");
  for (const [name, exe, target] of runtimes) {
    const cmds: Cmd[] = [{ label: `${name} -e 0`, argv: [exe, "-e", "0"] }];
    for (const [ev, input] of Object.entries(EVENTS)) cmds.push({ label: ev, argv: [exe, hook], input });
    const times = timeProcesses(cmds, samples, env);
    const base = quantile(times.get(`${name} -e 0`)!, 0.5);
    out.push(`\n## hook process under ${name} (${samples} alternating samples each; target median ≤ ${target} × \`${name} -e 0\`)`);
    out.push(`${"".padEnd(30)} median     p90   ratio`);
    for (const [label, xs] of times) {
      const med = quantile(xs, 0.5);
      const ratio = med / base;
      const verdict = label.endsWith("-e 0") ? "" : ratio <= target ? "  within target" : "  OVER target";
      out.push(`${label.padEnd(30)} ${fmt(med).padStart(6)} ms ${fmt(quantile(xs, 0.9)).padStart(6)} ms  ${ratio.toFixed(2)}×${verdict}`);
    }
    const rss = peakRssMb({ label: "", argv: [exe, hook], input: EVENTS["PreToolUse Bash git commit"] }, env);
    if (rss !== undefined) out.push(`peak memory of the hook process (${name}, Bash git commit): ${rss.toFixed(1)} MB (target ≤ 60 MB)`);
  }
  // The development route, for comparison only: what a hook run through tsx would cost.
  const tsx = timeProcesses(
    [
      { label: "node -e 0", argv: [process.execPath, "-e", "0"] },
      { label: "tsx hooks/skillgate.ts", argv: [process.execPath, "--import", "tsx", path.join(root, "hooks", "skillgate.ts")], input: EVENTS["PreToolUse Bash git commit"] },
    ],
    Math.max(3, Math.round(samples / 5)),
    env,
  );
  const tb = quantile(tsx.get("node -e 0")!, 0.5);
  const tm = quantile(tsx.get("tsx hooks/skillgate.ts")!, 0.5);
  out.push(`\n## tsx route for comparison: node --import tsx hooks/skillgate.ts: median ${fmt(tm)} ms = ${(tm / tb).toFixed(2)}× node -e 0`);
  return out;
}

/** Median wall time of fn over enough repetitions to be above timer noise. */
function timeIt(fn: () => void, minMs = smoke ? 50 : 300): number {
  fn();
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
  const out: string[] = ["\n## in-process decision per event (decide(), shell analysis included; target ≤ 0.2 ms at 20 rows, linear growth)"];
  const base = JSON.parse(fs.readFileSync(path.join(root, "triggers.json"), "utf8"));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-bench-"));
  const events = Object.fromEntries(
    Object.entries(EVENTS).map(([k, v]) => {
      const n = normalize(JSON.parse(v));
      if (!n.ok) throw new Error(`fixture ${k} does not normalize`);
      return [k, n.event];
    }),
  ) as Record<string, Event>;
  out.push(`${"rows".padEnd(6)} ${Object.keys(events).map((k) => k.padStart(28)).join("")}`);
  for (const size of [20, 200, 2000]) {
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
      const ms = timeIt(() => decide(ev, table, emptyState(), factsOf(ev)));
      return `${fmt(ms)} ms`.padStart(28);
    });
    out.push(`${String(size).padEnd(6)} ${cells.join("")}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}

function analysis(): string[] {
  const out = ["\n## shell analysis by command size (target: 1 MB in ≤ 50 ms; linear)"];
  const unit = "git add -A && git commit -m 'fix: typo' > log_RU.md 2>&1; ";
  for (const [label, bytes] of [["100 B", 100], ["10 KB", 10_240], ["1 MB", 1_000_000]] as const) {
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
  const { runHook } = await import("../hooks/runner/hook.js");
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
    if (!r.stdout.includes("output capped")) throw new Error(`the 1 MB output was not capped: ${r.stdout.slice(0, 200)}${r.stderr}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return [`\n## output cap path: PostToolUse Bash with ${(stdout.length / 1e6).toFixed(2)} MB of stdout, in-process: median ${fmt(quantile(runs, 0.5))} ms, p90 ${fmt(quantile(runs, 0.9))} ms (file saved, head + path returned)`];
}

/** `measure` over a synthetic history, and ccusage over the same history in the same run (full mode). */
async function measureThroughput(): Promise<string[]> {
  const { benchMeasure } = await import("./bench-measure.js");
  const mb = smoke ? 16 : 1024;
  const r = await benchMeasure({ mb, ccusage: !smoke });
  const out = [
    `\n## measure over a synthetic ${r.historyMb.toFixed(0)} MB history (${r.sessions} sessions; target ≥ 150 MB/s, peak ≤ 200 MB)`,
    `skillgate measure: ${r.seconds.toFixed(2)} s = ${r.mbPerSec.toFixed(1)} MB/s of history (${r.readMbPerSec.toFixed(1)} MB/s of the ${r.readMb.toFixed(0)} MB of main sessions it reads), peak ${r.peakRssMb.toFixed(0)} MB`,
  ];
  if (r.ccusage && "seconds" in r.ccusage) out.push(`ccusage 18.0.11 over the same history: ${r.ccusage.seconds.toFixed(2)} s, peak ${r.ccusage.peakRssMb.toFixed(0)} MB`);
  else if (r.ccusage) out.push(`ccusage 18.0.11: could not run (${r.ccusage.error.split("\n")[0]})`);
  return out;
}

async function main(): Promise<void> {
  if (!fs.existsSync(hook)) throw new Error("dist/hook.mjs is missing: run npm run build");
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-bench-state-"));
  const env = { ...process.env, SKILLGATE_STATE: stateDir, SKILLGATE_TABLE: path.join(root, "triggers.json") };
  const lines = [
    `# skillgate bench — ${new Date().toISOString()}${smoke ? " (smoke)" : ""}`,
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, load average ${os.loadavg()[0]!.toFixed(2)}, node ${process.version}`,
    ...hookProcesses(env),
    ...(await inProcess()),
    ...analysis(),
    ...(await capPath()),
    ...(await measureThroughput()),
  ];
  fs.rmSync(stateDir, { recursive: true, force: true });
  console.log(lines.join("\n"));
}

await main();
