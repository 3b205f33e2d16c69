// Benchmark of `skillgate measure` on a synthetic history (scripts/gen-history.ts),
// as a child process: wall time and peak memory (RSS). For reference, the same
// for ccusage 18.0.11 (the popular usage analyzer) over the same history.
//
//   node --import tsx scripts/bench-measure.ts [--mb 1024] [--no-ccusage] [--keep]
// Needs `npm run build` first (it runs bin/skillgate.mjs like a user would).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateHistory } from "./gen-history.js";

export const CCUSAGE = "ccusage@18.0.11";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface BenchOptions {
  mb: number;
  /** Run ccusage too (default true). */
  ccusage?: boolean;
  /** Keep the generated history (its path is in the result). */
  keep?: boolean;
  seed?: number;
}

export interface Run {
  seconds: number;
  peakRssMb: number;
}

export interface BenchResult extends Run {
  /** MB of history per second of wall time (process start to exit), as for ccusage over the same history. */
  mbPerSec: number;
  /** MB of main session files actually read per second (subagent transcripts are skipped unopened). */
  readMbPerSec: number;
  /** MB in the whole history (subagent transcripts included). */
  historyMb: number;
  /** MB measure actually read (main session files). */
  readMb: number;
  sessions: number;
  generateSeconds: number;
  peakRssMethod: string;
  dir?: string;
  ccusage?: Run | { error: string };
}

interface Timed extends Run {
  code: number | null;
  stdout: string;
  stderr: string;
  method: string;
}

const hasGnuTime = () => {
  try {
    return fs.statSync("/usr/bin/time").isFile();
  } catch {
    return false;
  }
};

/** Runs a command, measuring wall time and peak RSS (GNU time -v if present, else /proc VmHWM polling). */
export function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<Timed> {
  const gnu = hasGnuTime();
  const [file, argv] = gnu ? ["/usr/bin/time", ["-v", cmd, ...args]] : [cmd, args];
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(file, argv, { env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [],
      err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    let hwm = 0;
    const poll = gnu
      ? undefined
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"));
            if (m) hwm = Math.max(hwm, Number(m[1]));
          } catch {
            /* exited */
          }
        }, 20);
    child.on("error", reject);
    child.on("close", (code) => {
      const seconds = (performance.now() - t0) / 1000;
      if (poll) clearInterval(poll);
      let stderr = Buffer.concat(err).toString("utf8");
      let peak = hwm / 1024;
      if (gnu) {
        const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
        peak = m ? Number(m[1]) / 1024 : 0;
        const cut = stderr.lastIndexOf("\tCommand being timed:");
        if (cut >= 0) stderr = stderr.slice(0, cut);
      }
      resolve({
        code,
        seconds,
        peakRssMb: Math.round(peak * 10) / 10,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr,
        method: gnu ? "/usr/bin/time -v (max RSS)" : "/proc/<pid>/status VmHWM, polled every 20 ms",
      });
    });
  });
}

/** Installs ccusage through npx once (not timed) and returns the path of its bin script. */
function ccusageBin(): string {
  const out = execFileSync("npx", ["-y", "-p", CCUSAGE, "-c", "command -v ccusage"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 300_000 });
  const bin = out.trim().split("\n").pop()!;
  return fs.realpathSync(bin);
}

export async function benchMeasure(opts: BenchOptions): Promise<BenchResult> {
  const cli = path.join(ROOT, "bin", "skillgate.mjs");
  if (!fs.existsSync(path.join(ROOT, "dist", "cli.mjs"))) throw new Error("dist/cli.mjs is missing: run `npm run build` first");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-bench-"));
  const config = path.join(tmp, "claude");
  const projects = path.join(config, "projects");
  try {
    const g0 = performance.now();
    const gen = generateHistory({ dir: projects, mb: opts.mb, seed: opts.seed ?? 1 });
    const generateSeconds = (performance.now() - g0) / 1000;

    // The page cache is warm for both tools alike: the history was just written.
    const env = { ...process.env, SKILLGATE_STATE: path.join(tmp, "state") };
    const run = await timed(process.execPath, [cli, "measure", "--projects", projects, "--since", "100000d", "--json"], env);
    if (run.code !== 0) throw new Error(`skillgate measure exited ${run.code}: ${run.stderr.slice(0, 2000)}`);
    const json = JSON.parse(run.stdout) as { read: { bytes: number; sessions: number } };
    const readMb = json.read.bytes / 1048576;
    const result: BenchResult = {
      seconds: Math.round(run.seconds * 100) / 100,
      peakRssMb: run.peakRssMb,
      mbPerSec: Math.round((gen.bytes / 1048576 / run.seconds) * 10) / 10,
      readMbPerSec: Math.round((readMb / run.seconds) * 10) / 10,
      historyMb: Math.round((gen.bytes / 1048576) * 10) / 10,
      readMb: Math.round(readMb * 10) / 10,
      sessions: json.read.sessions,
      generateSeconds: Math.round(generateSeconds * 10) / 10,
      peakRssMethod: run.method,
    };

    if (opts.ccusage !== false) {
      try {
        const bin = ccusageBin();
        // CLAUDE_CONFIG_DIR alone decides where ccusage looks (<dir>/projects); HOME is pointed
        // there too so nothing of the real user's history can leak in.
        const cenv = { ...process.env, CLAUDE_CONFIG_DIR: config, HOME: tmp };
        const c = await timed(process.execPath, [bin, "daily", "--json", "--offline"], cenv);
        result.ccusage =
          c.code === 0
            ? { seconds: Math.round(c.seconds * 100) / 100, peakRssMb: c.peakRssMb }
            : { error: `exit ${c.code}: ${(c.stderr || c.stdout).trim().slice(0, 1000)}` };
      } catch (e) {
        result.ccusage = { error: (e as Error).message.slice(0, 1000) };
      }
    }
    if (opts.keep) result.dir = projects;
    return result;
  } finally {
    if (!opts.keep) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<number> {
  const { parseWith } = await import("../cli/args.js");
  const f = parseWith(
    {
      summary: "time skillgate measure on a generated history",
      options: {
        mb: { type: "string", value: "MB", help: "history size", default: "1024" },
        "no-ccusage": { type: "flag", help: "skip the ccusage comparison" },
        keep: { type: "flag", help: "keep the generated history" },
      },
      examples: ["node --import tsx scripts/bench-measure.ts --mb 256"],
    },
    argv,
  );
  const mb = Number(f.get("mb"));
  const r = await benchMeasure({ mb, ccusage: !f.has("no-ccusage"), keep: f.has("keep") });
  console.log(JSON.stringify(r, null, 2));
  const ok = r.mbPerSec >= 150 && r.peakRssMb <= 200;
  console.log(
    `skillgate measure: ${r.historyMb} MB history (${r.readMb} MB of main sessions read, subagent transcripts skipped) in ${r.seconds} s` +
      ` = ${r.mbPerSec} MB/s of history (${r.readMbPerSec} MB/s read), peak ${r.peakRssMb} MB — target ≥ 150 MB/s and ≤ 200 MB: ${ok ? "met" : "NOT met"}`,
  );
  if (r.ccusage) {
    const c = r.ccusage;
    console.log(
      "error" in c
        ? `ccusage: ${c.error}`
        : `${CCUSAGE}: ${c.seconds} s = ${Math.round((r.historyMb / c.seconds) * 10) / 10} MB/s, peak ${c.peakRssMb} MB (same history, same run)`,
    );
  }
  return ok ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
