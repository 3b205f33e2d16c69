// In-process decision time of the opencode plugin per tool call: the hook
// functions opencode awaits around every tool call, with the default table,
// through the runner's pipeline every host shares; the bundle opencode loads
// (dist/opencode-plugin.mjs: run `npm run build` first). Session state is kept
// in memory (written 200 ms later, off the tool-call path, and before a shell
// call runs: the write is timed separately). Target: ≤ 0.5 ms per call.
//   node --import tsx scripts/bench-opencode.ts [--rounds N] [--smoke]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { StateStore } from "../hooks/io/state-store.ts";
import { emptyState } from "../hooks/core/types.ts";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bundle = path.join(root, "dist", "opencode-plugin.mjs");
if (!fs.existsSync(bundle)) throw new Error(`${bundle} missing: run npm run build`);
// The bundle, not the sources: under tsx every dynamic import the runner does per event is a round trip to its loader.
const { SkillgatePlugin } = (await import(pathToFileURL(bundle).href)) as typeof import("../hooks/entries/opencode-plugin.ts");
const argv = process.argv.slice(2);
const smoke = argv.includes("--smoke");
const roundsArg = argv.indexOf("--rounds");
const rounds = roundsArg >= 0 ? Number(argv[roundsArg + 1]) : smoke ? 200 : 2_000;

const state = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-bench-oc-"));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-bench-oc-proj-"));
Object.assign(process.env, { SKILLGATE_STATE: state, SKILLGATE_TABLE: path.join(root, "triggers.json") });
const hooks = await SkillgatePlugin({ directory: dir });
const session = "ses_bench";

type Call = { name: string; run: () => Promise<unknown> };
const before = (name: string, tool: string, args: Record<string, unknown>): Call => ({
  name,
  run: () => hooks["tool.execute.before"]({ tool, sessionID: session, callID: "c" }, { args }).catch((e: Error) => e),
});
const after = (name: string, tool: string, args: Record<string, unknown>, output: string): Call => ({
  name,
  run: () => hooks["tool.execute.after"]({ tool, sessionID: session, callID: "c", args }, { title: "", output, metadata: {} }),
});

const calls: Call[] = [
  before("before bash `ls -la`", "bash", { command: "ls -la" }),
  before("before bash `git commit` (refused: throws)", "bash", { command: 'git commit -m "x"' }),
  before("before bash pipeline", "bash", { command: "cd src && grep -rn TODO . | sort | head -50 > /tmp/todo.txt" }),
  before("before write doc_RU.md (refused)", "write", { filePath: path.join(dir, "doc_RU.md"), content: "x" }),
  before("before edit src/a.ts", "edit", { filePath: path.join(dir, "src/a.ts"), oldString: "a", newString: "b" }),
  before("before read", "read", { filePath: path.join(dir, "README.md") }),
  after("after bash (1 KB output)", "bash", { command: "ls" }, "x".repeat(1_000)),
  after("after read", "read", { filePath: path.join(dir, "README.md") }, "y".repeat(2_000)),
];

function stats(ms: number[]): { median: number; p95: number; mean: number } {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95), mean: ms.reduce((a, b) => a + b, 0) / ms.length };
}

// The first call pays for loading the shell parser's code paths: reported, not averaged in.
const t0 = performance.now();
await calls[0]!.run();
const cold = performance.now() - t0;
for (let i = 0; i < 50; i++) for (const c of calls) await c.run();

const fmt = (x: number) => `${(x * 1000).toFixed(1)} µs`;
console.log(`opencode plugin, in-process decision per tool call (${rounds} rounds, default table, node ${process.version})`);
console.log(`first call (cold): ${cold.toFixed(2)} ms`);
let worst = 0;
for (const c of calls) {
  const ms: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await c.run();
    ms.push(performance.now() - t);
  }
  const s = stats(ms);
  worst = Math.max(worst, s.median);
  console.log(`${c.name.padEnd(44)} median ${fmt(s.median)}  p95 ${fmt(s.p95)}  mean ${fmt(s.mean)}`);
}

// The coalesced state write (lock + atomic rename), once per 200 ms of activity at most.
const store = new StateStore(state);
const ms: number[] = [];
for (let i = 0; i < Math.min(rounds, 500); i++) {
  const s = { ...emptyState(), denials: { n: i } };
  const t = performance.now();
  store.update("ses_write", () => s);
  ms.push(performance.now() - t);
}
const w = stats(ms);
console.log(`${"state write (off the tool-call path)".padEnd(44)} median ${fmt(w.median)}  p95 ${fmt(w.p95)}`);
console.log(`worst median per call: ${fmt(worst)} — target ≤ 500 µs: ${worst <= 0.5 ? "met" : "NOT met"}`);
await hooks.dispose();
fs.rmSync(state, { recursive: true, force: true });
fs.rmSync(dir, { recursive: true, force: true });
if (worst > 0.5 && !smoke) process.exitCode = 1;
