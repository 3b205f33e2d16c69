// Bundle the hook and the CLI with esbuild. Plain JS so `npm ci` (prepare)
// can run it before anything else is built.
// One hook build per runtime, each as `install` writes it:
// - Node: dist/hook.cjs (hooks/node-loader.cjs) runs dist/hook.node.cjs, one
//   CommonJS script, from the V8 code cache made here (hook.node.cache);
//   dist/hook.mjs runs the same for settings written by older installs.
//   Every other hook host runs the same bundle: dist/hook-<host>.cjs (and .mjs).
// - Bun (when its binary is installed): dist/hook.bun.cjs, the same loader, and the bundle
//   it decides in-process with, dist/hook.bun-main.cjs, from its bytecode (.jsc).
// Both keep the shell parser in a second script, loaded only by a shell call that
// needs it (scripts/hook-apart.mjs).
// zod is in neither: dist/hook.node-schema.cjs is loaded only when a table is validated.
// The bundle is built beside dist/ and swapped in, so a hook or test running
// during a rebuild never sees a half-written dist/.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { SHELL_APART, schemaApart, shellEntrySource } from "./hook-apart.mjs";

/** The hook executables besides Claude Code's: dist/hook-<host>.cjs runs hooks/entries/<host>.ts's `main`. */
const NODE_HOSTS = ["codex", "gemini", "copilot", "cursor"];
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
await buildForNode(tmp);
await build({ ...common, entryPoints: { cli: "cli/main.ts" } });
// opencode's in-process plugin, hooks/entries/opencode-plugin.ts (the other hosts' hooks are in the Node bundle: buildForNode).
await build({
  ...common,
  entryPoints: { "opencode-plugin": "hooks/entries/opencode-plugin.ts" },
  chunkNames: "chunks/hosts-[name]-[hash]",
});
// The git hooks' check (hooks/effects/git-hook.ts): run only for an agent's commit or push.
await build({ ...common, entryPoints: { "git-hook": "hooks/effects/git-hook.ts" } });
buildForBun(tmp);
const old = `dist.old-${process.pid}`;
try {
  renameSync("dist", old);
} catch {
  /* first build */
}
renameSync(tmp, "dist");
rmSync(old, { recursive: true, force: true });

/** A working bun as `install --runtime bun` finds it ($SKILLGATE_BUN, else PATH, else node_modules/bun), or undefined. */
function bunBinary() {
  const works = (p) => existsSync(p) && spawnSync(p, ["--version"], { timeout: 10_000 }).status === 0;
  if (process.env.SKILLGATE_BUN) return works(process.env.SKILLGATE_BUN) ? process.env.SKILLGATE_BUN : undefined;
  const exes = process.platform === "win32" ? ["bun.exe"] : ["bun"];
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    for (const exe of exes) if (dir && works(path.join(dir, exe))) return path.join(dir, exe);
  }
  let dir;
  try {
    dir = path.dirname(createRequire(path.resolve("package.json")).resolve("bun/package.json"));
  } catch {
    return undefined;
  }
  for (const exe of ["bun", "bun.exe"]) if (works(path.join(dir, "bin", exe))) return path.join(dir, "bin", exe);
  return undefined;
}

/**
 * The Node route: dist/hook.cjs (hooks/node-loader.cjs) runs dist/hook.node.cjs, one
 * CommonJS script, from the V8 code cache made here (dist/hook.node.cache). zod is
 * left out (dist/hook.node-schema.cjs): it is loaded only when a table is validated.
 * The same bundle holds every host in NODE_HOSTS (`hosts.<host>.main`), so their
 * hooks, dist/hook-<host>.cjs (the same loader: its file name names the host), start
 * from the same cache; dist/hook-<host>.mjs runs it for settings written by older installs.
 */
async function buildForNode(outdir) {
  const entry = path.resolve(outdir, "hook-node-entry.ts");
  mkdirSync(outdir, { recursive: true });
  const from = (f) => JSON.stringify(path.resolve(f));
  writeFileSync(
    entry,
    [
      // Claude Code's entry: `hookMain` is what dist/hook.cjs runs, `runHook` what the code cache runs in-process.
      `export { main as hookMain, runHook, hookOptions } from ${from("hooks/entries/claude-code.ts")};`,
      // What the hook server (hooks/hook-server.cjs) runs for a hook process: its event, answered.
      `export { answer } from ${from("hooks/runner/process.ts")};`,
      // (and how it tells one hook process from another, as the tickets do)
      `export { procStat } from ${from("hooks/io/tickets.ts")};`,
      ...NODE_HOSTS.map((h) => `import * as ${h} from ${from(`hooks/entries/${h}.ts`)};`),
      `export const hosts = { ${NODE_HOSTS.join(", ")} };`,
      "",
    ].join("\n"),
  );
  const cjs = {
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    charset: "ascii",
    logLevel: "warning",
    // import() becomes require(): the script runs in node:vm, which has no module loader of its own.
    supported: { "dynamic-import": false },
    define: { "import.meta.dirname": "__dirname" },
    logOverride: { "empty-import-meta": "silent" },
  };
  // The shell parser and what only a shell call or a check's run needs: a second script, loaded only then.
  const shellApart = {
    name: "shell-apart",
    setup(b) {
      b.onResolve({ filter: SHELL_APART }, (a) =>
        a.kind === "dynamic-import" ? { path: `./hook.node-shell.cjs#${path.basename(a.path, ".js")}`, external: true } : undefined,
      );
    },
  };
  const shellEntry = path.resolve(outdir, "hook-node-shell-entry.ts");
  writeFileSync(shellEntry, shellEntrySource());
  const main = await build({
    ...cjs,
    entryPoints: [entry],
    outfile: path.join(outdir, "hook.node.cjs"),
    plugins: [schemaApart, shellApart, builtinsOnce()],
    metafile: true,
  });
  await build({ ...cjs, entryPoints: [shellEntry], outfile: path.join(outdir, "hook.node-shell.cjs"), plugins: [builtinsOnce()] });
  checkShellApart(main.metafile);
  rmSync(shellEntry, { force: true });
  for (const f of ["hook.node.cjs", "hook.node-shell.cjs"]) asciiOnly(path.join(outdir, f));
  await build({ ...cjs, entryPoints: ["hooks/core/table/schema.ts"], outfile: path.join(outdir, "hook.node-schema.cjs") });
  rmSync(entry, { force: true });
  for (const name of ["hook", ...NODE_HOSTS.map((h) => `hook-${h}`)]) {
    copyFileSync("hooks/node-loader.cjs", path.join(outdir, `${name}.cjs`));
    copyFileSync("hooks/node-loader.mjs", path.join(outdir, `${name}.mjs`));
  }
  // The process that keeps the bundle compiled for the hook processes of this folder (docs/hook-server.md).
  copyFileSync("hooks/hook-server.cjs", path.join(outdir, "hook-server.cjs"));
  const r = spawnSync(process.execPath, ["scripts/node-code-cache.mjs", outdir], { encoding: "utf8" });
  // Without the cache the hook still runs (it compiles): warn, do not fail `npm ci`.
  if (r.status !== 0) console.warn(`build: the Node code cache was not made (dist/hook.node.cache):\n${r.stderr || r.stdout}`);
}

/** dist/hook.node.cjs must no longer hold the parser (a static import would pull it back in). */
function checkShellApart(mainMeta) {
  const inMain = Object.keys(Object.values(mainMeta.outputs)[0].inputs);
  const parser = inMain.filter((f) => /node_modules[/\\]unbash[/\\]|hooks[/\\]core[/\\]shell[/\\]analyze\.ts$/.test(f));
  if (parser.length) throw new Error(`build: dist/hook.node.cjs holds the shell parser again (${parser.join(", ")}): a static import of it?`);
}

/**
 * In CommonJS output esbuild wraps each module's `import fs from "node:fs"` in its
 * own copy of the module object (__toESM: a getter per export, 51 copies of
 * ~100 getters at every start). A one-line ES module per built-in, required
 * once, gives every importer the module object itself. Named imports are listed
 * here; a new one fails the build ("No matching export") until it is added.
 * Built-ins other than fs and path are required on first use, not when their
 * importer's module starts: node:os and node:module were loaded at every start for
 * a home folder and a fallback most events never reach (the time this saves was
 * within the bench's noise; the modules are simply not needed).
 */
function builtinsOnce() {
  const named = {
    "node:path": ["posix"],
    "node:child_process": ["spawnSync"],
    "node:url": ["pathToFileURL", "fileURLToPath"],
    "node:crypto": ["createHash"],
    "node:module": ["createRequire"],
  };
  // Loaded by nearly every event: at once (and path's named export is an object, not a function).
  const EAGER = new Set(["node:fs", "node:path"]);
  return {
    name: "builtins-once",
    setup(b) {
      b.onResolve({ filter: /^node:[a-z_/]+$/ }, (a) => (a.namespace === "builtin-once" ? undefined : { path: a.path, namespace: "builtin-once" }));
      b.onLoad({ filter: /.*/, namespace: "builtin-once" }, (a) => ({
        contents: EAGER.has(a.path)
          ? `const m = require(${JSON.stringify(a.path)});\nexport default m;\n${(named[a.path] ?? []).map((n) => `export const ${n} = m.${n};`).join("\n")}\n`
          : // Node's built-in functions do not use \`this\`: a call through the proxy or a wrapper is the same call.
            `let m;\nconst get = () => (m ??= require(${JSON.stringify(a.path)}));\nexport default new Proxy({}, { get: (_, k) => get()[k] });\n${(named[a.path] ?? []).map((n) => `export const ${n} = (...a) => get().${n}(...a);`).join("\n")}\n`,
        loader: "js",
      }));
    },
  };
}

/**
 * The loader reads the Node bundle as latin1 (no UTF-8 decoding of 350 KB per tool call),
 * so it must be ASCII. esbuild's charset=ascii leaves regex literals as written:
 * escape what is left (\uXXXX means the same in a string, a template and a regex).
 */
function asciiOnly(file) {
  const text = readFileSync(file, "utf8");
  // `\é` (an identity escape) would turn into `\\u00e9`: none today; fail the build if one comes.
  if (/\\[^\x00-\x7f]/.test(text)) throw new Error(`${file}: a non-ASCII character follows a backslash; write it as \\uXXXX in the source`);
  writeFileSync(
    file,
    text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
  );
}

/** dist/hook.bun.cjs (the loader) and dist/hook.bun-main.cjs + .jsc (scripts/build-bun.mjs, run by Bun: its bundler makes the bytecode). */
function buildForBun(outdir) {
  const bun = bunBinary();
  if (!bun) {
    console.warn("build: no bun on PATH (nor SKILLGATE_BUN); dist/hook.bun.cjs not built (the Bun route falls back to dist/hook.cjs)");
    return;
  }
  const r = spawnSync(bun, ["scripts/build-bun.mjs", outdir], { encoding: "utf8" });
  if (r.status !== 0) {
    // The Node build is complete without it: warn, do not fail `npm ci`.
    console.warn(`build: bun build failed (dist/hook.bun.cjs not built):\n${r.stderr || r.stdout}`);
    for (const f of ["hook.bun-main.cjs", "hook.bun-shell.cjs"]) {
      rmSync(path.join(outdir, f), { force: true });
      rmSync(path.join(outdir, `${f}.jsc`), { force: true });
    }
    return;
  }
  copyFileSync("hooks/node-loader.cjs", path.join(outdir, "hook.bun.cjs"));
}
