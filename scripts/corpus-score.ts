// Scores the class corpus against the analysis (no real runs): per file, how many must-refuse records
// are refused and how many must-allow records are wrongly refused — the figures an adversarial review
// reports. Records are decided exactly as test/shell-analysis.test.ts decides them (same world).
//
//   node --import tsx scripts/corpus-score.ts [--files GLOB-SUBSTRING] [--misses] [--json FILE]
//
// --misses prints every record whose verdict disagrees with its label (known gaps included, marked).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compiledTable } from "../cli/table-file.ts";
import { factsOf } from "../hooks/core/shell-facts.ts";
import { decide } from "../hooks/core/decide.ts";
import { emptyState, type Event } from "../hooks/core/types.ts";
import { corpusWorld } from "../test/corpus/world.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIR = path.join(ROOT, "test/corpus/classes");
interface Rec {
  id: string;
  command: string;
  expect: "refuse" | "allow";
  rows: string[];
  setup?: { files?: Record<string, string>; symlinks?: Record<string, string>; env?: Record<string, string> };
}

const world = (r: Rec) => corpusWorld(r.setup);

const arg = (n: string) => {
  const i = process.argv.indexOf(n);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const filter = arg("--files") ?? "";
const table = await compiledTable(path.join(ROOT, "triggers.json"));
const gaps = JSON.parse(fs.readFileSync(path.join(ROOT, "test/corpus/known-gaps.json"), "utf8")) as Record<string, string>;
const out: { id: string; expect: string; verdict: string; rowsOk: boolean; gap: boolean }[] = [];
console.log("file                              refuse  refused   allow  wrongly-refused");
for (const f of fs
  .readdirSync(DIR)
  .filter((n) => n.endsWith(".jsonl") && n.includes(filter))
  .sort()) {
  const recs = fs
    .readFileSync(path.join(DIR, f), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Rec)
    .filter((r) => r.id);
  let refuse = 0,
    refused = 0,
    allow = 0,
    wrong = 0;
  for (const r of recs) {
    const w = world(r);
    const event: Event = { kind: "tool-call", sessionId: "score", cwd: w.cwd, tool: { kind: "shell", name: "Bash", command: r.command } };
    const o = decide(event, table, emptyState(), factsOf(event, w));
    const deny = o.decision.verdict === "deny";
    const rowsOk = r.rows.every((id) => o.matched.includes(id));
    if (r.expect === "refuse") {
      refuse++;
      if (deny && rowsOk) refused++;
    } else {
      allow++;
      if (deny) wrong++;
    }
    const bad = r.expect === "refuse" ? !(deny && rowsOk) : deny;
    out.push({ id: r.id, expect: r.expect, verdict: o.decision.verdict, rowsOk, gap: Object.hasOwn(gaps, r.id) });
    if (bad && process.argv.includes("--misses"))
      console.log(
        `  MISS${Object.hasOwn(gaps, r.id) ? "(gap)" : ""} ${r.id} [${r.expect}] fired=${o.matched.join(",")}  ${r.command.replace(/\n/g, "⏎").slice(0, 110)}`,
      );
  }
  console.log(`${f.padEnd(34)}${String(refuse).padStart(6)}${String(refused).padStart(9)}${String(allow).padStart(8)}${String(wrong).padStart(17)}`);
}
const j = arg("--json");
if (j) fs.writeFileSync(j, JSON.stringify(out, null, 1));
