// Output type from the program that made it and the output's own shape. The program proposes,
// the shape confirms: `git diff --stat` is not a diff, `npm test` may run any runner.
import type { CommandHint } from "./command.js";
import { looksLikeDiff } from "./git-diff.js";
import { looksLikeLog } from "./git-log.js";
import { looksLikeGrep } from "./grep.js";
import { looksLikeListing } from "./listing.js";
import { looksLikeLogs } from "./logs.js";
import { looksLikeTests } from "./test-log.js";

export type OutputType = "test" | "diff" | "git-log" | "grep" | "log" | "listing" | "unknown";

const TEST_PROGRAMS = new Set(["jest", "vitest", "mocha", "ava", "tap", "pytest", "py.test", "nose2", "rspec", "phpunit", "ctest", "playwright", "cypress"]);
const TEST_SUBS = new Set(["test", "t", "nextest", "pytest", "unittest", "tests", "check"]);
const LOG_PROGRAMS = new Set(["journalctl", "dmesg", "tail", "logcat"]);
const LISTING_PROGRAMS = new Set(["ls", "find", "tree", "fd", "fdfind", "du", "exa", "eza"]);
const GREP_PROGRAMS = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep"]);

/** What the program says its output is, before looking at it. */
export function expectedType(command?: CommandHint): Exclude<OutputType, "unknown"> | undefined {
  if (!command) return undefined;
  const { name, sub } = command;
  if (TEST_PROGRAMS.has(name)) return "test";
  if (name === "git") {
    if (sub === "diff" || sub === "show" || sub === "format-patch") return "diff";
    if (sub === "log" || sub === "shortlog" || sub === "reflog") return "git-log";
    if (sub === "grep") return "grep";
    if (sub === "ls-files" || sub === "ls-tree") return "listing";
    return undefined;
  }
  if (
    sub !== undefined &&
    TEST_SUBS.has(sub) &&
    ["npm", "pnpm", "yarn", "bun", "node", "deno", "go", "cargo", "python", "python3", "make", "mvn", "gradle", "dotnet", "mix", "swift", "zig"].includes(name)
  )
    return "test";
  if (sub !== undefined && TEST_SUBS.has(sub) && /^python\d/.test(name)) return "test";
  if (LOG_PROGRAMS.has(name) || (sub === "logs" && ["docker", "podman", "kubectl", "oc", "docker-compose", "compose", "heroku", "fly"].includes(name)))
    return "log";
  if (LISTING_PROGRAMS.has(name)) return "listing";
  if (GREP_PROGRAMS.has(name)) return "grep";
  return undefined;
}

const CONFIRM: Record<Exclude<OutputType, "unknown">, (lines: readonly string[]) => boolean> = {
  test: looksLikeTests,
  diff: looksLikeDiff,
  "git-log": looksLikeLog,
  grep: looksLikeGrep,
  log: looksLikeLogs,
  listing: looksLikeListing,
};

// Without a usable hint: the most specific shapes first.
const ORDER: readonly Exclude<OutputType, "unknown">[] = ["test", "diff", "git-log", "log", "listing", "grep"];

export function classify(lines: readonly string[], command?: CommandHint): OutputType {
  const expected = expectedType(command);
  // Any runner, any log: the typed module copes with shapes it does not know.
  if (expected === "test") return "test";
  if (expected && CONFIRM[expected](lines)) return expected;
  // `tail -n 200 test.log` may hold anything: a known shape first, else it is a log.
  return ORDER.find((t) => CONFIRM[t](lines)) ?? (expected === "log" ? "log" : "unknown");
}
