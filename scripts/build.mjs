// Bundle the hook and the CLI with esbuild. Plain JS so `npm ci` (prepare)
// can run it before anything else is built. zod sits in its own chunk: the
// hook loads it only when triggers.json changed.
// The bundle is built beside dist/ and swapped in, so a hook or test running
// during a rebuild never sees a half-written dist/.
import { build } from "esbuild";
import { renameSync, rmSync } from "node:fs";

const tmp = `dist.tmp-${process.pid}`;
await build({
  entryPoints: { hook: "hooks/skillgate.ts", "hook-codex": "hooks/hosts/codex/hook.ts", "hook-gemini": "hooks/hosts/gemini/hook.ts", "hook-copilot": "hooks/hosts/copilot/hook.ts", "hook-cursor": "hooks/hosts/cursor/hook.ts", "opencode-plugin": "hooks/hosts/opencode/plugin.ts", cli: "cli/main.ts" },
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
});
const old = `dist.old-${process.pid}`;
try {
  renameSync("dist", old);
} catch {
  /* first build */
}
renameSync(tmp, "dist");
rmSync(old, { recursive: true, force: true });
