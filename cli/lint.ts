// `skillgate lint`: the table validates, every row names an existing skill,
// every skill has a row, each SKILL.md core is at most 3 KB, and every
// chapter a core lists exists.
import fs from "node:fs";
import path from "node:path";
import { colours, EXIT, parseArgs, UserError } from "./args.js";
import { compiledTable, tableFileOf, tableHeader, tableJson } from "./table-file.js";
import { schemaText } from "./schema.js";

export const MAX_CORE_BYTES = 3 * 1024;
const CHAPTER_LINK = /\]\((chapters\/[^)]+\.md)\)/g;

export interface LintReport {
  errors: string[];
  warnings: string[];
  /** SKILL.md sizes in bytes, by skill. */
  cores: Record<string, number>;
  /** Rows in the table; undefined when it does not load. */
  rows?: number;
}

/** `root`: skillgate's package root, whose triggers.json a table with `"extends": "default"` extends. */
export async function lintProject(tableFile: string, root?: string): Promise<LintReport> {
  const r: LintReport = { errors: [], warnings: [], cores: {} };
  let table: Awaited<ReturnType<typeof compiledTable>>;
  try {
    table = await compiledTable(tableFile, root);
  } catch (e) {
    r.errors.push((e as Error).message);
    return r;
  }
  r.rows = table.rows.length;
  // Rows the hook switches OFF (the rest of the table loads): each names the file, the row and the field.
  for (const d of table.disabled) r.errors.push(`${d.error} (this row is OFF in the hook)`);
  const dir = table.skillsDir;
  const skills = fs.existsSync(dir) ? fs.readdirSync(dir).filter((d) => fs.statSync(path.join(dir, d)).isDirectory()) : [];
  if (skills.length === 0) r.errors.push(`${dir}: no skills found`);
  const used = new Set(table.rows.map((cr) => cr.row.skill).filter(Boolean));

  for (const cr of table.rows) {
    const s = cr.row.skill;
    if (s && !skills.includes(s)) r.errors.push(`${tableFile}: row "${cr.row.id}", field skill: no skill "${s}" in ${dir}`);
    for (const t of [cr.row.when.prompt, cr.row.when.final]) {
      if (t?.pattern && /\\b/.test(t.pattern)) r.warnings.push(`row "${cr.row.id}": \\b in a pattern only knows ASCII letters; use "words" for whole words`);
    }
  }
  for (const s of skills) {
    const core = path.join(dir, s, "SKILL.md");
    if (!fs.existsSync(core)) {
      r.errors.push(`${core}: missing`);
      continue;
    }
    const text = fs.readFileSync(core, "utf8");
    const size = Buffer.byteLength(text);
    r.cores[s] = size;
    if (size > MAX_CORE_BYTES) r.errors.push(`${core}: ${size} bytes, over the ${MAX_CORE_BYTES}-byte core limit; move detail into chapters`);
    const name = /^name:\s*(.+)$/m.exec(text)?.[1]?.trim();
    if (name !== s) r.errors.push(`${core}: frontmatter name is "${name ?? ""}", expected "${s}"`);
    for (const m of text.matchAll(CHAPTER_LINK)) {
      if (!fs.existsSync(path.join(dir, s, m[1]!))) r.errors.push(`${core}: lists chapter ${m[1]} which does not exist`);
    }
    if (!used.has(s)) r.errors.push(`${core}: no row of ${tableFile} names skill "${s}"`);
  }
  const schemaRef = (JSON.parse(fs.readFileSync(tableFile, "utf8")) as { $schema?: string }).$schema;
  if (schemaRef && !/^https?:/.test(schemaRef)) {
    const schemaFile = path.resolve(path.dirname(tableFile), schemaRef);
    if (!fs.existsSync(schemaFile) || fs.readFileSync(schemaFile, "utf8") !== schemaText()) {
      r.errors.push(`${schemaFile}: missing or out of date; run skillgate schema --write`);
    }
  }
  return r;
}

export async function lintMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("lint", args);
  const file = tableFileOf(f.get("table"), root);
  // A table that cannot be read is an I/O error (3); one that reads but is wrong is a finding (1).
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch (e) {
    throw new UserError(`cannot read the trigger table ${file}: ${(e as Error).message}`);
  }
  const r = await lintProject(file, root);
  const code = r.errors.length ? EXIT.findings : EXIT.ok;
  if (f.has("json")) {
    console.log(JSON.stringify({ table: tableJson(file, r.rows), errors: r.errors, warnings: r.warnings, cores: r.cores }, null, 2));
    return code;
  }
  const c = colours();
  console.log(tableHeader(file, r.rows));
  for (const w of r.warnings) console.log(`${c.yellow("warning:")} ${w}`);
  for (const e of r.errors) console.log(`${c.red("error:")} ${e}`);
  const sizes = Object.values(r.cores);
  console.log(
    `${r.errors.length} errors, ${r.warnings.length} warnings; ${sizes.length} skills, cores ${sizes.reduce((a, b) => a + b, 0)} bytes in all, largest ${Math.max(0, ...sizes)}`,
  );
  return code;
}
