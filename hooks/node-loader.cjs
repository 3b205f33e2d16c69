// dist/hook.cjs, the Node route of the hook (scripts/build.mjs copies this file there),
// and dist/hook-<host>.cjs, the same file for another host (Codex, Gemini CLI,
// Copilot CLI, Cursor): its name says which host's `main` of the one bundle runs.
// dist/hook.bun.cjs is the same file too: under Bun it decides in-process from
// dist/hook.bun-main.cjs, the bundle Bun loads from its bytecode.
// CommonJS on purpose: an ES module entry costs Node 20 its module loader and a
// facade per built-in, 5–10% of a start (`npm run bench`).
// Node 20 keeps no compiled code between runs, and compiling the hook's 350 KB
// on every tool call was a fifth of its time. So the hook is one script,
// dist/hook.node.cjs, run here through node:vm from the V8 code cache the build
// made (dist/hook.node.cache): V8 checks that the cache belongs to this source,
// this V8 version and these flags, and compiles afresh when it does not
// (cachedDataRejected), so a stale cache costs time, never correctness. Both
// files sit in dist/, which self-protection keeps the agent from writing.
// Even from the cache, a cold process spends most of a shell call's time
// loading and running code for the first time. So a hook process first asks
// the hook server (dist/hook-server.cjs, hooks/hook-server.cjs), a process of
// this runtime that keeps the bundle loaded and answers each event with it;
// when none answers, the hook decides in-process as
// always and starts one for the next event. docs/hook-server.md says why it
// can be trusted.
"use strict";
// performance.now() would load perf_hooks on every start: only for SKILLGATE_TIMINGS.
const loadStartedAt = process.env.SKILLGATE_TIMINGS === "1" ? performance.now() : undefined;
const fs = require("node:fs");

/**
 * The scripts compiled so far, by name (the code-cache build serializes each). The shell
 * parser is a second script, dist/hook.node-shell.cjs (scripts/build.mjs): most events
 * never need it, and each script's cost is reading and deserializing it.
 */
const scripts = new Map();
const APART = "./hook.node-shell.cjs#";

/** dist/<name>.cjs compiled, from its code cache (dist/<name>.cache) when there is one. */
function compiled(name) {
  let script = scripts.get(name);
  if (script) return script;
  const file = `${__dirname}/${name}.cjs`;
  let cachedData;
  try {
    cachedData = fs.readFileSync(`${__dirname}/${name}.cache`);
  } catch {
    /* no cache built: compile */
  }
  // The build writes it in ASCII (scripts/build.mjs): latin1 skips UTF-8 decoding.
  const source = fs.readFileSync(file, "latin1");
  // node:vm only here: a hook process the server answers never compiles (Bun: 2 ms to load it).
  script = new (require("node:vm").Script)(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  scripts.set(name, script);
  return script;
}

/** Run dist/<name>.cjs's top level once more (compiled once): a fresh instance, its exports. */
function instance(name, requireBeside) {
  const mod = { exports: {} };
  compiled(name).runInThisContext()(mod.exports, requireBeside, mod, `${__dirname}/${name}.cjs`, __dirname);
  return mod.exports;
}

/**
 * An instance of the hook bundle: its exports, and the scripts compiled so far (the code-cache build
 * serializes them). Each call runs the bundle's top level again (compiled once); a hook process takes one,
 * the hook server one for its life (hook-server.cjs says why that is safe).
 */
function load() {
  let apart;
  // This file's own require (the bundles sit beside it; node:module's createRequire would cost
  // a start 0.3 ms), but the shell script's modules from their instance (loaded on first use).
  const requireBeside = (id) => {
    if (!id.startsWith(APART)) return require(id);
    apart ??= instance("hook.node-shell", requireBeside);
    const m = apart.modules[id.slice(APART.length)];
    if (!m) throw new Error(`dist/hook.node-shell.cjs has no module ${id.slice(APART.length)}: rebuild with npm run build`);
    return m();
  };
  return { hook: instance("hook.node", requireBeside), scripts };
}

/** The host a copy of this loader runs, from its file name: hook-codex.cjs → "codex"; hook.cjs (Claude Code) → undefined. */
function hostOf(fileName) {
  const m = /^hook-([a-z]+)\.[cm]js$/.exec(fileName);
  return m && m[1] !== "server" ? m[1] : undefined;
}

/** Run one host's hook (Claude Code's without a host): read the event, answer, exit. */
async function run(host, startedAt = loadStartedAt) {
  let stdin;
  try {
    // Timings describe the in-process pipeline (`npm run bench`, split table): no server then.
    if (startedAt === undefined) {
      const asked = await askServer(host);
      if (asked.answered) return;
      stdin = asked.stdin;
    }
  } catch {
    /* the server route failed: decide in-process */
  }
  try {
    // Bun decides from its bytecode build (dist/hook.bun-main.cjs) when there is one.
    if (host === undefined && process.versions.bun && fs.existsSync(`${__dirname}/${BUN_MAIN}`))
      return await require(`./${BUN_MAIN}`).main({ loadStartedAt: startedAt, stdin, distDir: __dirname }).catch(cannotStart);
    const { hook } = load();
    if (host === undefined) return await hook.hookMain({ loadStartedAt: startedAt, stdin }).catch(cannotStart);
    if (!Object.hasOwn(hook.hosts, host)) throw new Error(`the hook bundle has no host "${host}" (it has ${Object.keys(hook.hosts).join(", ")})`);
    return await hook.hosts[host].main({ loadStartedAt: startedAt, stdin }).catch(cannotStart);
  } catch (e) {
    cannotStart(e);
  }
}

function cannotStart(e) {
  // The bundle is missing or broken: never exit non-zero, never leave the user uninformed.
  process.stderr.write(`skillgate: ${(e && e.stack) || e}\n`);
  process.stdout.write(
    `${JSON.stringify({ systemMessage: `skillgate: cannot start the hook (${__dirname}/hook.node.cjs): ${(e && e.message) || e}. Run npm run build in skillgate's folder.` })}\n`,
  );
  process.exitCode = 0;
}

// ─── The hook server, as its clients see it ─────────────────────────────

const SERVER_FILE = "hook-server.cjs";
/**
 * The runtime's own arguments for the server (and what the server accepts before a hook's file): under Bun, no
 * bunfig.toml of the folder it starts in (its `preload` would run in the server). Node takes none.
 */
const RUNTIME_ARGS = typeof Bun !== "undefined" ? ["--config=/dev/null"] : [];
const BUN_MAIN = "hook.bun-main.cjs";
/**
 * How long a client waits for the server's answer before deciding in-process: well within the 10 s that
 * `install` gives every host's hook (a hook that times out lets the call through on some hosts). The server
 * sends back undone a request that waited 2 s in its queue.
 */
const ANSWER_WAIT_MS = 6_000;

/**
 * Where this folder's server for this runtime listens: a folder of the user's own (0700), a socket and a
 * record (pid, listening fd, socket file inode) named by a hash of the dist folder, the runtime and the
 * variables that change the code a runtime runs (clients that differ in them never share a server).
 */
function serverPlace(env = process.env) {
  if (process.platform !== "linux" || typeof process.getuid !== "function") return undefined;
  const uid = process.getuid();
  // A socket's path has at most 107 bytes: a folder that would make it longer is passed over.
  const base = [env.XDG_RUNTIME_DIR, env.TMPDIR, "/tmp"].find((d) => d && d.startsWith("/") && d.length < 60);
  const dir = `${base.replace(/\/+$/, "")}/skillgate-hook-server-${uid}`;
  const name = fnv1a(`${__dirname}\0${process.execPath}\0${codeVars(env).join("\0")}`);
  return { dir, uid, sock: `${dir}/${name}.sock`, record: `${dir}/${name}.json`, starting: `${dir}/${name}.starting` };
}

/** 64-bit FNV-1a of a string, hex: a name, not a secret. */
function fnv1a(s) {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < s.length; i++) h = BigInt.asUintN(64, (h ^ BigInt(s.charCodeAt(i))) * 0x100000001b3n);
  return h.toString(16).padStart(16, "0");
}

/** The folder is a real folder of this user that nobody else can enter (else no server is used). */
function ownFolder(place) {
  const st = fs.lstatSync(place.dir, { throwIfNoEntry: false });
  return st !== undefined && st.isDirectory() && st.uid === place.uid && (st.mode & 0o077) === 0;
}

/**
 * The variables that can make a runtime run other code than its script (NODE_OPTIONS, NODE_PATH, LD_PRELOAD,
 * LD_AUDIT, BUN_OPTIONS, …): NAME=value, sorted. A server started with others than the client's is not its own.
 */
const CODE_VAR = /^(NODE_|LD_|BUN_)/;
function codeVars(env) {
  return Object.entries(env)
    .filter(([k, v]) => CODE_VAR.test(k) && v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .sort();
}

/** A process's starting environment, as codeVars gives it, from /proc/<pid>/environ. */
function codeVarsOf(pid) {
  return fs
    .readFileSync(`/proc/${pid}/environ`, "latin1")
    .split("\0")
    .filter((kv) => CODE_VAR.test(kv) && kv.includes("="))
    .sort();
}

/**
 * The server's record, believed only when the socket file is the one it names and /proc confirms the
 * rest: the process runs this runtime on dist/hook-server.cjs of this folder with the same code-loading
 * variables as this process, is neither stopped nor traced, and holds, at the fd recorded, the one socket
 * listening at the socket's path. (/proc names the path a socket was bound to, even once another took it:
 * the server watches its folder and exits the moment its socket file is not its own.)
 */
function trustedServer(place) {
  try {
    return confirmed(place);
  } catch {
    return undefined; // a process gone meanwhile, a record half-written: no server to believe
  }
}

function confirmed(place) {
  if (!ownFolder(place)) return undefined;
  let rec;
  try {
    rec = JSON.parse(fs.readFileSync(place.record, "utf8"));
  } catch {
    return undefined;
  }
  // (no start-time check: a reused pid fails the cmdline and socket checks, unless it is this folder's server again)
  if (!rec || !Number.isInteger(rec.pid) || !Number.isInteger(rec.fd)) return undefined;
  if (fs.lstatSync(place.sock, { throwIfNoEntry: false })?.ino !== rec.ino) return undefined;
  if (fs.readFileSync(`/proc/${rec.pid}/cmdline`, "latin1") !== [process.execPath, ...RUNTIME_ARGS, `${__dirname}/${SERVER_FILE}`, ""].join("\0"))
    return undefined;
  if (codeVarsOf(rec.pid).join("\0") !== codeVars(process.env).join("\0")) return undefined;
  // Stopped (a hook would wait for it until the host's timeout) or traced (its memory is another program's to change).
  const status = fs.readFileSync(`/proc/${rec.pid}/status`, "latin1");
  if (!/^State:\s+[RSD]/m.test(status) || !/^TracerPid:\s+0$/m.test(status)) return undefined;
  const link = fs.readlinkSync(`/proc/${rec.pid}/fd/${rec.fd}`);
  const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
  if (!inode) return undefined;
  // /proc/net/unix: "Num RefCount Protocol Flags Type St Inode Path"; St 01 = listening. Two listening at the
  // path: another program took it and the server has not seen it yet.
  const listening = fs
    .readFileSync("/proc/net/unix", "latin1")
    .split("\n")
    .filter((l) => l.endsWith(` ${place.sock}`))
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[5] === "01");
  return listening.length === 1 && listening[0]?.[6] === inode ? rec : undefined;
}

/**
 * Ask this folder's hook server to answer the event on stdin. `answered`: it printed the server's answer;
 * else the event read so far (if any) for the in-process route, and a server is started for next time.
 */
async function askServer(host) {
  if (process.env.SKILLGATE_SERVER === "off") return { answered: false };
  const place = serverPlace();
  if (!place) return { answered: false };
  if (!trustedServer(place)) {
    startServer(place);
    return { answered: false };
  }
  const stdin = readStdin();
  const reply = await ask(place.sock, {
    v: 1,
    pid: process.pid,
    host: host ?? null,
    args: process.argv.slice(2),
    cwd: process.cwd(),
    env: process.env,
    stdin: stdin.text,
    bytes: stdin.bytes,
  });
  if (!reply || typeof reply.stdout !== "string" || typeof reply.stderr !== "string") {
    if (reply && reply.stale) startServer(place);
    return { answered: false, stdin };
  }
  if (reply.stdout) writeAll(1, reply.stdout);
  if (reply.stderr) writeAll(2, reply.stderr);
  process.exit(0);
}

/**
 * One exchange (docs/hook-server.md): the request, one JSON line; the server's challenge, one JSON line;
 * this process proves it is the process the request names by writing the challenge into its own
 * /proc/self/comm (which no other process can write), sends a newline and half-closes; then the answer,
 * JSON, until the server closes. Undefined when no answer came.
 */
async function ask(sock, request) {
  const line = `${JSON.stringify(request)}\n`;
  const pipe = typeof Bun !== "undefined" ? undefined : pipeHandles();
  const text = await (typeof Bun !== "undefined" ? askBun(sock, line) : pipe ? askPipe(pipe, sock, line) : askNet(sock, line));
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The client's side of the exchange over any transport: `send(text)` writes, `halfClose()` ends the
 * request. Returns `data(chunk)` for what arrives and `answer()` for the text after the challenge.
 */
function exchange(send, halfClose) {
  const chunks = [];
  let challenged = false;
  return {
    data(chunk) {
      chunks.push(chunk);
      if (challenged) return;
      const all = Buffer.concat(chunks);
      const nl = all.indexOf(10);
      if (nl < 0) return;
      challenged = true;
      chunks.length = 0;
      chunks.push(all.subarray(nl + 1));
      const challenge = JSON.parse(all.subarray(0, nl).toString("latin1")).challenge;
      if (typeof challenge !== "string" || !/^[0-9a-f]{12}$/.test(challenge)) throw new Error("no challenge");
      fs.writeFileSync("/proc/self/comm", `sg${challenge}`);
      send("\n");
      halfClose();
    },
    answer: () => (challenged ? Buffer.concat(chunks).toString("utf8") : undefined),
  };
}

/**
 * libuv's pipe handle that node:net wraps: a cold process spends 4–7 ms loading node:net and
 * making its first Socket, 0.5 ms on the handle. The binding is Node's own and has kept this shape
 * since Node 12; any other shape (or a runtime without it) takes node:net.
 */
function pipeHandles() {
  try {
    const { Pipe, PipeConnectWrap, constants } = process.binding("pipe_wrap");
    const { WriteWrap, ShutdownWrap, streamBaseState, kReadBytesOrError, kArrayBufferOffset } = process.binding("stream_wrap");
    const ok = [Pipe, PipeConnectWrap, WriteWrap, ShutdownWrap].every((f) => typeof f === "function");
    if (!ok || !streamBaseState || typeof constants?.SOCKET !== "number" || typeof kReadBytesOrError !== "number" || typeof kArrayBufferOffset !== "number")
      return undefined;
    return { Pipe, PipeConnectWrap, WriteWrap, ShutdownWrap, streamBaseState, kReadBytesOrError, kArrayBufferOffset, SOCKET: constants.SOCKET };
  } catch {
    return undefined;
  }
}

/**
 * One answer's text, or undefined (no answer within ANSWER_WAIT_MS, a closed connection, an error):
 * `start(finish)` connects and sends, calls finish once with what came back, and returns how to close.
 */
function oneAnswer(start) {
  return new Promise((resolve) => {
    let done = false;
    let close;
    const finish = (v) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      close?.();
      resolve(v);
    };
    const timer = setTimeout(() => finish(undefined), ANSWER_WAIT_MS);
    close = start(finish);
    if (done) close();
  });
}

/** Through the pipe handle `b` (pipeHandles). */
function askPipe(b, sock, text) {
  return oneAnswer((finish) => {
    const h = new b.Pipe(b.SOCKET);
    const kept = []; // the requests in flight, kept from the garbage collector until they complete
    const write = (t) => {
      const w = new b.WriteWrap();
      w.handle = h;
      w.oncomplete = (st) => st < 0 && finish(undefined);
      kept.push(w);
      if (h.writeUtf8String(w, t) < 0) finish(undefined);
    };
    const ex = exchange(write, () => {
      const shutdown = new b.ShutdownWrap();
      shutdown.handle = h;
      shutdown.oncomplete = () => {};
      kept.push(shutdown);
      // libuv runs the shutdown after the writes complete: the half-close ends the request.
      if (h.shutdown(shutdown) < 0) finish(undefined);
    });
    h.onread = (arrayBuffer) => {
      const n = b.streamBaseState[b.kReadBytesOrError];
      try {
        if (n > 0) ex.data(Buffer.from(Buffer.from(arrayBuffer, b.streamBaseState[b.kArrayBufferOffset], n)));
        else if (n < 0) finish(ex.answer()); // end of the answer (UV_EOF), or an error: JSON.parse tells
      } catch {
        finish(undefined);
      }
    };
    const connect = new b.PipeConnectWrap();
    connect.oncomplete = (status) => {
      if (status < 0) return finish(undefined);
      write(text);
      if (h.readStart() < 0) finish(undefined);
    };
    kept.push(connect);
    if (h.connect(connect, sock) < 0) finish(undefined);
    return () => h.close();
  });
}

/** Bun's own sockets: its node:net costs a cold Bun 14 ms to load, Bun.connect next to nothing. */
function askBun(sock, text) {
  return oneAnswer((finish) => {
    let pending = Buffer.from(text, "utf8");
    let socket;
    let closing = false;
    // Write what the socket takes, the rest when it drains; the half-close once all is out.
    const pump = (s) => {
      while (pending.length > 0) {
        const n = s.write(pending);
        if (n <= 0) return;
        pending = pending.subarray(n);
      }
      if (closing) s.shutdown();
    };
    const ex = exchange(
      (t) => {
        pending = Buffer.concat([pending, Buffer.from(t, "utf8")]);
        pump(socket);
      },
      () => {
        closing = true;
        pump(socket);
      },
    );
    Bun.connect({
      unix: sock,
      socket: {
        open: (s) => {
          socket = s;
          pump(s);
        },
        drain: pump,
        data: (_s, d) => {
          try {
            ex.data(Buffer.from(d));
          } catch {
            finish(undefined);
          }
        },
        end: (s) => s.end(),
        close: () => finish(ex.answer()),
        error: () => finish(undefined),
        connectError: () => finish(undefined),
      },
    }).catch(() => finish(undefined));
    return () => socket?.end();
  });
}

function askNet(sock, text) {
  const net = require("node:net");
  return oneAnswer((finish) => {
    const s = net.connect(sock);
    const ex = exchange(
      (t) => s.write(t),
      () => s.end(),
    );
    s.on("data", (d) => {
      try {
        ex.data(d);
      } catch {
        finish(undefined);
      }
    });
    s.on("end", () => finish(ex.answer()));
    s.on("error", () => finish(undefined));
    s.write(text);
    return () => s.destroy();
  });
}

/** Start a server for this folder and runtime, unless one is starting (a marker younger than 10 s). */
function startServer(place) {
  try {
    if (!fs.existsSync(`${__dirname}/${SERVER_FILE}`)) return;
    fs.mkdirSync(place.dir, { recursive: true, mode: 0o700 });
    if (!ownFolder(place)) return;
    const st = fs.lstatSync(place.starting, { throwIfNoEntry: false });
    if (st && Date.now() - st.mtimeMs < 10_000) return;
    fs.rmSync(place.starting, { force: true });
    fs.closeSync(fs.openSync(place.starting, "wx", 0o600));
    const { spawn } = require("node:child_process");
    spawn(process.execPath, [...RUNTIME_ARGS, `${__dirname}/${SERVER_FILE}`], { detached: true, stdio: "ignore", cwd: "/" }).unref();
  } catch {
    /* no server: every event decides in-process */
  }
}

/** All of stdin (read(2), as hooks/runner/process.ts does: a stdin stream costs more than the read). */
function readStdin(limit = 8 * 1024 * 1024 + 1) {
  const chunks = [];
  let bytes = 0;
  const buf = Buffer.allocUnsafe(65536);
  for (;;) {
    let n;
    try {
      n = fs.readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      if (e.code === "EAGAIN") {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
        continue;
      }
      if (e.code === "EOF") break;
      throw e;
    }
    if (n === 0) break;
    if (bytes < limit) chunks.push(Buffer.from(buf.subarray(0, n)));
    bytes += n;
  }
  return { text: Buffer.concat(chunks).toString("utf8"), bytes };
}

function writeAll(fd, text) {
  const buf = Buffer.from(text, "utf8");
  for (let off = 0; off < buf.length; ) {
    try {
      off += fs.writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      if (e.code !== "EAGAIN") throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

if (require.main === module) run(hostOf(__filename.slice(__dirname.length + 1)));
else module.exports = { load, compiled, run, hostOf, serverPlace, trustedServer, SERVER_FILE, RUNTIME_ARGS };
