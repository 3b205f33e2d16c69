// `skillgate explain -- '<command>'`: the hook's own analysis and decision for
// a Bash command, as a PreToolUse in the main thread. How users debug a gate.
import { quote } from "shell-quote";
import { colours, EXIT, parseArgs, UsageError } from "./args.js";
import { tableHeader, tableInUse, tableJson } from "./table-file.js";
import type { CompiledTable } from "../hooks/core/table/compile.js";
import { decide } from "../hooks/core/decide.js";
import { factsOf } from "../hooks/core/shell-facts.js";
import type { ShellWorld } from "../hooks/core/shell/world.js";
import { shellWorld } from "../hooks/io/shell-files.js";
import { emptyState, type Event } from "../hooks/core/types.js";

export function explainCommand(command: string, table: CompiledTable, loaded: string[] = [], world?: ShellWorld) {
  const event: Event = { kind: "tool-call", sessionId: "explain", cwd: process.cwd(), tool: { kind: "shell", name: "Bash", command } };
  const facts = factsOf(event, world);
  const a = facts.analysis!;
  const outcome = decide(event, table, { ...emptyState(), loaded }, facts);
  const byId = new Map(table.rows.map((r) => [r.row.id, r.row]));
  return {
    command,
    commands: a.commands.map((c) => ({ argv: c.argv, shell: quote(c.argv), via: c.via, dynamic: c.dynamic.some(Boolean) })),
    writes: a.writes.map((w) => ({ path: w.dynamic ? "<dynamic>" : w.path, by: w.by })),
    reads: a.reads.map((r) => ({ path: r.dynamic ? "<dynamic>" : r.path, by: r.by })),
    opaque: a.opaque,
    // The typed model: parse status, every command with its words (provenance, spans), redirections as records.
    model: { status: a.status, commands: a.commands, redirects: a.redirects },
    matched: outcome.matched.map((id) => ({ id, kind: byId.get(id)!.kind, skill: byId.get(id)!.skill })),
    decision: outcome.decision,
  };
}

export async function explainMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("explain", args);
  const command = f.rest.join(" ");
  const { file, table } = await tableInUse(f.get("table"), root);
  // A typo in --loaded would explain a deny that the real load lifts: name the skills the table knows.
  const known = [...new Set(table.rows.flatMap((cr) => (cr.row.skill ? [cr.row.skill] : [])))];
  for (const s of f.get("loaded") ?? []) {
    const bare = s.includes(":") ? s.slice(s.lastIndexOf(":") + 1) : s;
    if (!known.includes(bare)) throw new UsageError(`--loaded ${s}: no row of ${file} names skill "${s}" (skills: ${known.join(", ") || "none"})`);
  }
  const r = explainCommand(command, table, f.get("loaded"), shellWorld(process.cwd(), process.env));
  // Exit 1 when the hook would refuse it: scripts can ask "would this run?".
  const code = r.decision.verdict === "deny" || r.decision.verdict === "block" ? EXIT.findings : EXIT.ok;
  if (f.has("json")) {
    console.log(JSON.stringify({ table: tableJson(file, table.rows.length), ...r }, null, 2));
    return code;
  }
  const c = colours();
  console.log(tableHeader(file, table.rows.length));
  console.log(`command: ${command}`);
  for (const x of r.commands)
    console.log(`  runs   ${x.shell}${x.via.length ? `   (via ${x.via.join(" > ")})` : ""}${x.dynamic ? "   [has run-time values]" : ""}`);
  for (const w of r.writes) console.log(`  writes ${w.path}   (by ${w.by})`);
  for (const x of r.reads) console.log(`  reads  ${x.path}   (by ${x.by})`);
  for (const o of r.opaque) console.log(`  ${c.yellow("OPAQUE")} ${o.reason}: ${o.text}`);
  console.log(
    r.matched.length ? `rows matched: ${r.matched.map((m) => `${m.id} (${m.kind}${m.skill ? `, ${m.skill}` : ""})`).join(", ")}` : "rows matched: none",
  );
  const verdict =
    code === EXIT.findings ? c.red(r.decision.verdict) : r.decision.verdict === "allow" ? c.green(r.decision.verdict) : c.yellow(r.decision.verdict);
  const message = "message" in r.decision ? r.decision.message : undefined;
  console.log(`decision: ${verdict}${message ? ` — ${message}` : ""}`);
  return code;
}
