// summarize(): a long read-only tool output → a typed summary headed by the evidence header.
// Pure: the caller stores the raw output at rawPath before calling, and decides whether the
// command only reads (readOnlyCommands) and which profile the session is in.
import { classify, type OutputType } from "./classify.js";
import type { CommandHint } from "./command.js";
import { summarizeFallback } from "./fallback.js";
import { summarizeDiff } from "./git-diff.js";
import { summarizeLog } from "./git-log.js";
import { summarizeGrep } from "./grep.js";
import { evidenceHeader } from "./header.js";
import { toLines, type Confidence, type Selection } from "./lines.js";
import { summarizeListing } from "./listing.js";
import { summarizeLogs } from "./logs.js";
import { HARD_MAX_CHARS, PROFILES, type Profile, type ProfileName } from "./profiles.js";
import { render } from "./render.js";
import { summarizeTests } from "./test-log.js";

export interface SummarizeOptions {
  /** A profile name, or a profile with the table's own numbers. */
  profile: ProfileName | Profile;
  /** The program that made the output (see commandHint). */
  command?: CommandHint;
  /** Where the caller keeps the whole output; named in the header. */
  rawPath: string;
}

export interface Summary {
  /** What the model sees: the summary, or the output itself when it passes untouched. */
  text: string;
  /** "test:jest", "diff", ..., "unknown" (head + tail), or "raw" when nothing was summarized. */
  type: string;
  confidence: Confidence;
  /** Characters of `text` (what stays in context). */
  keptChars: number;
  /** Characters kept out of context (output length − keptChars; 0 when passed raw). */
  savedChars: number;
  /** Why the output passed raw: the profile summarizes nothing (audit), or it is short enough. */
  raw?: "audit" | "short";
}

export function summarize(output: string, opts: SummarizeOptions): Summary {
  const profile = typeof opts.profile === "string" ? PROFILES[opts.profile] : opts.profile;
  // A bad profile from a hand-edited state file must say so, not crash deep inside a summary.
  if (!profile || typeof profile.thresholdChars !== "number")
    throw new Error(`summarize: unknown budget profile ${JSON.stringify(opts.profile)} (expected ${Object.keys(PROFILES).join(", ")})`);
  if (profile.strategy === "raw") return passRaw(output, "audit");
  if (output.length <= profile.thresholdChars) return passRaw(output, "short");

  const lines = toLines(output);
  const type = classify(lines, opts.command);
  const target = Math.min(profile.summaryChars, Math.floor(output.length * profile.maxShare));
  // The header comes off the target first (a "why" note may add a little to it).
  const draft = { type: "", profile, rawPath: opts.rawPath, rawChars: output.length, rawLines: lines.length, confidence: "medium" as const, fallback: "" };
  const headerRoom = evidenceHeader(draft).length + 160;
  const budget = Math.max(0, target - headerRoom);
  const sel = select(type, lines, profile, budget);
  const body = render(lines, sel, { budget, hardMax: HARD_MAX_CHARS - headerRoom, lineChars: profile.lineChars });

  let confidence = sel.confidence;
  let why = sel.why;
  if (body.cut > 0) {
    confidence = "low";
    why = `${body.cut} failure/error lines did not fit`;
  } else if (body.omittedKey > 0 && confidence === "high") {
    confidence = "medium";
    why = `${body.omittedKey} context lines left out for the ${profile.name} budget`;
  }
  const header = evidenceHeader({
    type: sel.type,
    profile,
    rawPath: opts.rawPath,
    rawChars: output.length,
    rawLines: lines.length,
    confidence,
    why,
    fallback: sel.fallback,
  });
  const text = `${header}\n${body.body}`;
  // A summary that does not save anything is worse than the output itself.
  if (text.length >= output.length) return passRaw(output, "short");
  return { text, type: sel.type, confidence, keptChars: text.length, savedChars: output.length - text.length };
}

function select(type: OutputType, lines: readonly string[], profile: Profile, budget: number): Selection {
  switch (type) {
    case "test":
      return summarizeTests(lines, profile);
    case "diff":
      return summarizeDiff(lines, profile);
    case "git-log":
      return summarizeLog(lines, profile);
    case "grep":
      return summarizeGrep(lines, profile);
    case "log":
      return summarizeLogs(lines, profile);
    case "listing":
      return summarizeListing(lines, profile);
    case "unknown":
      return summarizeFallback(lines, budget);
  }
}

function passRaw(output: string, raw: "audit" | "short"): Summary {
  return { text: output, type: "raw", confidence: "high", keptChars: output.length, savedChars: 0, raw };
}

export { PROFILES, DEFAULT_PROFILE, PROFILE_NAMES, isProfileName, type ProfileName, type Profile } from "./profiles.js";
export { commandHint, type CommandHint, type CommandWords } from "./command.js";
export { readOnlyCommands, type ReadOnlyVerdict } from "./read-only.js";
export { rawReason, type RawReason, type GateInput } from "./gate.js";
export { classify, type OutputType } from "./classify.js";
