// The built Node route of a host's hook (npm run build first), for tests that
// need a real hook executable in a stand-in package root.
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");

/** The files dist/hook-<host>.cjs needs: the shared loader copy named for the host, its .mjs shim, the one bundle, its cache, the shell parser's script and cache, and zod's part. */
const filesFor = (host: string): string[] => [
  `hook-${host}.cjs`,
  `hook-${host}.mjs`,
  "hook.cjs",
  "hook.node.cjs",
  "hook.node-schema.cjs",
  "hook.node.cache",
  "hook.node-shell.cjs",
  "hook.node-shell.cache",
];

/** Copy the built hook of `host` into `<root>/dist/`; returns the path of dist/hook-<host>.cjs there. */
export function copyBuiltHook(root: string, host: string): string {
  const dist = path.join(root, "dist");
  fs.mkdirSync(dist, { recursive: true });
  for (const f of filesFor(host)) {
    const from = path.join(ROOT, "dist", f);
    if (!fs.existsSync(from)) throw new Error(`${from} is not built: run npm run build first`);
    fs.copyFileSync(from, path.join(dist, f));
  }
  return path.join(dist, `hook-${host}.cjs`);
}
