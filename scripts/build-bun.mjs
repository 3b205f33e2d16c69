// Run by Bun from scripts/build.mjs: dist/hook.bun-main.cjs and dist/hook.bun-shell.cjs, each
// with its bytecode (.jsc). dist/hook.bun.cjs, the file Bun runs, is the loader (hooks/node-loader.cjs): it
// asks the hook server first and requires hook.bun-main.cjs only to decide in-process. Bun starts from compiled bytecode instead of parsing the bundle;
// bytecode needs CommonJS (and CommonJS has no top-level await). The shell parser is the
// second bundle (scripts/hook-apart.mjs), loaded by the shell calls that need it: a prompt,
// a Read or a Write loads 177 KB instead of 456 KB (1.5 ms of Bun's 12–15 ms on this VM, a
// parsed shell call ~0.4 ms more; `npm run bench`). zod stays out, as in the Node build: the
// table's schema is loaded from dist/hook.node-schema.cjs only when a table is validated.
// Usage: bun scripts/build-bun.mjs OUTDIR
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SHELL_APART, schemaApart, shellEntrySource } from "./hook-apart.mjs";

const outdir = path.resolve(process.argv[2]);
const SHELL_BUNDLE = "./hook.bun-shell.cjs";
const entry = path.join(outdir, "hook-bun-entry.ts");
const shellEntry = path.join(outdir, "hook-bun-shell-entry.ts");
writeFileSync(entry, `export { main } from ${JSON.stringify(path.resolve("hooks/entries/claude-code.ts"))};\n`);
writeFileSync(shellEntry, shellEntrySource());

/** A dynamic import of a shell module becomes that module of the second bundle, initialized on first use. */
const shellApart = {
  name: "shell-apart",
  setup(b) {
    b.onResolve({ filter: SHELL_APART }, (a) => (a.kind === "dynamic-import" ? { path: path.basename(a.path, ".js"), namespace: "shell-apart" } : undefined));
    b.onResolve({ filter: /^\.\/hook\.bun-shell\.cjs$/ }, (a) => ({ path: a.path, external: true }));
    b.onLoad({ filter: /.*/, namespace: "shell-apart" }, (a) => ({
      contents: `const m = require(${JSON.stringify(SHELL_BUNDLE)}).modules[${JSON.stringify(a.path)}];\nif (!m) throw new Error("dist/hook.bun-shell.cjs has no module ${a.path}: rebuild with npm run build");\nmodule.exports = m();\n`,
      loader: "js",
    }));
  },
};
const common = { outdir, target: "bun", format: "cjs", bytecode: true, minify: true };
try {
  for (const [input, naming, plugins] of [
    [entry, "hook.bun-main.cjs", [schemaApart, shellApart]],
    [shellEntry, "hook.bun-shell.cjs", [schemaApart]],
  ]) {
    const r = await Bun.build({ ...common, entrypoints: [input], naming, plugins });
    if (!r.success) throw new Error(r.logs.join("\n"));
  }
  // The main bundle must no longer hold the parser (a static import would pull it back in): its node kinds are not there.
  if (readFileSync(path.join(outdir, "hook.bun-main.cjs"), "utf8").includes('"ProcessSubstitution"')) {
    throw new Error("dist/hook.bun-main.cjs holds the shell parser again: a static import of it?");
  }
} finally {
  rmSync(entry, { force: true });
  rmSync(shellEntry, { force: true });
}
