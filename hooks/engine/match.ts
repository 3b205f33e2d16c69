// Which rows does this event touch? Pure: no state, no I/O.
// The hook, `explain`, the case runner, the mutation tester and `measure`
// all come through here.
import type { Event, Hit } from "./types.js";
import type { CompiledRow, CompiledTable, TextMatcher } from "./table/compile.js";
import { toolFacts, type Facts } from "./facts.js";

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
  facts ??= toolFacts(event);
  const hits: Hit[] = [];
  for (const cr of table.rows) {
    if (!inScope(cr, event)) continue;
    const hit = matchRow(cr, event, facts!);
    if (hit) hits.push(hit);
  }
  return hits;
}

function inScope(cr: CompiledRow, event: Event): boolean {
  if (cr.scope === "all") return true;
  return (cr.scope === "subagent") === (event.agentId !== undefined);
}

function matchRow(cr: CompiledRow, event: Event, facts: Facts): Hit | undefined {
  const { row } = cr;
  switch (event.kind) {
    case "PreToolUse":
      return matchCommand(cr, facts) ?? matchWrites(cr, facts) ?? matchSubagent(cr, event);
    case "UserPromptSubmit":
      return matchText(cr.prompt, event.prompt, row, "prompt");
    case "Stop":
    case "SubagentStop":
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

function matchCommand(cr: CompiledRow, facts: Facts): Hit | undefined {
  const want = cr.row.when.command;
  const a = facts.analysis;
  if (!want || !a) return undefined;
  for (const c of a.commands) {
    if (c.name !== want.name) continue;
    if (want.sub) {
      if (c.verb < 0) continue;
      if (c.dynamic[c.verb]) return opaqueHit(cr, `the ${want.name} subcommand ${clip(c.argv[c.verb]!, 60)} is computed at run time`);
      if (!want.sub.includes(c.argv[c.verb]!)) continue;
    }
    if (want.args) {
      const rest = c.argv.slice(1);
      if (want.args.some((x) => hasArg(rest, x))) return { row: cr.row, detail: `runs ${clip(c.argv.join(" "))}` };
      if (c.dynamic.some((d) => d)) return opaqueHit(cr, `arguments of ${want.name} are computed at run time`);
      continue;
    }
    return { row: cr.row, detail: `runs ${clip(c.argv.slice(0, 4).join(" "))}` };
  }
  // A part we could not see through may be exactly this command.
  if (a.opaque.length > 0) return opaqueHit(cr, clip(a.opaque[0]!.reason));
  return undefined;
}

/** What we quote back to the model stays short (Claude Code cuts output strings at 10,000 characters). */
export function clip(s: string, max = 160): string {
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}

/** A literal argument; a one-letter option (`-f`) also inside a cluster (`-uf`). */
function hasArg(args: string[], want: string): boolean {
  if (args.includes(want)) return true;
  return /^-[A-Za-z]$/.test(want) && args.some((a) => /^-[A-Za-z]{2,}$/.test(a) && a.includes(want[1]!));
}

function opaqueHit(cr: CompiledRow, reason: string): Hit {
  return { row: cr.row, detail: reason, opaque: true };
}

function matchWrites(cr: CompiledRow, facts: Facts): Hit | undefined {
  if (!cr.writes) return undefined;
  const p = facts.writes.find((w) => cr.writes!(w));
  if (p !== undefined) return { row: cr.row, detail: `writes ${clip(p)}` };
  // A write whose target is only known at run time, in a command that names paths this row protects.
  const named = facts.mentions?.find((w) => cr.writes!(w));
  return named !== undefined ? opaqueHit(cr, `it writes paths known only at run time and names ${clip(named, 80)}`) : undefined;
}

function matchSubagent(cr: CompiledRow, event: Event): Hit | undefined {
  if (!cr.subagent || event.subagentType === undefined) return undefined;
  const t = event.subagentType;
  return cr.subagent.has(t) || cr.subagent.has(skillName(t)) ? { row: cr.row, detail: `calls subagent ${clip(t)}` } : undefined;
}
