// The first stage of decide(): what the event changes in the session state
// whatever the policies then say — the context emptied by a compaction or a
// clear, skills loaded, tool calls counted. Pure.
import type { Event, SessionState } from "./types.js";
import type { CompiledTable } from "./table/compile.js";
import { bump } from "./counters.js";
import { loadsOf } from "./skills.js";

export function observe(event: Event, table: CompiledTable, s: SessionState): SessionState {
  return countToolCall(event, applyLoads(event, table, applyLifecycle(event, s)));
}

/** Compaction and clear take the skill texts out of the context: forget them. */
function applyLifecycle(event: Event, s: SessionState): SessionState {
  const compactStart = event.kind === "session-start" && event.source === "compact";
  const emptied = (event.kind === "compaction" && event.phase === "before") || compactStart || (event.kind === "session-start" && event.source === "clear");
  if (!emptied) return s;
  // Counted once per compaction: at the session start it causes, not again at its other events.
  const compactions = compactStart ? s.compactions + 1 : s.compactions;
  if (s.loaded.length === 0 && s.hintsShown.length === 0 && compactions === s.compactions) return s;
  return { ...s, loaded: [], hintsShown: [], compactions };
}

function applyLoads(event: Event, table: CompiledTable, s: SessionState): SessionState {
  const add = loadsOf(event, table).filter((n) => !s.loaded.includes(n));
  return add.length ? { ...s, loaded: [...s.loaded, ...add] } : s;
}

function countToolCall(event: Event, s: SessionState): SessionState {
  if (event.kind !== "tool-result" && event.kind !== "tool-failure") return s;
  return { ...s, stats: { ...s.stats, toolCalls: bump(s.stats.toolCalls, event.tool.name) } };
}
