// Budget profiles: how hard a read-only output is squeezed.
// Data only: the policy picks the session's profile, summarize() reads these numbers.

export type ProfileName = "fast" | "balanced" | "precision" | "audit";
export const PROFILE_NAMES: readonly ProfileName[] = ["fast", "balanced", "precision", "audit"];
export const DEFAULT_PROFILE: ProfileName = "balanced";

/** Seed read tiers: L1 summary + raw pointer, L2 local raw windows, L3 full raw text. */
export type ReadTier = "L1" | "L2" | "L3";

export interface Profile {
  name: ProfileName;
  readTier: ReadTier;
  /** aggressive: summary + raw pointer; typed: typed summary + key windows; windows: little compression; raw: none. */
  strategy: "aggressive" | "typed" | "windows" | "raw";
  /** Outputs up to this many characters pass untouched. */
  thresholdChars: number;
  /** Most characters a summary aims for (failure and error lines are kept even past it). */
  summaryChars: number;
  /** ...and at most this share of the output, so a summary always pays for itself. */
  maxShare: number;
  /** Lines kept under each failure, around each error, per file of a grep. */
  windowLines: number;
  /** Commits, files, folders, entries listed by name before "N more". */
  items: number;
  /** Longer lines are cut (minified code in a grep hit, a JSON blob in a log). */
  lineChars: number;
}

export const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  fast: {
    name: "fast",
    readTier: "L1",
    strategy: "aggressive",
    thresholdChars: 4_000,
    summaryChars: 1_200,
    maxShare: 0.1,
    windowLines: 2,
    items: 5,
    lineChars: 160,
  },
  balanced: {
    name: "balanced",
    readTier: "L1",
    strategy: "typed",
    thresholdChars: 10_000,
    summaryChars: 2_000,
    maxShare: 0.2,
    windowLines: 4,
    items: 10,
    lineChars: 240,
  },
  precision: {
    name: "precision",
    readTier: "L2",
    strategy: "windows",
    thresholdChars: 20_000,
    summaryChars: 6_000,
    maxShare: 0.4,
    windowLines: 12,
    items: 30,
    lineChars: 400,
  },
  // audit: conclusions rest on the raw text, so nothing is summarized (seed: "only dedup/sort").
  audit: {
    name: "audit",
    readTier: "L3",
    strategy: "raw",
    thresholdChars: Number.POSITIVE_INFINITY,
    summaryChars: Number.POSITIVE_INFINITY,
    maxShare: 1,
    windowLines: 0,
    items: 0,
    lineChars: Number.POSITIVE_INFINITY,
  },
};

/**
 * Claude Code cuts a hook's replacement output at 10,000 characters: past this a summary would be
 * cut blindly, so the renderer stops here itself and says so.
 */
export const HARD_MAX_CHARS = 9_000;
/** Failure and error lines are cut at this length at most (a test name is never this long). */
export const MUST_LINE_CHARS = 500;

export function isProfileName(s: string): s is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(s);
}
