// `skillgate cases` and `skillgate mutate`: run cases (in-process, or through
// the built hook under a runtime) against the table under test; remove each
// row in turn. Exit 0 all green, 1 a failing/invalid case or an unpinned row,
// 3 a setup problem (no table, no cases folder). Options: SPECS in cli/args.ts.
import { hookPathOf } from "../../hooks/hosts/claude-code/install.js";
import { colours, EXIT, parseArgs, UsageError } from "../args.js";
import { tableHeader, tableJson } from "../table-file.js";
import { findBun } from "../install.js";
import { CaseFormatError } from "./format.js";
import { inProcessInvoker, processInvoker, runCases, type Invoke } from "./runner.js";
import { formatMutation, mutate, unpinned } from "./mutate.js";
import { resolveSuite, suiteCases, type Suite } from "./suite.js";
import { writeStarterCases } from "./new-case.js";
import { CASE_HOSTS, caseHost } from "./hosts/index.js";
import { claudeCodeCases } from "./hosts/claude-code.js";
import type { CaseHost } from "./hosts/host.js";
import { countsOf, formatRuns, type HostRun } from "./report.js";

/** The command that runs the built hook under a runtime (bun: the package's own, else from PATH). */
export function hookCommand(root: string, runtime = "node"): string[] {
  const exe = runtime === "node" ? process.execPath : runtime === "bun" ? (findBun(root) ?? "bun") : runtime;
  // What install writes for that runtime (Bun: the bytecode build when it was built).
  return [exe, hookPathOf(root, runtime === "bun" ? "bun" : "node")];
}

/** Malformed cases are findings (exit 1): every problem on its own line, and with --json as JSON on stdout too. */
async function reportingFormat(json: boolean, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof CaseFormatError)) throw e;
    if (json) console.log(JSON.stringify({ ok: false, problems: e.problems }, null, 2));
    console.error(`skillgate: ${e.message}`);
    return EXIT.findings;
  }
}

const casesDirOf = (f: { get(name: "cases" | "dir"): string | undefined }) => f.get("cases") ?? f.get("dir");
const header = (s: Suite) => `${tableHeader(s.table, s.compiled.rows.length)}\ncases: ${s.casesDir}`;

export async function casesMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("cases", args);
  const json = f.has("json");
  return reportingFormat(json, async () => {
    const suite = await resolveSuite({ packageRoot: root, table: f.get("table"), cases: casesDirOf(f) });
    const newRows = f.get("new");
    if (newRows.length) return newCases(suite, newRows, root);
    const cases = suiteCases(suite);
    const runtime = f.get("runtime");
    const hosts = selectHosts(f.get("host"), runtime);
    const invoke: Invoke = runtime ? processInvoker(hookCommand(root, runtime)) : inProcessInvoker(root);
    const t0 = performance.now();
    const byHost: HostRun[] = [];
    for (const host of hosts) {
      const h0 = performance.now();
      const results = await runCases(cases, { table: suite.table, invoke, parallel: runtime ? 4 : 1, host, skillsDir: suite.compiled.skillsDir });
      byHost.push({ host: host.name, results, ms: performance.now() - h0 });
    }
    const ms = performance.now() - t0;
    const failedIds = new Set(byHost.flatMap((h) => h.results.filter((r) => !r.ok).map((r) => r.id)));
    const steps = cases.reduce((n, c) => n + c.steps.length, 0);
    const where = runtime ?? "in-process";
    if (json) {
      const table = tableJson(suite.table, suite.compiled.rows.length);
      const perHost = Object.fromEntries(byHost.map((h) => [h.host, { ...countsOf(h.results), ms: Math.round(h.ms) }]));
      console.log(
        JSON.stringify(
          {
            table,
            casesDir: suite.casesDir,
            runtime: where,
            passed: cases.length - failedIds.size,
            failed: failedIds.size,
            steps,
            ms: Math.round(ms),
            hosts: perHost,
            results: byHost.flatMap((h) => h.results),
          },
          null,
          2,
        ),
      );
    } else {
      console.log(header(suite));
      console.log(
        formatRuns(
          cases.map((c) => c.id),
          byHost,
          colours(),
        ),
      );
      console.log(
        `${cases.length - failedIds.size}/${cases.length} cases pass on every host they run on (${steps} events, ${where}, ${(ms / 1000).toFixed(1)} s)`,
      );
    }
    return failedIds.size ? EXIT.findings : EXIT.ok;
  });
}

/** `--host` (default: every host; the built hook under a runtime is Claude Code's). */
function selectHosts(names: readonly string[], runtime: string | undefined): CaseHost[] {
  if (runtime) {
    if (names.some((n) => n !== "claude-code")) throw new UsageError(`--runtime runs the built Claude Code hook: --host ${names.join(",")} cannot go with it`);
    return [claudeCodeCases];
  }
  if (!names.length) return [...CASE_HOSTS];
  return names.map(
    (n) =>
      caseHost(n) ??
      (() => {
        throw new UsageError(`--host ${n}: not a host (one of ${CASE_HOSTS.map((h) => h.name).join(", ")})`);
      })(),
  );
}

/** Write starter cases (`--new ROW[,ROW...]` or `--new all`), run each, and say whether it passes as written. */
async function newCases(suite: Suite, rows: readonly string[], root: string): Promise<number> {
  const made = await writeStarterCases(suite, rows.length === 1 && rows[0] === "all" ? "all" : [...rows], inProcessInvoker(root));
  for (const m of made) {
    if (!m.written) console.error(`skillgate cases: ${m.why}`);
    else {
      console.log(`wrote ${m.file}`);
      if (m.ok) console.log(`it passes on ${suite.table}: edit it to pin what matters to you (see docs/cases.md)`);
      else
        console.log(
          `it FAILS until you fill it in${m.generated ? "" : " (no matching event could be made from the row's trigger)"}:\n      ${m.failures.join("\n      ")}`,
        );
    }
  }
  if (made.length === 0) console.log(`every row of ${suite.table} already has a case named after it`);
  return made.some((m) => !m.written) ? EXIT.findings : EXIT.ok;
}

export async function mutateMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("mutate", args);
  const json = f.has("json");
  return reportingFormat(json, async () => {
    const suite = await resolveSuite({ packageRoot: root, table: f.get("table"), cases: casesDirOf(f) });
    const cases = suiteCases(suite);
    const hosts = selectHosts(f.get("host"), undefined);
    const report = await mutate(cases, { compiled: suite.compiled, table: suite.table, invoke: inProcessInvoker(root), hosts });
    const dead = report.hosts.map((h) => ({ host: h.host, rows: unpinned(h) }));
    const findings = dead.some((d) => d.rows.length) || report.hosts.some((h) => h.baseline.length);
    if (json) {
      const table = tableJson(suite.table, suite.compiled.rows.length);
      const perHost = report.hosts.map((h) => ({ ...h, ms: Math.round(h.ms), unpinned: unpinned(h) }));
      console.log(JSON.stringify({ table, casesDir: suite.casesDir, ...perHost[0], hosts: perHost }, null, 2));
    } else {
      console.log(header(suite));
      for (const h of report.hosts) {
        console.log(`\n${h.host}:`);
        console.log(formatMutation(h.rows));
        if (h.baseline.length) console.log(`cases already red on the unmutated table: ${h.baseline.join(", ")}`);
        const rows = unpinned(h);
        const cannot = h.rows.filter((r) => r.cannot).length;
        console.log(
          rows.length
            ? `rows that turn no case red on ${h.host}: ${rows.join(", ")}`
            : `on ${h.host}, every one of ${h.rows.length - cannot} rows its cases can reach turns at least one case red${cannot ? ` (${cannot} it cannot run)` : ""}`,
        );
        console.log(`${cases.length} cases × ${h.rows.length + 1} tables in ${(h.ms / 1000).toFixed(1)} s`);
      }
    }
    return findings ? EXIT.findings : EXIT.ok;
  });
}
