// The whole policy in one pure function: (event, table, state) → (decision, new state).
// No I/O here; hooks/runner/hook.ts does the reading and writing around it.
import path from "node:path";
import type { Decision, Event, Hit, SessionState } from "./types.js";
import { budgetReminders, bump, capFor, compactionReminders, countToolCall } from "./guard.js";
import type { CompiledTable } from "./table/compile.js";
import { matchRows } from "./match.js";
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
  state = applyLoads(event, table, state);
  state = countToolCall(event, state);
  const hits = matchRows(event, table, facts);
  const result = withGuard(event, table, respond(event, table, state, hits));
  return { ...result, matched: hits.map((h) => h.row.id) };
}

/** Session guard rows add to the answer: an output cap, budget and compaction reminders. */
function withGuard(event: Event, table: CompiledTable, r: Omit<Outcome, "matched">): Omit<Outcome, "matched"> {
  if (r.decision.verdict === "deny" || r.decision.verdict === "block") return r;
  const budget = budgetReminders(event, table, r.state);
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
      // Claude Code sets stop_hook_active when the turn goes on because of a
      // block — maybe another hook's. Letting the stop through only after *we*
      // blocked in this turn prevents a loop without letting others open our gate.
      const weBlockedThisTurn = event.stopHookActive && (event.promptId === undefined || state.stopBlockedPrompt === event.promptId);
      if (refusals.length > 0 && !(event.kind !== "PreToolUse" && weBlockedThisTurn)) {
        const r = refuse(event, table, state, refusals);
        return event.kind === "PreToolUse" ? r : { ...r, state: { ...r.state, stopBlockedPrompt: event.promptId } };
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

function applyLoads(event: Event, table: CompiledTable, s: SessionState): SessionState {
  const add = loadsOf(event, table).filter((n) => !s.loaded.includes(n));
  return add.length ? { ...s, loaded: [...s.loaded, ...add] } : s;
}

/**
 * The skills this event puts into the main context, under the names rows use.
 * A subagent's loads stay in the subagent. `skillgate:commit` (our own plugin
 * name) is `commit`; another plugin's `other:commit` is a different skill.
 * A SKILL.md counts only from a known skills folder: a copy the model wrote
 * to /tmp does not lift a gate.
 */
export function loadsOf(event: Event, table: CompiledTable): string[] {
  if (event.agentId !== undefined) return [];
  const names = (event.loads ?? []).map((n) => ownSkillName(n, table));
  const file = event.skillFileRead;
  if (file) {
    const roots = [...table.skillRoots, ...(event.cwd ? [path.join(event.cwd, ".claude", "skills")] : [])];
    const skillDir = path.dirname(path.resolve(event.cwd || "/", file));
    if (roots.some((r) => path.dirname(skillDir) === path.resolve(r))) names.push(path.basename(skillDir));
  }
  return names;
}

function ownSkillName(name: string, table: CompiledTable): string {
  const i = name.indexOf(":");
  if (i < 0) return name;
  const ns = name.slice(0, i);
  return ns === "skillgate" || ns === table.pluginNamespace ? name.slice(i + 1) : name;
}

export function isLoaded(s: SessionState, skill: string): boolean {
  return s.loaded.includes(skill);
}

function refuse(event: Event, table: CompiledTable, s: SessionState, hits: Hit[]): Omit<Outcome, "matched"> {
  let denials = s.denials;
  for (const h of hits) denials = bump(denials, h.row.id);
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
