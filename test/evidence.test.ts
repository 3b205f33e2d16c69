// Evidence: what a record proves about the current tree (pure), how records
// and pointers are stored (immutable record, then compare-and-swap pointer),
// and the issue's scenarios through the hook-moment steps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  buildRecord,
  diffEntries,
  exitOf,
  freshness,
  freshnessReason,
  isFullRun,
  parseRecord,
  reuseDecision,
  shellQuote,
  tailLines,
  type EnvFacts,
  type Entry,
  type EvidenceRecord,
  type PendingRun,
} from "../hooks/core/evidence.ts";
import { EvidenceStore } from "../hooks/io/evidence-store.ts";
import { currentFreshness, envFacts, finishCheck, reuseOrBegin, type CheckSpec, type Where } from "../hooks/io/evidence-run.ts";
import { cliRun, gitProject, root } from "./helpers.ts";

const tmp = (p = "sg-ev-") => fs.mkdtempSync(path.join(os.tmpdir(), p));
const H = (c: string) => c.repeat(64);
const file = (p: string, d: string, mode: Entry["mode"] = "100644"): Entry => ({ path: p, kind: "file", mode, digest: H(d) });
const ENV: EnvFacts = { runtimes: { node: "/usr/bin/node" }, lockfiles: { "package-lock.json": H("a") } };

function record(over: Partial<EvidenceRecord> = {}): EvidenceRecord {
  return {
    version: 1,
    check: "tests",
    id: "r1",
    command: "npm test",
    cwd: "/w",
    workspace: "/w",
    scope: ["src", "test"],
    startedAt: "2026-12-03T07:00:00.000Z",
    finishedAt: "2026-12-03T07:00:03.000Z",
    durationMs: 3000,
    exit: 0,
    outcome: "passed",
    fingerprint: `sha256:${H("f")}`,
    entries: [file("src/a.ts", "1"), file("src/b.ts", "2")],
    changedDuringRun: [],
    env: ENV,
    outputTail: ["ok 12 tests"],
    partial: false,
    sessionId: "s",
    toolUseId: "t",
    ...over,
  };
}
const inv = (fp: string, entries: Entry[]) => ({ fingerprint: `sha256:${H(fp)}`, entries, roots: ["src", "test"], cwd: "/w" });

// ---- pure ---------------------------------------------------------------------------

test("diffEntries names added, removed, modified, mode and kind changes in byte order", () => {
  const before = [file("a", "1"), file("b", "2"), file("c", "3"), file("d", "4"), { path: "gone", kind: "missing", mode: "-", digest: "-" } as Entry];
  const after: Entry[] = [
    file("a", "1"),
    file("b", "9"),
    file("c", "3", "100755"),
    { path: "d", kind: "symlink", mode: "120000", digest: H("4") },
    { path: "gone", kind: "missing", mode: "-", digest: "-" },
    file("new", "5"),
  ];
  assert.deepEqual(diffEntries(before, after), [
    { path: "b", how: "modified" },
    { path: "c", how: "mode" },
    { path: "d", how: "kind" },
    { path: "new", how: "added" },
  ]);
  assert.deepEqual(diffEntries([file("x", "1")], [{ path: "x", kind: "missing", mode: "-", digest: "-" }]), [{ path: "x", how: "removed" }]);
});

test("freshness: missing, failed, partial, fresh, stale (content, env, scope, moving tree, conflict)", () => {
  const same = inv("f", record().entries);
  assert.equal(freshness({ scope: ["src", "test"], env: ENV }).status, "missing");
  assert.equal(freshness({ record: record({ exit: 1, outcome: "failed" }), scope: ["src", "test"], env: ENV }).status, "failed");
  assert.equal(freshness({ record: record({ partial: true }), scope: ["src", "test"], current: same, env: ENV }).status, "failed");
  assert.equal(freshness({ record: record(), scope: ["test", "src"], current: same, env: ENV }).status, "fresh");
  const edited = freshness({ record: record(), scope: ["src", "test"], current: inv("e", [file("src/a.ts", "9"), file("src/b.ts", "2")]), env: ENV });
  assert.equal(edited.status, "stale");
  assert.deepEqual(edited.status === "stale" && edited.changed, [{ path: "src/a.ts", how: "modified" }]);
  const env = freshness({ record: record(), scope: ["src", "test"], current: same, env: { ...ENV, lockfiles: { "package-lock.json": H("b") } } });
  assert.deepEqual(env.status === "stale" && env.envChanged, ["lockfile package-lock.json"]);
  assert.equal(freshness({ record: record(), scope: ["src"], current: same, env: ENV }).status, "stale", "a different scope is not covered");
  assert.equal(freshness({ record: record({ changedDuringRun: ["src/a.ts"] }), scope: ["src", "test"], current: same, env: ENV }).status, "stale");
  assert.equal(freshness({ record: record(), conflict: "two runs overlapped", scope: ["src", "test"], current: same, env: ENV }).status, "stale");
  assert.equal(freshness({ record: record(), scope: ["src", "test"], env: ENV }).status, "stale", "no current inventory proves nothing");
  assert.equal(freshness({ unreadable: "bad MAC", record: record(), scope: ["src", "test"], current: same, env: ENV }).status, "missing");
});

test("freshnessReason names what changed and the command to run", () => {
  const o = { check: "tests", action: "git commit", run: "npm test" };
  const stale = freshness({ record: record(), scope: ["src", "test"], current: inv("e", [file("src/a.ts", "9"), file("src/c.ts", "3")]), env: ENV });
  const text = freshnessReason(stale, o);
  assert.match(text, /^git commit needs a passing run of check "tests" on the current tree/);
  assert.match(text, /src\/a\.ts \(modified\), src\/b\.ts \(removed\), src\/c\.ts \(new\)/);
  assert.match(text, /Run: npm test$/);
  assert.match(freshnessReason(freshness({ scope: ["src"], env: ENV }), o), /none is recorded\. Run: npm test/);
  const failed = freshnessReason(
    freshness({ record: record({ exit: 2, outcome: "failed", outputTail: ["1 failing", "AssertionError"] }), scope: ["src", "test"], env: ENV }),
    o,
  );
  assert.match(failed, /the latest run failed \(npm test, exit 2,/);
  assert.match(failed, /AssertionError/);
  const many = Array.from({ length: 15 }, (_, i) => file(`src/f${String(i).padStart(2, "0")}.ts`, "9"));
  assert.match(
    freshnessReason(freshness({ record: record({ entries: [] }), scope: ["src", "test"], current: inv("e", many), env: ENV }), o),
    /src\/f09\.ts \(new\) and 5 more/,
  );
});

test("records: exit status, tail, a moving tree, partial runs", () => {
  assert.equal(exitOf({ failed: false, output: "" }), 0);
  assert.equal(exitOf({ failed: true, output: "Exit code 128\nfatal" }), 128);
  assert.equal(exitOf({ failed: true, output: "Command timed out" }), null);
  assert.deepEqual(
    tailLines(Array.from({ length: 30 }, (_, i) => `l${i}`).join("\n") + "\n"),
    Array.from({ length: 20 }, (_, i) => `l${i + 10}`),
  );
  assert.deepEqual(tailLines(""), []);
  const p: PendingRun = {
    version: 1,
    check: "tests",
    command: "npm test",
    cwd: "/w",
    workspace: "/w",
    scope: ["src"],
    startedAt: "2026-12-03T07:00:00.000Z",
    inventory: inv("f", [file("src/a.ts", "1")]),
    env: ENV,
    partial: false,
    sessionId: "s",
    toolUseId: "t",
    pointerSeq: 0,
  };
  const ok = buildRecord(p, { failed: false, output: "pass\n", finishedAt: "2026-12-03T07:00:02.000Z", after: inv("f", [file("src/a.ts", "1")]) });
  assert.equal(ok.outcome, "passed");
  assert.equal(ok.durationMs, 2000);
  assert.deepEqual(ok.changedDuringRun, []);
  const moved = buildRecord(p, { failed: false, output: "", finishedAt: "2026-12-03T07:00:02.000Z", after: inv("g", [file("src/a.ts", "2")]) });
  assert.deepEqual(moved.changedDuringRun, ["src/a.ts"]);
  const bad = buildRecord(p, { failed: true, output: "Exit code 1\nboom", durationMs: 5, finishedAt: "2026-12-03T07:00:02.000Z", after: p.inventory });
  assert.equal(bad.outcome, "failed");
  assert.equal(bad.exit, 1);
  assert.ok(parseRecord({ ...ok, id: "x" }));
  assert.equal(parseRecord({ ...ok, id: "x", outcome: "passed", exit: 1 }), undefined, "passed must mean exit 0");
  assert.equal(isFullRun("npm  test", ["npm test"]), true);
  assert.equal(isFullRun("npm test -- --grep x", ["npm test"]), false);
  assert.equal(isFullRun("npm test -- --grep x", undefined), true);
  assert.equal(isFullRun("SKILLGATE_RERUN=1 npm test", ["npm test"]), true, "the forced re-run the reuse answer suggests is a full run");
});

test("reuse answers only a fresh record of the same command in the same folder", () => {
  const fresh = freshness({ record: record(), scope: ["src", "test"], current: inv("f", record().entries), env: ENV });
  const d = reuseDecision(fresh, { command: "npm  test", cwd: "/w", check: "tests" });
  assert.equal(d.reuse, true);
  if (d.reuse) {
    assert.match(d.text, /already passed on this exact tree/);
    assert.match(d.text, /nothing in its scope changed since/);
    assert.match(d.text, /ok 12 tests/);
    // The printf line prints exactly the text.
    const r = spawnSync("sh", ["-c", d.command], { encoding: "utf8" });
    assert.equal(r.stdout, d.text + "\n");
  }
  assert.equal(reuseDecision(fresh, { command: "npm test -- -x", cwd: "/w", check: "tests" }).reuse, false);
  assert.equal(reuseDecision(fresh, { command: "SKILLGATE_RERUN=1 npm test", cwd: "/w", check: "tests" }).reuse, false);
  assert.equal(reuseDecision(fresh, { command: "npm test", cwd: "/w/sub", check: "tests" }).reuse, false);
  assert.equal(reuseDecision(freshness({ scope: ["src"], env: ENV }), { command: "npm test", cwd: "/w", check: "tests" }).reuse, false);
  assert.equal(spawnSync("sh", ["-c", `printf %s ${shellQuote("it's $HOME `x`")}`], { encoding: "utf8" }).stdout, "it's $HOME `x`");
});

// ---- the store ---------------------------------------------------------------------

test("store: record then pointer; sequential runs advance; overlapping runs publish a visible conflict, cleared by the next run", () => {
  const store = new EvidenceStore(tmp(), "/w");
  const { id: _id, ...body } = record();
  void _id;
  assert.equal(store.seq("tests"), 0);
  const r1 = store.writeRecord(body);
  assert.deepEqual(store.publish("tests", r1.id, 0), { ok: true, seq: 1 });
  assert.equal(store.latest("tests").record?.id, r1.id);
  // Two runs both started at seq 1.
  const r2 = store.writeRecord({ ...body, outcome: "failed", exit: 1 });
  const r3 = store.writeRecord(body);
  assert.deepEqual(store.publish("tests", r2.id, 1), { ok: true, seq: 2 });
  const c = store.publish("tests", r3.id, 1);
  assert.equal(c.ok, false);
  const l = store.latest("tests");
  assert.equal(l.record?.id, r2.id, "the first publisher stays the pointer's record: no last-write-wins");
  assert.match(l.conflict ?? "", new RegExp(`${r2.id} and ${r3.id}`));
  assert.equal(freshness({ record: l.record, conflict: l.conflict, scope: ["src", "test"], current: inv("f", body.entries), env: ENV }).status, "failed");
  // A run that started after the conflict replaces it.
  const r4 = store.writeRecord(body);
  assert.deepEqual(store.publish("tests", r4.id, l.seq), { ok: true, seq: l.seq + 1 });
  assert.equal(store.latest("tests").conflict, undefined);
  // A record with no pointer (a crash between the two steps) is listed, not used.
  const r5 = store.writeRecord(body);
  assert.deepEqual(store.unpublished("tests"), [r5.id]);
  assert.equal(store.latest("tests").record?.id, r4.id);
  // Written in the same millisecond as the published one: still listed (the random tail does not order them).
  const t = new Date("2026-12-05T00:00:00.000Z");
  const s2 = new EvidenceStore(tmp(), "/w");
  const p1 = s2.writeRecord(body, t);
  assert.deepEqual(s2.publish("tests", p1.id, 0), { ok: true, seq: 1 });
  const same = Array.from({ length: 12 }, () => s2.writeRecord(body, t).id);
  assert.deepEqual(s2.unpublished("tests"), same.sort());
});

test("store: files are 0600, records are never overwritten, an edited record is not believed", () => {
  const state = tmp();
  const store = new EvidenceStore(state, "/w");
  const { id: _id, ...body } = record();
  void _id;
  const r = store.writeRecord({ ...body, outcome: "failed", exit: 1 });
  store.publish("tests", r.id, 0);
  const f = path.join(store.dir, "records", "tests", `${r.id}.json`);
  assert.equal(fs.statSync(f).mode & 0o777, 0o600);
  // Forge a pass by editing the record: the signature no longer matches.
  fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace('"outcome":"failed"', '"outcome":"passed"').replace('"exit":1', '"exit":0'));
  const l = store.latest("tests");
  assert.equal(l.record, undefined);
  assert.match(l.unreadable ?? "", /failed its signature check/);
  assert.equal(freshness({ record: l.record, unreadable: l.unreadable, scope: ["src", "test"], env: ENV }).status, "missing");
  // A record from another state folder (another key) is not believed either.
  const other = new EvidenceStore(tmp(), "/w");
  const r2 = other.writeRecord(body);
  fs.copyFileSync(path.join(other.dir, "records", "tests", `${r2.id}.json`), path.join(store.dir, "records", "tests", `${r2.id}.json`));
  assert.match("unreadable" in store.readRecord("tests", r2.id) ? (store.readRecord("tests", r2.id) as { unreadable: string }).unreadable : "", /signature/);
  assert.throws(() => store.seq("../x"), /unsafe check id/);
});

// ---- the issue's scenarios through the hook-moment steps ----------------------------------

function workspace(): Where & { ws: string } {
  const { ws } = gitProject("sg-ev-ws-");
  return { ws, workspace: ws, stateDir: tmp("sg-ev-state-") };
}
const TESTS: CheckSpec = { id: "tests", scope: ["src", "test", "package.json", "package-lock.json"], program: "npm" };
let n = 0;
function run(w: Where, spec: CheckSpec, ok: boolean, during?: () => void, command = "npm test") {
  const b = reuseOrBegin(spec, w, { sessionId: "s1", toolUseId: `toolu_${++n}`, command, cwd: w.workspace });
  if (b.kind !== "started") return b;
  during?.();
  return finishCheck(w, { toolUseId: b.pending.toolUseId, failed: !ok, output: ok ? "# pass 3\n# fail 0\n" : "Exit code 1\n# fail 1\n", durationMs: 1200 });
}
const gate = (w: Where, spec = TESTS) => currentFreshness(spec, w);

test("scenario: refused before any run, failing run does not lift it, green run does, an edit in src re-closes it naming the file", () => {
  const w = workspace();
  assert.equal(gate(w).status, "missing");
  assert.match(freshnessReason(gate(w), { check: "tests", action: "git commit", run: "npm test" }), /none is recorded/);
  const bad = run(w, TESTS, false);
  assert.equal(bad.kind, "recorded");
  assert.equal(gate(w).status, "failed");
  run(w, TESTS, true);
  assert.equal(gate(w).status, "fresh");
  fs.writeFileSync(path.join(w.ws, "README.md"), "changed outside the scope\n");
  assert.equal(gate(w).status, "fresh", "a change outside the scope does not invalidate");
  fs.writeFileSync(path.join(w.ws, "src/a.ts"), "export const a = 2;\n");
  const f = gate(w);
  assert.equal(f.status, "stale");
  assert.match(
    freshnessReason(f, { check: "tests", action: "git commit", run: "npm test" }),
    /changed since the green run: src\/a\.ts \(modified\).*Run: npm test/,
  );
  run(w, TESTS, true);
  assert.equal(gate(w).status, "fresh");
  // A new file in a scope folder and a deleted one both count.
  fs.writeFileSync(path.join(w.ws, "src/b.ts"), "new\n");
  assert.deepEqual((gate(w) as { changed: unknown }).changed, [{ path: "src/b.ts", how: "added" }]);
  run(w, TESTS, true);
  fs.rmSync(path.join(w.ws, "src/b.ts"));
  assert.deepEqual((gate(w) as { changed: unknown }).changed, [{ path: "src/b.ts", how: "removed" }]);
  // The lockfile is an environment prerequisite as well as in scope.
  run(w, TESTS, true);
  fs.writeFileSync(path.join(w.ws, "package-lock.json"), "{}\n");
  const lock = gate(w);
  assert.equal(lock.status, "stale");
  assert.deepEqual(lock.status === "stale" && lock.envChanged, ["lockfile package-lock.json"]);
});

test("scenario: a tree that changes while the check runs is recorded as such and is not fresh", () => {
  const w = workspace();
  const r = run(w, TESTS, true, () => fs.writeFileSync(path.join(w.ws, "src/a.ts"), "edited mid-run\n"));
  assert.equal(r.kind, "recorded");
  assert.deepEqual(r.kind === "recorded" && r.record.changedDuringRun, ["src/a.ts"]);
  const f = gate(w);
  assert.equal(f.status, "stale");
  assert.match(freshnessReason(f, { check: "tests", action: "git commit", run: "npm test" }), /the tree changed while the check ran: src\/a\.ts/);
});

test("scenario: reuse answers the second identical run; off by default; a different command runs", () => {
  const w = workspace();
  const reusing = { ...TESTS, reuse: true };
  run(w, reusing, true);
  const second = reuseOrBegin(reusing, w, { sessionId: "s1", toolUseId: "toolu_r2", command: "npm test", cwd: w.workspace });
  assert.equal(second.kind, "reuse");
  assert.match(second.kind === "reuse" ? second.decision.text : "", /# fail 0/);
  assert.equal(
    reuseOrBegin(TESTS, w, { sessionId: "s1", toolUseId: "toolu_r3", command: "npm test", cwd: w.workspace }).kind,
    "started",
    "reuse is off by default",
  );
  assert.equal(reuseOrBegin(reusing, w, { sessionId: "s1", toolUseId: "toolu_r4", command: "npm test -- --grep x", cwd: w.workspace }).kind, "started");
  fs.writeFileSync(path.join(w.ws, "test/a.test.ts"), "changed\n");
  assert.equal(
    reuseOrBegin(reusing, w, { sessionId: "s1", toolUseId: "toolu_r5", command: "npm test", cwd: w.workspace }).kind,
    "started",
    "a changed tree runs again",
  );
});

test("scenario: a partial run (not one of the row's full commands) does not open the gate; PostToolUse without a start does nothing", () => {
  const w = workspace();
  const spec = { ...TESTS, full: ["npm test"] };
  run(w, spec, true, undefined, "npm test -- --grep a");
  assert.equal(gate(w, spec).status, "failed");
  assert.match(freshnessReason(gate(w, spec), { check: "tests", action: "git commit", run: "npm test" }), /partial/);
  assert.deepEqual(finishCheck(w, { toolUseId: "toolu_never", failed: false, output: "" }), { kind: "none" });
});

test("scenario: a scope that cannot be fingerprinted is said so, not guessed", () => {
  const w = workspace();
  spawnSync("mkfifo", [path.join(w.ws, "src/pipe")]);
  const b = reuseOrBegin({ id: "tests", scope: ["src/pipe"] }, w, { sessionId: "s", toolUseId: "toolu_x", command: "npm test", cwd: w.workspace });
  assert.equal(b.kind, "not-recorded");
  assert.match(b.kind === "not-recorded" ? b.why : "", /src\/pipe: is a special file/);
});

test("CLI: skillgate evidence --json lists the table's checks with their freshness", async () => {
  const w = workspace();
  run(w, TESTS, true);
  const table = path.join(tmp(), "triggers.json");
  fs.writeFileSync(
    table,
    JSON.stringify({
      rows: [
        { id: "tests", kind: "evidence", when: { command: { name: "npm", sub: ["test"] } }, scope: TESTS.scope },
        { id: "lint", kind: "evidence", when: { command: { name: "npm", sub: ["run", "lint"] } }, scope: ["src"] },
      ],
    }),
  );
  // The verb in this process (cli(): its --json and exit code are what is tested, not a process start).
  const cli = async () => {
    const r = await cliRun(["evidence", "--json", "--cwd", w.ws, "--table", table], { cwd: root, env: { ...process.env, SKILLGATE_STATE: w.stateDir } });
    assert.equal(r.code, 0, r.err);
    return JSON.parse(r.out) as { checks: { check: string; status: string; reason?: string }[] };
  };
  assert.deepEqual(
    (await cli()).checks.map((c) => [c.check, c.status]),
    [
      ["tests", "fresh"],
      ["lint", "missing"],
    ],
  );
  fs.writeFileSync(path.join(w.ws, "src/a.ts"), "x\n");
  const c = (await cli()).checks[0];
  assert.equal(c?.status, "stale");
  assert.match(c?.reason ?? "", /src\/a\.ts \(modified\).*Run: npm test/);
});

test("glue: an evidence row as a check; a gate's refusal line, none when fresh", async () => {
  const { checkOfRow, evidenceRefusal } = await import("../hooks/core/evidence.ts");
  const c = checkOfRow({ id: "tests", when: { command: { name: "npm", sub: ["test"] } }, scope: ["src"] });
  assert.deepEqual(c, { id: "tests", scope: ["src"], reuse: false, program: "npm", command: { name: "npm", sub: ["test"] }, run: "npm test" });
  assert.equal(
    checkOfRow({ id: "t", when: { command: { name: "npm", sub: ["test"] } }, scope: ["src"], full: ["npm run test:all"], reuse: true }).run,
    "npm run test:all",
  );
  const fresh = freshness({ record: record(), scope: ["src", "test"], current: inv("f", record().entries), env: ENV });
  assert.equal(evidenceRefusal("commit-needs-tests", c, fresh, "git commit"), undefined);
  assert.match(
    evidenceRefusal("commit-needs-tests", c, freshness({ scope: ["src"], env: ENV }), "git commit") ?? "",
    /^skillgate\[commit-needs-tests\]: git commit needs a passing run of check "tests".*Run: npm test$/,
  );
  assert.match(evidenceRefusal("done-needs-tests", c, undefined, "the final answer") ?? "", /could not be computed/);
});

test("envFacts: real paths of node and the program on PATH (a version manager's path names the version), lockfile digests", async () => {
  const { diffEnv } = await import("../hooks/core/evidence.ts");
  const bin = tmp("sg-ev-bin-");
  for (const v of ["v1", "v2"]) {
    fs.mkdirSync(path.join(bin, v));
    fs.writeFileSync(path.join(bin, v, "npm"), "#!/bin/sh\n", { mode: 0o755 });
  }
  fs.mkdirSync(path.join(bin, "current"));
  fs.symlinkSync(path.join(bin, "v1", "npm"), path.join(bin, "current", "npm"));
  const ws = tmp();
  fs.writeFileSync(path.join(ws, "package-lock.json"), "{}\n");
  const a = envFacts(ws, "npm", { PATH: path.join(bin, "current") });
  assert.equal(a.runtimes.npm, fs.realpathSync(path.join(bin, "v1", "npm")));
  assert.equal(a.runtimes.node, "-", "not on this PATH");
  // printf '{}\n' | sha256sum
  assert.deepEqual(a.lockfiles, { "package-lock.json": "ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356" });
  fs.rmSync(path.join(bin, "current", "npm"));
  fs.symlinkSync(path.join(bin, "v2", "npm"), path.join(bin, "current", "npm"));
  assert.deepEqual(diffEnv(a, envFacts(ws, "npm", { PATH: path.join(bin, "current") })), ["runtime npm"]);
});
