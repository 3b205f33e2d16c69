// `npm test`'s runner. Two things `node --test` would do worse on two cores:
// - it sorts the files by name, so a slow file late in the alphabet (pack, restore, shell-*)
//   started last and kept one core busy alone at the end: run() keeps our order, slowest first;
// - it starts a process per file, ~0.3 s of CPU each (Node, tsx, the imports): the files that
//   need no process of their own run together in two shared processes.
// A file runs alone when it is listed in ALONE (slow, so it balances the two workers) or when
// it changes process-wide state (the environment, the working folder, the exit code); a new file
// that does neither joins a shared process without being added here. Arguments: files to run
// (each alone) instead of all. Run with the --import flags of package.json's "test": the test
// processes inherit them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { run } from "node:test";
import { spec } from "node:test/reporters";
import { pathToFileURL } from "node:url";

const ALONE = [
  "pack",
  "fuzz",
  "git-hooks",
  "mutation",
  "evidence-observed",
  "shell-analysis",
  "cases",
  "restore",
  "init",
  "install",
  "fingerprint",
  "attacks-forgery-and-paths",
  "report",
];
const changesProcess = /process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|process\.chdir|process\.exitCode|\bmock\./;

function plan() {
  const all = fs
    .readdirSync("test")
    .filter((f) => f.endsWith(".test.ts"))
    .sort();
  const alone = (f) => ALONE.includes(f.slice(0, -".test.ts".length)) || changesProcess.test(fs.readFileSync(path.join("test", f), "utf8"));
  const solo = all.filter(alone).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const shared = all.filter((f) => !alone(f));
  // Two shared processes, the files dealt alternately, each a generated file that imports its share.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-test-run-"));
  const groups = [0, 1].map((g) => shared.filter((_, i) => i % 2 === g)).filter((g) => g.length > 0);
  const grouped = groups.map((g, i) => {
    const file = path.join(dir, `shared-${i + 1}.test.mjs`);
    fs.writeFileSync(file, g.map((f) => `import ${JSON.stringify(pathToFileURL(path.resolve("test", f)).href)};\n`).join(""));
    return file;
  });
  // The shared processes go right after the two slowest files.
  return [...solo.slice(0, 2), ...grouped, ...solo.slice(2).map((f) => `test/${f}`)].map((f) =>
    f.startsWith("test/") || path.isAbsolute(f) ? f : `test/${f}`,
  );
}
function rank(f) {
  const i = ALONE.indexOf(f.slice(0, -".test.ts".length));
  return i < 0 ? ALONE.length : i;
}

const files = process.argv.length > 2 ? process.argv.slice(2) : plan();
const concurrency = Number(process.env.SKILLGATE_TEST_JOBS) || Math.max(1, Math.min(2, os.availableParallelism()));
const stream = run({ files, concurrency });
stream.on("test:fail", () => {
  process.exitCode = 1;
});
stream.compose(spec).pipe(process.stdout);
// The generated shared files are ours to remove; a run that is killed leaves them in the temp folder.
process.on("exit", () => {
  for (const f of files) if (path.isAbsolute(f) && f.includes("skillgate-test-run-")) fs.rmSync(path.dirname(f), { recursive: true, force: true });
});
