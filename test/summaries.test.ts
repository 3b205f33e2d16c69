// Typed summaries on a corpus of real tool outputs (test/fixtures/outputs, made by collect.sh there).
// What must survive is found here by each tool's own markers, independently of the summarizer.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { summarize, commandHint, readOnlyCommands, rawReason, classify, PROFILES, type Profile, type ProfileName } from "../hooks/core/summaries/index.ts";
import { toLines } from "../hooks/core/summaries/lines.ts";
import { analyzeCommand } from "../hooks/core/shell/analyze.ts";

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "outputs");

interface Sidecar {
  tool: string;
  version: string;
  command: string;
  exitCode: number;
}

interface Fixture {
  name: string;
  output: string;
  side: Sidecar;
}

const corpus: Fixture[] = readdirSync(DIR)
  .filter((f) => f.endsWith(".txt"))
  .sort()
  .map((f) => {
    const name = f.slice(0, -4);
    return { name, output: readFileSync(path.join(DIR, f), "utf8"), side: JSON.parse(readFileSync(path.join(DIR, `${name}.json`), "utf8")) as Sidecar };
  });

/** The type each corpus output must be classified as (from the command the sidecar names). */
const EXPECTED_TYPE: Record<string, string> = {
  "node-test-tap": "test:node-test",
  "node-test-spec": "test:node-test",
  jest: "test:jest",
  "jest-verbose": "test:jest",
  vitest: "test:vitest",
  "vitest-verbose": "test:vitest",
  pytest: "test:pytest",
  "pytest-verbose": "test:pytest",
  unittest: "test:unittest",
  "go-test": "test:go-test",
  "go-test-verbose": "test:go-test",
  "cargo-test": "test:cargo-test",
  "cargo-build-error": "test:cargo-test",
  "git-diff": "diff",
  "git-diff-stat": "diff",
  "git-show": "diff",
  "git-log": "git-log",
  "git-log-oneline": "git-log",
  "git-status": "unknown",
  "grep-rn": "grep",
  rg: "grep",
  "rg-heading": "grep",
  "ls-R": "listing",
  find: "listing",
  tree: "listing",
  "postgres-log": "log",
  "find-large": "listing",
  "ls-R-large": "listing",
  "tree-large": "listing",
  "grep-large": "grep",
  "node-help": "unknown",
};

/** Failing test names, by each runner's own marks. */
function failingNames(f: Fixture): string[] {
  const lines = toLines(f.output);
  const grab = (re: RegExp) => lines.flatMap((l) => (re.exec(l)?.[1] ? [(re.exec(l)?.[1] ?? "").trim()] : []));
  switch (f.side.tool.split(" (")[0]) {
    case "node --test":
      return [...grab(/^\s*not ok \d+ - (.+?)(?: # .*)?$/), ...grab(/^\s*✖ (.+?) \([\d.]+ms\)$/)];
    case "jest":
      return [...grab(/^\s*● (?!Console$)(.+)$/), ...grab(/^\s*✕ (.+?)(?: \(\d+ ms\))?$/)];
    case "vitest":
      return [...grab(/^\s*FAIL\s+(.+)$/), ...grab(/^\s*× (.+?)(?: \d+ms)?$/)];
    case "pytest":
      return [...grab(/^FAILED (\S+)/), ...grab(/^(\S+::\S+) FAILED/)];
    case "python -m unittest":
      return grab(/^(?:FAIL|ERROR): (\S+)/);
    case "go test":
      return grab(/--- FAIL: (\S+)/);
    case "cargo test":
      return grab(/^test (\S+) \.\.\. FAILED$/);
    default:
      return [];
  }
}

/** The runner's own totals line. */
function summaryLines(f: Fixture): string[] {
  const lines = toLines(f.output);
  const re: Record<string, RegExp> = {
    "node --test": /^(# fail \d+|ℹ fail \d+)$/,
    jest: /^Tests:\s+\d+/,
    vitest: /^\s*Tests\s+\d+/,
    pytest: /^=+ .*\d+ (failed|passed).* in [\d.]+s/,
    "python -m unittest": /^Ran \d+ tests? in|^FAILED \(/,
    "go test": /^FAIL\s+\S+\s+[\d.]+s$/,
    "cargo test": /^test result: /,
  };
  const r = re[f.side.tool.split(" (")[0] ?? ""];
  return r ? lines.filter((l) => r.test(l)) : [];
}

/** Error and warning lines by the tools' own level marks (compilers, panics, server logs). */
function errorLines(f: Fixture): string[] {
  return toLines(f.output).filter((l) => /^(error(\[E\d+\])?:|fatal:|panic:)|\b(ERROR|FATAL|PANIC|WARNING):\s/.test(l));
}

/** Long lines may be cut in a summary: their first 200 characters must be there. */
function survives(text: string, line: string): boolean {
  return text.includes(line.trim().slice(0, 200));
}

/** Every profile, and each with no threshold so that short outputs are summarized too. */
const PROFILE_RUNS: [string, Profile][] = (["fast", "balanced", "precision"] as ProfileName[]).flatMap((p) => [
  [p, PROFILES[p]] as [string, Profile],
  [`${p}/threshold 0`, { ...PROFILES[p], thresholdChars: 0 }] as [string, Profile],
]);

function hintFor(f: Fixture) {
  return commandHint(analyzeCommand(f.side.command).commands);
}

describe("corpus", () => {
  test("has real outputs of every runner and type the issue names", () => {
    const tools = new Set(corpus.map((f) => f.side.tool.split(" (")[0]));
    for (const t of [
      "node --test",
      "jest",
      "vitest",
      "pytest",
      "python -m unittest",
      "go test",
      "cargo test",
      "git diff",
      "git log",
      "grep -rn",
      "rg",
      "ls -R",
      "find",
      "tree",
    ])
      assert.ok(tools.has(t), `no ${t} output in the corpus`);
    for (const f of corpus) assert.ok(f.name in EXPECTED_TYPE, `${f.name}: add its expected type`);
  });

  test("test outputs with a non-zero exit show failing tests by the runner's marks", () => {
    for (const f of corpus.filter((x) => EXPECTED_TYPE[x.name]?.startsWith("test:") && x.name !== "cargo-build-error")) {
      assert.notEqual(f.side.exitCode, 0, f.name);
      assert.ok(failingNames(f).length >= 2, `${f.name}: the extractor finds no failing tests`);
      assert.ok(summaryLines(f).length >= 1, `${f.name}: the extractor finds no summary line`);
    }
  });
});

describe("nothing that failed is dropped", () => {
  for (const f of corpus) {
    test(f.name, () => {
      const hint = hintFor(f);
      const names = failingNames(f);
      const totals = summaryLines(f);
      const errors = errorLines(f);
      for (const [label, profile] of PROFILE_RUNS) {
        const s = summarize(f.output, { profile, command: hint, rawPath: `/tmp/raw/${f.name}.txt` });
        for (const n of names) assert.ok(survives(s.text, n), `${f.name} (${label}): failing test "${n}" lost`);
        for (const t of totals) assert.ok(survives(s.text, t), `${f.name} (${label}): summary line "${t}" lost`);
        for (const e of errors) assert.ok(survives(s.text, e), `${f.name} (${label}): error line "${e}" lost`);
        // A replacement past 10,000 characters is cut by Claude Code (raw passes are the tool's own output).
        if (s.raw === undefined) assert.ok(s.text.length < 10_000, `${f.name} (${label}): ${s.text.length} chars, Claude Code would cut it`);
      }
    });
  }
});

describe("types and shrink", () => {
  for (const f of corpus) {
    test(`${f.name} is ${EXPECTED_TYPE[f.name]}`, () => {
      const s = summarize(f.output, { profile: { ...PROFILES.balanced, thresholdChars: 0 }, command: hintFor(f), rawPath: "/r" });
      const expected = EXPECTED_TYPE[f.name];
      // Outputs so short that no summary is shorter pass raw; every other one is typed as its tool says.
      if (s.type === "raw") assert.ok(f.output.length < 500, `${f.name} passed raw`);
      else assert.equal(s.type, expected);
    });
  }

  test("outputs over the balanced threshold shrink by at least 80%", () => {
    const big = corpus.filter((f) => f.output.length > PROFILES.balanced.thresholdChars);
    assert.ok(big.length >= 12, `only ${big.length} outputs over the threshold`);
    for (const f of big) {
      const s = summarize(f.output, { profile: "balanced", command: hintFor(f), rawPath: `/tmp/raw/${f.name}.txt` });
      assert.notEqual(s.type, "raw", f.name);
      assert.ok(s.keptChars <= f.output.length * 0.2, `${f.name}: ${f.output.length} → ${s.keptChars}`);
      assert.equal(s.savedChars, f.output.length - s.keptChars);
    }
  });

  test("fast keeps less than balanced, precision more", () => {
    for (const f of corpus.filter((x) => x.output.length > PROFILES.precision.thresholdChars)) {
      const len = (p: ProfileName) => summarize(f.output, { profile: p, command: hintFor(f), rawPath: "/r" }).keptChars;
      assert.ok(len("fast") <= len("balanced") && len("balanced") <= len("precision"), f.name);
    }
  });
});

describe("profiles and raw passes", () => {
  test("audit summarizes nothing", () => {
    for (const f of corpus) {
      const s = summarize(f.output, { profile: "audit", command: hintFor(f), rawPath: "/r" });
      assert.equal(s.text, f.output);
      assert.equal(s.type, "raw");
      assert.equal(s.raw, "audit");
      assert.equal(s.savedChars, 0);
    }
  });

  test("outputs under the threshold pass untouched", () => {
    const small = corpus.filter((f) => f.output.length <= PROFILES.balanced.thresholdChars);
    assert.ok(small.length > 0);
    for (const f of small) {
      const s = summarize(f.output, { profile: "balanced", command: hintFor(f), rawPath: "/r" });
      assert.equal(s.text, f.output);
      assert.equal(s.raw, "short");
    }
  });

  test("an unknown shape falls back to head + tail and asks for the raw file", () => {
    const f = corpus.find((x) => x.name === "node-help");
    assert.ok(f);
    const s = summarize(f.output, { profile: "balanced", command: hintFor(f), rawPath: "/tmp/raw/x.txt" });
    const lines = toLines(f.output).filter((l) => l.trim() !== "");
    assert.equal(s.type, "unknown");
    assert.equal(s.confidence, "low");
    assert.ok(s.text.includes(lines[0] ?? "?"), "head missing");
    assert.ok(s.text.includes(lines[lines.length - 1] ?? "?"), "tail missing");
    assert.match(s.text, /read raw_evidence before you conclude/);
    assert.ok(s.keptChars <= f.output.length * 0.2);
  });

  test("the evidence header: read_tier, budget_profile, raw_evidence, confidence, fallback_condition in two lines", () => {
    const f = corpus.find((x) => x.name === "vitest-verbose");
    assert.ok(f);
    for (const p of ["fast", "balanced", "precision"] as ProfileName[]) {
      const s = summarize(f.output, { profile: p, command: hintFor(f), rawPath: "/tmp/raw/v.txt" });
      const [first, second] = s.text.split("\n");
      assert.match(
        first ?? "",
        new RegExp(`read_tier ${PROFILES[p].readTier} · budget_profile ${p} · confidence (high|medium) · raw_evidence /tmp/raw/v\\.txt \\(`),
      );
      assert.match(second ?? "", /^\[fallback_condition: read raw_evidence /);
    }
  });

  test("failures past the hard cap are counted, and confidence drops to low", () => {
    // Synthetic on purpose: 3,000 failing cargo tests, far past what any summary may hold.
    const body = Array.from({ length: 3000 }, (_, i) => `test tests::case_${i} ... FAILED`).join("\n");
    const out = `running 3000 tests\n${body}\n\ntest result: FAILED. 0 passed; 3000 failed; 0 ignored\n`;
    const s = summarize(out, { profile: "balanced", command: { name: "cargo", sub: "test" }, rawPath: "/r" });
    assert.ok(s.text.length < 10_000, `${s.text.length}`);
    assert.equal(s.confidence, "low");
    assert.match(s.text, /failure\/error lines did not fit: read raw_evidence/);
    assert.match(s.text, /test result: FAILED\. 0 passed; 3000 failed/);
  });

  test("a runner that reports failures none of which is found is low confidence", () => {
    const out = `${"x\n".repeat(6000)}Tests:       2 failed, 10 passed, 12 total\n`;
    const s = summarize(out, { profile: "balanced", command: { name: "jest" }, rawPath: "/r" });
    assert.equal(s.confidence, "low");
  });
});

describe("input handling", () => {
  test("colors are stripped and a progress line shows only its last repaint", () => {
    assert.deepEqual(toLines("\u001b[31mFAIL\u001b[39m a.test.ts\r\n 10%\r 50%\r100%\ndone\n"), ["FAIL a.test.ts", "100%", "done"]);
  });

  test("compiler-style error lines are never dropped, whatever the type", () => {
    const out = `${"line of build output\n".repeat(800)}src/a.ts(12,3): error TS2322: Type 'string' is not assignable to type 'number'.\nmain.c:4:5: error: expected ';' before '}' token\n${"more output\n".repeat(800)}`;
    const s = summarize(out, { profile: "fast", rawPath: "/r" });
    assert.match(s.text, /src\/a\.ts\(12,3\): error TS2322/);
    assert.match(s.text, /main\.c:4:5: error: expected/);
  });

  test("a plain unified diff (diff -u) lists every file", () => {
    const file = (n: number) => `--- a/f${n}.txt\n+++ b/f${n}.txt\n@@ -1,3 +1,3 @@\n${" same\n-old line\n+new line\n".repeat(200)}`;
    const out = [1, 2, 3].map(file).join("");
    const s = summarize(out, { profile: "balanced", command: { name: "diff" }, rawPath: "/r" });
    assert.equal(s.type, "diff");
    assert.match(s.text, /^3 files changed, \+600 -600/m);
    for (const n of [1, 2, 3]) assert.match(s.text, new RegExp(`^ f${n}\\.txt \\| \\+200 -200`, "m"));
  });

  test("an unknown profile is a clear error", () => {
    assert.throws(() => summarize("x".repeat(20_000), { profile: "cheap" as ProfileName, rawPath: "/r" }), /unknown budget profile "cheap"/);
  });
});

describe("which command produced the output", () => {
  const cases: [string, { name: string; sub?: string } | undefined][] = [
    ["cd app && npx jest --ci 2>&1 | tail -80", { name: "jest", sub: undefined }],
    ["git -C repo diff --stat HEAD~3", { name: "git", sub: "diff" }],
    ["sudo journalctl -u nginx --since today", { name: "journalctl", sub: undefined }],
    ["python3 -m pytest -q tests/", { name: "python3", sub: "pytest" }],
    ["node --test test/a.test.ts", { name: "node", sub: "test" }],
    ["uv run pytest -x", { name: "pytest", sub: undefined }],
    ["docker logs --tail 200 web", { name: "docker", sub: "logs" }],
  ];
  for (const [cmd, want] of cases) {
    test(cmd, () => {
      const h = commandHint(analyzeCommand(cmd).commands);
      assert.equal(h?.name, want?.name);
      if (want?.sub) assert.equal(h?.sub, want.sub);
    });
  }

  test("the command proposes, the shape decides: git diff --stat output is not a hunk diff but still a diff stat", () => {
    const f = corpus.find((x) => x.name === "git-diff-stat");
    assert.ok(f);
    assert.equal(classify(toLines(f.output), { name: "git", sub: "diff" }), "diff");
    // rg hint over git log output: the shape wins
    const log = corpus.find((x) => x.name === "git-log");
    assert.ok(log);
    assert.equal(classify(toLines(log.output), { name: "rg" }), "git-log");
  });
});

describe("read-only commands", () => {
  const readOnly = [
    "git diff HEAD~1",
    "git status",
    "git log --oneline -n 50 | head -20",
    "git show abc123 --stat",
    "rg -n TODO src/",
    "grep -rn 'throw new Error' . | sort | uniq -c",
    "npm test 2>&1 | tail -40",
    "npm run test:unit",
    "npx jest --ci",
    "npx vitest run",
    "pytest -q",
    "python -m unittest -v",
    "go test ./...",
    "cargo test --lib",
    "node --test test/",
    "cd sub && go test -v ./pkg/...",
    "docker logs --tail 200 web",
    "kubectl logs deploy/api",
    "sudo journalctl -u nginx -n 500",
    "tail -n 200 /var/log/syslog",
    "ls -laR src",
    "find . -name '*.ts' -not -path './node_modules/*'",
    "tree -L 2",
  ];
  const writes = [
    ["git commit -m x", "git commit"],
    ["git push origin main", "git push"],
    ["git diff --output=patch.txt", "git diff"],
    ["find . -name '*.tmp' -delete", "find"],
    ["find . -exec rm {} +", "find"],
    ["npx jest -u", "jest"],
    ["sed -i s/a/b/ f.txt", "sed"],
    ["npm install", "npm install"],
    ["make build", "make build"],
    ["rg --pre ./decode.sh x", "rg"],
    ["sort -o out.txt in.txt", "sort"],
    ["node script.js", "node"],
    ["journalctl --vacuum-size=100M", "journalctl"],
    ["git log | xargs rm", "rm"],
  ] as const;
  for (const cmd of readOnly) {
    test(`reads: ${cmd}`, () => {
      const v = readOnlyCommands(analyzeCommand(cmd).commands);
      assert.deepEqual(v, { readOnly: true }, JSON.stringify(v));
    });
  }
  for (const [cmd, culprit] of writes) {
    test(`may write: ${cmd}`, () => {
      const v = readOnlyCommands(analyzeCommand(cmd).commands);
      assert.equal(v.readOnly, false);
      assert.equal(v.culprit, culprit);
      assert.ok(v.reason);
    });
  }
  test("no commands is not read-only", () => {
    assert.equal(readOnlyCommands([]).readOnly, false);
  });
});

describe("rawReason: the policy's check before summarize()", () => {
  const gate = (cmd: string, over: { chars?: number; profile?: ProfileName; risk?: boolean } = {}) => {
    const a = analyzeCommand(cmd);
    return rawReason({
      chars: over.chars ?? 50_000,
      profile: over.profile ?? "balanced",
      risk: over.risk ?? false,
      commands: a.commands,
      writes: a.writes.length,
      opaque: a.opaque.length,
    });
  };
  test("a long read-only output is summarized", () => assert.equal(gate("npm test 2>&1 | tail -200"), undefined));
  test("a short one passes", () => assert.equal(gate("npm test", { chars: 900 }), "short"));
  test("a redirect is a write", () => assert.equal(gate("git diff > patch.txt"), "write"));
  test("a writing verb is a write", () => assert.equal(gate("git push origin main"), "write"));
  test("tee is a write", () => assert.equal(gate("npm test | tee out.log"), "write"));
  test("an unknown program is unknown", () => assert.equal(gate("./scripts/report.sh"), "unknown"));
  test("eval is unknown", () => assert.equal(gate('eval "$CMD"'), "unknown"));
  test("audit passes everything", () => assert.equal(gate("git diff", { profile: "audit" }), "audit"));
  test("risk passes everything, even in fast", () => assert.equal(gate("git diff", { profile: "fast", risk: true }), "risk"));
});
