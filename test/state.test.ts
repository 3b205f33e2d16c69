// Session state: unsafe ids never become paths, corrupt files are kept aside,
// and parallel hook processes of one session lose no update.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isSafeSessionId, StateStore } from "../hooks/io/state-store.ts";
import { onlyCountsChanged } from "../hooks/core/counters.ts";
import { emptyState } from "../hooks/core/types.ts";
import { defaultTable, hookBundle, casesDir } from "./helpers.ts";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "sg-state-"));

test("session ids that are not safe file names are rejected", () => {
  for (const bad of ["../x", "a/b", "..", "", "a\u0000b", "x".repeat(129), ".hidden", "a b"]) assert.equal(isSafeSessionId(bad), false, JSON.stringify(bad));
  assert.equal(isSafeSessionId("b5cc2829-727d-4e5e-8388-e2c758f4060c"), true);
  assert.throws(() => new StateStore(tmp()).file("../../etc/passwd"), /unsafe session id/);
});

test("a corrupt state file is moved aside and the session continues empty, with a warning", () => {
  const dir = tmp();
  fs.writeFileSync(path.join(dir, "s1.json"), '{"version":1,"loaded":["commit"');
  const store = new StateStore(dir);
  const r = store.read("s1");
  assert.deepEqual(r.state.loaded, []);
  assert.match(r.warning!, /unreadable; moved to .*s1\.json\.corrupt-/);
  assert.equal(fs.readdirSync(dir).filter((f) => f.includes(".corrupt-")).length, 1, "the broken file is kept for inspection");
});

test("peek (the git hook's and the restore's read) leaves a corrupt file for the decision's read, which moves it aside and warns", () => {
  const dir = tmp();
  fs.writeFileSync(path.join(dir, "s1.json"), "{");
  const store = new StateStore(dir);
  assert.deepEqual(store.peek("s1"), emptyState());
  assert.deepEqual(fs.readdirSync(dir), ["s1.json"], "peek moved nothing");
  assert.match(store.read("s1").warning ?? "", /unreadable; moved to/);
  let ran = false;
  store.locked("s1", () => (ran = true));
  assert.ok(ran);
  assert.deepEqual(
    fs.readdirSync(dir).filter((f) => f.endsWith(".lock")),
    [],
    "the lock is released",
  );
});

test("state files are created 0600 in a 0700 folder", () => {
  const dir = path.join(tmp(), "state");
  new StateStore(dir).update("s2", (s) => ({ ...s, loaded: ["commit"] }));
  assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
  assert.equal(fs.statSync(path.join(dir, "s2.json")).mode & 0o777, 0o600);
});

function runHook(payload: object, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [hookBundle], { env, stdio: ["pipe", "ignore", "ignore"] });
    child.on("error", reject);
    child.on("close", (code) => resolve(code ?? -1));
    child.stdin.end(JSON.stringify(payload));
  });
}

test("24 hook processes of one session started at once lose no update", async () => {
  const dir = tmp();
  const env = { ...process.env, SKILLGATE_STATE: dir, SKILLGATE_TABLE: defaultTable };
  const fx = (n: string) => JSON.parse(fs.readFileSync(path.join(casesDir, "fixtures", `${n}.json`), "utf8"));
  const session = "parallel-session";
  // More processes than cores, all on one session's lock (more add run time, not contention, on two cores).
  const N = 24;
  const skills = Array.from({ length: N / 2 }, (_, i) => `skill-${i}`);
  const jobs: Promise<number>[] = [];
  for (let i = 0; i < N; i++) {
    // Half load a distinct skill; the rest are gates and hints that also write state.
    const payload =
      i % 2 === 0
        ? { ...fx("post-tool-use-skill"), session_id: session, tool_input: { skill: skills[i / 2] } }
        : i % 4 === 1
          ? { ...fx("pre-tool-use-bash"), session_id: session }
          : { ...fx("user-prompt-submit"), session_id: session, prompt: `логи ${i}` };
    jobs.push(runHook(payload, env));
  }
  const codes = await Promise.all(jobs);
  assert.deepEqual([...new Set(codes)], [0]);
  const state = JSON.parse(fs.readFileSync(path.join(dir, `${session}.json`), "utf8"));
  assert.deepEqual([...state.loaded].sort(), [...skills].sort(), "every load survived");
  // Refusals that change nothing else are counted by append (the state file keeps the rest).
  assert.equal((state.denials["commit-gate"] ?? 0) + (new StateStore(dir).counted(session).denials["commit-gate"] ?? 0), N / 4, "every denial was counted");
  assert.deepEqual(state.hintsShown, ["logs-hint"]);
  assert.deepEqual(
    fs.readdirSync(dir).filter((f) => f.endsWith(".lock") || f.endsWith(".tmp")),
    [],
    "no lock or temp file left behind",
  );
});

test("a finished call that changes nothing else is counted by append, not by rewriting the state; 24 parallel ones lose no count", async () => {
  const dir = tmp();
  const env = { ...process.env, SKILLGATE_STATE: dir, SKILLGATE_TABLE: defaultTable };
  const fx = (n: string) => JSON.parse(fs.readFileSync(path.join(casesDir, "fixtures", `${n}.json`), "utf8"));
  const session = "count-session";
  // One load first, so the state file exists; its mtime must not move after that.
  assert.equal(await runHook({ ...fx("post-tool-use-skill"), session_id: session }, env), 0);
  const file = path.join(dir, `${session}.json`);
  const before = fs.readFileSync(file, "utf8");
  const reads = Array.from({ length: 24 }, () => runHook({ ...fx("post-tool-use-read"), session_id: session }, env));
  assert.deepEqual([...new Set(await Promise.all(reads))], [0]);
  assert.equal(fs.readFileSync(file, "utf8"), before, "the state file was not rewritten");
  const store = new StateStore(dir);
  assert.equal(store.counted(session).toolCalls.Read, 24, "every call counted");
  assert.equal(store.read(session).state.stats.toolCalls.Skill, 1, "the load's own call is counted in the state it rewrote");
  // A hostile tool name stays one line of safe characters.
  store.count(session, [{ counter: "toolCalls", key: "x\ny/../z", by: 1 }]);
  assert.deepEqual(Object.keys(store.counted(session).toolCalls).sort(), ["Read", "x_y_.._z"]);
});

test("onlyCountsChanged: counters that only grew are increments; any other change, or a shrinking count, is not", () => {
  const s0 = emptyState();
  const called = { ...s0, stats: { ...s0.stats, toolCalls: { Read: 1 } } };
  assert.deepEqual(onlyCountsChanged(s0, called), [{ counter: "toolCalls", key: "Read", by: 1 }]);
  const refused = { ...called, denials: { "commit-gate": 1, "push-block": 1 } };
  assert.deepEqual(onlyCountsChanged(called, refused), [
    { counter: "denials", key: "commit-gate", by: 1 },
    { counter: "denials", key: "push-block", by: 1 },
  ]);
  assert.equal(onlyCountsChanged(s0, s0), undefined, "nothing changed");
  assert.equal(onlyCountsChanged(called, { ...refused, hintsShown: ["logs-hint"] }), undefined, "a hint shown must be saved");
  assert.equal(onlyCountsChanged(called, { ...called, stats: { ...called.stats, capped: { Bash: 1 } } }), undefined, "another stat");
  assert.equal(onlyCountsChanged(called, { ...called, stats: { ...called.stats, toolCalls: {} } }), undefined, "a count that vanished");
  assert.equal(onlyCountsChanged(refused, { ...refused, loaded: ["commit"] }), undefined, "a load must be saved");
});

test("session files untouched for the configured age are cleaned; fresh ones, the table cache and the output memo stay", () => {
  const dir = tmp();
  for (const f of ["old.json", "new.json", "old.json.corrupt-1", "old.json.calls", ".table-abc.json", ".output-root"])
    fs.writeFileSync(path.join(dir, f), "{}");
  const old = new Date(Date.now() - 31 * 86_400_000);
  for (const f of ["old.json", "old.json.corrupt-1", "old.json.calls", ".table-abc.json", ".output-root"]) fs.utimesSync(path.join(dir, f), old, old);
  assert.equal(new StateStore(dir).cleanOld(30), 3);
  assert.deepEqual(fs.readdirSync(dir).sort(), [".output-root", ".table-abc.json", "new.json"]);
});

test("a state file of the wrong shape (stats: null, a number where a list belongs) is moved aside, not half-trusted", () => {
  for (const bad of [
    '{"version":1,"loaded":[],"hintsShown":[],"stats":null}',
    '{"version":1,"loaded":"commit","hintsShown":[]}',
    '{"version":2,"loaded":[],"hintsShown":[]}',
  ]) {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "s3.json"), bad);
    const r = new StateStore(dir).read("s3");
    assert.deepEqual(r.state.loaded, [], bad);
    assert.match(r.warning ?? "", /unreadable; moved to/, bad);
  }
});

test("an old lock is taken over even when its pid looks alive (pid reuse), and a fresh live one is never removed by another owner", () => {
  const dir = tmp();
  const lock = path.join(dir, "s4.json.lock");
  fs.writeFileSync(lock, "1:oldtoken");
  const old = new Date(Date.now() - 2 * 86_400_000);
  fs.utimesSync(lock, old, old);
  const t0 = Date.now();
  new StateStore(dir).update("s4", (s) => ({ ...s, loaded: ["commit"] }));
  assert.ok(Date.now() - t0 < 5_000, "did not wait for the stale lock");
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dir, "s4.json"), "utf8")).loaded, ["commit"]);
  assert.equal(fs.existsSync(lock), false);
});

test("makeDir: nested folders with their mode, an existing one is fine, a file in the way or a folder under /proc is an error (never a hang)", async () => {
  const { makeDir } = await import("../hooks/io/make-dir.ts");
  const dir = tmp();
  makeDir(path.join(dir, "a", "b", "c"), 0o700);
  assert.equal(fs.statSync(path.join(dir, "a", "b", "c")).mode & 0o777, 0o700);
  makeDir(path.join(dir, "a", "b"), 0o700);
  fs.writeFileSync(path.join(dir, "f"), "");
  assert.throws(() => makeDir(path.join(dir, "f", "g")), /ENOTDIR/);
  // Node 20's recursive mkdirSync never returns here.
  if (fs.existsSync("/proc/self")) assert.throws(() => makeDir("/proc/skillgate-nope/x", 0o700), /ENOENT/);
});

test("a state folder the hook cannot make (under /proc) is an answer with a notice, not a hang", {
  skip: !fs.existsSync("/proc/self") && "no /proc here",
}, async () => {
  const home = tmp();
  const env = { PATH: process.env.PATH, HOME: home, XDG_STATE_HOME: "/proc/skillgate-nope", SKILLGATE_TABLE: defaultTable };
  const fx = JSON.parse(fs.readFileSync(path.join(casesDir, "fixtures", "pre-tool-use-bash.json"), "utf8"));
  const { spawnSync } = await import("node:child_process");
  // 30 s: a hang detector, not a speed budget (the hook answers in well under a second).
  const r = spawnSync(process.execPath, [hookBundle], { input: JSON.stringify(fx), env, encoding: "utf8", timeout: 30_000 });
  assert.equal(r.error, undefined, "the hook returned");
  assert.equal(r.status, 0);
  const out = JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string }; systemMessage?: string };
  assert.ok(out.hookSpecificOutput?.permissionDecision === "deny" || /skillgate/.test(out.systemMessage ?? ""), r.stdout);
});
