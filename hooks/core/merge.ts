// One rule combines the policies' proposals: refuse > cap > remind > allow.
// Messages are joined one row per line, in policy order (rows in table order
// within a policy); only the surviving proposals' state changes are applied.
import type { Decision, Event, SessionState } from "./types.js";
import type { Proposal } from "./policies/proposal.js";

export function merge(event: Event, proposals: Proposal[], state: SessionState): { decision: Decision; state: SessionState } {
  const refusing = proposals.filter((p) => p.refuse?.length);
  if (refusing.length > 0) {
    const refusals = refusing.flatMap((p) => p.refuse ?? []);
    // What already happened (a guarded file put back) is told with the refusal, not dropped by it.
    const telling = proposals.filter((p) => !p.refuse?.length && p.remind?.some((r) => r.evenWhenRefused));
    const facts = telling.flatMap((p) => (p.remind ?? []).filter((r) => r.evenWhenRefused));
    const decision: Decision = {
      // A refused tool call is denied; a refused stop or settings change is blocked.
      verdict: event.kind === "tool-call" ? "deny" : "block",
      rows: [...refusals.map((r) => r.row), ...facts.map((r) => r.row)],
      message: [...refusals.map((r) => r.line), ...facts.map((r) => r.text)].join("\n"),
    };
    return { decision, state: applyMarks([...refusing, ...telling], state) };
  }
  const reminders = proposals.flatMap((p) => p.remind ?? []);
  const cap = proposals.find((p) => p.cap)?.cap;
  const rows = [...reminders.map((r) => r.row), ...(cap ? [cap.row] : [])];
  const message = reminders.map((r) => r.text).join("\n");
  const decision: Decision = cap
    ? { verdict: "cap", rows, cap, ...(message ? { message } : {}) }
    : message
      ? { verdict: "hint", rows, message }
      : { verdict: "allow", rows: [] };
  return { decision, state: applyMarks(proposals, state) };
}

function applyMarks(proposals: Proposal[], s: SessionState): SessionState {
  return proposals.reduce((acc, p) => (p.mark ? p.mark(acc) : acc), s);
}
