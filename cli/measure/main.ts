// `skillgate measure`: from Claude Code transcripts, how often each row of the
// table had an occasion and how often its skill was loaded, plus the session metrics.
import fs from "node:fs";
import path from "node:path";
import { parseArgs, UsageError, UserError } from "../args.js";
import { tableHeader, tableInUse, tableJson } from "../table-file.js";
import { stateDirOf } from "../../hooks/io/state-dir.js";
import { defaultProjectsDir, parseSince } from "./files.js";
import { progressLine } from "./progress.js";
import { renderCompare, renderSvg, renderText, saveSnapshot } from "./report.js";
import { measure, type MeasureResult } from "./run.js";
import { renderHosts } from "./hosts/format.js";
import os from "node:os";

export async function measureMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("measure", args);
  if (parseSince(f.get("since"), Date.now()) === undefined)
    throw new UsageError(`--since wants an age like 7d, 12h, 30m, 2w or a date, not "${f.get("since")}"`);
  let before: MeasureResult | undefined;
  const compare = f.get("compare");
  if (compare) {
    try {
      before = JSON.parse(fs.readFileSync(compare, "utf8")) as MeasureResult;
      if (before?.tool !== "skillgate measure") throw new Error("not a skillgate measure snapshot");
    } catch (e) {
      throw new UserError(`--compare ${compare}: ${(e as Error).message}`);
    }
  }
  // A folder named by hand that is not there is a typo: say so, not a report of zeros.
  const home = f.get("home");
  if (home !== undefined && !fs.statSync(home, { throwIfNoEntry: false })?.isDirectory()) throw new UserError(`--home ${path.resolve(home)}: no such folder`);
  const named = f.get("projects");
  if (named !== undefined) {
    const st = fs.statSync(named, { throwIfNoEntry: false });
    if (!st) throw new UserError(`--projects ${path.resolve(named)}: no such folder (Claude Code keeps transcripts in ${defaultProjectsDir()})`);
    if (!st.isDirectory()) throw new UserError(`--projects ${path.resolve(named)}: not a folder`);
  }
  const { file: tableFile, table } = await tableInUse(f.get("table"), root);
  let result: MeasureResult;
  const progress = progressLine();
  try {
    result = await measure({
      projects: path.resolve(f.get("projects") ?? (home !== undefined ? path.join(home, ".claude", "projects") : defaultProjectsDir())),
      ...hostsEnvOf(home, named),
      since: f.get("since"),
      table,
      tableFile,
      onProgress: progress.update,
    });
  } catch (e) {
    // Unreadable history or a bad --since: one line, exit 3.
    throw new UserError((e as Error).message);
  } finally {
    progress.done();
  }
  if (f.has("json")) console.log(JSON.stringify({ ...result, table: tableJson(tableFile, table.rows.length) }, null, 2));
  else {
    console.log(tableHeader(tableFile, table.rows.length));
    console.log(renderText(result));
    if (result.hosts) console.log(renderHosts(result.hosts));
    if (before && compare) console.log(`\n${renderCompare(result, before, compare)}`);
  }
  const notes: string[] = [];
  if (f.has("save")) notes.push(`saved ${saveSnapshot(result, stateDirOf({ env: process.env, packageRoot: root }))}`);
  const svg = f.get("svg");
  if (svg) {
    fs.writeFileSync(svg, renderSvg(result));
    notes.push(`wrote ${path.resolve(svg)}`);
  }
  // With --json, stdout stays pure JSON: notes go to stderr.
  for (const n of notes) (f.has("json") ? console.error : console.log)(n);
  for (const w of result.warnings) if (f.has("json")) console.error(`warning: ${w}`);
  return 0;
}

/**
 * Where the other hosts' histories are: under --home alone when given; none when --projects names
 * Claude Code's folder alone; else where this environment keeps them.
 */
export function hostsEnvOf(home: string | undefined, projects: string | undefined): { hostsEnv?: NodeJS.ProcessEnv } {
  if (home !== undefined) return { hostsEnv: { HOME: path.resolve(home) } };
  if (projects !== undefined) return {};
  return { hostsEnv: { ...process.env, HOME: process.env.HOME ?? os.homedir() } };
}
