// Row-removal mutation: delete each row of the table in turn, rerun the cases
// in-process on each host, and report which cases turn red. A row whose removal
// turns nothing red on a host is a row no case pins there: either the row is
// dead or the cases are thin. A row whose cases cannot run on a host (its events
// are ones that host never sends) is reported as such, with the reason.
import fs from "node:fs";
import path from "node:path";
import { runCases, scratchDir, type CaseResult, type Invoke } from "./runner.js";
import type { Case } from "./format.js";
import type { CompiledTable } from "../../hooks/core/table/compile.js";
import type { CaseHost } from "./hosts/host.js";
import { claudeCodeCases } from "./hosts/claude-code.js";

export interface MutationRow {
  row: string;
  kind: string;
  /** Cases green on the whole table and red without this row (searched for a witness only: those found, the cases naming the row first). */
  red: string[];
  /** No case that could pin this row runs on this host, and why. */
  cannot?: string;
}

export interface HostMutation {
  host: string;
  /** Cases already red on the unmutated table (their result says nothing about rows). */
  baseline: string[];
  rows: MutationRow[];
  ms: number;
}

export interface MutationReport extends HostMutation {
  /** Every host's run, the first (the one `rows` and `baseline` above are) included. */
  hosts: HostMutation[];
}

export interface MutateOptions {
  compiled: CompiledTable;
  table: string;
  invoke: Invoke;
  /** Hosts to mutate on (default Claude Code's only); the first is searched for every case it turns red, the others for one. */
  hosts?: readonly CaseHost[];
  /**
   * Search every host, the first too, for a witness only: each row still proven pinned, in a fraction of the time
   * (the first host: every case naming the row; a later one: the first case that turns red). Tests only: the CLI never sets it.
   */
  witnessOnly?: boolean;
}

/**
 * `compiled` is the table under test as the hook validated it; each mutant is
 * that table minus one row, written to a temp file (skills still found where
 * the real table finds them: only the row changes).
 */
export async function mutate(cases: Case[], opts: MutateOptions): Promise<MutationReport> {
  const dir = scratchDir("skillgate-mutant-");
  const stateDir = path.join(dir, "state");
  fs.mkdirSync(stateDir, { mode: 0o700 });
  try {
    const table = opts.compiled.table;
    const mutants = table.rows.map((_, i) => {
      const file = path.join(dir, `without-${i}.json`);
      fs.writeFileSync(file, JSON.stringify({ ...table, skillsDir: opts.compiled.skillsDir, rows: table.rows.filter((_, j) => j !== i) }));
      return file;
    });
    const [first = claudeCodeCases, ...rest] = opts.hosts ?? [claudeCodeCases];
    const run = (cs: Case[], host: CaseHost, file: string) =>
      runCases(cs, { table: file, invoke: opts.invoke, stateDir, host, skillsDir: opts.compiled.skillsDir });
    const hosts: HostMutation[] = [];
    for (const [n, host] of [first, ...rest].entries()) {
      const t0 = performance.now();
      const base = await run(cases, host, opts.table);
      const baseline = base.filter((r) => !r.ok).map((r) => r.id);
      // Why a case cannot pin anything here: it cannot run, or what it expects is left unchecked on this host.
      const cannotWhy = new Map(
        base.flatMap((r) => (r.skipped !== undefined ? [[r.id, r.skipped] as const] : r.unchecked.length ? [[r.id, r.unchecked.join("; ")] as const] : [])),
      );
      // Cases with a table of their own are not about the rows of this one; cases that cannot run here pin nothing.
      const subject = cases.filter((c) => !c.table && !baseline.includes(c.id) && base.find((r) => r.id === c.id)?.skipped === undefined);
      const rows: MutationRow[] = [];
      for (const [i, row] of table.rows.entries()) {
        const file = mutants[i] ?? "";
        const naming = cases.filter((c) => !c.table && names(c, row.id)).map((c) => c.id);
        let red: string[];
        // The first host is searched in full; a later one needs one witness: the cases that name the row first.
        if (n === 0 && !opts.witnessOnly) red = redOf(await run(subject, host, file));
        else if (n > 0 && opts.witnessOnly) {
          // One witness is the proof: the cases naming the row, then the rest, one at a time until one turns red.
          red = [];
          for (const c of [...subject.filter((c) => naming.includes(c.id)), ...subject.filter((c) => !naming.includes(c.id))]) {
            red = redOf(await run([c], host, file));
            if (red.length) break;
          }
        } else {
          red = redOf(
            await run(
              subject.filter((c) => naming.includes(c.id)),
              host,
              file,
            ),
          );
          if (!red.length)
            red = redOf(
              await run(
                subject.filter((c) => !naming.includes(c.id)),
                host,
                file,
              ),
            );
        }
        const cannot =
          !red.length && naming.length && naming.every((id) => cannotWhy.has(id)) ? reasons(naming.map((id) => cannotWhy.get(id) ?? "")) : undefined;
        rows.push({ row: row.id, kind: row.kind, red, ...(cannot ? { cannot } : {}) });
      }
      hosts.push({ host: host.name, baseline, rows, ms: performance.now() - t0 });
    }
    const head = hosts[0] as HostMutation;
    return { ...head, hosts };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The case names the row in what some step expects (the rows that decide, or the rows that match). */
const names = (c: Case, row: string): boolean => c.steps.some((s) => s.expect.rows.includes(row) || (s.expect.matched ?? []).includes(row));

/** Each distinct reason once, without the step it was found at. */
const reasons = (texts: string[]): string => [...new Set(texts.flatMap((t) => t.split("; ")).map((t) => t.replace(/^step \d+ \([^)]*\): /, "")))].join("; ");

const redOf = (results: CaseResult[]): string[] => results.filter((r) => !r.ok).map((r) => r.id);

/** Rows that turn no case red on a host where some case for them can run. */
export const unpinned = (m: HostMutation): string[] => m.rows.filter((r) => r.red.length === 0 && r.cannot === undefined).map((r) => r.row);

export function formatMutation(rows: MutationRow[]): string {
  const width = Math.max(...rows.map((r) => r.row.length), 3);
  const lines = [`${"row".padEnd(width)}  kind      red  cases turned red`];
  for (const r of rows)
    lines.push(
      `${r.row.padEnd(width)}  ${r.kind.padEnd(8)}  ${String(r.red.length).padStart(3)}  ${r.cannot ? `cannot run here: ${r.cannot}` : r.red.join(", ") || "NONE"}`,
    );
  return lines.join("\n");
}
