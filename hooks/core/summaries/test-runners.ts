// Test runner outputs → failing tests (header line + first assertion lines) and the runner's summary.
// One parser per runner, each keyed on the runner's own markers; line indices only, no text rewriting.

export interface Failure {
  /** The line naming the failing test. */
  at: number;
  /** Its first assertion/error lines, in order of importance. */
  detail: number[];
}

export interface TestParse {
  runner: string;
  failures: Failure[];
  /** Other lines naming a failing test or file (verbose marks, short summaries). */
  names: number[];
  /** The runner's own totals ("Tests: 3 failed, 401 passed"). */
  summary: number[];
  /** Failures the runner's totals announce, when it says. */
  announced?: number;
}

type Parser = (lines: readonly string[], window: number) => TestParse;

const line = (lines: readonly string[], i: number): string => lines[i] ?? "";
const blank = (s: string): boolean => s.trim() === "";

/** Indices of the first `count` lines after `from` that are not blank and not skipped, until `stop`. */
function window(lines: readonly string[], from: number, count: number, stop: (l: string) => boolean, skip: (l: string) => boolean = () => false): number[] {
  const out: number[] = [];
  for (let i = from; i < lines.length && out.length < count; i++) {
    const l = line(lines, i);
    if (stop(l)) break;
    if (!blank(l) && !skip(l)) out.push(i);
  }
  return out;
}

function matching(lines: readonly string[], re: RegExp): number[] {
  const out: number[] = [];
  lines.forEach((l, i) => {
    if (re.test(l)) out.push(i);
  });
  return out;
}

function announced(lines: readonly string[], at: number[], re: RegExp): number | undefined {
  let total: number | undefined;
  for (const i of at) {
    const m = re.exec(line(lines, i));
    if (m?.[1]) total = (total ?? 0) + Number(m[1]);
  }
  return total;
}

// ---- node --test, TAP reporter: "not ok N - name" then a YAML block with error/location.
const TAP_NOT_OK = /^\s*not ok \d+ - /;
const tap: Parser = (lines, n) => {
  const failures: Failure[] = [];
  for (const at of matching(lines, TAP_NOT_OK)) {
    const detail: number[] = [];
    if (line(lines, at + 1).trim() === "---") {
      for (let i = at + 2; i < lines.length && line(lines, i).trim() !== "..."; i++) {
        const l = line(lines, i).trim();
        if (/^error: [|>]-?$/.test(l)) detail.push(...window(lines, i + 1, n, (x) => /^\s*\w+:( |$)/.test(x) && indent(x) <= indent(line(lines, i))));
        else if (/^(error|location):/.test(l)) detail.unshift(i);
      }
    }
    failures.push({ at, detail });
  }
  const summary = matching(lines, /^# (tests|suites|pass|fail|cancelled|skipped|todo) \d+/);
  return { runner: "node-test", failures, names: [], summary, announced: announced(lines, summary, /^# fail (\d+)/) };
};

function indent(s: string): number {
  return s.length - s.trimStart().length;
}

// ---- node --test, spec reporter: "✖ name (1ms)" in the tree, then a "✖ failing tests:" section.
const SPEC_FAIL = /^\s*✖ (?!failing tests:)/;
const spec: Parser = (lines, n) => {
  const section = lines.findIndex((l) => /^✖ failing tests:/.test(l));
  const marks = matching(lines, SPEC_FAIL);
  const inSection = section >= 0 ? marks.filter((i) => i > section) : marks;
  const failures = inSection.map((at) => {
    const detail = window(
      lines,
      at + 1,
      n,
      (l) => SPEC_FAIL.test(l) || /^test at /.test(l),
      (l) => /^\s+at /.test(l),
    );
    if (/^test at /.test(line(lines, at - 1))) detail.unshift(at - 1);
    return { at, detail };
  });
  const names = section >= 0 ? marks.filter((i) => i < section) : [];
  const summary = matching(lines, /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo) \d+/);
  return { runner: "node-test", failures, names, summary, announced: announced(lines, summary, /^ℹ fail (\d+)/) };
};

// ---- jest: "● Suite › test" blocks, "✕ test" marks, "Tests: 3 failed, ..." totals.
const JEST_HEAD = /^\s*● (?!Console$)\S/;
const CODE_FRAME = /^\s*>?\s*\d+\s*\|/;
/** "- Expected  - 1" / "+ Received" legends of jest and vitest diffs: the diff lines say more. */
const DIFF_LEGEND = /^\s*[-+] (Expected|Received)\b/;
const FRAME_CARET = /^\s*\|/;
const jest: Parser = (lines, n) => {
  const failures = matching(lines, JEST_HEAD).map((at) => {
    let seenAt = false;
    const detail = window(
      lines,
      at + 1,
      n,
      (l) => JEST_HEAD.test(l) || /^(PASS|FAIL) |^Test Suites:/.test(l),
      (l) => {
        if (CODE_FRAME.test(l) || FRAME_CARET.test(l) || DIFF_LEGEND.test(l)) return true;
        if (/^\s+at /.test(l)) {
          if (seenAt) return true;
          seenAt = true;
        }
        return false;
      },
    );
    return { at, detail };
  });
  const names = matching(lines, /^\s*✕ |^FAIL /);
  const summary = matching(lines, /^(Test Suites|Tests|Snapshots):/);
  return { runner: "jest", failures, names, summary, announced: announced(lines, summary, /^Tests:\s+(\d+) failed/) };
};

// ---- vitest: " FAIL  file > suite > test" blocks between ⎯⎯⎯ rules, "×" marks, "Tests  3 failed | ..." totals.
const VITEST_HEAD = /^\s*FAIL\s+\S.* > /;
const vitest: Parser = (lines, n) => {
  const heads = matching(lines, /^\s*FAIL\s+\S/);
  const failures = heads.map((at) => ({
    at,
    detail: window(
      lines,
      at + 1,
      n,
      (l) => /^\s*FAIL\s+\S/.test(l) || /^⎯{3,}/.test(l),
      (l) => /^\s*\d+\|/.test(l) || /^\s*\|/.test(l) || DIFF_LEGEND.test(l),
    ),
  }));
  const names = matching(lines, /^\s*× |⎯ (Failed Tests|Unhandled Errors?|Failed Suites) \d*/);
  const summary = matching(lines, /^\s*(Test Files|Tests|Errors)\s+\d/);
  const parse = { runner: "vitest", failures, names, summary, announced: announced(lines, summary, /^\s*Tests\s+(\d+) failed/) };
  // Only per-test heads (with " > ") count against the totals; a file-level FAIL is a suite error.
  if (parse.announced !== undefined && heads.every((h) => !VITEST_HEAD.test(line(lines, h)))) parse.announced = undefined;
  return parse;
};

// ---- pytest: "____ test_name ____" blocks with "E   " lines, "FAILED id - msg" short summary, "== 3 failed ... ==".
const PYTEST_HEAD = /^_{2,} (.+) _{2,}$/;
const pytest: Parser = (lines, n) => {
  const failures = matching(lines, PYTEST_HEAD).map((at) => {
    const stop = (l: string) => PYTEST_HEAD.test(l) || /^={3,}/.test(l);
    const errors = window(lines, at + 1, n, stop, (l) => !/^E\s/.test(l));
    const where = window(lines, at + 1, 50, stop, (l) => !/^\S+:\d+: /.test(l)).slice(-1);
    return { at, detail: [...errors, ...where] };
  });
  const names = matching(lines, /^(FAILED|ERROR) \S|^\S+::\S+ (FAILED|ERROR)\b/);
  const summary = matching(lines, /^=+ .*\b(passed|failed|errors?|skipped|deselected|xfailed|no tests ran)\b.* =+$/);
  return { runner: "pytest", failures, names, summary, announced: announced(lines, summary, /(\d+) failed/) };
};

// ---- python -m unittest: "FAIL: test (mod.Class.test)" blocks ending in the exception line.
const UNITTEST_HEAD = /^(FAIL|ERROR): \S/;
const unittest: Parser = (lines, n) => {
  const failures = matching(lines, UNITTEST_HEAD).map((at) => {
    let end = at + 2;
    while (end < lines.length && !/^(={20,}|-{20,})$/.test(line(lines, end))) end++;
    const body: number[] = [];
    for (let i = end - 1; i > at + 1 && body.length < n; i--) if (!blank(line(lines, i))) body.push(i);
    return { at, detail: body };
  });
  const names = matching(lines, /\.\.\. (FAIL|ERROR)$/);
  const summary = matching(lines, /^Ran \d+ tests? in |^(FAILED|OK)( \(.*\))?$/);
  const fails = announced(lines, summary, /failures=(\d+)/);
  const errors = announced(lines, summary, /errors=(\d+)/);
  const total = fails === undefined && errors === undefined ? undefined : (fails ?? 0) + (errors ?? 0);
  return { runner: "unittest", failures, names, summary, announced: total };
};

// ---- go test: "--- FAIL: TestX (0.00s)" with indented t.Error lines (after it, or before it with -v), panics.
const GO_FAIL = /^(\s*)--- FAIL: (\S+)/;
const go: Parser = (lines, n) => {
  const failures = matching(lines, GO_FAIL).map((at) => {
    const head = line(lines, at);
    const own = indent(head);
    const after = window(lines, at + 1, n, (l) => !blank(l) && indent(l) <= own);
    if (after.length > 0) return { at, detail: after };
    // -v prints t.Error lines under "=== RUN TestX", before the FAIL line.
    const name = GO_FAIL.exec(head)?.[2] ?? "";
    const before: number[] = [];
    for (let i = at - 1; i >= 0 && before.length < n; i--) {
      const l = line(lines, i);
      if (l.includes(`=== RUN   ${name}`) || l.includes(`=== CONT  ${name}`)) break;
      if (/^\s+\S+\.go:\d+: /.test(l)) before.unshift(i);
    }
    return { at, detail: before };
  });
  const panics: number[] = [];
  for (const at of matching(lines, /^panic: /)) {
    panics.push(at, at + 1);
    const frame = lines.findIndex((l, i) => i > at && /_test\.go:\d+/.test(l));
    if (frame > 0) panics.push(frame - 1, frame);
  }
  const names = [...panics.filter((i) => i < lines.length), ...matching(lines, /^\S+\.go:\d+:\d+: |^# \S/)];
  const summary = matching(lines, /^(FAIL|ok|PASS)(\s|$)/);
  return { runner: "go-test", failures, names, summary };
};

// ---- cargo test: "test x ... FAILED", "---- x stdout ----" blocks with the panic message, "test result:".
const CARGO_FAIL = /^test (\S+) \.\.\. FAILED$/;
const cargo: Parser = (lines, n) => {
  const blocks = new Map<string, number>();
  lines.forEach((l, i) => {
    const m = /^---- (\S+) stdout ----$/.exec(l);
    if (m?.[1] && !blocks.has(m[1])) blocks.set(m[1], i);
  });
  const failures = matching(lines, CARGO_FAIL).map((at) => {
    const block = blocks.get(CARGO_FAIL.exec(line(lines, at))?.[1] ?? "");
    const detail = block === undefined ? [] : window(lines, block + 1, n, (l) => /^stack backtrace:|^note: |^---- |^failures:$/.test(l));
    return { at, detail };
  });
  const located = matching(lines, /^\s*--> \S+:\d+/).filter((i) => /^error/.test(line(lines, i - 1)));
  const summary = matching(lines, /^test result: /);
  return { runner: "cargo-test", failures, names: located, summary, announced: announced(lines, summary, /(\d+) failed/) };
};

interface Runner {
  parse: Parser;
  /** The runner's own unmistakable marks. */
  signature: RegExp;
}

// Order matters where outputs mix: cargo and go print "FAIL"/"ok" words other runners also use.
const RUNNERS: readonly Runner[] = [
  { parse: cargo, signature: /^test result: (ok|FAILED)\.|^running \d+ tests?$|^\s+Compiling \S+ v\d/ },
  { parse: go, signature: /^--- (FAIL|PASS): |^(ok|FAIL)\s+\S+\s+[\d.]+s$|^=== RUN\s/ },
  { parse: pytest, signature: /^=+ test session starts =+$|^=+ .*\b(passed|failed)\b.* in [\d.]+s.* =+$/ },
  { parse: unittest, signature: /^Ran \d+ tests? in [\d.]+s$/ },
  { parse: jest, signature: /^Tests:\s+.*\d+ total$/ },
  { parse: vitest, signature: /^\s*Test Files\s+\d+ (passed|failed)|^\s*RUN\s+v\d+\.\d+/ },
  { parse: spec, signature: /^ℹ (tests|fail) \d+$/ },
  { parse: tap, signature: /^# (tests|fail) \d+$|^TAP version \d+$/ },
];

export function detectRunner(lines: readonly string[]): Parser | undefined {
  return RUNNERS.find((r) => lines.some((l) => r.signature.test(l)))?.parse;
}

/** A test command whose runner we do not know: lines that say FAIL/ERROR, and the last totals. */
export const genericTests: Parser = (lines, n) => {
  const failures = matching(lines, /\b(FAIL|FAILED|FAILURE|ERROR)\b|✕|✖|×|^\s*not ok\b/).map((at) => ({
    at,
    detail: window(lines, at + 1, Math.min(n, 2), () => false),
  }));
  const summary = matching(lines, /\b\d+ (passed|failed|passing|failing|tests?)\b/).filter((i) => i >= lines.length - 15);
  return { runner: "tests", failures, names: [], summary };
};
