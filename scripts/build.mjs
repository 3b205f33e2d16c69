// Bundle the hook and the CLI with esbuild. Plain JS so `npm ci` (prepare)
// can run it before anything else is built. zod sits in its own chunk: the
// hook loads it only when triggers.json changed.
// One build per runtime: dist/hook.mjs (ESM, for Node) and, when a Bun binary
// is installed, dist/hook.bun.cjs with its bytecode (hook.bun.cjs.jsc): Bun
// starts from compiled bytecode instead of parsing the bundle (`npm run bench`
// measures both; Bun cannot load bytecode for ESM outside --compile).
// The bundle is built beside dist/ and swapped in, so a hook or test running
// during a rebuild never sees a half-written dist/.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const tmp = `dist.tmp-${process.pid}`;
const common = {
  outdir: tmp,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunks/[name]-[hash]",
  minify: true,
  logLevel: "warning",
};
// The hook is built alone: its static code is then one file, and only what it
// loads lazily (zod, the shell parser, picomatch) is split off. Built with the
// CLI, shared chunks made Node load nine modules per hook run.
await build({ ...common, entryPoints: { hook: "hooks/skillgate.ts" }, chunkNames: "chunks/hook-[name]-[hash]" });
await build({ ...common, entryPoints: { cli: "cli/main.ts" } });
// Other hosts' entries: a hook executable per host, and opencode's in-process plugin.
await build({
  ...common,
  entryPoints: {
    "hook-codex": "hooks/hosts/codex/hook.ts",
    "hook-gemini": "hooks/hosts/gemini/hook.ts",
    "hook-copilot": "hooks/hosts/copilot/hook.ts",
    "hook-cursor": "hooks/hosts/cursor/hook.ts",
    "opencode-plugin": "hooks/hosts/opencode/plugin.ts",
  },
  chunkNames: "chunks/hosts-[name]-[hash]",
});
buildForBun(tmp);
const old = `dist.old-${process.pid}`;
try {
  renameSync("dist", old);
} catch {
  /* first build */
}
renameSync(tmp, "dist");
rmSync(old, { recursive: true, force: true });

/** The installed bun binary (the optional dependency), or undefined. */
function bunBinary() {
  let dir;
  try {
    dir = path.dirname(createRequire(path.resolve("package.json")).resolve("bun/package.json"));
  } catch {
    return undefined;
  }
  for (const exe of ["bun", "bun.exe"]) {
    const p = path.join(dir, "bin", exe);
    if (existsSync(p) && spawnSync(p, ["--version"], { timeout: 10_000 }).status === 0) return p;
  }
  return undefined;
}

/** dist/hook.bun.cjs + .jsc. A CJS entry: bytecode needs CJS, and CJS has no top-level await. */
function buildForBun(outdir) {
  const bun = bunBinary();
  if (!bun) {
    console.warn("build: no bun binary installed; dist/hook.bun.cjs not built (the Bun route falls back to dist/hook.mjs)");
    return;
  }
  const entry = path.resolve(outdir, "hook-bun-entry.ts");
  writeFileSync(entry, `import { hookMain } from ${JSON.stringify(path.resolve("hooks/runner/process.ts"))};\nvoid hookMain();\n`);
  const r = spawnSync(bun, ["build", entry, "--target=bun", "--format=cjs", "--bytecode", "--minify", "--outdir", outdir, "--entry-naming", "hook.bun.cjs"], { encoding: "utf8" });
  rmSync(entry, { force: true });
  if (r.status !== 0) {
    // The Node bundle is complete without it: warn, do not fail `npm ci`.
    console.warn(`build: bun build failed (dist/hook.bun.cjs not built):\n${r.stderr || r.stdout}`);
    rmSync(path.join(outdir, "hook.bun.cjs"), { force: true });
    rmSync(path.join(outdir, "hook.bun.cjs.jsc"), { force: true });
  }
}
