// Which command lines are a run of the check (core/evidence-observed.ts),
// what defines a check (core/evidence-definition.ts), and what the io side
// does with a run the host did not let finish (evidence-run.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runCounts } from "../hooks/core/evidence-observed.ts";
import { definitionFiles } from "../hooks/core/evidence-definition.ts";
import { finishCheck, reuseOrBegin, scopeOf } from "../hooks/io/evidence-run.ts";
import { EvidenceStore } from "../hooks/io/evidence-store.ts";
import { gitProject } from "./helpers.ts";

const WS = "/w/project";
const npmTest = { name: "npm", sub: ["test"] };
const counts = (command: string, cwd = WS, check: { name: string; sub?: string[] } = npmTest) => runCounts({ command, cwd, workspace: WS, check });

test("counted: the check alone or last in an && chain, in the workspace however it is named", () => {
  for (const c of [
    "npm test",
    "npm test\n",
    "npm test > out.log 2>&1",
    "time npm test",
    "CI=1 npm test",
    "env CI=1 FORCE_COLOR=0 npm test",
    "exec npm test",
    "npm ci && npm test",
    "echo start; npm test",
    "export CI=1 && npm test",
    `cd ${WS} && npm test`,
    "cd src && cd .. && npm test",
    `npm test --prefix ${WS}`,
    "npm test --prefix=.",
    `npm_config_prefix=${WS} npm test`,
    "npm test -- --prefix /elsewhere",
    "SKILLGATE_RERUN=1 npm test",
  ])
    assert.deepEqual(counts(c), { counts: true }, c);
  assert.deepEqual(counts("npm test", `${WS}/`), { counts: true }, "a trailing slash is the same folder");
  assert.deepEqual(counts("cd .. && npm test", `${WS}/src`), { counts: true });
});

test("not counted: anything that can mask or replace the status, each with its reason", () => {
  const cases: [string, RegExp][] = [
    ["npm test || true", /`\|\|` on the line/],
    ["true || npm test", /`\|\|` on the line/],
    ["npm test || exit 0", /`\|\|`/],
    ["npm test; true", /the last command is not the check/],
    ["npm test && exit 0", /the last command is not the check/],
    ["npm test; exit 0", /the last command is not the check/],
    ["npm test | tee log", /a pipe/],
    ["npm test |& cat", /a pipe/],
    ["! npm test", /`!` inverts/],
    ["npm test &", /background/],
    ["npm test & wait", /background/],
    ["(npm test)", /subshell, group or other compound/],
    ["{ npm test; }", /compound/],
    ["(npm test; true)", /compound/],
    ["if npm test; then :; fi", /compound/],
    ["trap 'exit 0' EXIT; npm test", /`trap` before the check/],
    ["trap 'exit 0' EXIT && npm test", /`trap` before the check/],
    ["npm() { :; }; npm test", /function/],
    ["alias npm=true; npm test", /`alias`/],
    ["set +e; npm test", /`set`/],
    ["exit 0; npm test", /`exit`/],
    ["eval 'npm test'", /inside eval/],
    ["source ./fake.sh && npm test", /`source`/],
    ["PATH=/tmp/fake:$PATH npm test", /it sets PATH for the check/],
    ["NODE_OPTIONS=--require=./exit0.js npm test", /it sets NODE_OPTIONS/],
    ["npm_config_script_shell=/bin/true npm test", /npm_config_script_shell/],
    ["export PATH=/tmp/fake && npm test", /`export PATH`/],
    ["PATH=/tmp/fake && npm test", /it sets PATH before the check/],
    ["env -i npm test", /`env` with options/],
    ["env -C /o npm test", /`env` with options/],
    ["bash -c 'npm test'", /inside bash -c/],
    ["sudo npm test", /inside sudo/],
    ["xargs npm test < /dev/null", /the last command is not the check|inside xargs/],
    ["./npm test", /named by a path/],
    ["/tmp/npm test", /named by a path/],
    ["$NPM test", /the last command is not the check/],
    ["npm $VERB", /the last command is not the check/],
    ["npm run test", /the last command is not the check/],
    ["npm test --prefix /o", /it runs in \/o, not in the workspace \/w\/project/],
    ["npm --prefix=/o test", /it runs in \/o/],
    ["npm test --prefix $DIR", /known only at run time/],
    ["cd /o && npm test", /it runs in \/o/],
    ["cd $X && npm test", /known only at run time/],
    ["cd - && npm test", /known only at run time/],
    ["cd /o; npm test", /a `cd` before `;`/],
    ["npm_config_prefix=/o npm test", /it runs in \/o/],
    ["env npm_config_prefix=/o npm test", /it runs in \/o/],
    ["npm test --workspace=pkg", /--workspace runs another package's/],
    ["npm test -w pkg", /-w runs another package's/],
    ["npm test --script-shell=/bin/true", /--script-shell/],
    ["npm test -g", /-g runs another/],
    ["npm test 'unterminated", /does not parse/],
    ["", /empty/],
  ];
  for (const [c, why] of cases) {
    const r = counts(c);
    assert.equal(r.counts, false, c);
    assert.match(r.counts ? "" : r.why, why, c);
  }
  assert.match((counts("npm test", "/w/other") as { why: string }).why, /it runs in \/w\/other, not in the workspace/);
});

test("other programs: their folder options move the run; their definition options refuse it", () => {
  const make = { name: "make", sub: ["check"] };
  assert.deepEqual(counts("make check", WS, make), { counts: true });
  assert.match((counts("make --directory=/o check", WS, make) as { why: string }).why, /it runs in \/o/);
  assert.equal(counts("make -C /o check", WS, make).counts, false);
  assert.match((counts("make check -f other.mk", WS, make) as { why: string }).why, /-f runs another/);
  const pytest = { name: "pytest" };
  assert.deepEqual(counts("pytest -q", WS, pytest), { counts: true });
  assert.match((counts("pytest --rootdir=/o", WS, pytest) as { why: string }).why, /it runs in \/o/);
  assert.match((counts("pytest --config-file=empty.ini", WS, pytest) as { why: string }).why, /--config-file/);
});

test("definitionFiles: per program, present or not; unknown programs get every list", () => {
  const js = definitionFiles("npm", ["tsconfig.build.json", "README.md", "tsconfig.json"]);
  for (const f of ["package.json", ".npmrc", "tsconfig.json", "tsconfig.build.json", "jest.config.js", "vitest.config.ts", ".mocharc.json", ".mocharc.yml"])
    assert.ok(js.includes(f), f);
  assert.ok(!js.includes("README.md"));
  assert.ok(!js.includes("pytest.ini"));
  assert.equal(js.filter((f) => f === "tsconfig.json").length, 1, "each once");
  const py = definitionFiles("pytest", ["tsconfig.build.json"]);
  for (const f of ["pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini", "conftest.py"]) assert.ok(py.includes(f), f);
  assert.ok(!py.includes("package.json") && !py.includes("tsconfig.build.json"));
  assert.ok(definitionFiles("cargo", []).includes("Cargo.toml"));
  const any = definitionFiles("./run-checks", []);
  for (const f of ["package.json", "pytest.ini", "Cargo.toml", "go.mod", "Makefile"]) assert.ok(any.includes(f), f);
});

test("scopeOf: the row's paths plus the definition files, each once; a declared root that covers them adds none", () => {
  const { ws } = gitProject("sg-scope-");
  fs.writeFileSync(path.join(ws, "tsconfig.test.json"), "{}\n");
  const w = { stateDir: fs.mkdtempSync(path.join(os.tmpdir(), "sg-scope-state-")), workspace: ws };
  const s = scopeOf({ id: "t", scope: ["src", "package.json"], program: "npm" }, w);
  assert.deepEqual(s.slice(0, 2), ["src", "package.json"]);
  assert.equal(s.filter((x) => x === "package.json").length, 1);
  assert.ok(s.includes("tsconfig.test.json") && s.includes(".mocharc.json"));
  assert.deepEqual(scopeOf({ id: "t", scope: ["."], program: "npm" }, w), ["."]);
});

test("finishCheck: an interrupted or backgrounded run is dropped (the latest record stays); a background start is never begun", () => {
  const { ws } = gitProject("sg-finish-");
  const w = { stateDir: fs.mkdtempSync(path.join(os.tmpdir(), "sg-finish-state-")), workspace: ws };
  const spec = { id: "tests", scope: ["src", "test"], program: "npm", command: npmTest };
  const call = (toolUseId: string) => ({ sessionId: "s", toolUseId, command: "npm test", cwd: ws });
  assert.equal(reuseOrBegin(spec, w, call("t1")).kind, "started");
  assert.equal(finishCheck(w, { toolUseId: "t1", failed: false, output: "ok" }).kind, "recorded");
  const store = new EvidenceStore(w.stateDir, ws);
  const first = store.latest("tests").record?.id;
  for (const unfinished of ["interrupted", "background"] as const) {
    assert.equal(reuseOrBegin(spec, w, call(`t-${unfinished}`)).kind, "started");
    const r = finishCheck(w, { toolUseId: `t-${unfinished}`, failed: false, output: "", unfinished });
    assert.equal(r.kind, "unfinished");
    assert.match(r.kind === "unfinished" ? r.why : "", unfinished === "interrupted" ? /interrupted/ : /background/);
    assert.equal(store.latest("tests").record?.id, first, "no record, no pointer");
    assert.equal(finishCheck(w, { toolUseId: `t-${unfinished}`, failed: false, output: "" }).kind, "none", "the pending run is gone");
  }
  const bg = reuseOrBegin(spec, w, { ...call("t-bg"), background: true });
  assert.equal(bg.kind, "not-recorded");
  assert.match(bg.kind === "not-recorded" ? bg.why : "", /runs in the background/);
  const masked = reuseOrBegin(spec, w, { ...call("t-or"), command: "npm test || true" });
  assert.match(masked.kind === "not-recorded" ? masked.why : "", /^this run will not count as evidence: `\|\|`/);
});
