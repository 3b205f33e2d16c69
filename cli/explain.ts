// `skillgate explain -- '<command>'`: the hook's own analysis and decision for
// a Bash command, as a PreToolUse in the main thread. How users debug a gate.
import { quote } from "shell-quote";
import { flags } from "./main.js";
import { compiledTable, tableFileOf } from "./table-file.js";
import { decide } from "../hooks/core/decide.js";
import { factsOf } from "../hooks/core/shell-facts.js";
import { emptyState, type Event } from "../hooks/core/types.js";

export function explainCommand(command: string, table: Awaited<ReturnType<typeof compiledTable>>, loaded: string[] = []) {
  const event: Event = { kind: "tool-call", sessionId: "explain", cwd: process.cwd(), tool: { kind: "shell", name: "Bash", command } };
  const facts = factsOf(event);
  const a = facts.analysis!;
  const outcome = decide(event, table, { ...emptyState(), loaded }, facts);
  const byId = new Map(table.rows.map((r) => [r.row.id, r.row]));
  return {
    command,
    commands: a.commands.map((c) => ({ argv: c.argv, shell: quote(c.argv), via: c.via, dynamic: c.dynamic.some(Boolean) })),
    writes: a.writes.map((w) => ({ path: w.dynamic ? "<dynamic>" : w.path, by: w.by })),
    reads: a.reads.map((r) => ({ path: r.dynamic ? "<dynamic>" : r.path, by: r.by })),
    opaque: a.opaque,
    matched: outcome.matched.map((id) => ({ id, kind: byId.get(id)!.kind, skill: byId.get(id)!.skill })),
    decision: outcome.decision,
  };
}

export async function explainMain(args: string[], root: string): Promise<number> {
  const f = flags(args);
  const command = f.rest.join(" ");
  if (!command) {
    console.error("skillgate explain: give the command after --, e.g. skillgate explain -- 'git commit -m x'");
    return 2;
  }
  const table = await compiledTable(tableFileOf(f.get("table"), root));
  const loaded = f.get("loaded")?.split(",").filter(Boolean) ?? [];
  const r = explainCommand(command, table, loaded);
  if (f.has("json")) {
    console.log(JSON.stringify(r, null, 2));
    return 0;
  }
  console.log(`command: ${command}`);
  for (const c of r.commands) console.log(`  runs   ${c.shell}${c.via.length ? `   (via ${c.via.join(" > ")})` : ""}${c.dynamic ? "   [has run-time values]" : ""}`);
  for (const w of r.writes) console.log(`  writes ${w.path}   (by ${w.by})`);
  for (const x of r.reads) console.log(`  reads  ${x.path}   (by ${x.by})`);
  for (const o of r.opaque) console.log(`  OPAQUE ${o.reason}: ${o.text}`);
  console.log(r.matched.length ? `rows matched: ${r.matched.map((m) => `${m.id} (${m.kind}${m.skill ? `, ${m.skill}` : ""})`).join(", ")}` : "rows matched: none");
  const message = "message" in r.decision ? r.decision.message : undefined;
  console.log(`decision: ${r.decision.verdict}${message ? ` — ${message}` : ""}`);
  return 0;
}
