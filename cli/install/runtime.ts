// The runtime a hook command names: this Node, or the Bun binary of the
// optional dependency "bun" when it is installed and works.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

type Json = Record<string, unknown>;

/**
 * The bun binary from the optional dependency, or undefined. node_modules/bun/bin/bun.exe
 * is a placeholder until bun's postinstall replaces it with the native binary, so
 * a candidate counts only if it actually answers --version.
 */
export function findBun(root: string): string | undefined {
  let pkgDir: string;
  try {
    pkgDir = path.dirname(createRequire(path.join(root, "package.json")).resolve("bun/package.json"));
  } catch {
    return undefined;
  }
  const exe = process.platform === "win32" ? "bun.exe" : "bun";
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
  for (const c of candidates) {
    if (!fs.existsSync(c)) continue;
    const r = spawnSync(c, ["--version"], { encoding: "utf8", timeout: 5000 });
    if (r.status === 0 && /^\d+\.\d+/.test(r.stdout.trim())) return fs.realpathSync(c);
  }
  return undefined;
}

/** Absolute runtime for the handler: --runtime wins, else bun when installed, else this node. */
export function pickRuntime(wanted: string | undefined, root: string): { ok: true; path: string; name: string } | { ok: false; error: string } {
  if (wanted === "node") return { ok: true, path: process.execPath, name: "node" };
  if (wanted !== undefined && wanted !== "bun") return { ok: false, error: `--runtime must be "bun" or "node", not "${wanted}"` };
  const bun = findBun(root);
  if (bun) return { ok: true, path: bun, name: "bun" };
  if (wanted === "bun") {
    return { ok: false, error: `--runtime bun: no working bun binary under ${root}/node_modules (the optional dependency "bun" is missing or its postinstall did not run); install it or use --runtime node` };
  }
  return { ok: true, path: process.execPath, name: "node" };
}
