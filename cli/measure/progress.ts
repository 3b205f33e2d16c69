// One self-overwriting status line on stderr while reading, only when stderr
// is a terminal (never in pipes, CI logs or tests).
import type { Progress } from "./run.js";

export function progressLine(stream: NodeJS.WriteStream = process.stderr): { update: (p: Progress) => void; done: () => void } {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  let last = 0;
  const t0 = Date.now();
  let shown = false;
  return {
    update(p) {
      const now = Date.now();
      if (now - last < 200) return;
      last = now;
      shown = true;
      const pct = p.totalBytes ? Math.floor((p.bytes / p.totalBytes) * 100) : 100;
      stream.write(
        `\r\x1b[Kmeasure: ${p.files}/${p.totalFiles} files, ${(p.bytes / 1048576).toFixed(0)}/${(p.totalBytes / 1048576).toFixed(0)} MB (${pct}%), ${p.sessions} sessions, ${Math.round((now - t0) / 1000)} s`,
      );
    },
    done() {
      if (shown) stream.write("\r\x1b[K");
    },
  };
}
