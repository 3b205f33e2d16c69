// The skills as the user installed them: when a session starts, the edge
// reads every SKILL.md the table's skills have in every trusted root and the
// session records their digests; at a load it reads the files that load
// names, and the load counts only while their text is the recorded one
// (skills.ts checkLoads). Pure: this file says which files to read and what
// to record; hooks/io/skill-digests.ts reads and hashes them. docs/loads.md.
import type { Event, SessionState, SkillFiles } from "./types.js";
import type { CompiledTable } from "./table/compile.js";
import { loadAttempts, skillFilesOf, skillsNamed } from "./skills.js";

/**
 * A new client process (startup, resume, fork) records the skills as they are
 * now; so does the first event of a session that has no record yet (the hook
 * installed mid-session, or SessionStart not registered). A compaction or a
 * clear keeps the session's record: the same client goes on.
 */
export function recordsAt(event: Event, state: SessionState): boolean {
  if (event.kind === "session-start" && (event.source === "startup" || event.source === "resume" || event.source === "fork")) return true;
  return state.skillDigests === undefined;
}

/** Which SKILL.md files the edge must read for this event (undefined: none, the usual case). */
export function skillFilesToRead(event: Event, table: CompiledTable, state: SessionState): { files: string[]; all: boolean } | undefined {
  const all = recordsAt(event, state);
  const attempts = loadAttempts(event, table);
  if (!all && attempts.length === 0) return undefined; // the ordinary event: nothing more is looked at
  const named = new Set(skillsNamed(table));
  const loads = attempts.filter((a) => named.has(a.skill)).flatMap((a) => a.files);
  if (!all && loads.length === 0) return undefined;
  const every = all ? [...named].flatMap((s) => skillFilesOf(table, s)) : [];
  return { files: [...new Set([...every, ...loads])], all };
}

/** The session's record, made from what the edge read when this event records (files not there are left out). */
export function recordDigests(event: Event, state: SessionState): SessionState {
  const seen: SkillFiles | undefined = event.skillFiles;
  if (!seen?.all || !recordsAt(event, state)) return state;
  const digests: Record<string, string> = {};
  // A file not there is left out; one that could not be read is kept as "?" (it never loads).
  for (const [file, d] of Object.entries(seen.digests)) if (d !== "") digests[file] = d;
  const stamps: Record<string, string> = {};
  for (const [file, st] of Object.entries(seen.stamps ?? {})) if (Object.hasOwn(digests, file)) stamps[file] = st;
  const before = state.skillDigests;
  if (before && sameRecord(before, digests) && sameRecord(state.skillStamps ?? {}, stamps)) return state;
  return { ...state, skillDigests: digests, skillStamps: stamps };
}

function sameRecord(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && b[k] === a[k]);
}
