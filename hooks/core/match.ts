// Which rows does this event touch? Pure: no state, no I/O.
// The hook, `explain`, the case runner, the mutation tester and `measure`
// all come through here.
import type { Event, Hit, ToolCall } from "./types.js";
import type { CompiledRow, CompiledTable, TextMatcher } from "./table/compile.js";
import { toolFacts, type Facts } from "./facts.js";
import { matchCommand, matchWrites } from "./match-shell.js";
import { clip } from "./clip.js";
export { clip };

/**
 * The bare name after a plugin prefix (`myplugin:executor` → `executor`): how a
 * subagent type is matched, and how `measure` tells a slash command that names a
 * skill from a built-in one. Which *skill* a load counts as is decided in decide.ts.
 */
export function skillName(name: string): string {
  const i = name.lastIndexOf(":");
  return i < 0 ? name : name.slice(i + 1);
}

/** Rows whose trigger matches, judgment rows included (they document; decide() ignores them). */
export function matchRows(event: Event, table: CompiledTable, facts?: Facts): Hit[] {
  // Bash events must come with their shell analysis (facts.ts / shell-facts.ts):
  // the parser is only loaded for them, and matching without it would miss rows.
  const f = facts ?? toolFacts(event);
  const hits: Hit[] = [];
  for (const cr of rowsFor(event.kind, table.rows)) {
    if (!inScope(cr, event, table)) continue;
    const hit = matchRow(cr, event, f);
    if (hit) hits.push(hit);
  }
  return hits;
}

type Kind = Event["kind"];

/**
 * The rows an event of each kind can match, in table order: a prompt never
 * tries a write row's globs, nor a tool call a row of words. `measure` matches
 * every event of months of transcripts. Kept per rows array (a session's table
 * copy in `measure` shares it), so the index is built once per table.
 */
const byKind = new WeakMap<readonly CompiledRow[], Map<Kind, CompiledRow[]>>();
const NONE: CompiledRow[] = [];

function rowsFor(kind: Kind, rows: readonly CompiledRow[]): readonly CompiledRow[] {
  let index = byKind.get(rows);
  if (!index) {
    const text = rows.filter((cr) => cr.prompt !== undefined);
    index = new Map<Kind, CompiledRow[]>([
      ["tool-call", rows.filter((cr) => cr.row.when.command !== undefined || cr.writes !== undefined || cr.subagent !== undefined)],
      ["prompt", text],
      ["subagent-start", text],
      ["stop", rows.filter((cr) => cr.final !== undefined)],
    ]);
    byKind.set(rows, index);
  }
  // Other kinds match no row (matchRow below).
  return index.get(kind) ?? NONE;
}

/**
 * A row's scope; without one, block rows apply everywhere, and skill rows in
 * subagents too when the host gives subagents the skill tool (else only in
 * the main thread, where the skill can be loaded).
 */
function inScope(cr: CompiledRow, event: Event, table: CompiledTable): boolean {
  const scope = cr.row.scope ?? (cr.row.kind === "block" || table.subagentsLoadSkills ? "all" : "main");
  if (scope === "all") return true;
  return (scope === "subagent") === (event.agentId !== undefined);
}

// Which kinds reach which fields is mirrored in rowsFor above: change both together.
function matchRow(cr: CompiledRow, event: Event, facts: Facts): Hit | undefined {
  const { row } = cr;
  switch (event.kind) {
    case "tool-call":
      return matchCommand(cr, facts) ?? matchWrites(cr, facts) ?? matchSubagent(cr, event.tool);
    case "prompt":
      return matchText(cr.prompt, event.prompt, row, "prompt");
    case "subagent-start":
      return matchText(cr.prompt, event.task, row, "task");
    case "stop":
      return matchText(cr.final, event.finalMessage, row, "final answer");
    default:
      return undefined;
  }
}

function matchText(find: TextMatcher | undefined, text: string | undefined, row: CompiledRow["row"], what: string): Hit | undefined {
  if (!find || text === undefined) return undefined;
  const m = find(text);
  return m !== undefined ? { row, detail: `${what} contains "${clip(m)}"` } : undefined;
}

function matchSubagent(cr: CompiledRow, tool: ToolCall): Hit | undefined {
  if (!cr.subagent || tool.kind !== "subagent") return undefined;
  const t = tool.subagentType;
  return cr.subagent.has(t) || cr.subagent.has(skillName(t)) ? { row: cr.row, detail: `calls subagent ${clip(t)}` } : undefined;
}
