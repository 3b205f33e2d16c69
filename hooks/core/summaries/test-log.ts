// Test logs: every failing test's name with its first assertion lines, plus the runner's summary line.
import { errorPicks, plural, type Confidence, type Pick, type Selection } from "./lines.js";
import { detectRunner, genericTests } from "./test-runners.js";
import type { Profile } from "./profiles.js";

/** Assertion lines per failure that are never dropped (the rest of the window fills the budget). */
const MUST_DETAIL = 2;

export function looksLikeTests(lines: readonly string[]): boolean {
  return detectRunner(lines) !== undefined;
}

export function summarizeTests(lines: readonly string[], profile: Profile): Selection {
  const parse = (detectRunner(lines) ?? genericTests)(lines, profile.windowLines);
  const picks: Pick[] = [...errorPicks(lines)];
  for (const f of parse.failures) {
    picks.push({ at: f.at, rank: 0 });
    f.detail.forEach((at, k) => picks.push({ at, rank: k < MUST_DETAIL ? 0 : 1 }));
  }
  for (const at of parse.names) picks.push({ at, rank: 0 });
  for (const at of parse.summary) picks.push({ at, rank: 0, pin: true });

  let confidence: Confidence = "high";
  let why: string | undefined;
  if (parse.summary.length === 0) {
    confidence = "medium";
    why = "no runner summary line (run cut short?)";
  }
  if (parse.announced !== undefined && parse.announced > 0 && parse.failures.length === 0) {
    confidence = "low";
    why = `the runner reports ${plural(parse.announced, "failure")} but none was found in the log`;
  }
  return {
    type: `test:${parse.runner}`,
    preface: [],
    picks,
    confidence,
    why,
    fallback: "read raw_evidence for full stack traces, passing tests or output printed by a test",
  };
}
