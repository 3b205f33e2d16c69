// The table: zod errors name the row and the field; globs and words behave;
// the shipped JSON Schema matches the zod schema; lint catches broken skills.
import { defaultTable as defaultTableFile } from "./helpers.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { validateTable } from "../hooks/core/table/schema.ts";
import { loadTable } from "../hooks/io/table-load.ts";
import { wordsMatcher } from "../hooks/core/table/compile.ts";
import { lintProject } from "../cli/lint.ts";
import { defaultTable, root } from "./helpers.ts";

const base = () => JSON.parse(fs.readFileSync(defaultTable, "utf8"));

test("a wrong kind names the row id and the field", () => {
  const t = base();
  t.rows[3].kind = "gaet";
  const r = validateTable(t, "triggers.json");
  assert.equal(r.ok, false);
  assert.match((r as { error: string }).error, /triggers\.json: row "paired-docs-write", field kind:/);
});

test("a gate without a skill, an unknown field and a duplicate id are each reported", () => {
  const t = base();
  delete t.rows[0].skill;
  assert.match((validateTable(t, "t.json") as { error: string }).error, /row "commit-gate", field skill/);
  const u = base();
  u.rows[1].when.command.nmae = "git";
  assert.match((validateTable(u, "t.json") as { error: string }).error, /row "push-head-block", field when\.command/);
  const d = base();
  d.rows.push({ ...d.rows[0] });
  assert.match((validateTable(d, "t.json") as { error: string }).error, /row "commit-gate" is defined twice/);
});

test("an invalid regex is reported with its row and field, not thrown", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-table-"));
  const t = base();
  t.rows[6].when.prompt.words = ["(unclosed"];
  fs.writeFileSync(path.join(dir, "t.json"), JSON.stringify(t));
  const r = await loadTable(path.join(dir, "t.json"), undefined);
  assert.equal(r.ok, false);
  assert.match((r as { error: string }).error, /row "logs-hint", field when\.prompt/);
});

test("a table that is not JSON says so and keeps the fail mode from the environment", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-table-"));
  fs.writeFileSync(path.join(dir, "t.json"), "{ rows: [");
  const r = await loadTable(path.join(dir, "t.json"), undefined, { SKILLGATE_FAIL_MODE: "closed" });
  assert.equal(r.ok, false);
  assert.match((r as { error: string }).error, /is not valid JSON/);
  assert.equal((r as { failMode: string }).failMode, "closed");
});

test("the validated table is cached by content: an edit is revalidated", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-cache-"));
  const file = path.join(dir, "t.json");
  fs.writeFileSync(file, JSON.stringify({ ...base(), skillsDir: path.join(root, "skills") }));
  assert.equal((await loadTable(file, dir)).ok, true);
  assert.equal(fs.readdirSync(dir).filter((f) => f.startsWith(".table-")).length, 1);
  const broken = base();
  broken.rows[0].kind = "nope";
  fs.writeFileSync(file, JSON.stringify(broken));
  const again = await loadTable(file, dir);
  assert.ok(again.ok, "one bad row is not every row");
  assert.deepEqual(
    again.compiled.disabled.map((d) => d.id),
    [base().rows[0].id],
    "a cached copy of the old table must not hide the broken edit",
  );
  assert.ok(!again.compiled.rows.some((r) => r.row.id === base().rows[0].id));
});

test("one bad row disables only itself; a table that does not parse keeps the fail policy", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-rows-"));
  const file = path.join(dir, "t.json");
  const t = base();
  t.rows[1].when.command.nmae = "git";
  fs.writeFileSync(file, JSON.stringify(t));
  const r = await loadTable(file, undefined);
  assert.ok(r.ok);
  assert.equal(r.compiled.disabled.length, 1);
  assert.match(r.compiled.disabled[0]?.error ?? "", /row "push-head-block": field when\.command/);
  assert.deepEqual(r.compiled.disabled[0]?.governs, { program: "git", writes: false, subagent: false, final: false });
  assert.equal(r.compiled.rows.length, t.rows.length - 1);
  fs.writeFileSync(file, "{");
  assert.equal((await loadTable(file, undefined)).ok, false);
});

test("a tampered table cache is not trusted: it is rebuilt from the table", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-tamper-"));
  const file = path.join(dir, "t.json");
  fs.writeFileSync(file, JSON.stringify({ ...base(), skillsDir: path.join(root, "skills") }));
  assert.ok((await loadTable(file, dir)).ok);
  const cache = fs.readdirSync(dir).find((f) => f.startsWith(".table-"));
  assert.ok(cache);
  const p = path.join(dir, cache);
  const [digest, body] = [fs.readFileSync(p, "utf8").split("\n")[0], fs.readFileSync(p, "utf8").split("\n").slice(1).join("\n")];
  const forged = JSON.parse(body ?? "{}");
  forged.table.rows = forged.table.rows.filter((r: { kind: string }) => r.kind !== "gate" && r.kind !== "block");
  fs.writeFileSync(p, `${digest}\n${JSON.stringify(forged)}`);
  const r = await loadTable(file, dir);
  assert.ok(r.ok);
  assert.ok(
    r.compiled.rows.some((x) => x.row.kind === "block"),
    "the forged cache (gates removed) was ignored",
  );
});

test("extends: default adds rows to the default table; the same id replaces", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-extends-"));
  const file = path.join(dir, "t.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      extends: "default",
      skillsDir: path.join(root, "skills"),
      rows: [
        { id: "commit-gate", kind: "gate", skill: "commit", when: { command: { name: "git", sub: ["commit", "merge"] } } },
        { id: "own-gate", kind: "gate", skill: "release", when: { command: { name: "make", sub: ["release"] } } },
      ],
    }),
  );
  const r = await loadTable(file, undefined, process.env, { defaultTable: defaultTableFile });
  assert.ok(r.ok, !r.ok ? r.error : "");
  const ids = r.compiled.rows.map((x) => x.row.id);
  assert.ok(ids.includes("push-head-block") && ids.includes("own-gate"));
  assert.equal(ids.filter((i) => i === "commit-gate").length, 1);
  const commit = r.compiled.rows.find((x) => x.row.id === "commit-gate");
  assert.deepEqual(commit?.row.when.command?.sub, ["commit", "merge"]);
});

test("whole words are Unicode-aware: «лог» is not inside «логин», «стенда» is found after «стенд» fails", () => {
  const m = wordsMatcher(["лог", "logs?"]);
  assert.equal(m("почини логин"), undefined);
  assert.equal(m("смотри лог"), "лог");
  assert.equal(m("Лог упал"), "Лог");
  assert.equal(m("the catalogs"), undefined);
  assert.equal(m("see logs."), "logs");
  assert.equal(wordsMatcher(["стенд", "стенда"])("логи со стенда"), "стенда");
});

test("triggers.schema.json is the JSON Schema generated from the zod schema", async () => {
  const { schemaText } = await import("../cli/schema.ts");
  assert.equal(fs.readFileSync(path.join(root, "triggers.schema.json"), "utf8"), schemaText());
});

test("lint passes on the shipped table and skills", async () => {
  const r = await lintProject(defaultTable);
  assert.deepEqual(r.errors, []);
  assert.equal(Object.keys(r.cores).length, 13);
  for (const [skill, size] of Object.entries(r.cores)) assert.ok(size <= 3072, `${skill} core is ${size} bytes`);
});

test("lint reports an oversized core, a missing chapter, a skill without a row and a row without a skill", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-lint-"));
  fs.cpSync(path.join(root, "skills"), path.join(dir, "skills"), { recursive: true });
  fs.appendFileSync(path.join(dir, "skills/logs/SKILL.md"), "x".repeat(3000));
  fs.appendFileSync(path.join(dir, "skills/commit/SKILL.md"), "\n- [chapters/gone.md](chapters/gone.md)\n");
  fs.mkdirSync(path.join(dir, "skills/orphan"));
  fs.writeFileSync(path.join(dir, "skills/orphan/SKILL.md"), "---\nname: orphan\n---\n");
  const t = base();
  delete t.$schema;
  t.rows.push({ id: "ghost-hint", kind: "hint", skill: "ghost", when: { prompt: { words: ["boo"] } } });
  fs.writeFileSync(path.join(dir, "triggers.json"), JSON.stringify(t));
  const r = await lintProject(path.join(dir, "triggers.json"));
  const all = r.errors.join("\n");
  assert.match(all, /logs\/SKILL\.md: \d+ bytes, over the 3072-byte core limit/);
  assert.match(all, /lists chapter chapters\/gone\.md which does not exist/);
  assert.match(all, /no row of .* names skill "orphan"/);
  assert.match(all, /row "ghost-hint", field skill: no skill "ghost"/);
});

test("fastHash (the table cache's name and keyed check): any one changed byte, the key, the length change it", async () => {
  const { fastHash } = await import("../hooks/io/fast-hash.ts");
  const text = fs.readFileSync(path.join(root, "triggers.json"), "utf8");
  const h = fastHash(text);
  assert.match(h, /^[0-9a-f]{16}$/);
  assert.equal(fastHash(text), h, "stable");
  const seen = new Set([h]);
  for (let i = 0; i < text.length; i += 97) {
    const changed = text.slice(0, i) + String.fromCharCode(text.charCodeAt(i) ^ 1) + text.slice(i + 1);
    seen.add(fastHash(changed));
  }
  assert.equal(seen.size, 1 + Math.ceil(text.length / 97), "every one-character change gives a new hash");
  assert.notEqual(fastHash(text, "k1"), fastHash(text, "k2"));
  assert.notEqual(fastHash(text, "k1"), h);
  assert.notEqual(fastHash("a"), fastHash("a\0"), "zero padding does not hide a trailing NUL");
});

test("write globs from a cached table: the kept regexes match exactly as picomatch does, and picomatch is not needed", async () => {
  const picomatch = (await import("picomatch")).default;
  const { globRegexes, keptGlobEngine } = await import("../hooks/core/table/glob-regex.ts");
  const table = JSON.parse(fs.readFileSync(path.join(root, "triggers.json"), "utf8")) as { rows: { when: { writes?: string[] } }[] };
  const globs = [
    ...new Set([
      ...table.rows.flatMap((r) => r.when.writes ?? []),
      "*_RU.md",
      "db/migrations/*.sql",
      "**/*.lock",
      "src/**",
      "!*.md",
      "*.{ts,tsx}",
      "docs/[a-c]*.md",
      "a[b",
      ".env*",
      "**/.github/**",
      "+(a|b).txt",
      "x/**/y",
    ]),
  ];
  const paths = [
    "README_RU.md",
    "docs/README_RU.md",
    "readme_ru.md",
    "db/migrations/001.sql",
    "db/migrations/x/001.sql",
    "a/b/c.lock",
    "src",
    "src/a/b.ts",
    "x.md",
    "x.ts",
    "x.tsx",
    "docs/b1.md",
    "docs/d.md",
    "a[b",
    ".env",
    ".env.local",
    "a/.github/workflows/x.yml",
    "a.txt",
    "c.txt",
    "x/y",
    "x/a/b/y",
    "",
    "/abs/README_RU.md",
    ".hidden_RU.md",
    "package-lock.json",
    "Cargo.lock",
  ];
  const kept = globRegexes(picomatch.makeRe, globs);
  const engine = keptGlobEngine(JSON.parse(JSON.stringify(kept)), globs);
  assert.ok(engine, "every glob has a kept regex");
  for (const g of globs) {
    const theirs = picomatch([g], { dot: true });
    const ours = engine([g], { dot: true });
    for (const p of paths) assert.equal(ours(p), theirs(p), `${JSON.stringify(g)} on ${JSON.stringify(p)}`);
  }
  assert.equal(keptGlobEngine(kept, [...globs, "new/*.md"]), undefined, "a glob without a kept regex: the caller loads picomatch");
});
