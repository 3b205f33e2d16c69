// The README and docs/: the README stays short and opens with the two commands,
// every relative link and anchor resolves, docs/README.md lists every page, and
// no user-facing text speaks of the project's history.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { cliRun, root } from "./helpers.ts";
import { anchorsOf, brokenLinks, filesUnder, githubSlug, historyWords, jsonStrings, linksOf } from "./docs-check.ts";

const readme = path.join(root, "README.md");
const docsDir = path.join(root, "docs");
const read = (f: string) => fs.readFileSync(f, "utf8");
const markdown = () => [readme, ...filesUnder(docsDir, [".md"])];
const rel = (f: string) => path.relative(root, f);

test("the README is under 10 KB", () => {
  const size = fs.statSync(readme).size;
  assert.ok(size < 10_000, `README.md is ${size} bytes; move detail into a docs/ page`);
});

test("the README shows the report's screenshot, kept small", () => {
  const images = linksOf(read(readme)).filter((l) => l.target.endsWith(".png"));
  assert.deepEqual(
    images.map((l) => l.target),
    ["docs/img/report.png"],
  );
  const size = fs.statSync(path.join(root, "docs", "img", "report.png")).size;
  assert.ok(size > 10_000 && size < 300_000, `docs/img/report.png is ${size} bytes`);
});

test("the README opens with the two commands", () => {
  const lines = read(readme).split("\n");
  const body = lines.slice(lines.findIndex((l) => l.startsWith("# ")) + 1).filter((l) => l.trim() !== "");
  assert.equal(body[0], "```sh", "the first thing after the title is a sh block");
  assert.match(body[1] ?? "", /^npm ci && npm run demo(\s+#.*)?$/, "its first command");
  assert.match(body[2] ?? "", /^npm ci && npm test(\s+#.*)?$/, "its second command");
});

test("every relative link and #anchor in the README and docs/ resolves", () => {
  const problems = markdown().flatMap((f) => brokenLinks(f, read(f), root));
  assert.deepEqual(problems, []);
  assert.ok(markdown().reduce((n, f) => n + linksOf(read(f)).length, 0) > 40, "the pages do link to each other");
});

test("docs/README.md links every page in docs/", () => {
  const index = path.join(docsDir, "README.md");
  const linked = new Set(linksOf(read(index)).map((l) => path.resolve(docsDir, l.target.split("#")[0]!)));
  const missing = filesUnder(docsDir, [".md"])
    .filter((f) => f !== index && !linked.has(f))
    .map(rel);
  assert.deepEqual(missing, [], "pages the index does not list");
});

test("no history words in the README, docs/, triggers.json, skills/, templates/ and the corpus", () => {
  const found: string[] = [];
  const corpus = [...filesUnder(path.join(root, "test/corpus"), [".jsonl"]), path.join(root, "test/attack-sequences.jsonl")];
  for (const f of [...markdown(), ...filesUnder(path.join(root, "skills"), [".md"]), ...filesUnder(path.join(root, "templates"), [".md", ".json"]), ...corpus])
    for (const w of historyWords(read(f))) found.push(`${rel(f)} ${w}`);
  for (const s of jsonStrings(JSON.parse(read(path.join(root, "triggers.json")))))
    for (const w of historyWords(s)) found.push(`triggers.json: ${w.replace(/^line 1: /, "")} in "${s}"`);
  assert.deepEqual(found, []);
});

test("no history words in skillgate --help", async () => {
  // In this process: the text is what is checked (cli.test.ts runs the built command).
  const r = await cliRun(["--help"], { cwd: root, env: { ...process.env } });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /usage: skillgate/, "the help text itself");
  assert.deepEqual(historyWords(r.out), [], "cli/args.ts holds the help text");
});

test("the checks catch what they are meant to catch", () => {
  // GitHub's anchors, for headings of the kinds these pages use.
  assert.equal(githubSlug("Measure: was the skill there when it was needed?"), "measure-was-the-skill-there-when-it-was-needed");
  assert.equal(githubSlug("Starter cases: `skillgate cases --new ROW[,ROW...]` or `--new all`"), "starter-cases-skillgate-cases---new-rowrow-or---new-all");
  assert.equal(githubSlug("1. ConfigChange refuses any weakening (Claude Code)"), "1-configchange-refuses-any-weakening-claude-code");
  assert.equal(githubSlug("Architecture — one page"), "architecture--one-page");
  assert.equal(githubSlug('Reuse (`"reuse": true`, off by default)'), "reuse-reuse-true-off-by-default");
  assert.deepEqual([...anchorsOf("# A\n## Limits\n```\n# not a heading\n```\n## Limits\n")], ["a", "limits", "limits-1"]);
  // A missing file, a missing anchor, and links inside code that are not links.
  const file = path.join(docsDir, "planted.md");
  const text = "[a](start.md) [b](nowhere.md) [c](start.md#no-such-heading) [d](#here) [g](#gone)\n## Here\n`[e](gone.md)`\n```\n[f](gone.md)\n```\n";
  assert.deepEqual(brokenLinks(file, text, root), [
    "docs/planted.md:1: nowhere.md: no such file",
    "docs/planted.md:1: start.md#no-such-heading: no heading makes the anchor #no-such-heading",
    "docs/planted.md:1: #gone: no heading makes the anchor #gone",
  ]);
  // History words, and plain English that only looks like them.
  assert.equal(historyWords(["as iss", "ue 14 said; se", "ed 001; rou", "nd2-x.jsonl; the next wave"].join("")).length, 4);
  // (split like the line above, so the repository-wide grep of the history words finds neither line)
  assert.deepEqual(historyWords(["an open issue, a new seed each run, round in circles, --seed N, 2,000 rounds, arou", "nd 2 ms"].join("")), []);
});
