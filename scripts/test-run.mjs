// `npm test`'s runner. Two things `node --test` would do worse on two cores:
// - it sorts the files by name, so a slow file late in the alphabet (pack, restore, shell-*)
//   started last and kept one core busy alone at the end: run() keeps our order, slowest first;
// - it starts a process per file, ~0.3 s of CPU each (Node, tsx, the imports): the files that
//   need no process of their own run together in two shared processes.
// A file runs alone when it is listed in ALONE (slow, so it balances the workers) or when
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

// Longest first (seconds on two cores): pack (~15, most of it npm pack and install), then the ~10 s ones.
const ALONE = [
  "pack",
  "shell-analysis",
  "cases",
  "fuzz",
  "restore",
  "git-hooks",
  "mutation",
  "evidence-observed",
  "install",
  "init",
  "fingerprint",
  "report",
  "attacks-forgery-and-paths",
];
// Shared files that cost more than the ~2 s most take (seconds of CPU, measured alone): the two shared processes
// get equal shares of these, then of the rest. Dealt alternately by name, one process had them all (24 s vs 14 s).
const WEIGHT = { state: 9, "shell-prefilter": 8, cli: 6, "host-node-route": 5, "evidence-gate": 5, measure: 5, evidence: 4, "codex-adapter": 4 };
const changesProcess = /process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|process\.chdir|process\.exitCode|\bmock\./;

function plan() {
  const all = fs
    .readdirSync("test")
    .filter((f) => f.endsWith(".test.ts"))
    .sort();
  const alone = (f) => ALONE.includes(f.slice(0, -".test.ts".length)) || changesProcess.test(fs.readFileSync(path.join("test", f), "utf8"));
  const solo = all.filter(alone).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const shared = all.filter((f) => !alone(f));
  // Two shared processes, each a generated file that imports its share: the heaviest file first to the lighter one.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-test-run-"));
  const weight = (f) => WEIGHT[f.slice(0, -".test.ts".length)] ?? 2;
  const shares = [
    { files: [], sum: 0 },
    { files: [], sum: 0 },
  ];
  for (const f of [...shared].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const g = shares[0].sum <= shares[1].sum ? shares[0] : shares[1];
    g.files.push(f);
    g.sum += weight(f);
  }
  const groups = shares.map((g) => g.files.sort()).filter((g) => g.length > 0);
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

// The test processes, and all they start (~470 Node starts a run: hooks, git hooks, npm, the CLI), reach no
// network: pack.test.ts packs a local folder and installs the tarball with npm --offline, dependencies copied.
// Where the machine's environment sets NODE_EXTRA_CA_CERTS (a developer's VM here does, and so may CI's),
// each Node start reads and parses that CA file, ~35 ms of CPU: they start without it. (The runner has read
// it already; e2e/, which does reach a registry, is not run from here.)
delete process.env.NODE_EXTRA_CA_CERTS;

const files = process.argv.length > 2 ? process.argv.slice(2) : plan();
// One test process more than there are cores (three on two): a test process spends much of its time waiting on
// what it started (npm pack and install, real npm runs, git, Chromium, a background writer) with its core idle; the
// third keeps both busy. On two cores: 64.8 s with two at a time, 48.1 s with three, the CPU the same (~87 s).
const concurrency = Number(process.env.SKILLGATE_TEST_JOBS) || Math.min(3, os.availableParallelism() + 1);
const stream = run({ files, concurrency });
stream.on("test:fail", () => {
  process.exitCode = 1;
});
stream.compose(spec).pipe(process.stdout);
// The generated shared files are ours to remove; a run that is killed leaves them in the temp folder.
process.on("exit", () => {
  for (const f of files) if (path.isAbsolute(f) && f.includes("skillgate-test-run-")) fs.rmSync(path.dirname(f), { recursive: true, force: true });
});
