// measure's text for the hosts besides Claude Code: per host, where it
// looked, what it read, and per row with a skill the same columns as Claude
// Code's main sessions (sessions with an occasion, skill loaded before the
// first, loaded at any time, occasions).
import type { HostMeasure, OtherHost } from "./run.js";

export function renderHosts(hosts: Partial<Record<OtherHost, HostMeasure>>): string {
  const out: string[] = [];
  for (const [name, m] of Object.entries(hosts) as [OtherHost, HostMeasure][]) {
    if (m.files === 0 && !m.warnings.length) {
      out.push("", `${name}: no sessions in ${m.where}`);
      continue;
    }
    out.push(
      "",
      `${name}: ${m.sessions} sessions from ${m.files} files in ${m.where}; ${m.requests} requests, ${m.toolCalls} tool calls, ${m.compactions} compactions`,
    );
    const fired = m.rows.filter((r) => r.occasions > 0);
    if (!fired.length) out.push("  no row had an occasion");
    const w = Math.max("total (rows with a skill)".length, ...fired.map((r) => r.id.length));
    if (fired.length) out.push(`  ${"row".padEnd(w)}  sessions  before 1st  any time  occasions`);
    for (const r of fired) {
      const skill = r.skill !== undefined;
      out.push(
        `  ${r.id.padEnd(w)}  ${String(r.sessions).padStart(8)}  ${(skill ? String(r.loadedBefore) : "—").padStart(10)}  ${(skill ? String(r.loadedAny) : "—").padStart(8)}  ${String(r.occasions).padStart(9)}`,
      );
    }
    const t = m.totals;
    if (fired.length)
      out.push(
        `  ${"total (rows with a skill)".padEnd(w)}  ${String(t.sessions).padStart(8)}  ${String(t.loadedBefore).padStart(10)}  ${String(t.loadedAny).padStart(8)}`,
      );
    const l = m.leftOut;
    const left = [
      l.outsideWindow && `${l.outsideWindow} files outside the window`,
      l.malformedLines && `${l.malformedLines} malformed lines`,
      l.rejectedEvents && `${l.rejectedEvents} events the adapter refused`,
      l.subagentSessions && `${l.subagentSessions} subagent sessions`,
    ].filter(Boolean);
    if (left.length) out.push(`  left out: ${left.join(", ")}`);
    for (const x of m.warnings) out.push(`  warning: ${x}`);
  }
  return out.join("\n");
}
