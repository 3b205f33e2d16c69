// `npm run bench` section "restore": what noting and checking guarded files
// costs in a 10,000-file repository (500 folders of 20 files, some of them
// guarded by the default table's write rows), through the runner's own code:
// the listing cold (every folder read) and warm (the listing cache: a stat per
// folder), a whole baseline (runner/restore.ts: listing, stamps, digests,
// kept content) on the first call and on a repeated one, the check after a
// call that changed nothing, and the hot path of an event with nothing
// pending. Medians; nothing is asserted.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadContext } from "../hooks/runner/context.js";
import { listMatching } from "../hooks/io/guarded-files.js";
import { ListingCache } from "../hooks/io/stat-cache.js";
import { holdForCall, checkSession } from "../hooks/runner/restore.js";
import { restorePending } from "../hooks/runner/audit.js";
import { claudeCode } from "../hooks/hosts/claude-code/adapter.js";
import { emptyState, type Event } from "../hooks/core/types.js";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const time = (fn: () => unknown): number => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};

/** A repository of `files` files: src/m<k>/d<i>/f<j>.ts, one *_RU.md per folder, a few under auth/ and migrations/. */
export function makeRepo(files = 10_000): string {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-bench-repo-"));
  fs.mkdirSync(path.join(repo, ".git"));
  const perDir = 20;
  for (let d = 0; d < files / perDir; d++) {
    const area = d % 25 === 0 ? "auth" : d % 25 === 1 ? "migrations" : `m${d % 50}`;
    const dir = path.join(repo, "src", area, `d${d}`);
    fs.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < perDir; f++) fs.writeFileSync(path.join(dir, f === 0 ? `notes${d}_RU.md` : `f${f}.ts`), `export const v${f} = ${d};\n`);
  }
  return repo;
}

export async function benchRestore(o: { smoke: boolean; root: string }): Promise<string[]> {
  const samples = o.smoke ? 3 : 15;
  const repo = makeRepo(o.smoke ? 2_000 : 10_000);
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-bench-restore-"));
  const env = { ...process.env, SKILLGATE_STATE: state, HOME: state, CLAUDE_PROJECT_DIR: repo };
  try {
    const ctx = await loadContext({ env, packageRoot: o.root, host: claudeCode }, { tableFile: path.join(o.root, "triggers.json"), cache: false, globs: true });
    if (!ctx.ok) throw new Error(ctx.error);
    const rows = ctx.table.rows.filter((cr) => cr.writes);
    const match = (rel: string) => rows.some((cr) => cr.writes?.(rel));
    const files = listMatching(repo, match).files.length;
    // Past the racy window (io/stat-cache.ts): what a repeated call sees.
    await new Promise((r) => setTimeout(r, 2_100));
    const cold = Array.from({ length: samples }, () => time(() => listMatching(repo, match)));
    const cache = () => ListingCache.load(state, repo, "bench");
    const c0 = cache();
    listMatching(repo, match, { cache: c0 });
    c0.save();
    const warm = Array.from({ length: samples }, () => time(() => listMatching(repo, match, { cache: cache() })));
    const input = { stateDir: state, host: claudeCode, env, packageRoot: o.root, tableFile: path.join(o.root, "triggers.json"), table: ctx.table };
    const session = "bench-restore";
    const call = (id: string): Extract<Event, { kind: "tool-call" }> => ({
      kind: "tool-call",
      sessionId: session,
      cwd: repo,
      tool: { kind: "shell", name: "Bash", command: "node x.js" },
      toolUseId: id,
    });
    const result = (id: string): Event => ({
      kind: "tool-result",
      sessionId: session,
      cwd: repo,
      tool: { kind: "shell", name: "Bash", command: "node x.js" },
      toolUseId: id,
      loads: [],
    });
    const first = time(() => holdForCall(call("toolu_first"), "toolu_first", emptyState(), undefined, input));
    const baselines: number[] = [];
    const checks: number[] = [];
    for (let i = 0; i < samples; i++) {
      fs.rmSync(path.join(state, "restore", session), { recursive: true, force: true });
      baselines.push(time(() => holdForCall(call(`toolu_${i}`), `toolu_${i}`, emptyState(), undefined, input)));
      const t = performance.now();
      await checkSession(result(`toolu_${i}`), input, async () => undefined);
      checks.push(performance.now() - t);
    }
    fs.rmSync(path.join(state, "restore", session), { recursive: true, force: true });
    const idle = Array.from({ length: 200 }, () => time(() => restorePending(state, session)));
    return [
      `\n## restore: guarded files in a ${(o.smoke ? 2_000 : 10_000).toLocaleString("en-US")}-file repository (${files} guarded by the default table's write rows; medians of ${samples})`,
      `listing, cold (every folder read and matched): ${median(cold).toFixed(1)} ms`,
      `listing, warm (listing cache: one stat per folder): ${median(warm).toFixed(1)} ms`,
      `baseline before a shell call: first ${first.toFixed(1)} ms (digests and kept copies made), repeated ${median(baselines).toFixed(1)} ms`,
      `check after the call, nothing changed: ${median(checks).toFixed(1)} ms`,
      `an event with nothing pending: ${(median(idle) * 1000).toFixed(1)} µs (one lstat); a call the pre-filter vouches for: no snapshot at all`,
    ];
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  }
}
