// Preloaded by `npm test` (--import): the test run gets one temp folder as TMPDIR, made by the
// runner and shared by the test files (they inherit it), and removed when the runner exits, so
// nothing a test, or a process it starts, makes under os.tmpdir() is left in the system's.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

if (!process.env.SKILLGATE_TEST_TMP) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-test-"));
  process.env.SKILLGATE_TEST_TMP = dir;
  process.env.TMPDIR = dir;
  process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
}
