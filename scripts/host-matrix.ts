// The host matrix, from what the e2e suites proved: every e2e-results/<host>/*.json
// (written by e2e-shared/scenarios.ts when a host's tests run against its real
// binary) becomes one row of the table in docs/host-support.md (with the test
// behind each cell) and in README.md (symbols only), between their markers.
//
//   node --import tsx scripts/host-matrix.ts            rewrite both from the results
//   node --import tsx scripts/host-matrix.ts --check    exit 1 when a file differs from what the results give,
//                                                        a column has no passing test, or a test failed
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { COLUMNS, RESULTS_DIR, type ColumnId, type Limit, type ResultsFile } from "../e2e-shared/scenarios.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const UNIT = { unitOnly: "no Cursor binary here; unit tests on the documented payloads (test/cursor-adapter.test.ts)" };
/** Cursor has no binary to drive here: its row says what the unit tests prove and what the host cannot. */
const CURSOR: Partial<Record<ColumnId, Limit>> = {
  gate: UNIT,
  block: UNIT,
  hint: { unitOnly: "user_message only: beforeSubmitPrompt cannot add model context" },
  load: { unitOnly: "a whole Read of SKILL.md (postToolUse)" },
  "write-gate": UNIT,
  "git-hook": UNIT,
  restore: UNIT,
  budget: { cannot: "its transcript format is not documented, so the prompt size is unknown" },
  compaction: { unitOnly: "preCompact" },
  stop: { cannot: "its stop event carries no final answer" },
  cap: { cannot: "postToolUse replaces MCP output only" },
};

/** Rows in this order; the label says how the host runs skillgate where that matters. */
export const HOSTS: { id: string; label: string; suite: string; noBinary?: Partial<Record<ColumnId, Limit>> }[] = [
  { id: "claude-code", label: "Claude Code", suite: "e2e/" },
  { id: "opencode", label: "opencode (in-process plugin)", suite: "e2e-opencode/" },
  { id: "codex", label: "Codex CLI", suite: "e2e-codex/" },
  { id: "gemini", label: "Gemini CLI", suite: "e2e-gemini/" },
  { id: "copilot", label: "Copilot CLI (offline, BYOK loopback)", suite: "e2e-copilot/" },
  { id: "cursor", label: "Cursor (documented shapes only)", suite: "test/cursor-adapter.test.ts", noBinary: CURSOR },
];

export interface Cell {
  mark: "✓" | "◐" | "✗" | "FAILED" | "not run";
  tests: { title: string; file: string }[];
  why?: string;
}

export interface HostRow {
  id: string;
  label: string;
  version: string;
  cells: Record<ColumnId, Cell>;
}

export function readResults(dir = RESULTS_DIR): ResultsFile[] {
  if (!fs.existsSync(dir)) return [];
  const out: ResultsFile[] = [];
  for (const host of fs.readdirSync(dir).sort())
    for (const f of fs.readdirSync(path.join(dir, host)).sort())
      if (f.endsWith(".json")) out.push(JSON.parse(fs.readFileSync(path.join(dir, host, f), "utf8")) as ResultsFile);
  return out;
}

function cellOf(files: ResultsFile[], column: ColumnId, limit: Limit | undefined): Cell {
  const tests = files.flatMap((f) => f.tests.filter((t) => t.column === column).map((t) => ({ ...t, file: f.file })));
  if (tests.some((t) => t.outcome === "fail"))
    return { mark: "FAILED", tests: tests.filter((t) => t.outcome === "fail").map(({ title, file }) => ({ title, file })) };
  const passed = tests.map(({ title, file }) => ({ title, file }));
  if (limit && "cannot" in limit) return { mark: "✗", tests: passed, why: limit.cannot };
  if (limit && "unitOnly" in limit) return { mark: "◐", tests: passed, why: `unit tests only: ${limit.unitOnly}` };
  if (!passed.length) return { mark: "not run", tests: [] };
  if (limit && "partial" in limit) return { mark: "◐", tests: passed, why: limit.partial };
  return { mark: "✓", tests: passed };
}

export function matrix(results: ResultsFile[]): HostRow[] {
  return HOSTS.map((h) => {
    const files = results.filter((r) => r.host === h.id);
    const limits = h.noBinary ?? files[0]?.limits ?? {};
    const cells = Object.fromEntries(COLUMNS.map((c) => [c.id, cellOf(files, c.id, limits[c.id])])) as Record<ColumnId, Cell>;
    return { id: h.id, label: h.label, version: h.noBinary ? "" : (files[0]?.version ?? "?"), cells };
  });
}

const LEGEND = "✓ proven by an end-to-end test against the pinned real binary; ◐ in part, or by unit tests only (the note says why); ✗ the host cannot.";

export function readmeTable(rows: HostRow[]): string {
  const head = `| host | ${COLUMNS.map((c) => c.label).join(" | ")} |`;
  const sep = `|---|${COLUMNS.map(() => "---").join("|")}|`;
  const body = rows.map(
    (r) => `| ${`${r.label.replace(/ \((in-process|offline).*\)$/, "")} ${r.version}`.trim()} | ${COLUMNS.map((c) => r.cells[c.id].mark).join(" | ")} |`,
  );
  return [head, sep, ...body, "", LEGEND].join("\n");
}

export function docsTable(rows: HostRow[]): string {
  const out = [readmeTable(rows).replace(/\n\n✓ proven[^\n]*$/, ""), "", LEGEND, ""];
  for (const r of rows) {
    const suite = HOSTS.find((h) => h.id === r.id)?.suite ?? "";
    out.push(`### ${`${r.label} ${r.version}`.trim()}`, "");
    for (const c of COLUMNS) {
      const cell = r.cells[c.id];
      const tests = cell.tests.map((t) => `"${t.title}" (${suite}${t.file})`).join("; ");
      out.push(`- **${c.label}** ${cell.mark}${cell.why ? ` — ${cell.why}` : ""}${tests ? `: ${tests}` : ""}`);
    }
    out.push("");
  }
  return out.join("\n").trimEnd();
}

const START = "<!-- host-matrix:start (npm run host-matrix writes this from e2e-results/) -->";
const END = "<!-- host-matrix:end -->";

export function replaceBetween(text: string, body: string, file: string): string {
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${file}: no ${START} … ${END} markers`);
  return `${text.slice(0, a + START.length)}\n${body}\n${text.slice(b)}`;
}

function main(argv: string[]): number {
  const check = argv.includes("--check");
  const rows = matrix(readResults());
  const problems: string[] = [];
  for (const r of rows)
    for (const c of COLUMNS) {
      const cell = r.cells[c.id];
      if (cell.mark === "FAILED") problems.push(`${r.label}: ${c.label} failed (${cell.tests.map((t) => t.title).join("; ")})`);
      if (cell.mark === "not run") problems.push(`${r.label}: no e2e result for ${c.label} (run that host's e2e suite first)`);
    }
  for (const [file, body] of [
    ["README.md", readmeTable(rows)],
    ["docs/host-support.md", docsTable(rows)],
  ] as const) {
    const full = path.join(ROOT, file);
    const was = fs.readFileSync(full, "utf8");
    const next = replaceBetween(was, body, file);
    if (was === next) continue;
    if (check) problems.push(`${file}: its host matrix is not what the e2e results give: run npm run host-matrix`);
    else {
      fs.writeFileSync(full, next);
      console.log(`host-matrix: wrote ${file}`);
    }
  }
  for (const p of problems) console.error(`host-matrix: ${p}`);
  return problems.length ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
