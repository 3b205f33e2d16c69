// Which skills an event puts into the context, and how the model loads one.
// Pure: where skills live (roots, plugin namespace) is data in the compiled
// table, folded in once from the host's environment (hooks/runner/context.ts).
import path from "node:path";
import type { AgentContext, Event, SessionState } from "./types.js";
import type { CompiledTable } from "./table/compile.js";

export function isLoaded(s: SessionState | AgentContext, skill: string): boolean {
  return s.loaded.includes(skill);
}

/**
 * The skills this event puts into its context, under the names rows use.
 * A subagent's loads count only where subagents have the skill tool, and
 * then only for that subagent (agent-context.ts). `skillgate:commit` (our own plugin
 * name) is `commit`; another plugin's `other:commit` is a different skill.
 * A SKILL.md counts only from a known skills folder: a copy the model wrote
 * to /tmp does not lift a gate.
 */
export function loadsOf(event: Event, table: CompiledTable, state?: { skillFilesWritten?: string[] }): string[] {
  if (event.agentId !== undefined && !table.subagentsLoadSkills) return [];
  if (event.kind === "prompt-expansion") return event.loads.map((n) => ownSkillName(n, table));
  if (event.kind !== "tool-result") return [];
  const names = event.loads.map((n) => ownSkillName(n, table));
  const file = skillFileRead(event);
  if (file !== undefined) {
    const abs = path.resolve(event.cwd || "/", file);
    const skillDir = path.dirname(abs);
    const forged = state?.skillFilesWritten?.some((w) => w === abs || w === "*") ?? false;
    if (!forged && table.skillRoots.some((r) => path.dirname(skillDir) === path.resolve(r))) names.push(path.basename(skillDir));
  }
  return names;
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
