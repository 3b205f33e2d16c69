// Bundle the hook and the CLI with esbuild. Plain JS so `npm ci` (prepare)
// can run it before anything else is built. zod sits in its own chunk: the
// hook loads it only when triggers.json changed.
import { build } from "esbuild";
import { rmSync } from "node:fs";

rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { hook: "hooks/skillgate.ts", cli: "scripts/cli.ts" },
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunks/[name]-[hash]",
  minify: false,
  sourcemap: false,
  logLevel: "warning",
});
