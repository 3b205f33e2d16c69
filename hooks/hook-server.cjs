// dist/hook-server.cjs: the hook server (scripts/build.mjs copies this file there).
// A hook process (dist/hook.cjs, hooks/node-loader.cjs) starts it when none is
// running; it keeps the hook bundle compiled and answers each hook process's
// event with the bundle it keeps loaded, one event at a time, with that
// process's environment and working folder: what the process would have
// printed itself, without its cold start. docs/hook-server.md.
// Trust, both ways: a client believes a server only when /proc shows it is this
// file run by the same runtime, untraced, listening on the socket it names
// (node-loader.cjs, trustedServer); the server answers only a live hook process
// of this folder that proves the request is its own (it writes the server's
// challenge into its own /proc/self/comm), once per process (clientRefusal,
// proven). It exits after IDLE_MS without events, when a file it runs from
// changed or vanished, or when its socket is no longer its own.
"use strict";
// SIGUSR1 would open Node's inspector on a port any program of the user can reach, and with it this process's
// memory: a hook server lives for minutes, not for one event.
process.on("SIGUSR1", () => {});
const fs = require("node:fs");
const net = require("node:net");
const path = require("node:path");
const loader = require("./hook.cjs");

const IDLE_MS = 15 * 60_000;
const WATCH_MS = 5_000;
/** The files a hook process runs: when one changes, this server's answers are no longer theirs. */
const BUILD = ["hook.cjs", "hook.node.cjs", "hook.node.cache", "hook.node-shell.cjs", "hook.node-shell.cache", "hook.node-schema.cjs", loader.SERVER_FILE];
/** A request waiting longer than this is sent back undone (its hook decides in-process, well within the host's timeout). */
const QUEUE_MS = 2_000;
/** The request line: the event (at most 8 MB) and the environment. */
const MAX_REQUEST = 16 * 1024 * 1024;
/** Scripts a hook process of this folder runs (the launcher is checked by content: it may be copied into a project). */
const HOOK_SCRIPT = /^hook(-[a-z]+|\.bun)?\.[cm]js$/;

const place = loader.serverPlace();
if (!place) process.exit(0);

const stamp = (f) => {
  const st = fs.statSync(path.join(__dirname, f), { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : "missing";
};
const built = BUILD.map(stamp).join(" ");
const sameBuild = () => BUILD.map(stamp).join(" ") === built;

/**
 * The bundle, loaded once. Its modules keep nothing from one event to the next that could change a decision
 * (memos of pure functions, WeakMaps keyed by one event's objects): test/hook-server.test.ts plays a session of
 * each kind of event through the server and through processes of their own and compares what each printed and
 * stored; every test that runs dist/hook.cjs runs it through a server too.
 */
let bundle;

/** Hook processes already answered (pid:start): each is answered once. */
const answered = new Set();
let last = Date.now();
let server;
let socketIno;

/** Why this request is not answered, or undefined: it must name a live hook process of this folder, not yet answered. */
function clientRefusal(req) {
  if (!req || req.v !== 1 || !Number.isInteger(req.pid) || typeof req.stdin !== "string" || !Number.isInteger(req.bytes)) return "not a hook request";
  if (!Array.isArray(req.args) || !req.args.every((a) => typeof a === "string") || typeof req.cwd !== "string") return "not a hook request";
  if (!req.env || typeof req.env !== "object" || Object.values(req.env).some((v) => typeof v !== "string")) return "not a hook request";
  if (req.pid === process.pid) return "not a hook of this folder";
  bundle ??= loader.load().hook;
  const stat = bundle.procStat(req.pid);
  if (!stat) return "no such process";
  const key = `${req.pid}:${stat.start}`;
  if (answered.has(key)) return "this process was answered already";
  let argv;
  let exe;
  let cwd;
  try {
    argv = fs.readFileSync(`/proc/${req.pid}/cmdline`, "latin1").split("\0").slice(0, -1);
    exe = fs.readlinkSync(`/proc/${req.pid}/exe`);
    cwd = fs.readlinkSync(`/proc/${req.pid}/cwd`);
  } catch {
    return "the process cannot be read";
  }
  if (exe !== fs.realpathSync(process.execPath)) return "another runtime";
  // Before the hook's file, only the runtime's own arguments that install writes (Bun: no bunfig.toml).
  const at = argv.findIndex((a, i) => i > 0 && !a.startsWith("-"));
  if (at < 1 || argv.slice(1, at).some((a) => !loader.RUNTIME_ARGS.includes(a))) return "not a hook of this folder";
  const script = path.resolve(cwd, argv[at] ?? "");
  const name = path.basename(script);
  const here = path.dirname(script) === __dirname && HOOK_SCRIPT.test(name) && name !== loader.SERVER_FILE;
  if (!here && !isLauncher(script)) return "not a hook of this folder";
  const host = here ? loader.hostOf(path.basename(script)) : undefined;
  if ((req.host ?? undefined) !== host) return "another host";
  if (argv.slice(at + 1).join("\0") !== req.args.join("\0")) return "other arguments";
  req.key = key;
  return undefined;
}

/**
 * The process the request names wrote the challenge into its own /proc/<pid>/comm, which only that process can
 * write: the request is its own (a program that names a hook process it did not start cannot do that). Each
 * process is answered once.
 */
function proven(req, challenge) {
  let comm;
  try {
    comm = fs.readFileSync(`/proc/${req.pid}/comm`, "latin1");
  } catch {
    return false;
  }
  if (comm !== `sg${challenge}\n` || answered.has(req.key)) return false;
  answered.add(req.key);
  if (answered.size > 100_000) answered.clear();
  return true;
}

/** The launcher a project commits (.claude/hooks/skillgate.mjs) or the plugin's: byte for byte this package's. */
function isLauncher(file) {
  try {
    return fs.readFileSync(file).equals(fs.readFileSync(path.join(__dirname, "..", "hooks", "launcher.mjs")));
  } catch {
    return false;
  }
}

/** One event, in the client's environment and folder, as its own process would run it. */
async function answer(req) {
  const env = process.env;
  const cwd = process.cwd();
  try {
    process.env = req.env;
    process.chdir(req.cwd);
    bundle ??= loader.load().hook;
    const hook = bundle;
    const o = req.host === null ? hook.hookOptions() : hook.hosts[req.host].hookOptions(req.args);
    return await hook.answer(o, { text: req.stdin, bytes: req.bytes }, req.env, { hookPid: req.pid });
  } finally {
    process.env = env;
    process.chdir(cwd);
  }
}

/** Requests are answered one at a time: each swaps the process's environment and folder. */
const queue = [];
let busy = false;
async function pump() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const { req, conn, at } = queue.shift();
    let reply;
    if (!sameBuild()) {
      reply = { stale: true };
      setImmediate(stop);
    } else if (Date.now() - at > QUEUE_MS) {
      reply = { refused: "busy" };
    } else {
      try {
        reply = await answer(req);
        last = Date.now();
      } catch (e) {
        // (the hook's own pipeline never throws: this is the server's part, e.g. a folder it cannot enter) the hook
        // process decides in-process, as it would without a server.
        reply = { refused: `the server failed: ${(e && e.message) || e}` };
      }
      if (reply.stdout) reply = { ...reply, stdout: `${reply.stdout}\n` };
      // With SKILLGATE_TRACE (the hook's debugging output) the answer says who gave it.
      if (req.env.SKILLGATE_TRACE && !reply.refused) reply = { ...reply, stderr: `${reply.stderr}skillgate-served-by ${process.pid}\n` };
    }
    conn.end(JSON.stringify(reply));
  }
  busy = false;
}

function stop() {
  try {
    if (fs.lstatSync(place.sock, { throwIfNoEntry: false })?.ino === socketIno) {
      fs.rmSync(place.sock, { force: true });
      fs.rmSync(place.record, { force: true });
    }
  } catch {
    /* gone already */
  }
  process.exit(0);
}

function listen() {
  process.chdir("/");
  fs.mkdirSync(place.dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(place.dir);
  if (!st.isDirectory() || st.uid !== place.uid || (st.mode & 0o077) !== 0) process.exit(0);
  // A socket left by a server that died: nobody listens on it any more (a live one would have been trusted).
  fs.rmSync(place.sock, { force: true });
  // allowHalfOpen: the client half-closes after its request; the answer goes back on the same connection.
  // The exchange (node-loader.cjs, ask): the request line; a challenge line back; the client's newline and
  // half-close once it wrote the challenge into its /proc/self/comm; the answer, then the end.
  server = net.createServer({ allowHalfOpen: true }, (conn) => {
    const chunks = [];
    let size = 0;
    let req;
    let challenge;
    const refuse = (why) => conn.end(`${JSON.stringify({ refused: why })}\n`);
    conn.on("data", (d) => {
      size += d.length;
      if (size > MAX_REQUEST) return conn.destroy();
      if (req) return; // the client's newline after the challenge
      chunks.push(d);
      if (d.indexOf(10) < 0) return;
      const all = Buffer.concat(chunks);
      try {
        req = JSON.parse(all.subarray(0, all.indexOf(10)).toString("utf8"));
      } catch {
        req = {};
        return refuse("not JSON");
      }
      const why = clientRefusal(req);
      if (why) return refuse(why);
      challenge = require("node:crypto").randomBytes(6).toString("hex");
      conn.write(`${JSON.stringify({ challenge })}\n`);
    });
    conn.on("end", () => {
      if (!challenge) return conn.end();
      if (!proven(req, challenge)) return conn.end(JSON.stringify({ refused: "the process did not prove the request is its own" }));
      queue.push({ req, conn, at: Date.now() });
      pump();
    });
    conn.on("error", () => {});
  });
  server.listen(place.sock, () => {
    fs.chmodSync(place.sock, 0o600);
    socketIno = fs.lstatSync(place.sock).ino;
    const tmp = `${place.record}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ pid: process.pid, fd: server._handle.fd, ino: socketIno }), { mode: 0o600 });
    fs.renameSync(tmp, place.record);
    fs.rmSync(place.starting, { force: true });
    // Loaded now, not at the first event: the first answer is then as quick as the rest.
    bundle ??= loader.load().hook;
    loader.compiled("hook.node-shell");
  });
  server.on("error", () => process.exit(0));
  // The socket's path taken by another program (or the folder emptied): this server is no longer the one the
  // record names, so it exits at once; a client then believes no record naming it (node-loader.cjs, trustedServer).
  const stillMine = () => {
    if (socketIno !== undefined && fs.lstatSync(place.sock, { throwIfNoEntry: false })?.ino !== socketIno) process.exit(0);
  };
  try {
    fs.watch(place.dir, { persistent: false }, stillMine).on("error", () => process.exit(0));
  } catch {
    /* no inotify: the interval below still checks */
  }
  setInterval(() => {
    stillMine();
    if (!busy && (Date.now() - last > IDLE_MS || !sameBuild())) stop();
  }, WATCH_MS).unref();
}

listen();
