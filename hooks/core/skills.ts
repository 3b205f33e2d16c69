// Which skills an event puts into the context, and how the model loads one.
// Pure: where skills live (roots, plugin namespace) is data in the compiled
// table, folded in once from the host's environment (hooks/runner/context.ts);
// the digests of their files are read at the edge (skill-digests.ts says which).
import path from "node:path";
import type { AgentContext, Event, SessionState } from "./types.js";
import type { CompiledTable } from "./table/compile.js";

export function isLoaded(s: SessionState | AgentContext, skill: string): boolean {
  return s.loaded.includes(skill);
}

/** One load an event attempts: the skill as rows name it, and the SKILL.md files whose text decides it. */
export interface LoadAttempt {
  skill: string;
  files: string[];
  /** `read`: a whole read of that one file; `name`: the client loaded the skill by its name (from one of the files). */
  by: "name" | "read";
}

/** Why a load of a skill the table names did not count. */
export interface RefusedLoad {
  skill: string;
  file: string;
  why: "changed" | "created" | "missing" | "text" | "unread";
}

/**
 * The loads this event attempts. A subagent's loads count only where
 * subagents have the skill tool, and then only for that subagent
 * (agent-context.ts). `skillgate:commit` (our own plugin name) is `commit`;
 * another plugin's `other:commit` is a different skill. A SKILL.md counts only
 * from a trusted skills folder, and not when a tool call of this session wrote
 * it: a copy the model wrote to /tmp does not lift a gate.
 */
export function loadAttempts(event: Event, table: CompiledTable, state?: { skillFilesWritten?: string[] }): LoadAttempt[] {
  if (event.agentId !== undefined && !table.subagentsLoadSkills) return [];
  if (event.kind !== "prompt-expansion" && event.kind !== "tool-result") return [];
  const out: LoadAttempt[] = event.loads.map((n) => {
    const skill = ownSkillName(n, table);
    return { skill, files: skillFilesOf(table, skill), by: "name" as const };
  });
  const file = event.kind === "tool-result" ? skillFileRead(event) : undefined;
  if (file !== undefined) {
    const abs = path.resolve(event.cwd || "/", file);
    const skillDir = path.dirname(abs);
    const forged = state?.skillFilesWritten?.some((w) => w === abs || w === "*") ?? false;
    if (!forged && table.skillRoots.some((r) => path.dirname(skillDir) === path.resolve(r)))
      out.push({ skill: path.basename(skillDir), files: [abs], by: "read" });
  }
  return out;
}

/**
 * Which attempted loads count. A skill no row names gates nothing and loads as
 * the client says. One the table names counts only while the text the client
 * loaded is the text installed when the session started (state.skillDigests):
 * for a whole read, that file (and the text the read returned, when the host
 * gives it); for a load by name, every trusted root's copy present now (the
 * client picks one; none may have changed or appeared). Before anything is
 * recorded (a host path that reads no digests) the check is not made.
 */
export function checkLoads(
  event: Event,
  table: CompiledTable,
  state: SessionState,
  written?: { skillFilesWritten?: string[] },
): { loaded: string[]; refused: RefusedLoad[] } {
  const loaded: string[] = [];
  const refused: RefusedLoad[] = [];
  for (const a of loadAttempts(event, table, written)) {
    const r = state.skillDigests === undefined || !namedByTable(table, a.skill) ? undefined : verify(a, event, state.skillDigests);
    if (r) refused.push(r);
    else loaded.push(a.skill);
  }
  return { loaded, refused };
}

/** The names the event loads (no digest check): for replaying transcripts, where no file can be read. */
export function loadsOf(event: Event, table: CompiledTable, state?: { skillFilesWritten?: string[] }): string[] {
  return loadAttempts(event, table, state).map((a) => a.skill);
}

function verify(a: LoadAttempt, event: Event, recorded: Record<string, string>): RefusedLoad | undefined {
  const first = a.files[0] ?? a.skill;
  const seen = event.skillFiles?.digests;
  // "?": the edge found the file but could not read it (not a regular file, too large).
  const unread = a.files.find((f) => !seen || !Object.hasOwn(seen, f) || seen[f] === "?");
  if (!seen || unread !== undefined) return { skill: a.skill, file: unread ?? first, why: "unread" };
  const present = a.files.filter((f) => seen[f] !== "");
  if (present.length === 0) return { skill: a.skill, file: first, why: "missing" };
  for (const f of present) {
    const was = Object.hasOwn(recorded, f) ? recorded[f] : undefined;
    if (was === undefined) return { skill: a.skill, file: f, why: "created" };
    if (was !== seen[f]) return { skill: a.skill, file: f, why: "changed" };
    if (a.by === "read" && event.kind === "tool-result" && event.readDigest !== undefined && event.readDigest !== was)
      return { skill: a.skill, file: f, why: "text" };
  }
  return undefined;
}

/** The skill's SKILL.md in every trusted root, present or not. */
export function skillFilesOf(table: CompiledTable, skill: string): string[] {
  return table.skillRoots.map((r) => path.join(path.resolve(r), skill, "SKILL.md"));
}

/** The skills the table's rows name (only their loads lift anything). */
export function skillsNamed(table: CompiledTable): string[] {
  return [...new Set(table.rows.flatMap(({ row }) => (row.skill ? [row.skill] : [])))];
}

function namedByTable(table: CompiledTable, skill: string): boolean {
  return table.rows.some(({ row }) => row.skill === skill);
}

/** A whole read of some `…/<name>/SKILL.md`. */
function skillFileRead(event: Extract<Event, { kind: "tool-result" }>): string | undefined {
  const t = event.tool;
  return t.kind === "read" && t.whole && t.path !== undefined && /(^|[/\\])SKILL\.md$/.test(t.path) ? t.path : undefined;
}

function ownSkillName(name: string, table: CompiledTable): string {
  const i = name.indexOf(":");
  if (i < 0) return name;
  const ns = name.slice(0, i);
  return ns === "skillgate" || ns === table.pluginNamespace ? name.slice(i + 1) : name;
}

/** The load instruction refusals and hints quote: worded by the host (its tool names), else host-neutral. */
export function howToLoad(table: CompiledTable, skill: string): string {
  const file = path.join(table.skillsDir, skill, "SKILL.md");
  const name = table.pluginNamespace ? `${table.pluginNamespace}:${skill}` : skill;
  return table.loadWording ? table.loadWording(name, file) : `load skill "${name}" with your skill tool (or read ${file} in full)`;
}
