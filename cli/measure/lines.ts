// Reading one transcript: bytes cut into lines, streamed, never the whole file
// in memory. Lines are handed over as byte views of the chunk they sit in, so a
// line nobody needs is never decoded to a string.
//
// Why not readline over fs.createReadStream: readline decodes every byte to a
// JS string first, though most lines (attachments, progress, tool results
// nobody waits for) are thrown away unread; and fs.ReadStream allocates a new
// chunk per read and copies it when the kernel returns less than asked. On the
// 200 MB synthetic history (scripts/gen-history.ts), a readline scan that
// JSON-parses only the user/assistant lines took 2.5-3x the CPU of all of
// `measure`. Here fixed buffers rotate: one is cut into lines while the next
// read already fills another.
import fs from "node:fs/promises";

/** A line longer than this is skipped (and counted): memory stays flat on a pathological file. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
const CHUNK = 1 << 20;
/** Reads in flight while a chunk is cut into lines (2 measured no faster here than 1). */
const AHEAD = 1;

export interface FileRead {
  bytes: number;
  lines: number;
  /** The file ended without a newline after a non-empty last line (maybe cut mid-write). */
  unterminated: boolean;
  oversized: number;
}

/** A growable byte buffer for the part of a line that spans chunks (copied: the chunk is reused). */
class Carry {
  buf = Buffer.allocUnsafe(0);
  len = 0;
  add(src: Buffer): void {
    const need = this.len + src.length;
    if (need > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(need, this.buf.length * 2, 64 * 1024));
      this.buf.copy(next, 0, 0, this.len);
      this.buf = next;
    }
    src.copy(this.buf, this.len);
    this.len = need;
  }
  reset(): void {
    this.len = 0;
    // Don't keep a huge buffer alive after a huge line.
    if (this.buf.length > 8 * CHUNK) this.buf = Buffer.allocUnsafe(0);
  }
}

/**
 * Calls `onLine(line, unterminated)` for every non-empty line (without the "\n"
 * and a trailing "\r"). `line` is a view into a reused buffer: valid only during
 * the call (copy what you keep). `onBytes` sees each chunk's size (for progress).
 */
export async function readLines(file: string, onLine: (line: Buffer, unterminated: boolean) => void, onBytes?: (n: number) => void): Promise<FileRead> {
  const r: FileRead = { bytes: 0, lines: 0, unterminated: false, oversized: 0 };
  const emit = (buf: Buffer, start: number, end: number, last = false) => {
    if (end > start && buf[end - 1] === 13) end--;
    if (end <= start) return;
    r.lines++;
    onLine(buf.subarray(start, end), last);
  };
  const fh = await fs.open(file, "r");
  const inflight: { read: Promise<{ bytesRead: number }>; buf: Buffer }[] = [];
  try {
    // The file as it is now (a live session may grow it; what comes later is not read).
    // Small files get small buffers.
    const total = (await fh.stat()).size;
    const size = Math.min(CHUNK, Math.max(16 * 1024, total + 1));
    const free: Buffer[] = Array.from({ length: AHEAD + 1 }, () => Buffer.allocUnsafe(size));
    const carry = new Carry();
    let skipping = false; // inside an oversized line: drop bytes until the next newline
    let eof = false;
    let offset = 0;
    // Explicit offsets: reads in flight together may finish in any order.
    const fill = () => {
      while (!eof && offset <= total && inflight.length < AHEAD && free.length) {
        const buf = free.pop()!;
        inflight.push({ read: fh.read(buf, 0, size, offset), buf });
        offset += size;
      }
    };
    fill();
    while (inflight.length) {
      const { read, buf: buffer } = inflight.shift()!;
      const n = (await read).bytesRead;
      if (eof) {
        free.push(buffer);
        continue;
      }
      // A short read is the end of the file.
      if (n < size) eof = true;
      if (n === 0) {
        free.push(buffer);
        continue;
      }
      fill(); // reads ahead go on while this chunk is cut
      const chunk = buffer.subarray(0, n);
      r.bytes += n;
      onBytes?.(n);
      let pos = 0;
      let nl = chunk.indexOf(10);
      if (carry.len > 0 || skipping) {
        if (nl < 0) {
          if (!skipping) {
            if (carry.len + n > MAX_LINE_BYTES) {
              skipping = true;
              carry.reset();
            } else carry.add(chunk);
          }
          free.push(buffer);
          fill();
          continue;
        }
        if (skipping) {
          r.oversized++;
          skipping = false;
        } else {
          carry.add(chunk.subarray(0, nl));
          emit(carry.buf, 0, carry.len);
          carry.reset();
        }
        pos = nl + 1;
        nl = chunk.indexOf(10, pos);
      }
      while (nl >= 0) {
        emit(chunk, pos, nl);
        pos = nl + 1;
        nl = chunk.indexOf(10, pos);
      }
      if (pos < n) carry.add(chunk.subarray(pos));
      free.push(buffer);
      fill();
    }
    if (skipping) r.oversized++;
    else if (carry.len > 0) {
      let end = carry.len;
      while (end > 0 && (carry.buf[end - 1] === 32 || carry.buf[end - 1] === 9 || carry.buf[end - 1] === 13)) end--;
      if (end > 0) {
        r.unterminated = true;
        emit(carry.buf, 0, end, true);
      }
    }
    return r;
  } finally {
    // Reads may still be in flight (an error in onLine): let them land before closing.
    await Promise.allSettled(inflight.map((x) => x.read));
    await fh.close();
  }
}
