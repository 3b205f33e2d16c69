// Belt and braces: static analysis has blind spots, so after a shell call the
// runner checks (cheaply, without a git process) whether a gated effect
// happened anyway — a new commit, a push, a write to a protected path. Such a
// finding is told to the model, so it loads the skill and reviews what it did,
// and counted as "missed by the analysis". Guarded files a command changed
// unseen were already put back by the runner (runner/restore.ts, folded into
// event.restored at any event): the model and the user are told which file
// and which skill.
import type { AuditFinding, RestoreFinding, Row } from "../types.js";
import type { CompiledTable } from "../table/compile.js";
import { contextOf, ownAgent } from "../agent-context.js";
import { isLoaded } from "../skills.js";
import { clip } from "../clip.js";
import type { Policy, PolicyInput, Reminder } from "./proposal.js";

export const EFFECTS_AUDIT_ROW = "effects-audit";
/** Guarded files a command changed unseen, put back by the runner (runner/restore.ts): this policy words it. */
export const EFFECTS_RESTORE_ROW = "effects-restore";

export const effectsAudit: Policy = (input) => {
  const audit = auditReminders(input);
  const restored = restoreReminders(input);
  const remind = [...restored, ...audit];
  if (remind.length === 0) return undefined;
  const n = remind.length;
  return { remind, mark: (s) => ({ ...s, stats: { ...s.stats, missedByAnalysis: (s.stats.missedByAnalysis ?? 0) + n } }) };
};

/** Lines shown per event; the rest are counted in one more line. */
const MAX_LINES = 8;
const HOW = "the user changes these by hand or with `skillgate` verbs; no skill lifts this";

function restoreReminders({ event, table }: PolicyInput): Reminder[] {
  const told = (event.restored ?? []).filter((f) => f.outcome !== "left");
  const lines: Reminder[] = told
    .slice(0, MAX_LINES)
    .map((f) => ({ row: EFFECTS_RESTORE_ROW, text: `skillgate[${EFFECTS_RESTORE_ROW}]: ${restoreLine(f, table)}`, evenWhenRefused: true }));
  if (told.length > MAX_LINES)
    lines.push({
      row: EFFECTS_RESTORE_ROW,
      text: `skillgate[${EFFECTS_RESTORE_ROW}]: …and ${told.length - MAX_LINES} more guarded files the same way.`,
      evenWhenRefused: true,
    });
  return lines;
}

function restoreLine(f: RestoreFinding, table: CompiledTable): string {
  const who = f.late ? "work an earlier shell command left running" : "that shell command";
  const verb = f.change === "created" ? "created" : f.change === "deleted" ? "deleted" : "changed";
  const did =
    f.outcome === "failed"
      ? `skillgate could not put it back (${clip(f.why ?? "unknown error", 120)}): tell the user`
      : f.outcome === "removed"
        ? "skillgate removed it"
        : f.outcome === "recreated"
          ? "skillgate recreated it as it was"
          : "skillgate put it back as it was";
  const kept = f.keptAt ? ` (the version found is kept at ${clip(f.keptAt, 160)})` : "";
  const file = clip(f.path, 160);
  if (f.protects) return `${who} ${verb} ${file}, ${f.protects}; ${did}${kept}. ${HOW}.`;
  const rows = f.rows.map((id) => table.rows.find((cr) => cr.row.id === id)?.row).filter((r): r is Row => r !== undefined && r.kind !== "risk");
  const gate = rows.find((r) => r.kind === "gate" && r.skill !== undefined);
  if (gate?.skill)
    return `${who} ${verb} ${file}, which rule ${gate.id} keeps for skill "${gate.skill}" (not loaded); ${did}${kept}. Load skill "${gate.skill}" first, then make the change with a command skillgate can read or with the file tools.`;
  return `${who} ${verb} ${file}, which rule ${rows[0]?.id ?? f.rows[0] ?? "?"} does not allow; ${did}${kept}. No skill lifts this rule: tell the user if the change is needed.`;
}

function auditReminders({ event, table, state }: PolicyInput): Reminder[] {
  if ((event.kind !== "tool-result" && event.kind !== "tool-failure") || !event.audit?.length) return [];
  const remind: Reminder[] = [];
  for (const f of event.audit) {
    const row = unallowedRow(f, event, table, state);
    if (!row) continue;
    const back = f.kind === "commit" ? takenBack(f) : "";
    remind.push({
      row: EFFECTS_AUDIT_ROW,
      text: `skillgate[${EFFECTS_AUDIT_ROW}]: ${what(f)} happened in that command although rule ${row.id} governs it and skillgate did not see it coming.${back} ${advice(row)}`,
    });
  }
  return remind;
}

/**
 * The first rule an effect found after a call breaks: a gate whose skill is not loaded in the caller's
 * context, or a block. The runner asks it too, before it takes a commit back (runner/audit.ts).
 */
export function unallowedRow(f: AuditFinding, event: PolicyInput["event"], table: CompiledTable, state: PolicyInput["state"]): Row | undefined {
  const context = contextOf(state, ownAgent(event, table));
  return concerned(f, table).find((row) => !(row.kind === "gate" && (row.skill === undefined || isLoaded(context, row.skill))));
}

function takenBack(f: Extract<AuditFinding, { kind: "commit" }>): string {
  const branch = clip(f.ref.replace(/^refs\/heads\//, ""), 60);
  if (!f.takenBack) return "";
  if (!f.takenBack.done) return ` skillgate could not move ${branch} back (${clip(f.takenBack.why, 120)}): tell the user.`;
  return ` git's own hooks did not run for it, so skillgate moved ${branch} back to ${f.from?.slice(0, 12)}: the commit ${f.to?.slice(0, 12)} stays in the reflog and its changes stay in the index.`;
}

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
