// May this tool output be summarized, and if not, why (the reason is what stats count)?
// The policy's one call before summarize(); the order of the checks is the order of the reasons.
import { readOnlyCommands } from "./read-only.js";
import type { CommandWords } from "./command.js";
import { PROFILES, type Profile, type ProfileName } from "./profiles.js";

/** Why an output passed raw: short enough, audit profile, audit raised by risk, a writing or an unknown command. */
export type RawReason = "short" | "audit" | "risk" | "write" | "unknown";

export interface GateInput {
  /** Output length in characters. */
  chars: number;
  /** The session's chosen profile (table default or a `mode` row). */
  profile: ProfileName | Profile;
  /** A `risk` row fired in this session and the user has not switched back since: the session is audit. */
  risk: boolean;
  /** From the shell analysis: its commands, and how many writes and opaque parts it found. */
  commands: readonly CommandWords[];
  writes: number;
  opaque: number;
}

export function rawReason(g: GateInput): RawReason | undefined {
  const profile = typeof g.profile === "string" ? PROFILES[g.profile] : g.profile;
  if (g.risk) return "risk";
  if (profile.strategy === "raw") return "audit";
  if (g.chars <= profile.thresholdChars) return "short";
  // Opaque parts first: the analysis also lists them as "<dynamic>" writes.
  if (g.opaque > 0) return "unknown";
  if (g.writes > 0) return "write";
  const v = readOnlyCommands(g.commands);
  return v.readOnly ? undefined : (v.kind ?? "unknown");
}
