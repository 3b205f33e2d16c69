// The test files for `npm test`, slowest first: with two workers, a slow file
// started last keeps one core idle while it finishes alone. Files not listed
// follow in name order, so a new file runs without being added here.
import fs from "node:fs";

const SLOWEST = ["pack", "fuzz", "git-hooks", "mutation", "shell-analysis", "evidence-observed", "cases", "restore", "install", "init"];
const all = fs
  .readdirSync("test")
  .filter((f) => f.endsWith(".test.ts"))
  .sort();
const rank = (f) => {
  const i = SLOWEST.indexOf(f.slice(0, -".test.ts".length));
  return i < 0 ? SLOWEST.length : i;
};
console.log(
  all
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((f) => `test/${f}`)
    .join(" "),
);
