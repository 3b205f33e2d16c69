// The process edge of the hook: stdin in, stdout/stderr out, exit code 0.
// Every host's hook executable runs it (hooks/entries/<host>.ts), with its Host.
import fs from "node:fs";
import path from "node:path";
import type { HostProcess } from "../core/host.js";
import { runHook, tooLarge, MAX_EVENT_BYTES } from "./hook.js";
import { lap, startTimings, timingsLine } from "./timings.js";

/**
 * Read all of stdin with plain read(2) calls: creating process.stdin (a
 * stream) costs more start-up time than the rest of the hook. Past the cap we
 * keep reading, so the writer never blocks, but stop storing.
 */
let pauseCell: Int32Array | undefined;
/** Sleep about 1 ms (made on first use: a SharedArrayBuffer is not free at start-up). */
function pause1ms(): void {
  pauseCell ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(pauseCell, 0, 0, 1);
}

export function readStdin(limit = MAX_EVENT_BYTES + 1): { text: string; bytes: number } {
  const chunks: Buffer[] = [];
  let size = 0;
  const buf = Buffer.allocUnsafe(65536);
  for (;;) {
    let n: number;
    try {
      n = fs.readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") {
        pause1ms(); // non-blocking stdin: wait for data without spinning
        continue;
      }
      if (code === "EOF") break;
      throw e;
    }
    if (n === 0) break;
    if (size < limit) chunks.push(Buffer.from(buf.subarray(0, n)));
    size += n;
  }
  return { text: Buffer.concat(chunks).toString("utf8"), bytes: size };
}

/**
 * write(2) until all is written: creating process.stdout (a stream) costs Bun
 * more than the whole decision (`npm run bench`, split table). A non-blocking
 * pipe that is full answers EAGAIN: wait for the reader, as readStdin does.
 */
export function writeAll(fd: number, text: string): void {
  const buf = Buffer.from(text, "utf8");
  let off = 0;
  while (off < buf.length) {
    try {
      off += fs.writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
      pause1ms();
    }
  }
}

/**
 * This module's folder. import.meta.dirname where the runtime has it (Bun, Node ≥ 20.11):
 * loading node:url for fileURLToPath costs Bun a fifth of its start-up.
 */
function hereDir(): string {
  if (typeof import.meta.dirname === "string") return import.meta.dirname;
  const p = decodeURIComponent(new URL(import.meta.url).pathname);
  return path.dirname(process.platform === "win32" ? p.slice(1).replace(/\//g, "\\") : p);
}

/** skillgate's own folder: the nearest parent holding skillgate's package.json (source and bundle alike). */
export function findPackageRoot(from: string = hereDir()): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "triggers.json")) && fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, "..");
  }
}

export interface HookMainOptions extends HostProcess {
  /** performance.now() when the loader began (dist/hook.cjs), for the bench's `load` stage. */
  loadStartedAt?: number;
  /** The event, when the loader already read it (it asked the hook server first, which did not answer). */
  stdin?: StdinText;
  /**
   * The folder of the file the runtime was started on (the loader passes its own): Bun's bundler writes a module's
   * folder as the one it was built in, so a packed dist/hook.bun-main.cjs would look for skillgate there.
   */
  distDir?: string;
}

export interface StdinText {
  text: string;
  /** Bytes read: past MAX_EVENT_BYTES the text is cut off. */
  bytes: number;
}

/** The hook executable of any host: one event on stdin, the answer on stdout, exit 0 always (exit 2 would block regardless of our JSON). */
export async function hookMain(o: HookMainOptions): Promise<void> {
  startTimings(o.loadStartedAt);
  try {
    const input = o.stdin ?? readStdin();
    lap("read");
    const { stdout, stderr } = await answer(o, input, process.env, { packageRoot: findPackageRoot(o.distDir) });
    if (stdout) writeAll(1, stdout + "\n");
    lap("answer");
    if (stderr || timingsLine()) writeAll(2, stderr + timingsLine());
  } catch (e) {
    // Last line of defence: never exit non-zero, never leave the user uninformed.
    writeAll(2, `skillgate: ${(e as Error).stack ?? e}\n`);
    writeAll(1, JSON.stringify({ systemMessage: `skillgate: internal error: ${(e as Error).message}` }) + "\n");
  }
  // The answer is written (synchronously) and nothing else is pending: exit now. Left to
  // end by itself, the runtime tears its heap down first, a tenth of Node's start (`npm run bench`).
  process.exit(0);
}

/**
 * One event of a host's hook process, answered: what the process prints. The hook server (hooks/hook-server.cjs)
 * calls it for the hook process `hookPid` with that process's event and environment.
 */
export async function answer(
  o: HostProcess,
  input: StdinText,
  processEnv: NodeJS.ProcessEnv,
  at: { packageRoot?: string; hookPid?: number } = {},
): Promise<{ stdout: string; stderr: string }> {
  const env = o.project ? projectEnv(processEnv, o.project) : processEnv;
  // Measured in bytes here: a cut-off event must say "too large", not "not JSON".
  const tooBig = input.bytes > MAX_EVENT_BYTES;
  const text = o.input && !tooBig ? o.input(input.text, env) : input.text;
  const r = tooBig
    ? tooLarge(o.host)
    : await runHook(text, {
        env,
        packageRoot: at.packageRoot ?? findPackageRoot(),
        host: o.host,
        ...(at.hookPid !== undefined ? { hookPid: at.hookPid } : {}),
      });
  return { stdout: r.stdout, stderr: r.stderr };
}

function projectEnv(env: NodeJS.ProcessEnv, p: NonNullable<HookMainOptions["project"]>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, [p.cwdVar]: env[p.cwdVar] ?? p.dir };
  const own = path.join(p.dir, p.table);
  if (!out.SKILLGATE_TABLE && fs.existsSync(own)) out.SKILLGATE_TABLE = own;
  return out;
}
