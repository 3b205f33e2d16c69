// The prompt size of the next request, from the transcript's tail: each host
// says which line carries it (Host.promptSize). Reads at most TAIL_BYTES from
// the end, never the whole file.
import fs from "node:fs";
import type { PromptSizeReader } from "../core/host.js";

export const TAIL_BYTES = 256 * 1024;

/**
 * With `callId` and a host that names a call marker, the tail should already hold the response that made that
 * call: Claude Code writes its transcript asynchronously, and a PostToolUse hook that reads before the write sees
 * the previous response's size (a crossing missed). So while the tail has sizes but not that call, the read is
 * retried for a short while; after that, the last size on file counts. A tail with no size at all is not waited for.
 */
export async function contextTokensFromTranscript(file: string, reader: PromptSizeReader, callId?: string): Promise<number | undefined> {
  const marker = callId && reader.callMarker ? reader.callMarker(callId) : undefined;
  for (let waited = 0; ; waited += RETRY_MS) {
    const tail = readTail(file);
    if (tail === undefined) return undefined;
    const tokens = lastSize(tail.split("\n"), reader);
    if (tokens === undefined || !marker || tail.includes(marker) || waited >= MAX_WAIT_MS) return tokens;
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
}

const RETRY_MS = 20;
const MAX_WAIT_MS = 400;

/** The last `bytes` of a regular file as text (undefined: not a regular file, or unreadable). */
export function readTail(file: string, bytes = TAIL_BYTES): string | undefined {
  let fd: number | undefined;
  try {
    // Only a regular file: a FIFO would block the hook forever, a folder throws.
    if (!fs.statSync(file).isFile()) return undefined;
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return undefined;
    const len = Math.min(st.size, bytes);
    const buf = Buffer.alloc(len);
    fs.readSync(fd, buf, 0, len, st.size - len);
    return buf.toString("utf8");
  } catch {
    return undefined; // an unreadable transcript only means no budget reminder this time
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function lastSize(lines: string[], reader: PromptSizeReader): number | undefined {
  // The first line may be cut in half; the reader just fails to parse it.
  for (let i = lines.length - 1; i >= 0; i--) {
    const n = reader.fromLine(lines[i] ?? "");
    if (n !== undefined) return n;
  }
  return undefined;
}
