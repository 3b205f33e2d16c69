// Fingerprint speed on a 10,000-file, 200 MB tree, against git doing the
// comparable work in the same run: `git ls-files -s` plus
// `git hash-object --stdin-paths` over the same files.
//   node --import tsx scripts/bench-fingerprint.ts [--files 10000] [--mb 200] [--runs 5] [--keep]
// Targets: warm ≤ 150 ms; cold ≤ 1.5 × the git baseline.
// "Cold" = no stat cache (every file read and hashed); both sides read from
// the page cache, since the tree was just written. "Warm" = the stat cache of
// the previous run, loaded from disk (signature checked) each time.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fingerprint } from "../hooks/io/fingerprint.ts";
import { RACY_MS, StatCache } from "../hooks/io/stat-cache.ts";

function arg(name: string, dflt: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
}
const FILES = arg("files", 10_000);
const MB = arg("mb", 200);
const RUNS = arg("runs", 5);
const keep = process.argv.includes("--keep");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const sh = (cwd: string, cmd: string, args: string[], input?: string) => {
  const r = spawnSync(cmd, args, { cwd, input, maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
};

function makeTree(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bench-fp-"));
  const perDir = 100;
  const total = MB * 1024 * 1024;
  // Sizes vary (0.1× to 1.9× the mean) like a real tree; they sum to ~MB.
  const mean = total / FILES;
  const pool = crypto.randomBytes(4 * 1024 * 1024);
  for (let i = 0; i < FILES; i++) {
    const size = Math.round(mean * (0.1 + (1.8 * ((i * 7919) % 1000)) / 1000));
    const sub = path.join(dir, `d${String(Math.floor(i / perDir)).padStart(3, "0")}`);
    if (i % perDir === 0) fs.mkdirSync(sub);
    const off = (i * 104_729) % (pool.length - Math.min(size, pool.length - 1));
    const body = size <= pool.length - off ? pool.subarray(off, off + size) : Buffer.concat([pool, pool]).subarray(0, size);
    fs.writeFileSync(path.join(sub, `f${i}.txt`), Buffer.concat([Buffer.from(`${i}\n`), body]), { mode: i % 50 === 0 ? 0o755 : 0o644 });
  }
  sh(dir, "git", ["init", "-q", "."]);
  sh(dir, "git", ["add", "-A"]);
  return dir;
}

/** CPU time (ms) of this process's waited-for children, from /proc (10 ms ticks): git's side of the comparison. */
function childCpu(): number {
  const f = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(f[13]) + Number(f[14])) * 10;
}

function gitBaseline(dir: string): { ms: number; cpu: number } {
  const t0 = process.hrtime.bigint();
  const k0 = childCpu();
  const list = sh(dir, "git", ["ls-files", "-s", "-z"])
    .toString("utf8")
    .split("\0")
    .filter(Boolean)
    .map((l) => l.slice(l.indexOf("\t") + 1));
  sh(dir, "git", ["hash-object", "--stdin-paths"], list.join("\n") + "\n");
  return { ms: ms(t0), cpu: childCpu() - k0 };
}

/** Wall time, and this process's CPU time (user + system; git's own CPU is not in it) — the machine may be shared. */
function ours(dir: string, state: string | undefined): { ms: number; cpu: number; fp: string; n: number } {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  const k0 = childCpu();
  const cache = state ? StatCache.load(state, dir) : undefined;
  const inv = fingerprint({ cwd: dir, roots: ["."], cache });
  cache?.save();
  const c = process.cpuUsage(c0);
  // Ours = this process plus its git ls-files child.
  return { ms: ms(t0), cpu: (c.user + c.system) / 1000 + (childCpu() - k0), fp: inv.fingerprint, n: inv.entries.length };
}

const t0 = process.hrtime.bigint();
const dir = makeTree();
const bytes = Number(sh(dir, "du", ["-sb", "--exclude=.git", "."]).toString().split("\t")[0]);
console.log(`tree: ${FILES} files, ${(bytes / 1024 / 1024).toFixed(0)} MB in ${dir} (made in ${(ms(t0) / 1000).toFixed(1)} s)`);
// Let every file age past the racy window, so the stat cache may keep them all.
const wait = RACY_MS + 200;
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);

const git: number[] = [];
const gitCpu: number[] = [];
const cold: number[] = [];
const coldCpu: number[] = [];
const warm: number[] = [];
const warmCpu: number[] = [];
let fp = "";
for (let r = 0; r < RUNS; r++) {
  const gb = gitBaseline(dir);
  git.push(gb.ms);
  gitCpu.push(gb.cpu);
  const c = ours(dir, undefined);
  cold.push(c.ms);
  coldCpu.push(c.cpu);
  if (fp && fp !== c.fp) throw new Error("fingerprint changed between runs");
  fp = c.fp;
}
const state = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bench-fp-state-"));
const first = ours(dir, state); // fills the cache
for (let r = 0; r < RUNS; r++) {
  const w = ours(dir, state);
  if (w.fp !== fp) throw new Error("warm fingerprint differs from cold");
  warm.push(w.ms);
  warmCpu.push(w.cpu);
}
// The CLI end to end (node start-up and tsx transpiling included), warm.
const cli: number[] = [];
for (let r = 0; r < Math.min(RUNS, 3); r++) {
  const t = process.hrtime.bigint();
  const out = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `const m = await import("./cli/fingerprint.ts"); process.exitCode = await m.main(["--cwd", ${JSON.stringify(dir)}, "."], process.cwd());`,
    ],
    {
      cwd: path.resolve(import.meta.dirname, ".."),
      env: { ...process.env, SKILLGATE_STATE: state },
      encoding: "utf8",
    },
  );
  cli.push(ms(t));
  if (out.stdout.trim() !== fp) throw new Error(`CLI printed ${out.stdout} ${out.stderr}`);
}

const g = median(git);
const c = median(cold);
const w = median(warm);
console.log(
  `entries: ${first.n}; fingerprint ${fp}; load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")} on ${os.cpus().length} CPUs`,
);
console.log(`git ls-files -s + hash-object --stdin-paths: median ${g.toFixed(0)} ms  (${git.map((x) => x.toFixed(0)).join(", ")})`);
console.log(
  `fingerprint cold (no stat cache):            median ${c.toFixed(0)} ms  (${cold.map((x) => x.toFixed(0)).join(", ")})  = ${(c / g).toFixed(2)}× git  [target ≤ 1.5×: ${c <= 1.5 * g ? "met" : "MISSED"}]`,
);
console.log(
  `fingerprint warm (stat cache from disk):     median ${w.toFixed(0)} ms  (${warm.map((x) => x.toFixed(0)).join(", ")})  [target ≤ 150 ms: ${w <= 150 ? "met" : "MISSED"}]`,
);
console.log(`CPU time (user+system, git children included; steadier than wall time on a shared machine):`);
console.log(
  `  git baseline ${median(gitCpu).toFixed(0)} ms (${gitCpu.join(", ")}); fingerprint cold ${median(coldCpu).toFixed(0)} ms (${coldCpu.map((x) => x.toFixed(0)).join(", ")}) = ${(median(coldCpu) / median(gitCpu)).toFixed(2)}× git; warm ${median(warmCpu).toFixed(0)} ms (${warmCpu.map((x) => x.toFixed(0)).join(", ")})`,
);
console.log(
  `skillgate fingerprint CLI via tsx, warm:     median ${median(cli).toFixed(0)} ms  (${cli.map((x) => x.toFixed(0)).join(", ")}; includes node start-up and transpiling)`,
);
if (!keep) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(state, { recursive: true, force: true });
}
