// The real ShellWorld: bounded, read-only file access for the shell analysis
// (git config files and their includes, package.json, Makefiles, scripts run by
// path, patch files, symlinks). Never spawns a process, never throws: anything
// unreadable is simply unknown to the analysis.
import fs from "node:fs";
import path from "node:path";
import type { ShellWorld } from "../core/shell/world.js";

export function shellWorld(cwd: string, env: Readonly<Record<string, string | undefined>>): ShellWorld {
  const abs = (p: string): string => path.resolve(cwd || "/", p);
  return {
    cwd,
    env,
    readFile(p, maxBytes) {
      let fd: number | undefined;
      try {
        fd = fs.openSync(abs(p), fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
        const st = fs.fstatSync(fd);
        // A FIFO or device could block or never end: regular files only.
        if (!st.isFile() || st.size > maxBytes) return undefined;
        const buf = Buffer.alloc(st.size);
        const n = fs.readSync(fd, buf, 0, st.size, 0);
        return buf.subarray(0, n).toString("utf8");
      } catch {
        return undefined;
      } finally {
        if (fd !== undefined)
          try {
            fs.closeSync(fd);
          } catch {
            /* already closed */
          }
      }
    },
    realpath(p) {
      try {
        return fs.realpathSync(abs(p));
      } catch {
        return undefined;
      }
    },
    kind(p) {
      try {
        const st = fs.lstatSync(abs(p));
        return st.isSymbolicLink() ? "link" : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
      } catch {
        return undefined;
      }
    },
  };
}
