// Where one hook run's time goes, stage by stage, inside the runtime that runs
// it. Bundled by `npm run bench` the way the hook is bundled for that runtime
// (Bun: bytecode CJS; Node: ESM), then run as its own process with the event
// on stdin; prints one JSON line of milliseconds:
//   start   runtime start until this file's first line (performance.now())
//   load    loading the hook's modules (one dynamic import, as the hook's own chunks)
//   read    stdin
//   parse   JSON.parse + the host adapter's normalize
//   facts   shell facts: the pre-filter's phase 1, or the parser when it declines
//   table   loadContext: the cached validated table, write globs if the call writes, host environment;
//           then the pre-filter's phase 2 (the parser after all when a row names a word of the command)
//   skip    1 when the pre-filter skipped the parser, 0 when it did not (not a time)
//   state   reading the session state
//   decide  decide(), pure
//   save    saving the state (under the lock), when the decision changed it
//   answer  rendering + writing the answer to stdout
// Stages mirror hooks/runner/hook.ts runEvent() for the common path (no cap, no session start).
const t0 = performance.now();
const mark: Record<string, number> = { start: t0 };
let last = t0;
const lap = (name: string) => {
  const now = performance.now();
  mark[name] = now - last;
  last = now;
};

// No top-level await: Bun's bytecode build is CJS.
async function main(): Promise<void> {
  const { stages } = await import("./bench-split-stages.js");
  lap("load");
  const s = stages();
  const text = s.readStdin();
  lap("read");
  const event = s.parse(text);
  lap("parse");
  const before = await s.facts(event);
  lap("facts");
  const { ctx, facts, skipped } = await s.context(event, before);
  lap("table");
  const current = s.readState(ctx, event);
  lap("state");
  const outcome = s.decide(event, ctx, current, facts);
  lap("decide");
  s.saveState(event, ctx, current, outcome, facts);
  lap("save");
  s.answer(event, ctx, outcome);
  lap("answer");
  process.stderr.write(`skillgate-split ${JSON.stringify({ ...mark, skip: skipped ? 1 : 0 })}\n`);
}
void main();
