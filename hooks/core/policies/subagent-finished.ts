// A subagent that stops (and is let stop) is finished: its context is
// dropped, so the state does not grow with every subagent of a long session.
import { dropAgent } from "../agent-context.js";
import type { Policy } from "./proposal.js";

export const subagentFinished: Policy = ({ event, table }) => {
  const agent = event.agentId;
  if (event.kind !== "stop" || agent === undefined || !table.subagentsLoadSkills) return undefined;
  // Applied only if no refusal wins the merge: a refused subagent goes on with its context.
  return { mark: (s) => dropAgent(s, agent) };
};
