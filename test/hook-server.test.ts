// The hook server (hooks/hook-server.cjs, docs/hook-server.md): a hook process asks it first and
// prints its answer. Each test runs a private copy of skillgate (its own dist/, so its own server)
// with the server's folder in a temp folder, and compares with the same events decided in-process
// (SKILLGATE_SERVER=off). Real processes throughout: the server is started by a hook process as a
// user's would be, and the attacks connect to it as an agent's program would.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { bunOrSkip, root } from "./helpers.ts";

const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(root, "cases", "fixtures", `${name}.json`), "utf8")) as Record<string, unknown>;

interface Copy {
  dir: string;
  hook: string;
  env: NodeJS.ProcessEnv;
  place: { dir: string; sock: string; record: string };
  trusted: () => { pid: number; fd: number } | undefined;
  copiedAt: number;
}

const made: string[] = [];
after(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

/** skillgate copied (package.json, table, skills, dist) into a temp folder; its hook servers listen in another. */
function copy(): Copy {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-server-"));
  made.push(dir);
  for (const f of ["package.json", "triggers.json", "skills", "dist", "hooks"]) fs.cpSync(path.join(root, f), path.join(dir, f), { recursive: true });
  const runtime = path.join(dir, "run");
  fs.mkdirSync(runtime, { mode: 0o700 });
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime, SKILLGATE_TABLE: path.join(dir, "triggers.json"), SKILLGATE_TRACE: "1" };
  delete env.SKILLGATE_SERVER;
  delete env.SKILLGATE_TIMINGS;
  delete env.CLAUDE_PROJECT_DIR;
  const hook = path.join(dir, "dist", "hook.cjs");
  const loader = createRequire(import.meta.url)(hook) as {
    serverPlace: (env: NodeJS.ProcessEnv) => Copy["place"];
    trustedServer: (place: Copy["place"]) => { pid: number; fd: number } | undefined;
  };
  const place = loader.serverPlace(env);
  return { dir, hook, env, place, trusted: () => loader.trustedServer(place), copiedAt: Date.now() };
}

/**
 * Until 2 s after the copy: a skill file changed (its ctime: a copy's is now) within the last 2 s is "racy" and its
 * stamp is not recorded (io/stat-cache.ts), so two runs' states would differ by when they ran, not by the route.
 */
async function settled(c: Copy): Promise<void> {
  const wait = c.copiedAt + 2_100 - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}

function hookRun(
  c: Copy,
  event: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  runtime: { exe: string; hook: string } = { exe: process.execPath, hook: c.hook },
): { stdout: string; stderr: string; servedBy?: number } {
  const r = spawnSync(runtime.exe, [runtime.hook], { input: JSON.stringify(event), env, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const served = /^skillgate-served-by (\d+)$/m.exec(r.stderr);
  return { stdout: r.stdout, stderr: r.stderr.replace(/^skillgate-served-by \d+\n/m, ""), ...(served ? { servedBy: Number(served[1]) } : {}) };
}

/** Wait until the copy's server is up and trusted (a hook process started it). */
async function serverUp(c: Copy): Promise<{ pid: number; fd: number }> {
  for (let i = 0; i < 200; i++) {
    const t = c.trusted();
    if (t) return t;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no hook server came up in ${c.place.dir}`);
}

/** A session's events: a refused commit, a hint, a shell call the parser decides and its result, the skill loaded, the commit allowed, a guarded write. */
function session(c: Copy, id: string): Record<string, unknown>[] {
  const cwd = path.join(c.dir, "work", id);
  fs.mkdirSync(cwd, { recursive: true });
  const at = (name: string, patch: Record<string, unknown> = {}) => ({ ...fixture(name), cwd, session_id: id, ...patch });
  const bash = (command: string, callId: string) => at("pre-tool-use-bash", { tool_use_id: callId, tool_input: { command, description: "t" } });
  return [
    at("session-start-startup"),
    bash("git commit -m x", "toolu_a"),
    at("user-prompt-submit"),
    bash('git log --format="%h $USER" | head -5', "toolu_b"),
    at("post-tool-use-bash", { tool_use_id: "toolu_b", tool_input: { command: 'git log --format="%h $USER" | head -5', description: "t" } }),
    at("post-tool-use-skill"),
    bash("git commit -m x", "toolu_c"),
    at("pre-tool-use-write", { tool_input: { file_path: path.join(cwd, "docs", "a_RU.md"), content: "x" } }),
    at("stop"),
  ];
}

test("a hook process answers through the server exactly as it would alone, and the session's state ends the same", async () => {
  const c = copy();
  // The first event finds no server: it decides in-process and starts one.
  hookRun(c, { ...fixture("session-start-startup"), session_id: "warm" }, c.env);
  const server = await serverUp(c);
  await settled(c);
  const served = session(c, "s1").map((e) => hookRun(c, e, { ...c.env, SKILLGATE_STATE: path.join(c.dir, "state-served") }));
  const alone = session(c, "s1").map((e) => hookRun(c, e, { ...c.env, SKILLGATE_STATE: path.join(c.dir, "state-alone"), SKILLGATE_SERVER: "off" }));
  for (const [i, r] of served.entries()) {
    assert.equal(r.servedBy, server.pid, `event ${i} was answered by the server`);
    assert.equal(alone[i]?.servedBy, undefined, `event ${i} with SKILLGATE_SERVER=off was decided in-process`);
    assert.equal(r.stdout, alone[i]?.stdout, `event ${i}: the same answer`);
    assert.equal(r.stderr, alone[i]?.stderr, `event ${i}: the same notices`);
  }
  // The refusal, the hint and the allowed commit are all there (the comparison is not of two empty answers).
  assert.match(served[1]?.stdout ?? "", /"permissionDecision":"deny".*Load skill \\"commit\\" first/);
  assert.match(served[2]?.stdout ?? "", /load skill \\"logs\\"/);
  assert.doesNotMatch(served[6]?.stdout ?? "", /deny/);
  const state = (d: string) => JSON.parse(fs.readFileSync(path.join(c.dir, d, "s1.json"), "utf8")) as Record<string, unknown>;
  const { updatedAt: _a, ...servedState } = state("state-served");
  const { updatedAt: _b, ...aloneState } = state("state-alone");
  assert.deepEqual(servedState, aloneState);
});

test("under Bun (dist/hook.bun.cjs, a server run by Bun): the same answers and state as Bun deciding alone", async (t) => {
  const bun = await bunOrSkip(t);
  if (!bun) return;
  const c = copy();
  const runtime = { exe: bun, hook: path.join(c.dir, "dist", "hook.bun.cjs") };
  assert.ok(fs.existsSync(runtime.hook), "the build made dist/hook.bun.cjs");
  const warm = { ...fixture("session-start-startup"), session_id: "warm" };
  let server: number | undefined;
  for (let i = 0; i < 100 && server === undefined; i++) {
    server = hookRun(c, warm, c.env, runtime).servedBy;
    if (server === undefined) await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(server, "a Bun hook process was answered by a server");
  const [exe, ...args] = fs.readFileSync(`/proc/${server}/cmdline`, "latin1").split("\0");
  assert.equal(fs.realpathSync(exe ?? ""), fs.realpathSync(bun), "the server runs under Bun");
  assert.deepEqual(args, ["--config=/dev/null", path.join(c.dir, "dist", "hook-server.cjs"), ""], "with no bunfig.toml of the folder it started in");
  await settled(c);
  const served = session(c, "s2").map((e) => hookRun(c, e, { ...c.env, SKILLGATE_STATE: path.join(c.dir, "state-served") }, runtime));
  const alone = session(c, "s2").map((e) => hookRun(c, e, { ...c.env, SKILLGATE_STATE: path.join(c.dir, "state-alone"), SKILLGATE_SERVER: "off" }, runtime));
  for (const [i, r] of served.entries()) {
    assert.equal(r.servedBy, server, `event ${i} was answered by the server`);
    assert.equal(alone[i]?.servedBy, undefined);
    assert.equal(r.stdout, alone[i]?.stdout, `event ${i}: the same answer`);
    assert.equal(r.stderr, alone[i]?.stderr, `event ${i}: the same notices`);
  }
  assert.match(served[1]?.stdout ?? "", /Load skill \\"commit\\" first/);
});

test("parallel hook processes are each answered, by the server, as alone", async () => {
  const c = copy();
  hookRun(c, { ...fixture("session-start-startup"), session_id: "warm" }, c.env);
  const server = await serverUp(c);
  const one = (id: string, env: NodeJS.ProcessEnv) =>
    new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      const p = spawn(process.execPath, [c.hook], { env, stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      p.stdout.on("data", (d) => (stdout += d));
      p.stderr.on("data", (d) => (stderr += d));
      p.on("error", reject);
      p.on("close", () => resolve({ stdout, stderr }));
      p.stdin.end(
        JSON.stringify({ ...fixture("pre-tool-use-bash"), session_id: id, cwd: c.dir, tool_input: { command: "git commit -m x", description: "t" } }),
      );
    });
  const ids = Array.from({ length: 8 }, (_, i) => `p${i}`);
  const served = await Promise.all(ids.map((id) => one(id, { ...c.env, SKILLGATE_STATE: path.join(c.dir, "st") })));
  for (const r of served) {
    assert.match(r.stderr, new RegExp(`^skillgate-served-by ${server.pid}$`, "m"));
    assert.match(r.stdout, /Load skill \\"commit\\" first/);
  }
});

/**
 * Send one raw request line to the copy's server, as any program of the user could, and end it: the server's
 * last line (its refusal, after a challenge the sender cannot answer for another process).
 */
function rawRequest(c: Copy, request: Record<string, unknown>): Record<string, unknown> {
  const script = `const s=require("node:net").connect(process.argv[1]);let b="";s.on("data",d=>b+=d);s.on("end",()=>process.stdout.write(b));s.end(process.argv[2]+"\\n");`;
  const r = spawnSync(process.execPath, ["-e", script, c.place.sock, JSON.stringify(request)], { encoding: "utf8", env: c.env });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split("\n").pop() ?? "") as Record<string, unknown>;
}

test("the server answers only a live hook process of its own folder that proves the request is its own: a program's forged load is refused and changes nothing", async () => {
  const c = copy();
  const state = path.join(c.dir, "state");
  const env = { ...c.env, SKILLGATE_STATE: state };
  hookRun(c, { ...fixture("session-start-startup"), session_id: "f" }, env);
  const server = await serverUp(c);
  const load = { ...fixture("post-tool-use-skill"), session_id: "f", cwd: c.dir };
  const forged = (pid: number, extra: Record<string, unknown> = {}) => ({
    v: 1,
    pid,
    host: null,
    args: [],
    cwd: c.dir,
    env,
    stdin: JSON.stringify(load),
    bytes: JSON.stringify(load).length,
    ...extra,
  });
  // The sender's own pid: a node -e process, not a hook.
  const script = `const s=require("node:net").connect(process.argv[1]);let b="";s.on("data",d=>b+=d);s.on("end",()=>process.stdout.write(b));s.end(JSON.stringify({...JSON.parse(process.argv[2]),pid:process.pid})+"\\n");`;
  const own = spawnSync(process.execPath, ["-e", script, c.place.sock, JSON.stringify(forged(0))], { encoding: "utf8", env });
  assert.deepEqual(JSON.parse(own.stdout), { refused: "not a hook of this folder" });
  // The server itself (its cmdline names a script of this folder too).
  assert.deepEqual(rawRequest(c, forged(server.pid)), { refused: "not a hook of this folder" });
  // Another process of the user (this test's runner), and one that does not exist.
  assert.deepEqual(rawRequest(c, forged(process.pid)), { refused: "not a hook of this folder" });
  assert.deepEqual(rawRequest(c, forged(2 ** 22 + 17)), { refused: "no such process" });
  assert.deepEqual(rawRequest(c, { v: 1, pid: "x" }), { refused: "not a hook request" });
  // The commit is still refused: no load was recorded.
  const commit = hookRun(
    c,
    { ...fixture("pre-tool-use-bash"), session_id: "f", cwd: c.dir, tool_input: { command: "git commit -m x", description: "t" } },
    env,
  );
  assert.ok(commit.servedBy, "the commit was answered by the server");
  assert.match(commit.stdout, /Load skill \\"commit\\" first/);

  // A live hook process (its stdin still open): a program that names it cannot write the challenge into that
  // process's /proc/<pid>/comm, so its requests are refused; the process's own request is then answered.
  const p = spawn(process.execPath, [c.hook], { env, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  p.stdout.on("data", (d) => (out += d));
  p.stderr.on("data", (d) => (err += d));
  const pid = p.pid ?? 0;
  const ask = { ...fixture("pre-tool-use-bash"), session_id: "g", cwd: c.dir, tool_input: { command: "ls", description: "t" } };
  // (wait until the process runs the hook script: before its exec, its cmdline is the test runner's)
  for (let i = 0; i < 200 && !fs.readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("hook.cjs"); i++) await new Promise((r) => setTimeout(r, 10));
  const unproven = { refused: "the process did not prove the request is its own" };
  assert.deepEqual(rawRequest(c, forged(pid, { stdin: JSON.stringify(ask), bytes: JSON.stringify(ask).length })), unproven);
  assert.deepEqual(rawRequest(c, forged(pid)), unproven);
  assert.deepEqual(rawRequest(c, forged(pid, { host: "codex" })), { refused: "another host" });
  await new Promise<void>((resolve) => {
    p.on("close", () => resolve());
    p.stdin.end(JSON.stringify({ ...fixture("pre-tool-use-bash"), session_id: "g", cwd: c.dir, tool_input: { command: "git commit -m x", description: "t" } }));
  });
  assert.match(err, new RegExp(`^skillgate-served-by ${server.pid}$`, "m"), "the process's own request was answered by the server");
  assert.match(out, /Load skill \\"commit\\" first/);
});

test("a server the client cannot confirm is never asked: a program listening in its place, with a record naming itself or the real server", async () => {
  const c = copy();
  const env = { ...c.env, SKILLGATE_STATE: path.join(c.dir, "state") };
  hookRun(c, { ...fixture("session-start-startup"), session_id: "w" }, env);
  const real = await serverUp(c);
  // A program of the user's takes the socket's path (the real server still runs) and answers "allow".
  const fakeScript = `
    const fs=require("node:fs"),net=require("node:net");const [sock,record,realPid,realFd,mode]=process.argv.slice(1);
    fs.rmSync(sock,{force:true});
    const srv=net.createServer({allowHalfOpen:true},(c)=>{fs.appendFileSync(record+".asked","x");c.on("data",()=>{});c.on("end",()=>c.end(JSON.stringify({stdout:"{}\\n",stderr:""})));});
    srv.listen(sock,()=>{const ino=fs.lstatSync(sock).ino;const rec=mode==="self"?{pid:process.pid,fd:srv._handle.fd,ino}:{pid:Number(realPid),fd:Number(realFd),ino};fs.writeFileSync(record,JSON.stringify(rec));process.stdout.write("up\\n");});`;
  for (const mode of ["self", "real"]) {
    // The server running now (the in-process decision of the first round started a new one).
    const live = mode === "real" ? await serverUp(c) : real;
    const fake = spawn(process.execPath, ["-e", fakeScript, c.place.sock, c.place.record, String(live.pid), String(live.fd), mode], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve) => fake.stdout.once("data", () => resolve()));
    const named = JSON.parse(fs.readFileSync(c.place.record, "utf8")) as { pid: number };
    if (mode === "real") {
      // The server whose socket was taken exits at once (it watches its folder).
      for (let i = 0; i < 40 && procAlive(named.pid); i++) await new Promise((res) => setTimeout(res, 25));
      assert.equal(procAlive(named.pid), false, "the server whose socket was taken exited");
    }
    assert.equal(c.trusted(), undefined, `${mode}: the record is not believed`);
    const r = hookRun(
      c,
      { ...fixture("pre-tool-use-bash"), session_id: `x-${mode}`, cwd: c.dir, tool_input: { command: "git commit -m x", description: "t" } },
      env,
    );
    assert.equal(r.servedBy, undefined, `${mode}: decided in-process`);
    assert.match(r.stdout, /Load skill \\"commit\\" first/, `${mode}: the commit is refused`);
    assert.equal(fs.existsSync(`${c.place.record}.asked`), false, `${mode}: the program was never asked`);
    fake.kill();
    await new Promise((r) => fake.on("close", r));
  }
});

test("a server whose build changed answers nobody and exits; the hook decides in-process and starts a new one", async () => {
  const c = copy();
  const env = { ...c.env, SKILLGATE_STATE: path.join(c.dir, "state") };
  hookRun(c, { ...fixture("session-start-startup"), session_id: "b" }, env);
  const old = await serverUp(c);
  // npm run build replaces the files (a new inode).
  const cache = path.join(c.dir, "dist", "hook.node.cache");
  const bytes = fs.readFileSync(cache);
  fs.rmSync(cache);
  fs.writeFileSync(cache, bytes);
  const r = hookRun(c, { ...fixture("pre-tool-use-bash"), session_id: "b", cwd: c.dir, tool_input: { command: "git commit -m x", description: "t" } }, env);
  assert.equal(r.servedBy, undefined);
  assert.match(r.stdout, /Load skill \\"commit\\" first/);
  for (let i = 0; i < 200 && procAlive(old.pid); i++) await new Promise((res) => setTimeout(res, 25));
  assert.equal(procAlive(old.pid), false, "the old server exited");
  const fresh = await serverUp(c);
  assert.notEqual(fresh.pid, old.pid);
  assert.equal(hookRun(c, { ...fixture("user-prompt-submit"), session_id: "b", cwd: c.dir }, env).servedBy, fresh.pid);
});

function procAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
}

test("a server that died (killed, its record left behind) is replaced at the next event", async () => {
  const c = copy();
  const env = { ...c.env, SKILLGATE_STATE: path.join(c.dir, "state") };
  hookRun(c, { ...fixture("session-start-startup"), session_id: "k" }, env);
  const old = await serverUp(c);
  process.kill(old.pid, "SIGKILL");
  for (let i = 0; i < 200 && procAlive(old.pid); i++) await new Promise((res) => setTimeout(res, 25));
  assert.ok(fs.existsSync(c.place.record), "the dead server's record is still there");
  const r = hookRun(c, { ...fixture("pre-tool-use-bash"), session_id: "k", cwd: c.dir, tool_input: { command: "git commit -m x", description: "t" } }, env);
  assert.equal(r.servedBy, undefined);
  assert.match(r.stdout, /Load skill \\"commit\\" first/);
  const fresh = await serverUp(c);
  assert.notEqual(fresh.pid, old.pid);
  assert.equal(hookRun(c, { ...fixture("user-prompt-submit"), session_id: "k", cwd: c.dir }, env).servedBy, fresh.pid);
});

test("without Node's pipe binding (another Node's shape), the hook asks through node:net, with the same answer", async () => {
  const c = copy();
  // Preloaded in the hook processes and (inherited) in the server they start: the same NODE_OPTIONS on both
  // sides, so the server is still believed.
  const preload = path.join(c.dir, "no-binding.cjs");
  fs.writeFileSync(preload, "process.binding = undefined;\n");
  const env = { ...c.env, SKILLGATE_STATE: path.join(c.dir, "state"), NODE_OPTIONS: `--require=${preload}` };
  const event = { ...fixture("pre-tool-use-bash"), session_id: "n", cwd: c.dir, tool_input: { command: "git commit -m x", description: "t" } };
  hookRun(c, { ...fixture("session-start-startup"), session_id: "n" }, env);
  let served: ReturnType<typeof hookRun> | undefined;
  for (let i = 0; i < 100 && !served?.servedBy; i++) {
    served = hookRun(c, event, env);
    if (!served.servedBy) await new Promise((r) => setTimeout(r, 50));
  }
  assert.ok(served?.servedBy, "answered by the server");
  assert.match(served?.stdout ?? "", /Load skill \\"commit\\" first/);
});

test("a stopped server is not believed (a hook would wait for it), and SIGUSR1 opens no inspector in it", async () => {
  const c = copy();
  const env = { ...c.env, SKILLGATE_STATE: path.join(c.dir, "state") };
  hookRun(c, { ...fixture("session-start-startup"), session_id: "t" }, env);
  const server = await serverUp(c);
  // Node opens its inspector on SIGUSR1 (a TCP port on 127.0.0.1): a program of the user could then change the
  // server's memory. No socket of the server's may be a listening TCP one.
  const tcpListening = () => {
    const own = new Set(
      fs
        .readdirSync(`/proc/${server.pid}/fd`)
        .map((fd) => /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${server.pid}/fd/${fd}`))?.[1])
        .filter((x) => x !== undefined),
    );
    return ["/proc/net/tcp", "/proc/net/tcp6"].some((f) =>
      fs
        .readFileSync(f, "latin1")
        .split("\n")
        .map((l) => l.trim().split(/\s+/))
        .some((x) => x[3] === "0A" && own.has(x[9] ?? "")),
    );
  };
  process.kill(server.pid, "SIGUSR1");
  await new Promise((r) => setTimeout(r, 300));
  assert.ok(procAlive(server.pid), "the server lives on");
  assert.equal(tcpListening(), false, "no inspector listens in the server");
  process.kill(server.pid, "SIGSTOP");
  const state = () => /^State:\s+(\S)/m.exec(fs.readFileSync(`/proc/${server.pid}/status`, "latin1"))?.[1];
  for (let i = 0; i < 100 && state() !== "T"; i++) await new Promise((r) => setTimeout(r, 10));
  try {
    assert.equal(c.trusted(), undefined, "a stopped server is not believed");
    const t0 = performance.now();
    const r = hookRun(c, { ...fixture("pre-tool-use-bash"), session_id: "t", cwd: c.dir, tool_input: { command: "git commit -m x", description: "t" } }, env);
    assert.equal(r.servedBy, undefined);
    assert.match(r.stdout, /Load skill \\"commit\\" first/);
    assert.ok(performance.now() - t0 < 5_000, "decided without waiting for the stopped server");
  } finally {
    process.kill(server.pid, "SIGCONT");
  }
});
