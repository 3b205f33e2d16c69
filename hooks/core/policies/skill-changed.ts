// A load of a skill the table names whose text is not the one installed when
// the session started (skills.ts checkLoads) did not count: the model and the
// user are told which file and which skill, and that a new session accepts
// the file as it is then (docs/loads.md).
import type { RefusedLoad } from "../skills.js";
import { checkLoads } from "../skills.js";
import { contextOf, ownAgent } from "../agent-context.js";
import type { Policy } from "./proposal.js";

/** Built in (no table row): the runner also shows its lines to the user. */
export const SKILL_CHANGED_ROW = "skill-changed";

export const skillChanged: Policy = ({ event, table, state }) => {
  if (event.kind !== "tool-result" && event.kind !== "prompt-expansion") return undefined;
  const c = contextOf(state, ownAgent(event, table));
  const written = { skillFilesWritten: [...(state.skillFilesWritten ?? []), ...(c.skillFilesWritten ?? [])] };
  const { refused } = checkLoads(event, table, state, written);
  if (refused.length === 0) return undefined;
  return { remind: refused.map((r) => ({ row: SKILL_CHANGED_ROW, text: `skillgate[${SKILL_CHANGED_ROW}]: ${line(r)}` })) };
};

function line(r: RefusedLoad): string {
  const what = {
    changed: `${r.file} changed since this session started`,
    created: `${r.file} was not there when this session started`,
    missing: `no trusted skill folder holds its SKILL.md (looked for ${r.file} and the other roots)`,
    text: `the text this read returned is not ${r.file} as it was when this session started`,
    unread: `${r.file} could not be read to compare it with the skill as installed`,
  }[r.why];
  const after =
    r.why === "missing" || r.why === "unread" ? "" : " The user can put the file back, or start a new session, which takes the skill as it is then.";
  return `skill "${r.skill}" was not loaded: ${what}, so it is not the skill the user installed.${after}`;
}
