// The prompt size of the next request, from the transcript's tail: the last
// main-thread assistant message's input + cache_read + cache_creation + output
// tokens. Reads at most TAIL_BYTES from the end, never the whole file.
import fs from "node:fs";

export const TAIL_BYTES = 256 * 1024;

/**
 * With `callId`, the tail should already hold the assistant message that made
 * that call: Claude Code writes its transcript asynchronously, and a PostToolUse
 * hook that reads before the write sees the previous message's size (a crossing
 * missed). So while the tail has assistant sizes but not that call, the read is
 * retried for a short while; after that, the last size on file counts. A tail
 * with no size at all (another host's format) is not waited for.
 */
export async function contextTokensFromTranscript(file: string, callId?: string): Promise<number | undefined> {
  const needle = callId ? `"id":${JSON.stringify(callId)}` : undefined;
  for (let waited = 0; ; waited += RETRY_MS) {
    const tail = readTail(file);
    if (tail === undefined) return undefined;
    const tokens = lastUsage(tail.split("\n"));
    if (tokens === undefined || !needle || tail.includes(needle) || waited >= MAX_WAIT_MS) return tokens;
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
}

const RETRY_MS = 20;
const MAX_WAIT_MS = 400;

function readTail(file: string): string | undefined {
  let fd: number | undefined;
  try {
    // Only a regular file: a FIFO would block the hook forever, a folder throws.
    if (!fs.statSync(file).isFile()) return undefined;
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return undefined;
    const len = Math.min(st.size, TAIL_BYTES);
    const buf = Buffer.alloc(len);
    fs.readSync(fd, buf, 0, len, st.size - len);
    return buf.toString("utf8");
  } catch {
    return undefined; // an unreadable transcript only means no budget reminder this time
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function lastUsage(lines: string[]): number | undefined {
  // The first line may be cut in half; it just fails to parse.
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? "";
    if (!line.includes('"assistant"') || !line.includes('"usage"')) continue;
    try {
      const rec = JSON.parse(line) as { type?: string; isSidechain?: boolean; message?: { usage?: Record<string, unknown> } };
      if (rec.type !== "assistant" || rec.isSidechain || !rec.message?.usage) continue;
      const u = rec.message.usage;
      const n = (k: string) => (typeof u[k] === "number" ? (u[k] as number) : 0);
      return n("input_tokens") + n("cache_read_input_tokens") + n("cache_creation_input_tokens") + n("output_tokens");
    } catch {}
  }
  return undefined;
}
