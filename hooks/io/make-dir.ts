// `mkdir -p`, one level at a time. Node 20's fs.mkdirSync(dir, { recursive: true })
// never returns for a path under /proc (it retries ENOENT forever, at full CPU):
// a state folder there (XDG_STATE_HOME=/proc/…) made the hook hang until the
// client's timeout, which lets the tool call through. Here an error is an error.
import fs from "node:fs";
import path from "node:path";

export function makeDir(dir: string, mode?: number): void {
  const missing: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    if (st) {
      if (!st.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a folder, mkdir '${d}'`), { code: "ENOTDIR" });
      break;
    }
    missing.push(d);
    if (path.dirname(d) === d) break;
  }
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d, mode === undefined ? {} : { mode });
    } catch (e) {
      // Made by a parallel hook in between: fine. Anything else (ENOENT under /proc, EACCES) is the caller's error.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
}
