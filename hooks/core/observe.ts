// The first stage of decide(): what the event changes in the session state
// whatever the policies then say — the context emptied by a compaction or a
// clear, skills loaded, tool calls counted. Pure.
import type { CompactionSignal, Event, SessionState } from "./types.js";
import type { CompiledTable } from "./table/compile.js";
import { bump } from "./counters.js";
import { checkLoads } from "./skills.js";
import { recordDigests } from "./skill-digests.js";
import { contextOf, ownAgent, withContext } from "./agent-context.js";
import type { Facts } from "./facts.js";
import path from "node:path";

export function observe(event: Event, table: CompiledTable, s: SessionState, facts?: Facts): SessionState {
  const lived = applyLoads(event, table, applyLifecycle(event, table, recordDigests(event, guardSettings(event, s))));
  return recordSubagentTask(event, recordSkillWrites(event, facts, countToolCall(event, lived)));
}

/**
 * A SKILL.md written in this session is the agent's text, not the skill: a
 * later whole read of it must not lift a gate (skills.ts checks this list).
 * Recorded when the write is attempted — refused or not, it cannot launder.
 */
function recordSkillWrites(event: Event, facts: Facts | undefined, s: SessionState): SessionState {
  if (event.kind !== "tool-call" || !facts) return s;
  const written = facts.writes.filter((w) => /(^|[/\\])SKILL\.md$/.test(w)).map((w) => path.resolve(event.cwd || "/", w));
  const dynamic = facts.mentions?.some((m) => /SKILL\.md$/.test(m));
  if (written.length === 0 && !dynamic) return s;
  // Kept session-wide: a file written in one context must not load in another either.
  const before = s.skillFilesWritten ?? [];
  const add = [...written, ...(dynamic ? ["*"] : [])].filter((w) => !before.includes(w));
  return add.length ? { ...s, skillFilesWritten: [...before, ...add].slice(-200) } : s;
}

/** The task a main-thread subagent call hands over: its words choose the subagent's hints when it starts. */
function recordSubagentTask(event: Event, s: SessionState): SessionState {
  if (event.kind === "subagent-start") {
    // Taken by the subagent that starts (the first pending call of its type).
    const pending = s.pendingSubagents ?? [];
    const i = pending.findIndex((p) => p.type === event.agentType);
    return i < 0 ? s : { ...s, pendingSubagents: pending.filter((_, j) => j !== i) };
  }
  if (event.kind !== "tool-call" || event.tool.kind !== "subagent" || event.agentId !== undefined || !event.tool.prompt) return s;
  const pending = [...(s.pendingSubagents ?? []), { type: event.tool.subagentType, prompt: event.tool.prompt.slice(0, 20_000) }].slice(-8);
  return { ...s, pendingSubagents: pending };
}

/**
 * Compaction and clear take the skill texts out of the context that was
 * compacted: forget them. Every compaction signal resets on its own (a host
 * may send only one of them); the signals of one compaction count it once:
 * a signal already seen since the last count starts a new compaction.
 */
function applyLifecycle(event: Event, table: CompiledTable, s: SessionState): SessionState {
  const signal = compactionSignal(event);
  const cleared = event.kind === "session-start" && event.source === "clear";
  if (!signal && !cleared) return s;
  const agent = ownAgent(event, table);
  let next = s;
  // Counted for the main thread only: a subagent's compaction leaves the session's count as it was.
  if (signal && event.agentId === undefined) {
    const seen = s.compactionSignals ?? [];
    const same = seen.length > 0 && !seen.includes(signal);
    next = { ...s, compactions: same ? s.compactions : s.compactions + 1, compactionSignals: same ? [...seen, signal] : [signal] };
  }
  const c = contextOf(next, agent);
  if (c.loaded.length === 0 && c.hintsShown.length === 0) return next;
  return withContext(next, agent, (x) => ({ ...x, loaded: [], hintsShown: [] }));
}

function compactionSignal(event: Event): CompactionSignal | undefined {
  if (event.kind === "compaction") return event.phase;
  return event.kind === "session-start" && event.source === "compact" ? "start" : undefined;
}

function applyLoads(event: Event, table: CompiledTable, s: SessionState): SessionState {
  const agent = ownAgent(event, table);
  const c = contextOf(s, agent);
  // Skill files written anywhere in the session (recorded session-wide) never load in any context.
  const written = { skillFilesWritten: [...(s.skillFilesWritten ?? []), ...(c.skillFilesWritten ?? [])] };
  const add = checkLoads(event, table, s, written).loaded.filter((n, i, all) => !c.loaded.includes(n) && all.indexOf(n) === i);
  return add.length ? withContext(s, agent, (x) => ({ ...x, loaded: [...x.loaded, ...add] })) : s;
}

function countToolCall(event: Event, s: SessionState): SessionState {
  if (event.kind !== "tool-result" && event.kind !== "tool-failure") return s;
  return { ...s, stats: { ...s.stats, toolCalls: bump(s.stats.toolCalls, event.tool.name) } };
}

/** At session start: remember which settings files register the hook (a later change removing it is refused). */
function guardSettings(event: Event, s: SessionState): SessionState {
  if (event.kind !== "session-start" || event.guardedSettings === undefined) return s;
  return { ...s, guardedSettings: event.guardedSettings };
}
