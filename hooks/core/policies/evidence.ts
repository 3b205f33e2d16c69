// Gate rows with `require: {evidence}`: a commit or a "done" is refused unless
// the check's latest record passed on the current tree. Freshness is data the
// runner computed before deciding (it fingerprints); this stays pure.
import type { EvidenceRow, Hit, Row } from "../types.js";
import { checkOfRow, evidenceRefusal } from "../evidence.js";
import { bump } from "../counters.js";
import { contextOf, ownAgent, withContext } from "../agent-context.js";
import type { Policy, Refusal } from "./proposal.js";

/** An evidence row as the check evidence.ts and evidence-run.ts speak of (`paths` is its fingerprint scope). */
export function checkOf(row: EvidenceRow): ReturnType<typeof checkOfRow> {
  return checkOfRow({
    id: row.id,
    when: row.when,
    scope: row.paths,
    ...(row.full ? { full: row.full } : {}),
    ...(row.reuse !== undefined ? { reuse: row.reuse } : {}),
  });
}

/** The evidence ids the matched gate rows require (what the runner must compute freshness for). */
export function requiredEvidence(hits: readonly Hit[]): string[] {
  return [...new Set(hits.flatMap((h) => (h.row.kind === "gate" && h.row.require ? [h.row.require.evidence] : [])))];
}

export const evidenceGate: Policy = ({ event, table, state, hits, facts }) => {
  if (event.kind !== "tool-call" && event.kind !== "stop") return undefined;
  const gated = hits.filter((h): h is Hit & { row: Extract<Row, { kind: "gate" }> } => h.row.kind === "gate" && h.row.require !== undefined);
  if (gated.length === 0) return undefined;
  const agent = ownAgent(event, table);
  // The same loop guard as skill gates: after our refusal of this turn's stop, the next one passes.
  if (event.kind === "stop" && event.continuing && (!event.promptId || contextOf(state, agent).stopBlockedPrompt === event.promptId)) return undefined;
  const refuse: Refusal[] = [];
  for (const h of gated) {
    const id = h.row.require?.evidence ?? "";
    const row = table.rows.map((r) => r.row).find((r): r is EvidenceRow => r.kind === "evidence" && r.id === id);
    const check = row ? checkOf(row) : { id, run: id };
    const action = event.kind === "stop" ? "This final answer" : `This call (${h.detail})`;
    const line = evidenceRefusal(h.row.id, check, facts?.evidence?.[id], action);
    if (line) refuse.push({ row: h.row.id, line: `${line}${h.row.why ? ` Why: ${h.row.why}` : ""}` });
  }
  if (refuse.length === 0) return undefined;
  return {
    refuse,
    mark: (s) => {
      let denials = s.denials;
      for (const r of refuse) denials = bump(denials, r.row);
      const counted = { ...s, denials };
      if (event.kind !== "stop") return counted;
      return withContext(counted, agent, (c) => (!event.promptId ? c : { ...c, stopBlockedPrompt: event.promptId }));
    },
  };
};
