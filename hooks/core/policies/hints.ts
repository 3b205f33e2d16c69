// Hint rows: one line "load skill X" when the user's words (or a tool call)
// touch it, once per context, not for a skill already loaded.
import type { Hit, SkillRow } from "../types.js";
import { howToLoad, isLoaded } from "../skills.js";
import { contextOf, ownAgent, withContext } from "../agent-context.js";
import type { Policy } from "./proposal.js";

export const hints: Policy = ({ event, table, state, hits }) => {
  if (event.kind !== "prompt" && event.kind !== "tool-call" && event.kind !== "subagent-start") return undefined;
  const agent = ownAgent(event, table);
  const context = contextOf(state, agent);
  const fresh = hits.filter(
    (h): h is Hit & { row: SkillRow } => h.row.kind === "hint" && !context.hintsShown.includes(h.row.id) && !isLoaded(context, h.row.skill),
  );
  if (fresh.length === 0) return undefined;
  const rows = fresh.map((h) => h.row.id);
  return {
    remind: fresh.map((h) => ({
      row: h.row.id,
      text: `skillgate[${h.row.id}]: load skill "${h.row.skill}" (${h.detail}): ${howToLoad(table, h.row.skill)}.${h.row.why ? ` ${h.row.why}` : ""}`,
    })),
    mark: (s) => withContext(s, agent, (c) => ({ ...c, hintsShown: [...c.hintsShown, ...rows] })),
  };
};
