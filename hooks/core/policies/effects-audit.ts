// Belt and braces: static analysis has blind spots, so after a shell call the
// runner checks (cheaply, without a git process) whether a gated effect
// happened anyway — a new commit, a push, a write to a protected path. Such a
// finding is told to the model, so it loads the skill and reviews what it did,
// and counted as "missed by the analysis".
import type { AuditFinding, Row } from "../types.js";
import type { CompiledTable } from "../table/compile.js";
import { contextOf, ownAgent } from "../agent-context.js";
import { isLoaded } from "../skills.js";
import { clip } from "../clip.js";
import type { Policy, Reminder } from "./proposal.js";

export const EFFECTS_AUDIT_ROW = "effects-audit";

export const effectsAudit: Policy = ({ event, table, state }) => {
  if ((event.kind !== "tool-result" && event.kind !== "tool-failure") || !event.audit?.length) return undefined;
  const context = contextOf(state, ownAgent(event, table));
  const remind: Reminder[] = [];
  for (const f of event.audit) {
    for (const row of concerned(f, table)) {
      if (row.kind === "gate" && (row.skill === undefined || isLoaded(context, row.skill))) continue;
      remind.push({ row: EFFECTS_AUDIT_ROW, text: `skillgate[${EFFECTS_AUDIT_ROW}]: ${what(f)} happened in that command although rule ${row.id} governs it and skillgate did not see it coming. ${advice(row)}` });
      break;
    }
  }
  if (remind.length === 0) return undefined;
  const n = remind.length;
  return { remind, mark: (s) => ({ ...s, stats: { ...s.stats, missedByAnalysis: (s.stats.missedByAnalysis ?? 0) + n } }) };
};

/** Gate rows an effect falls under (a block's effect cannot be told from an allowed one after the fact). */
function concerned(f: AuditFinding, table: CompiledTable): Row[] {
  const sub = f.kind === "commit" ? "commit" : f.kind === "push" ? "push" : undefined;
  return table.rows
    .filter((cr) => {
      const r = cr.row;
      if (r.kind !== "gate") return false;
      if (sub) return r.kind === "gate" && r.when.command?.name === "git" && (r.when.command.sub ?? []).includes(sub);
      return f.kind === "write" && cr.writes !== undefined && cr.writes(f.path);
    })
    .map((cr) => cr.row);
}

function what(f: AuditFinding): string {
  if (f.kind === "commit") return `a commit (${clip(f.ref.replace(/^refs\/heads\//, ""), 60)}: "${clip(f.message, 80)}")`;
  if (f.kind === "push") return `a push (${clip(f.ref.replace(/^refs\/remotes\//, ""), 60)} moved)`;
  return `a write to ${clip(f.path, 120)}`;
}

function advice(row: Row): string {
  return row.kind === "gate" && row.skill !== undefined
    ? `Load skill "${row.skill}" now and review what the command did against it; from now on run such actions literally.`
    : "No skill lifts this rule: tell the user what happened so they can check it.";
}
