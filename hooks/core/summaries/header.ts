// The evidence header that heads every summary, in two short lines:
// what was summarized and where the raw text is, then when to read that raw text instead.
import type { Confidence } from "./lines.js";
import type { Profile } from "./profiles.js";

export interface HeaderFacts {
  type: string;
  profile: Profile;
  rawPath: string;
  rawChars: number;
  rawLines: number;
  confidence: Confidence;
  why?: string;
  fallback: string;
}

export function evidenceHeader(h: HeaderFacts): string {
  const size = `${h.rawChars.toLocaleString("en-US")} chars, ${h.rawLines.toLocaleString("en-US")} lines`;
  const first = `[skillgate summary: ${h.type} · read_tier ${h.profile.readTier} · budget_profile ${h.profile.name} · confidence ${h.confidence} · raw_evidence ${h.rawPath} (${size})]`;
  const second =
    h.confidence === "low"
      ? `[fallback_condition: confidence is low (${h.why ?? "summary incomplete"}): read raw_evidence before you conclude anything from this output]`
      : `[fallback_condition: ${h.fallback}${h.why ? `; note: ${h.why}` : ""}; a high-risk change needs the raw text, not this summary]`;
  return `${first}\n${second}`;
}
