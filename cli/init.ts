// `skillgate init`: give a project its own table, the skills its rows name, and
// cases that prove each row, so `install` has nothing to refuse and `cases` /
// `mutate` have something to run. Never overwrites what the user already has.
// The table is the starter (templates/starter), skillgate's whole one (--full),
// or one that extends the default (--extends: the default's own cases pin its rows).
import fs from "node:fs";
import path from "node:path";
import { EXIT, parseArgs } from "./args.js";
import { compiledTable } from "./table-file.js";
import { copySkills, isProjectDependency } from "./install.js";
import { gitHooksVerb } from "./git-hooks.js";

/** The starter table and its cases (templates/starter), or skillgate's whole demonstration table. */
export function templateDirOf(root: string): string {
  return path.join(root, "templates", "starter");
}

/** `$schema` as seen from <project>/.claude/triggers.json: through node_modules when skillgate is a dependency. */
export function schemaRefFor(projectDir: string, root: string): string {
  if (isProjectDependency(projectDir, root) && path.resolve(projectDir) !== path.resolve(root)) return "../node_modules/skillgate/triggers.schema.json";
  return path.relative(path.join(projectDir, ".claude"), path.join(root, "triggers.schema.json")).split(path.sep).join("/");
}

/** The table text with its `$schema` pointing where it resolves; the rest of the text untouched. */
export function withSchema(text: string, ref: string): string {
  const re = /("\$schema"\s*:\s*)"[^"]*"/;
  if (re.test(text)) return text.replace(re, (_m, key: string) => `${key}${JSON.stringify(ref)}`);
  return text.replace(/^\{/, `{\n  "$schema": ${JSON.stringify(ref)},`);
}

/** A table with no rows of its own: the default's rows, each replaceable by id (hooks/io/table-load.ts extendRows). */
export function extendsTableText(schemaRef: string): string {
  return `${JSON.stringify({ $schema: schemaRef, version: 1, extends: "default", rows: [] }, null, 2)}\n`;
}

/** The case schema as seen from <project>/.claude/skillgate/cases/. */
export function caseSchemaRefFor(projectDir: string, root: string): string {
  if (isProjectDependency(projectDir, root) && path.resolve(projectDir) !== path.resolve(root)) return "../../../node_modules/skillgate/cases/case.schema.json";
  return path
    .relative(path.join(projectDir, ".claude", "skillgate", "cases"), path.join(root, "cases", "case.schema.json"))
    .split(path.sep)
    .join("/");
}

/**
 * skillgate's own cases for its default table (mutation shows each of its rows
 * turns one red), for a table that extends it. Left out: cases that bring a
 * table of their own (they test loading, not rows). Their fixtures stay in the
 * package, where every suite finds them (cli/cases/suite.ts).
 */
export function copyDefaultCases(root: string, casesDir: string, schemaRef: string): number {
  const from = path.join(root, "cases");
  fs.mkdirSync(casesDir, { recursive: true });
  let n = 0;
  for (const name of fs
    .readdirSync(from)
    .filter((x) => x.endsWith(".json") && x !== "case.schema.json")
    .sort()) {
    const text = fs.readFileSync(path.join(from, name), "utf8");
    if ((JSON.parse(text) as { table?: unknown }).table !== undefined) continue;
    fs.writeFileSync(path.join(casesDir, name), withSchema(text, schemaRef), { flag: "wx" });
    n++;
  }
  return n;
}

export async function initMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("init", args);
  const projectDir = path.resolve(f.get("project") ?? ".");
  if (!fs.statSync(projectDir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`skillgate init: --project ${projectDir}: no such directory`);
    return EXIT.config;
  }
  const full = f.has("full");
  const extend = f.has("extends");
  const claudeDir = path.join(projectDir, ".claude");
  const tableFile = path.join(claudeDir, "triggers.json");

  // 1. The table.
  if (fs.existsSync(tableFile)) {
    const asked = extend ? "--extends" : full ? "--full" : "";
    console.log(`${tableFile}: exists, left as is${asked ? ` (init never overwrites it: move it away and run init ${asked} again for that table)` : ""}`);
  } else {
    const ref = schemaRefFor(projectDir, root);
    const text = extend
      ? extendsTableText(ref)
      : withSchema(fs.readFileSync(full ? path.join(root, "triggers.json") : path.join(templateDirOf(root), "triggers.json"), "utf8"), ref);
    fs.mkdirSync(claudeDir, { recursive: true });
    fs.writeFileSync(tableFile, text, { flag: "wx" });
    const what = extend
      ? `extends skillgate's default table: its rows apply, a row of yours with the same id replaces one; add yours to "rows"`
      : full
        ? "skillgate's full demonstration table"
        : "starter table: commit gate, push blocks, paired documents, done check, server-logs hint, output cap, context budget, handoff";
    console.log(`${tableFile}: written (${what})`);
  }
  let rows: { id: string; skill?: string }[];
  let skillsDir: string;
  try {
    const t = await compiledTable(tableFile, root);
    rows = t.rows.map((r) => r.row);
    skillsDir = t.skillsDir;
  } catch (e) {
    console.error(`skillgate init: ${tableFile} does not validate: ${(e as Error).message}; fix it (skillgate lint --table ${tableFile}) and run init again`);
    return EXIT.config;
  }

  // 2. The skills its rows name, where the Skill tool finds them (the project's .claude/skills).
  const names = [...new Set(rows.flatMap((r) => (r.skill ? [r.skill] : [])))];
  const dest = path.join(claudeDir, "skills");
  const c = copySkills(names, [path.join(root, "skills")], dest);
  if (c.copied.length) console.log(`${dest}: copied ${c.copied.join(", ")} (yours to edit; init never overwrites them)`);
  const kept = names.filter((n) => !c.copied.includes(n) && !c.unknown.includes(n));
  if (kept.length) console.log(`${dest}: ${kept.join(", ")} already there, left as is`);
  if (path.resolve(skillsDir) !== path.resolve(dest))
    console.log(`note: the table's skillsDir is ${skillsDir}; the Skill tool loads skills from ${dest} and ~/.claude/skills`);
  for (const name of c.unknown) console.log(`skill "${name}" is yours to write: ${path.join(dest, name, "SKILL.md")} (skillgate ships no skill by that name)`);

  // 3. Cases that prove each starter row (each row turns a case red when removed: skillgate mutate checks it).
  const casesDir = path.join(claudeDir, "skillgate", "cases");
  if (f.has("no-cases"))
    console.log(
      `no starter cases written: write one per row with \`skillgate cases --new <row id>\` (into ${casesDir}; format: docs/cases.md in skillgate's repository)`,
    );
  else if (fs.existsSync(casesDir)) console.log(`${casesDir}: exists, left as is`);
  else if (extend || full) {
    // The full table is the default's rows, so the default's own cases pin each of them (mutate shows it).
    const n = copyDefaultCases(root, casesDir, caseSchemaRefFor(projectDir, root));
    const whose = extend ? "the default table you inherit" : "the full table (a copy of the default)";
    console.log(
      `${casesDir}: ${n} cases from skillgate's own suite, which pin every row of ${whose} (a case that fails after an upgrade of skillgate names a default row that changed)`,
    );
  } else {
    fs.cpSync(path.join(templateDirOf(root), "cases"), casesDir, { recursive: true, errorOnExist: true, force: false });
    console.log(`${casesDir}: ${fs.readdirSync(casesDir).filter((x) => x.endsWith(".json")).length} starter cases, one or more per row`);
  }

  // 4. The git hooks: an agent's commit or push is checked where git makes it.
  gitHooksVerb({ verb: "install", project: projectDir, root, say: (l) => console.log(l) });

  const rel = path.relative(process.cwd(), projectDir) || ".";
  const at = rel === "." ? "" : ` --project ${rel}`;
  console.log(
    [
      "",
      "next:",
      `  npx skillgate install${at}     hooks into .claude/settings.json (portable: commit it with .claude/)`,
      `  npx skillgate doctor${at}      check the installation`,
      `  npx skillgate cases --dir ${path.join(rel, ".claude", "skillgate", "cases")} --table ${path.join(rel, ".claude", "triggers.json")}`,
    ].join("\n"),
  );
  return EXIT.ok;
}
