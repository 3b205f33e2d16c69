// Run by Bun from scripts/build.mjs: dist/hook.bun.cjs and its bytecode (.jsc).
// Bun starts from compiled bytecode instead of parsing the bundle; bytecode
// needs CommonJS (and CommonJS has no top-level await). zod stays out, as in
// the Node build: the table's schema is loaded from dist/hook.node-schema.cjs
// only when a table is validated. Usage: bun scripts/build-bun.mjs OUTDIR
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const outdir = path.resolve(process.argv[2]);
const entry = path.join(outdir, "hook-bun-entry.ts");
writeFileSync(entry, `import { main } from ${JSON.stringify(path.resolve("hooks/entries/claude-code.ts"))};\nvoid main();\n`);
try {
  const r = await Bun.build({
    entrypoints: [entry],
    outdir,
    naming: "hook.bun.cjs",
    target: "bun",
    format: "cjs",
    bytecode: true,
    minify: true,
    plugins: [
      {
        name: "schema-apart",
        setup(b) {
          b.onResolve({ filter: /[/\\]table[/\\]schema\.js$/ }, (a) =>
            a.kind === "dynamic-import" ? { path: "./hook.node-schema.cjs", external: true } : undefined,
          );
        },
      },
    ],
  });
  if (!r.success) throw new Error(r.logs.join("\n"));
} finally {
  rmSync(entry, { force: true });
}
