// Budget profiles: `mode` rows switch the session's profile on the
// user's words (said once, as a hint); `risk` rows make the session audit once
// it writes or runs something high-risk (or a command the analysis could not
// read changed a risky file: event.restored), until a mode row fires again.
import type { ModeRow, SessionState, Table } from "../types.js";
import { DEFAULT_PROFILE, PROFILES, type ProfileName } from "../summaries/profiles.js";
import type { Policy } from "./proposal.js";

/** The profile outputs are summarized under now: risk overrides the chosen one. */
export function sessionProfile(s: SessionState, table: Pick<Table, "budgetProfile">): { profile: ProfileName; chosen: ProfileName; risk?: string } {
  const chosen = s.profile ?? table.budgetProfile ?? DEFAULT_PROFILE;
  if (s.riskRow !== undefined) return { profile: "audit", chosen, risk: s.riskRow };
  return { profile: chosen, chosen };
}

const WHAT: Record<ProfileName, string> = {
  fast: "long read-only outputs come as short summaries with a raw pointer",
  balanced: "long read-only outputs come as typed summaries with key windows",
  precision: "little compression, more raw text around what matters",
  audit: "no output is summarized",
};

export const budgetProfile: Policy = ({ event, table, state, hits }) => {
  // A risky file changed by a command the analysis could not read (the restore saw it): audit, as for a seen write.
  const changedRisk = event.restored?.flatMap((f) => f.rows).find((id) => table.rows.some((cr) => cr.row.id === id && cr.row.kind === "risk"));
  const fromEffects = changedRisk !== undefined && state.riskRow === undefined ? { mark: (s: SessionState) => ({ ...s, riskRow: changedRisk }) } : undefined;
  // Only the user's prompt picks a profile; a risky write raises it from any thread (audit is the safe side).
  if (event.kind === "prompt") {
    const mode = hits.map((h) => h.row).find((r): r is ModeRow => r.kind === "mode");
    if (!mode) return fromEffects;
    const { profile, risk } = sessionProfile(state, table.table);
    if (profile === mode.profile && !risk) return undefined;
    const threshold = PROFILES[mode.profile].thresholdChars;
    const size = Number.isFinite(threshold) ? ` over ${threshold.toLocaleString("en-US")} characters` : "";
    return {
      remind: [
        {
          row: mode.id,
          text: `skillgate[${mode.id}]: budget profile for this session is now ${mode.profile}${risk ? ` (was audit after ${risk})` : ""}: ${WHAT[mode.profile]}${size}.${mode.why ? ` ${mode.why}` : ""}`,
        },
      ],
      mark: (s) => ({ ...withoutRisk(s), profile: mode.profile }),
    };
  }
  if (event.kind === "tool-call") {
    // A write known only at run time that names a risky path counts too: audit is the safe side.
    const risk = hits.find((h) => h.row.kind === "risk");
    if (!risk || state.riskRow !== undefined) return fromEffects;
    return { mark: (s) => ({ ...s, riskRow: risk.row.id }) };
  }
  return fromEffects;
};

function withoutRisk(s: SessionState): SessionState {
  const { riskRow: _gone, ...rest } = s;
  return rest;
}
