// Command rows and write rows: what a tool call runs and writes, from the
// shell analysis (facts). Owned with the shell analysis: a new bypass class
// usually changes both.
import type { Hit } from "./types.js";
import type { CompiledRow } from "./table/compile.js";
import type { Facts } from "./facts.js";
import { clip } from "./clip.js";

export function matchCommand(cr: CompiledRow, facts: Facts): Hit | undefined {
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

/** A literal argument; a one-letter option (`-f`) also inside a cluster (`-uf`). */
function hasArg(args: string[], want: string): boolean {
  if (args.includes(want)) return true;
  return /^-[A-Za-z]$/.test(want) && args.some((a) => /^-[A-Za-z]{2,}$/.test(a) && a.includes(want[1]!));
}

function opaqueHit(cr: CompiledRow, reason: string): Hit {
  return { row: cr.row, detail: reason, opaque: true };
}

export function matchWrites(cr: CompiledRow, facts: Facts): Hit | undefined {
  if (!cr.writes) return undefined;
  const p = facts.writes.find((w) => cr.writes!(w));
  if (p !== undefined) return { row: cr.row, detail: `writes ${clip(p)}` };
  // A write whose target is only known at run time, in a command that names paths this row protects.
  const named = facts.mentions?.find((w) => cr.writes!(w));
  return named !== undefined ? opaqueHit(cr, `it writes paths known only at run time and names ${clip(named, 80)}`) : undefined;
}

