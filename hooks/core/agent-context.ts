// Which context an event belongs to: the main thread's, or a subagent's own.
// When the host gives subagents the skill tool, each subagent starts with an
// empty context (the main thread's loads do not pass into it) and its loads
// stay in it; otherwise subagents share the main thread's view (and gates
// apply to them only when a row says so).
import type { AgentContext, Event, SessionState } from "./types.js";
import type { CompiledTable } from "./table/compile.js";

/** The agent whose own context this event reads and changes, or undefined for the main thread. */
export function ownAgent(event: Event, table: CompiledTable): string | undefined {
  return table.subagentsLoadSkills ? event.agentId : undefined;
}

export function contextOf(s: SessionState, agent: string | undefined): AgentContext {
  if (agent === undefined) return s;
  return (Object.hasOwn(s.agents ?? {}, agent) ? s.agents?.[agent] : undefined) ?? EMPTY;
}

const EMPTY: AgentContext = { loaded: [], hintsShown: [] };

export function withContext(s: SessionState, agent: string | undefined, change: (c: AgentContext) => AgentContext): SessionState {
  if (agent === undefined) {
    const c = change(s);
    return { ...s, loaded: c.loaded, hintsShown: c.hintsShown, ...optionalFields(c) };
  }
  return { ...s, agents: { ...(s.agents ?? {}), [agent]: change(contextOf(s, agent)) } };
}

/** A finished subagent's context is dropped (its state would only grow). */
export function dropAgent(s: SessionState, agent: string): SessionState {
  if (!s.agents || !Object.hasOwn(s.agents, agent)) return s;
  const { [agent]: _gone, ...rest } = s.agents;
  return { ...s, agents: rest };
}

function optionalFields(c: AgentContext): Partial<AgentContext> {
  return {
    ...(c.stopBlockedPrompt !== undefined ? { stopBlockedPrompt: c.stopBlockedPrompt } : {}),
    ...(c.skillFilesWritten !== undefined ? { skillFilesWritten: c.skillFilesWritten } : {}),
  };
}
