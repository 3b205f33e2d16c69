// The whole policy in one pure function: (event, table, state) → (decision, new state).
// No I/O here; hooks/engine/hook.ts does the reading and writing around it.
import path from "node:path";
import type { Decision, Event, Hit, SessionState } from "./types.js";
import { budgetReminders, capFor, compactionReminders, countToolCall } from "./guard.js";
import type { CompiledTable } from "./table/compile.js";
import { matchRows, skillName } from "./match.js";
import type { Facts } from "./facts.js";

export interface Outcome {
  decision: Decision;
  state: SessionState;
  /** Every row whose trigger matched, judgment rows and satisfied gates included (for traces and `explain`). */
  matched: string[];
}

const ALLOW: Decision = { verdict: "allow", rows: [] };

export function decide(event: Event, table: CompiledTable, before: SessionState, facts?: Facts): Outcome {
  let state = applyLifecycle(event, before);
  state = applyLoads(event, state);
  state = countToolCall(event, state);
  const hits = matchRows(event, table, facts);
  const result = withGuard(event, table, respond(event, table, state, hits));
  return { ...result, matched: hits.map((h) => h.row.id) };
}

/** Session guard rows add to the answer: an output cap, budget and compaction reminders. */
function withGuard(event: Event, table: CompiledTable, r: Omit<Outcome, "matched">): Omit<Outcome, "matched"> {
  if (r.decision.verdict === "deny" || r.decision.verdict === "block") return r;
  const budget = event.kind === "UserPromptSubmit" || event.kind === "PostToolUse" ? budgetReminders(event, table, r.state) : { state: r.state, reminders: [] };
  const compaction = compactionReminders(event, table, budget.state);
  const reminders = [...budget.reminders, ...compaction.reminders];
  const cap = capFor(event, table);
  if (reminders.length === 0 && !cap) return { ...r, state: compaction.state };
  const d = r.decision;
  const message = [d.message, ...reminders.map((x) => x.text)].filter(Boolean).join("\n");
  const rows = [...d.rows, ...reminders.map((x) => x.row), ...(cap ? [cap.row.id] : [])];
  const decision: Decision = { ...d, verdict: cap ? "cap" : "hint", rows, message };
  if (cap) decision.cap = { row: cap.row.id, headChars: cap.headChars };
  return { decision, state: compaction.state };
}

function respond(event: Event, table: CompiledTable, state: SessionState, hits: Hit[]): Omit<Outcome, "matched"> {
  switch (event.kind) {
    case "PreToolUse":
    case "Stop":
    case "SubagentStop": {
      const refusals = hits.filter((h) => h.row.kind === "block" || (h.row.kind === "gate" && !isLoaded(state, h.row.skill!)));
      // Claude Code sets stop_hook_active when the turn goes on because of our
      // block: letting that second stop through is what prevents a loop.
      if (refusals.length > 0 && !(event.kind !== "PreToolUse" && event.stopHookActive)) {
        return refuse(event, table, state, refusals);
      }
      return event.kind === "PreToolUse" ? hint(table, state, hits) : { decision: ALLOW, state };
    }
    case "UserPromptSubmit":
      return hint(table, state, hits);
    default:
      return { decision: ALLOW, state };
  }
}

/** Compaction and /clear take the skill texts out of the context: forget them. */
function applyLifecycle(event: Event, s: SessionState): SessionState {
  const compacted = event.kind === "PreCompact" || (event.kind === "SessionStart" && event.source === "compact");
  const cleared = event.kind === "SessionStart" && event.source === "clear";
  if (!compacted && !cleared) return s;
  const compactions = event.kind === "SessionStart" && event.source === "compact" ? s.compactions + 1 : s.compactions;
  if (s.loaded.length === 0 && s.hintsShown.length === 0 && compactions === s.compactions) return s;
  return { ...s, loaded: [], hintsShown: [], compactions };
}

function applyLoads(event: Event, s: SessionState): SessionState {
  // A subagent's Skill call loads the skill into the subagent, not the main context.
  if (!event.loads?.length || event.agentId !== undefined) return s;
  const add = event.loads.map(skillName).filter((n) => !s.loaded.includes(n));
  return add.length ? { ...s, loaded: [...s.loaded, ...add] } : s;
}

export function isLoaded(s: SessionState, skill: string): boolean {
  return s.loaded.includes(skillName(skill));
}

function refuse(event: Event, table: CompiledTable, s: SessionState, hits: Hit[]): Omit<Outcome, "matched"> {
  const denials = { ...s.denials };
  for (const h of hits) denials[h.row.id] = (denials[h.row.id] ?? 0) + 1;
  const rows = hits.map((h) => h.row.id);
  const lines = hits.map((h) => refusalLine(table, h));
  const message = `skillgate[${rows.join(",")}]: ${lines.join(" ")}`;
  return { decision: { verdict: event.kind === "PreToolUse" ? "deny" : "block", rows, message }, state: { ...s, denials } };
}

function refusalLine(table: CompiledTable, h: Hit): string {
  const why = h.row.why ? ` Why: ${h.row.why}` : "";
  if (h.row.kind === "block") {
    return h.opaque
      ? `This command cannot be checked (${h.detail}); write the command literally, without eval, variables or strings built from pieces.${why}`
      : `Refused by rule ${h.row.id} (${h.detail}); no skill lifts this rule.${why}`;
  }
  const load = howToLoad(table, h.row.skill!);
  return h.opaque
    ? `This command cannot be checked (${h.detail}): write the command literally, or ${load} first.${why}`
    : `Load skill "${h.row.skill}" first (${h.detail}): ${load}, then retry.${why}`;
}

export function howToLoad(table: CompiledTable, skill: string): string {
  const name = table.pluginNamespace ? `${table.pluginNamespace}:${skill}` : skill;
  return `call the Skill tool with skill "${name}" (or Read ${path.join(table.skillsDir, skill, "SKILL.md")} in full)`;
}

/** Hints: one line per skill, once per session, not for a skill already loaded. */
function hint(table: CompiledTable, s: SessionState, hits: Hit[]): Omit<Outcome, "matched"> {
  const fresh = hits.filter((h) => h.row.kind === "hint" && !s.hintsShown.includes(h.row.id) && !isLoaded(s, h.row.skill!));
  if (fresh.length === 0) return { decision: ALLOW, state: s };
  const rows = fresh.map((h) => h.row.id);
  const message = fresh
    .map((h) => `skillgate[${h.row.id}]: load skill "${h.row.skill}" (${h.detail}): ${howToLoad(table, h.row.skill!)}.${h.row.why ? ` ${h.row.why}` : ""}`)
    .join("\n");
  return { decision: { verdict: "hint", rows, message }, state: { ...s, hintsShown: [...s.hintsShown, ...rows] } };
}
