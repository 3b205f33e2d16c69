// Shrink ratio and time per summary on the corpus of real outputs (test/fixtures/outputs).
// Usage: node --import tsx scripts/bench-summaries.ts [--profile balanced] [--runs 20]
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { summarize, commandHint, PROFILES, isProfileName, type ProfileName } from "../hooks/core/summaries/index.ts";
import { analyzeCommand } from "../hooks/core/shell/analyze.ts";

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "test", "fixtures", "outputs");

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

const profileArg = arg("profile", "all");
const runs = Number(arg("runs", "20"));
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: expected a positive integer, got ${arg("runs", "")}`);
if (profileArg !== "all" && !isProfileName(profileArg)) throw new Error(`--profile: expected fast|balanced|precision|audit|all, got ${profileArg}`);
const profiles: ProfileName[] = profileArg === "all" ? ["fast", "balanced", "precision", "audit"] : [profileArg as ProfileName];

const files = readdirSync(DIR)
  .filter((f) => f.endsWith(".txt"))
  .sort();
for (const profile of profiles) {
  const p = PROFILES[profile];
  console.log(`\n== ${profile} (threshold ${p.thresholdChars} chars, target ${p.summaryChars} chars / ${p.maxShare * 100}%)`);
  console.log(
    `${"output".padEnd(20)} ${"type".padEnd(16)} ${"conf".padEnd(6)} ${"chars".padStart(7)} ${"kept".padStart(6)} ${"shrink".padStart(7)} ${"median ms".padStart(9)}`,
  );
  let inAll = 0;
  let keptAll = 0;
  let summarized = 0;
  let worst = 1;
  for (const f of files) {
    const name = f.slice(0, -4);
    const output = readFileSync(path.join(DIR, f), "utf8");
    const side = JSON.parse(readFileSync(path.join(DIR, `${name}.json`), "utf8")) as { command: string };
    const command = commandHint(analyzeCommand(side.command).commands);
    const times: number[] = [];
    let s = summarize(output, { profile, command, rawPath: `/tmp/raw/${f}` });
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      s = summarize(output, { profile, command, rawPath: `/tmp/raw/${f}` });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] ?? 0;
    const shrink = 1 - s.keptChars / output.length;
    if (s.raw === undefined) {
      summarized++;
      inAll += output.length;
      keptAll += s.keptChars;
      worst = Math.min(worst, shrink);
    }
    const type = s.raw ? `raw (${s.raw})` : s.type;
    console.log(
      `${name.padEnd(20)} ${type.padEnd(16)} ${s.confidence.padEnd(6)} ${String(output.length).padStart(7)} ${String(s.keptChars).padStart(6)} ${`${(shrink * 100).toFixed(1)}%`.padStart(7)} ${median.toFixed(2).padStart(9)}`,
    );
  }
  const total = inAll === 0 ? "n/a" : `${((1 - keptAll / inAll) * 100).toFixed(1)}%`;
  console.log(
    `summarized ${summarized}/${files.length}; over those: ${inAll} → ${keptAll} chars, shrink ${total}, worst ${summarized ? `${(worst * 100).toFixed(1)}%` : "n/a"}`,
  );
}
