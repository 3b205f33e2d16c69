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
// `measure`. Reads are synchronous into one reused 1 MB buffer: the files are
// local and mostly in the page cache, so a read returns at once, and a promise
// per chunk (plus the thread-pool round trip) cost more than it overlapped.
import fs from "node:fs";

/** A line longer than this is skipped (and counted): memory stays flat on a pathological file. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
const CHUNK = 1 << 20;

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
  const fd = fs.openSync(file, "r");
  try {
    // The file as it is now (a live session may grow it; what comes later is not read).
    // Small files get small buffers.
    const total = fs.fstatSync(fd).size;
    const size = Math.min(CHUNK, Math.max(16 * 1024, total + 1));
    const buffer = Buffer.allocUnsafe(size);
    const carry = new Carry();
    let skipping = false; // inside an oversized line: drop bytes until the next newline
    let offset = 0;
    for (;;) {
      const n = offset > total ? 0 : fs.readSync(fd, buffer, 0, size, offset);
      if (n === 0) break;
      offset += n;
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
          if (n < size) break; // a short read is the end of the file
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
      if (n < size) break;
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
    fs.closeSync(fd);
  }
}
