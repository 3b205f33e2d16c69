// `skillgate cases` as text: one line per case with its result on each host,
// then, host by host, every failure, every case skipped there and every
// expectation left unchecked, each with its reason (nothing is skipped
// silently), then the counts per host.
import type { CaseResult } from "./runner.js";

export interface HostRun {
  host: string;
  results: CaseResult[];
  ms: number;
}

export interface HostCounts {
  passed: number;
  failed: number;
  skipped: number;
  /** Expectations the host cannot meet, left unchecked (in cases that ran). */
  unchecked: number;
}

export function countsOf(results: CaseResult[]): HostCounts {
  const skipped = results.filter((r) => r.skipped !== undefined).length;
  const failed = results.filter((r) => !r.ok).length;
  return { passed: results.length - skipped - failed, failed, skipped, unchecked: results.reduce((n, r) => n + r.unchecked.length, 0) };
}

interface Paint {
  green(s: string): string;
  red(s: string): string;
}

const mark = (r: CaseResult | undefined): string => (!r ? "" : !r.ok ? "FAIL" : r.skipped !== undefined ? "skip" : "ok");

export function formatRuns(ids: string[], runs: HostRun[], c: Paint): string {
  const width = runs.map((h) => Math.max(h.host.length, 4));
  const paint = (m: string, w: number) => (m === "ok" ? c.green(m.padEnd(w)) : m === "FAIL" ? c.red(m.padEnd(w)) : m.padEnd(w));
  const lines = [runs.map((h, i) => h.host.padEnd(width[i]!)).join("  ")];
  const at = runs.map((h) => new Map(h.results.map((r) => [r.id, r])));
  for (const id of ids) lines.push(`${at.map((m, i) => paint(mark(m.get(id)), width[i]!)).join("  ")}  ${id}`);
  for (const h of runs) {
    const notes: string[] = [];
    for (const r of h.results) {
      if (!r.ok) notes.push(`  ${c.red("FAIL")} ${r.id}\n        ${r.failures.join("\n        ")}`);
      if (r.skipped !== undefined) notes.push(`  skip ${r.id}: ${r.skipped}`);
      for (const u of r.unchecked) notes.push(`  unchecked ${r.id}: ${u}`);
    }
    if (notes.length) lines.push(`\n${h.host}:`, ...notes);
  }
  lines.push("");
  for (const h of runs) {
    const n = countsOf(h.results);
    lines.push(
      `${h.host.padEnd(11)}  ${n.passed} pass, ${n.failed} fail, ${n.skipped} skipped, ${n.unchecked} expectation${n.unchecked === 1 ? "" : "s"} unchecked (${(h.ms / 1000).toFixed(1)} s)`,
    );
  }
  return lines.join("\n");
}
