// The runtime a hook command names: this Node, unless Bun is asked for
// (--runtime bun), then $SKILLGATE_BUN, the bun on PATH, or a bun package the
// project installed itself. skillgate does not download a Bun (it is ~100 MB).
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

type Json = Record<string, unknown>;

/** How to get a Bun when none is found. */
export const GET_BUN = "install Bun (npm install --global bun) or set SKILLGATE_BUN to its binary";

/** `exe --version` answers with a version: a working bun (npm's bun/bin/bun.exe is a placeholder until its postinstall ran). */
function runsBun(exe: string): boolean {
  const r = spawnSync(exe, ["--version"], { encoding: "utf8", timeout: 5000 });
  return r.status === 0 && /^\d+\.\d+/.test(r.stdout.trim());
}

/**
 * A working bun, or undefined: $SKILLGATE_BUN when set (it alone: an explicit choice
 * that does not run is not replaced by another bun), else `bun` on PATH, else a bun
 * package the project installed itself (node_modules/bun, or its platform package).
 */
export function findBun(root: string): string | undefined {
  const exe = process.platform === "win32" ? "bun.exe" : "bun";
  const pinned = process.env.SKILLGATE_BUN;
  if (pinned) return runsBun(pinned) ? fs.realpathSync(pinned) : undefined;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const c = dir && path.join(dir, exe);
    if (c && fs.existsSync(c) && runsBun(c)) return fs.realpathSync(c);
  }
  let pkgDir: string;
  try {
    pkgDir = path.dirname(createRequire(path.join(root, "package.json")).resolve("bun/package.json"));
  } catch {
    return undefined;
  }
  const candidates = [path.join(pkgDir, "bin", "bun.exe"), path.join(pkgDir, "bin", "bun")];
  try {
    // Without postinstall the native binary is still in the platform package.
    const plat = createRequire(path.join(pkgDir, "package.json"));
    for (const name of Object.keys((JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")) as Json).optionalDependencies ?? {})) {
      try {
        candidates.push(path.join(path.dirname(plat.resolve(`${name}/package.json`)), "bin", exe));
      } catch {
        /* not this platform */
      }
    }
  } catch {
    /* unreadable package.json: the bin/ candidates remain */
  }
  for (const c of candidates) if (fs.existsSync(c) && runsBun(c)) return fs.realpathSync(c);
  return undefined;
}

/** Why no bun was found, and what to do. */
export function noBun(): string {
  const pinned = process.env.SKILLGATE_BUN;
  return pinned
    ? `--runtime bun: SKILLGATE_BUN=${pinned} is not a working bun (\`${pinned} --version\` did not answer with a version); point it at a bun binary, unset it to use the bun on PATH, or use --runtime node`
    : `--runtime bun: no bun on PATH (nor SKILLGATE_BUN, nor a bun package in the project): ${GET_BUN}, then run this again; or use --runtime node`;
}

/** Absolute runtime for the handler: node unless Bun is asked for (--runtime bun), then the bun findBun finds. */
export function pickRuntime(wanted: string | undefined, root: string): { ok: true; path: string; name: string } | { ok: false; error: string } {
  if (wanted === undefined || wanted === "node") return { ok: true, path: process.execPath, name: "node" };
  if (wanted !== "bun") return { ok: false, error: `--runtime must be "bun" or "node", not "${wanted}"` };
  const bun = findBun(root);
  return bun ? { ok: true, path: bun, name: "bun" } : { ok: false, error: noBun() };
}
