// `skillgate measure`: from Claude Code transcripts, how often each row of the
// table had an occasion and how often its skill was loaded (seed 003,
// "Сначала посчитать"), plus the session metrics of seed 001 §7.
import fs from "node:fs";
import path from "node:path";
import { flags } from "../main.js";
import { compiledTable, tableFileOf } from "../table-file.js";
import { defaultProjectsDir } from "./files.js";
import { progressLine } from "./progress.js";
import { renderCompare, renderSvg, renderText, saveSnapshot } from "./report.js";
import { measure, type MeasureResult } from "./run.js";

export const DEFAULT_SINCE = "7d";

export function stateDirOf(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.SKILLGATE_STATE ? path.resolve(env.SKILLGATE_STATE) : path.join(root, "state");
}

export async function measureMain(args: string[], root: string): Promise<number> {
  const f = flags(args);
  const tableFile = tableFileOf(f.get("table"), root);
  let before: MeasureResult | undefined;
  const compare = f.get("compare");
  if (compare) {
    try {
      before = JSON.parse(fs.readFileSync(compare, "utf8")) as MeasureResult;
      if (before?.tool !== "skillgate measure") throw new Error("not a skillgate measure snapshot");
    } catch (e) {
      console.error(`skillgate measure: --compare ${compare}: ${(e as Error).message}`);
      return 2;
    }
  }
  let result: MeasureResult;
  const progress = progressLine();
  try {
    const table = await compiledTable(tableFile);
    result = await measure({
      projects: path.resolve(f.get("projects") ?? defaultProjectsDir()),
      since: f.get("since") ?? DEFAULT_SINCE,
      table,
      tableFile,
      onProgress: progress.update,
    });
  } catch (e) {
    progress.done();
    console.error(`skillgate measure: ${(e as Error).message}`);
    return 2;
  }
  progress.done();
  if (f.has("json")) console.log(JSON.stringify(result, null, 2));
  else {
    console.log(renderText(result));
    if (before) console.log(`\n${renderCompare(result, before, compare!)}`);
  }
  const notes: string[] = [];
  if (f.has("save")) notes.push(`saved ${saveSnapshot(result, stateDirOf(root))}`);
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
