// Never crash, never hang, never fail silently — the smoke kept in
// `npm test`: 2,000 generated and mutated events through runHook() in-process,
// the big ones (1–10 MB strings, 10,000-level nesting, 10,000 nested `$(`)
// once each, and a seeded sample through the real `node dist/hook.cjs` (raw
// bytes, some not UTF-8) running alongside. The long run (100,000 events, a
// new seed each time) is `npm run fuzz`. Checks: scripts/fuzz.ts checkOutput()
// and checkSandbox(). Same seed, same events: a failure names its seed and
// index and saves the input under .tmp/fuzz/ for `npx tsx scripts/fuzz.ts --replay`.
//
// Knobs (defaults are what `npm test` runs): FUZZ_SEED, FUZZ_EVENTS, FUZZ_PROCESS, FUZZ_JOBS,
// FUZZ_ENGINE=source, FUZZ_TMP.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import {
  Fuzzer,
  HOOK_BUNDLE,
  ROOT,
  EVENT_BUDGET_MS,
  formatFailure,
  formatStats,
  inProcessRuns,
  loadEngine,
  processRuns,
  processSpecialRuns,
  specialRuns,
  specials,
  type Failure,
  makeEvent,
} from "../scripts/fuzz.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_006) >>> 0;
const EVENTS = Number(process.env.FUZZ_EVENTS ?? 1_000);
// Each run starts node (~0.2 s of CPU on a small VM): 10 of them fit in the time the in-process events take.
// npm test keeps these small; .ci/run adds a long run with a new seed (npm run fuzz).
const PROCESS_RUNS = Number(process.env.FUZZ_PROCESS ?? 10);
const JOBS = Number(process.env.FUZZ_JOBS ?? Math.max(1, Math.min(2, os.availableParallelism() - 1)));

/** Asserts, when called, that no run of this kind failed since now (and shows the first 10 that did). */
function since(fz: Fuzzer, where: Failure["where"]): () => void {
  const n0 = fz.failCount[where];
  const i0 = fz.failures.length;
  return () => {
    const shown = fz.failures
      .slice(i0)
      .filter((f) => f.where === where)
      .slice(0, 10);
    const n = fz.failCount[where] - n0;
    const kinds = fz.summary(where); // over the whole run so far
    assert.equal(
      n,
      0,
      `\n${n} failing runs (seed ${SEED}); problems so far:\n${kinds}\nthe first ${shown.length}:\n\n${shown.map(formatFailure).join("\n\n")}`,
    );
  };
}

/**
 * hooks/runner/hook.ts bundled by esbuild (FUZZ_ENGINE=source: through tsx), loaded once for this file (the bundle
 * itself is built once per `npm test` run: scripts/fuzz.ts loadEngine); both tests below run events through it.
 */
let engineOnce: ReturnType<typeof loadEngine> | undefined;
const sharedEngine = () =>
  (engineOnce ??= loadEngine().then((e) => {
    process.on("exit", e.cleanup);
    return e;
  }));

test(`fuzz (seed ${SEED})`, { timeout: 900_000 }, async (t) => {
  assert.ok(fs.existsSync(HOOK_BUNDLE), `${HOOK_BUNDLE} is missing: run npm run build first`);
  const engine = await sharedEngine();
  const fz = new Fuzzer(SEED, engine.runHook);

  // The big ones first, each path alone: a multi-second event in-process would hold up a child's stdin.
  await t.test(
    `in-process: ${specials(SEED).filter((s) => !s.processOnly).length} big and deep events (1–10 MB strings, 10,000-level nesting, 10,000 nested $( …)`,
    async () => {
      const noFailures = since(fz, "in-process");
      await specialRuns(fz, SEED);
      noFailures();
    },
  );
  await t.test(`process: ${specials(SEED).filter((s) => s.process).length} big and deep events through node dist/hook.cjs`, async () => {
    const noFailures = since(fz, "process");
    await processSpecialRuns(fz, SEED, JOBS);
    noFailures();
  });

  // Then the sample through the real process, in child processes, while the generated events run here.
  const noProcFailures = since(fz, "process");
  const procStarted = performance.now();
  const proc = processRuns(fz, SEED, PROCESS_RUNS, JOBS).then(() => (fz.processStats.ms = performance.now() - procStarted));

  await t.test(`in-process: ${EVENTS} generated and mutated events`, async () => {
    const noFailures = since(fz, "in-process");
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const events0 = fz.stats.events;
    await inProcessRuns(fz, SEED, 0, EVENTS);
    fz.stats.ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    fz.stats.cpuMs = (cpu.user + cpu.system) / 1000;
    t.diagnostic(formatStats("in-process", fz.stats));
    assert.equal(fz.stats.events - events0, EVENTS);
    noFailures();
    assert.ok(fz.stats.maxMs < EVENT_BUDGET_MS, `slowest event ${fz.stats.maxMs.toFixed(0)} ms: ${fz.stats.maxAt}`);
    // The generators must reach every verdict, or they test little.
    for (const [outcome, n] of Object.entries(fz.stats.outcomes)) assert.ok(n > 0, `no event ended as ${outcome}`);
  });

  await t.test(`process: ${PROCESS_RUNS} generated events through node dist/hook.cjs (raw bytes, a third not UTF-8), ${JOBS} at a time`, async () => {
    await proc;
    t.diagnostic(formatStats("process", fz.processStats));
    noProcFailures();
    assert.ok(fz.processStats.outcomes.deny > 0 && fz.processStats.outcomes.notice > 0, "the process sample never denied or never noticed");
  });

  await t.test("nothing written outside the state folder; state files only for safe ids; no lock or temp file left", async () => {
    await proc;
    assert.deepEqual(fz.finish(), []);
  });
});

test("npm run fuzz: a new seed each run, printed, and --seed replays the same run", { timeout: 120_000 }, async () => {
  const run = (...args: string[]) => {
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", path.join(ROOT, "scripts", "fuzz.ts"), "--count", "150", "--process", "0", "--no-specials", ...args],
      { cwd: ROOT, encoding: "utf8", env: { ...process.env, FUZZ_SEED: "" } },
    );
    assert.equal(r.status, 0, r.stdout + r.stderr);
    return r.stdout;
  };
  const first = run();
  const seed = /seed (\d+) \(new each run; this one again: npm run fuzz -- --seed \1\)/.exec(first)?.[1];
  assert.ok(seed, first);
  const outcomes = (out: string) => /outcomes: .*/.exec(out)?.[0];
  const again = run("--seed", seed);
  assert.ok(outcomes(first));
  assert.equal(outcomes(again), outcomes(first));
  assert.doesNotMatch(again, /new each run/);
});

test("found by a long run (seed 1963240071): a state file broken while a shell call is held is put back, and the refusal of the next call says so", async () => {
  const engine = await sharedEngine();
  const fz = new Fuzzer(1963240071, engine.runHook, { save: false });
  const noFailures = since(fz, "in-process");
  // A Bash call that stays held (no PostToolUse), then garbage in the state file and a refused Edit of the session.
  for (const i of [14201, 14340]) {
    const ev = makeEvent(1963240071, i);
    await fz.inProcess({ ...ev, input: String(ev.input), index: i });
  }
  assert.match(fz.last.stdout, /skillgate\[effects-restore\]: .*state of this session/);
  noFailures();
  fz.finish();
});
