// Preloaded by `npm test` (--import): the test run gets one temp folder as TMPDIR, made by the
// runner and shared by the test files (they inherit it), and removed when the runner exits, so
// nothing a test, or a process it starts, makes under os.tmpdir() is left in the system's.
//
// The runner keeps the system's TMPDIR in its own environment and passes the folder as
// SKILLGATE_TEST_TMP; each test process, which loads this after tsx, makes it its TMPDIR. So tsx
// (loaded first) keeps its transform cache where it always does (<system tmp>/tsx-<uid>, keyed by
// each file's content), warm from one run to the next, instead of compiling every source file
// again in a new empty folder on every run: ~0.4 s of CPU per test process.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

if (!process.env.SKILLGATE_TEST_TMP) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-test-"));
  process.env.SKILLGATE_TEST_TMP = dir;
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  // The runner itself (the first to load this) leaves TMPDIR to its test processes, below.
  if (!process.argv[1]?.endsWith(path.join("scripts", "test-run.mjs"))) process.env.TMPDIR = dir;
} else {
  process.env.TMPDIR = process.env.SKILLGATE_TEST_TMP;
}
// The hook servers the tests' hook processes start (hooks/hook-server.cjs) listen in the run's folder, not the
// user's: each run has its own, and they exit when the folder is removed.
if (process.env.TMPDIR === process.env.SKILLGATE_TEST_TMP) process.env.XDG_RUNTIME_DIR = process.env.TMPDIR;
