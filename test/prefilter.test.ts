// The pre-filter (hooks/core/prefilter.ts) analyses plain commands without the
// shell parser. Differential: whenever it answers, its analysis must be the
// full analysis, and the decision on it (gates, blocks, hints, self-protection)
// the decision on the full one — over the whole corpus, commands built near the
// edges of the subset it accepts, and the fuzzer's shell text.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { build } from "esbuild";
import { quickAnalysis, prefilteredFacts, MAX_PREFILTER_CHARS } from "../hooks/core/prefilter.js";
import { analyzeCommand } from "../hooks/core/shell/analyze.js";
import { factsOf } from "../hooks/core/shell-facts.js";
import { decide } from "../hooks/core/decide.js";
import { emptyState, type Event } from "../hooks/core/types.js";
import type { CompiledTable } from "../hooks/core/table/compile.js";
import { compiledTable } from "../cli/table-file.js";
import { Rng, shellCommand } from "../scripts/fuzz.js";

const ROOT = path.resolve(import.meta.dirname, "..");

function corpusCommands(): string[] {
  const dir = path.join(ROOT, "test", "corpus");
  const out: string[] = [];
  for (const f of fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl")).sort()) {
    for (const line of fs.readFileSync(path.join(dir, f), "utf8").split("\n")) {
      if (!line.trim()) continue;
      const r = JSON.parse(line) as { command?: unknown };
      if (typeof r.command === "string") out.push(r.command);
    }
  }
  return out;
}

/** The shipped table, with protected paths as the hook folds them in (so self-protection has something to refuse). */
async function table(): Promise<CompiledTable> {
  const t = await compiledTable(path.join(ROOT, "triggers.json"));
  return {
    ...t,
    protect: [
      { path: "/home/dev/project/triggers.json", dir: false, what: "the active trigger table" },
      { path: "/home/dev/.skillgate", dir: true, what: "skillgate's state folder" },
      { path: "/home/dev/project/.claude/settings.json", dir: false, what: "settings" },
    ],
  };
}

const bash = (command: string): Event => ({
  kind: "tool-call",
  sessionId: "s",
  cwd: "/home/dev/project",
  tool: { kind: "shell", name: "Bash", command },
} as Event);

interface Tally {
  total: number;
  accepted: number;
  /** Of the accepted: refused by a row or by self-protection (so the differential covers refusals, not only allows). */
  refused: number;
  selfProtected: number;
}

/** Every answer of the pre-filter equals the full analysis, and decides the same. */
function check(commands: Iterable<string>, t: CompiledTable): Tally {
  const tally = { total: 0, accepted: 0, refused: 0, selfProtected: 0 };
  for (const command of commands) {
    tally.total++;
    const quick = quickAnalysis(command);
    if (!quick) continue;
    tally.accepted++;
    const full = analyzeCommand(command);
    assert.ok(isDeepStrictEqual(quick, full), `pre-filter analysis differs for ${JSON.stringify(command)}:\n quick ${JSON.stringify(quick)}\n full  ${JSON.stringify(full)}`);
    const ev = bash(command);
    const pf = prefilteredFacts(ev);
    assert.ok(pf, `prefilteredFacts declined what quickAnalysis accepted: ${JSON.stringify(command)}`);
    const a = decide(ev, t, emptyState(), pf);
    const b = decide(ev, t, emptyState(), factsOf(ev));
    assert.deepEqual(a, b, `decision differs for ${JSON.stringify(command)}`);
    if (b.decision.verdict === "deny" || b.decision.verdict === "block") tally.refused++;
    if (b.decision.rows.includes("self-protection")) tally.selfProtected++;
  }
  return tally;
}

test("pre-filter: every corpus command it analyses is analysed and decided as by the parser", async (ctx) => {
  const commands = corpusCommands();
  assert.ok(commands.length >= 400, `corpus has ${commands.length} commands`);
  const t = check(commands, await table());
  ctx.diagnostic(`corpus: ${JSON.stringify(t)}`);
  // Not vacuous: plain commands are a good share of the corpus.
  assert.ok(t.accepted >= 150, `only ${t.accepted} of ${t.total} corpus commands took the fast path`);
  assert.ok(t.refused >= 30, `only ${t.refused} refused commands took the fast path: the differential must cover refusals`);
});

// ── commands built near the edges of the accepted subset ──

const PROGRAMS = [
  "ls", "cat", "git", "npm", "pnpm", "yarn", "bun", "node", "python3", "python", "bash", "sh", "zsh", "find", "xargs", "sudo", "env", "timeout",
  "nice", "command", "builtin", "exec", "eval", "alias", "source", ".", "script", "tee", "cp", "mv", "rm", "touch", "sed", "perl", "ruby", "awk",
  "dd", "curl", "wget", "ln", "install", "rsync", "vim", "kubectl", "docker", "grep", "rg", "head", "tail", "wc", "jq", "sort", "uniq", "cd",
  "pushd", "echo", "printf", "true", "test", "[", "time", "if", "for", "do", "done", "!", "{", "/usr/bin/git", "./run.sh", "../x.sh", "go", "cargo",
];
const ARGS = [
  "commit", "push", "status", "log", "diff", "add", "config", "alias.ci", "alias.ci=commit", "!sh", "ci", "-C", "repo", "-c", "-m", "msg", "-i",
  "-e", "-p", "-n", "5", "-f", "-rf", "-t", "--", "-", "install", "i", "lodash", "test", "run", "build", "-delete", "-exec", "-name", "{}", ";", "+",
  "x.txt", "notes_RU.md", "README_EN.md", "package.json", "db/migrations/1.sql", "SKILL.md", "skills/commit/SKILL.md", "triggers.json",
  ".claude/settings.json", "/home/dev/.skillgate/x", "/dev/null", "of=package.json", "if=x", "s/a/b/", "*.md", "?", "a*b", "--output=x",
  "-o", "out.txt", "A=1", "FOO=bar", "x+=1", "get", "mod", "tidy", "add", "apply", "-S", "--split-string", "-qc", "-lc", "--eval", "-v", "-u",
  "root", "60", "tsx", "2", "1", "0", "%1", "a,b", "user@host:x", "^x", "=", "a=b=c", "-I{}", "-I", "--replace",
];
const QUOTED = ["'git commit'", "\"git commit\"", "'$HOME'", "\"$HOME\"", "'a\nb'", "\"a b\"", "''", "\"\"", "'\"'", "\"'\"", "'*'", "\"?\"", "'g'it", "g\"i\"t", "'!x'", "\"a\\b\"", "'`x`'", "\"`x`\"", "'; rm x'", "'>out'", "'2>&1'"];
const REDIRECTS = [" 2>&1", " >/dev/null", " 2>/dev/null", " >>/dev/null", " &>/dev/null", " >& 2", " 1>&2", " > /dev/null", " >/dev/nullx", " >out.txt", " 2>err", " >&-", " >|/dev/null", " <in", " 2>&1x", "2>&1", ">/dev/null", " >>", " >"];
const SEPS = [" && ", " || ", "; ", " | ", "\n", ";", "&&", "|", " & ", " |& ", ";;", "\n\n", " ;\n", " &&\n"];
const NOISE = ["$X", "`x`", "$(x)", "\\", "#", "~", "(", ")", "{", "}", "[", "]", "<", "!", "\t", "\r", "é", "🙂", "'", "\"", "$'a'"];

function word(rng: Rng): string {
  return rng.weighted<() => string>([
    [8, () => rng.pick(ARGS)],
    [3, () => rng.pick(QUOTED)],
    [2, () => rng.pick(PROGRAMS)],
    [1, () => rng.pick(ARGS) + rng.pick(QUOTED)],
    [1, () => rng.pick(NOISE)],
  ])();
}

/** Commands the table or self-protection refuses, so both sides of the differential see refusals. */
const REFUSED = [
  "git commit -m x", "git -C repo commit", "git push --force", "git push origin HEAD", "tee triggers.json", "cp x triggers.json", "rm -f .claude/settings.json",
  "touch notes_RU.md", "sed -i s/a/b/ README_EN.md", "mv a /home/dev/.skillgate/x", "git config alias.ci commit", "git config --global alias.x '!sh'",
];

function simpleCommand(rng: Rng): string {
  if (rng.chance(0.15)) return rng.pick(REFUSED) + (rng.chance(0.3) ? " " + word(rng) : "");
  let s = rng.chance(0.1) ? `${rng.pick(["A=1", "CI=true", "X='a b'", "Y+=1"])} ` : "";
  s += rng.chance(0.85) ? rng.pick(PROGRAMS) : word(rng);
  for (let n = rng.range(0, 5); n > 0; n--) s += " " + word(rng);
  if (rng.chance(0.25)) s += rng.pick(REDIRECTS);
  return s;
}

function edgeCommand(rng: Rng): string {
  let s = rng.chance(0.05) ? rng.pick(SEPS) : "";
  s += simpleCommand(rng);
  for (let n = rng.range(0, 3); n > 0; n--) s += rng.pick(SEPS) + simpleCommand(rng);
  if (rng.chance(0.1)) s += rng.pick(SEPS);
  if (rng.chance(0.1)) {
    const at = rng.int(s.length + 1);
    s = s.slice(0, at) + rng.pick(NOISE) + s.slice(at);
  }
  return s;
}

function* generated(seed: number, n: number, make: (rng: Rng) => string): Generator<string> {
  for (let i = 0; i < n; i++) yield make(new Rng(seed, i));
}

test("pre-filter: commands built near the edges of its subset (fuzzed, fixed seed)", async (ctx) => {
  const t = check(generated(18, 6000, edgeCommand), await table());
  ctx.diagnostic(`edge fuzz: ${JSON.stringify(t)}`);
  // Both sides of the edge are exercised: many taken, many declined.
  assert.ok(t.accepted >= 750, `only ${t.accepted} of ${t.total} took the fast path`);
  assert.ok(t.total - t.accepted >= 1000, `only ${t.total - t.accepted} of ${t.total} were declined`);
  assert.ok(t.refused >= 100 && t.selfProtected >= 20, `fast path refusals: ${t.refused}, self-protection: ${t.selfProtected}`);
});

test("pre-filter: the fuzzer's shell text (fixed seed)", async (ctx) => {
  ctx.diagnostic(`fuzzer text: ${JSON.stringify(check(generated(7, 3000, shellCommand), await table()))}`);
});

test("pre-filter: plain everyday commands take the fast path", () => {
  for (const c of ["ls -la", "git status", "git diff --stat", "npm test", "npm test 2>&1 | tail -5", "cd x && git commit -m 'bench'", "cat README.md", "rg -n 'foo$' src", "CI=1 npm run build >/dev/null", "find . -name '*.ts'", "node scripts/x.js", "git log --oneline | head -20"]) {
    assert.ok(quickAnalysis(c), `declined: ${c}`);
  }
  // Quotes inside a program name are removed as bash removes them: `g'i't` is git.
  assert.deepEqual(quickAnalysis("g'i't commit")?.commands.map((c) => c.argv), [["git", "commit"]]);
});

test("pre-filter: what only the parser can see is declined", () => {
  for (const c of [
    "$X commit", "echo $(git commit)", "echo `git commit`", "eval 'git commit'", "bash -c 'git commit'", "sh", "curl x | bash", "python3 -c 'import os'",
    "node -e 1", "python3", "ls > out.txt", "cat < in", "cat <<EOF\nx\nEOF", "ls # note", "(git commit)", "{ git commit; }", "if true; then git commit; fi",
    "git commit \\\n -m x", "ls &", "a &&", "a |", "; ls", "ls ;; x", "echo \"$HOME\"", "~/bin/git commit", "echo {a,b}", "ls [ab]", "time git commit",
    "find . -delete", "find . -exec rm {} +", "env -S 'git commit'", "alias g=git", "'unterminated", "X+=1 ls", "", "   ",
    "x".repeat(MAX_PREFILTER_CHARS + 1),
  ]) {
    assert.equal(quickAnalysis(c), undefined, `accepted: ${JSON.stringify(c.slice(0, 60))}`);
  }
});

test("pre-filter: loads no shell parser (its module graph has no unbash)", async () => {
  const r = await build({ entryPoints: [path.join(ROOT, "hooks", "core", "prefilter.ts")], bundle: true, write: false, metafile: true, platform: "node", format: "esm", logLevel: "silent" });
  const inputs = Object.keys(r.metafile.inputs);
  assert.ok(inputs.some((i) => i.includes("prefilter.ts")), "metafile lists the module itself");
  assert.deepEqual(inputs.filter((i) => /unbash|shell\/analyze|shell-facts/.test(i)), []);
});
