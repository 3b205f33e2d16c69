// Which table and which cases: the same for `skillgate cases`, `skillgate
// mutate` and the tests. From an installed package a project's own table is
// tested with the project's own cases (.claude/skillgate/cases/); the
// fixtures (captured event payloads) always come from the package, and the
// project may add its own in <cases>/fixtures/.
import fs from "node:fs";
import path from "node:path";
import type { CompiledTable } from "../../hooks/core/table/compile.js";
import { UserError } from "../args.js";
import { compiledTable, tableFileOf } from "../table-file.js";
import { loadCases, type Case } from "./format.js";

/** Where a project keeps its cases, relative to the project root. */
export const PROJECT_CASES = path.join(".claude", "skillgate", "cases");

export interface Suite {
  /** The table under test. */
  table: string;
  /** True when it is skillgate's own default table. */
  packageTable: boolean;
  compiled: CompiledTable;
  casesDir: string;
  fixtureDirs: string[];
  /** The package's JSON Schema for case files. */
  schemaFile: string;
}

export interface SuiteOptions {
  packageRoot: string;
  /** --table */
  table?: string;
  /** --cases */
  cases?: string;
  /** The project root when no CLAUDE_PROJECT_DIR is set (a user runs the verb from the project). */
  cwd?: string;
}

/** The table (the one resolution every verb uses: cli/table-file.ts), its cases and fixtures. Throws UserError (exit 3). */
export async function resolveSuite(o: SuiteOptions): Promise<Suite> {
  const table = tableFileOf(o.table, o.packageRoot, o.cwd);
  const packageTable = path.resolve(table) === path.resolve(o.packageRoot, "triggers.json");
  const compiled = await compiledTable(table, o.packageRoot);
  const projectRoot = o.cwd ?? process.env.CLAUDE_PROJECT_DIR ?? process.cwd();
  // A project table next to .claude/: its cases live beside it; any other table's, in the project.
  const projectCases =
    path.basename(path.dirname(table)) === ".claude" ? path.join(path.dirname(table), "skillgate", "cases") : path.join(projectRoot, PROJECT_CASES);
  const casesDir = path.resolve(o.cases ?? (packageTable ? path.join(o.packageRoot, "cases") : projectCases));
  const packageFixtures = path.join(o.packageRoot, "cases", "fixtures");
  const ownFixtures = path.join(casesDir, "fixtures");
  return {
    table,
    packageTable,
    compiled,
    casesDir,
    fixtureDirs: path.resolve(ownFixtures) === path.resolve(packageFixtures) ? [packageFixtures] : [ownFixtures, packageFixtures],
    schemaFile: path.join(o.packageRoot, "cases", "case.schema.json"),
  };
}

export function rowIds(compiled: CompiledTable): Set<string> {
  return new Set(compiled.rows.map((r) => r.row.id));
}

/** The suite's cases, checked against its table. Throws CaseFormatError (every problem) or UserError. */
export function suiteCases(s: Suite): Case[] {
  if (!fs.existsSync(s.casesDir)) {
    throw new UserError(`no cases folder ${s.casesDir}: write a first case with \`skillgate cases --new <row id>\`, or point --cases at a folder`);
  }
  return loadCases(s.casesDir, { fixtureDirs: s.fixtureDirs, tableRows: rowIds(s.compiled) });
}
