// What both hook builds keep out of their main bundle (scripts/build.mjs for Node,
// scripts/build-bun.mjs for Bun). zod: the table's schema, loaded from dist/hook.node-schema.cjs
// only when a table is validated. The shell parser and the modules only a shell call
// the pre-filter cannot vouch for, or a check's run, need. Each is imported dynamically
// by the runner; those imports load a second script with its own code cache or bytecode,
// so a prompt, a Read or a Write reads and deserializes about half as much.
import path from "node:path";

export const SHELL_MODULES = ["hooks/core/shell-facts.ts", "hooks/io/shell-files.ts", "hooks/core/shell/analyze.ts", "hooks/io/evidence-run.ts"];

/** A resolved import of one of SHELL_MODULES (the runner imports them as `…/<name>.js`). */
export const SHELL_APART = new RegExp(`[/\\\\](${SHELL_MODULES.map((m) => path.basename(m, ".ts").replace(/[.-]/g, "\\$&")).join("|")})\\.js$`);

/**
 * The second script's entry: each module behind a function, so a shell call runs the parser's
 * top level and not evidence runs' (node:crypto, node:child_process) until one is needed.
 */
export function shellEntrySource() {
  return `export const modules = {\n${SHELL_MODULES.map((m) => `  ${JSON.stringify(path.basename(m, ".ts"))}: () => require(${JSON.stringify(path.resolve(m))}),`).join("\n")}\n};\n`;
}

/** The table's schema (zod) stays out: its dynamic import loads dist/hook.node-schema.cjs (esbuild's and Bun's plugin API alike). */
export const schemaApart = {
  name: "schema-apart",
  setup(b) {
    b.onResolve({ filter: /[/\\]table[/\\]schema\.js$/ }, (a) =>
      a.kind === "dynamic-import" ? { path: "./hook.node-schema.cjs", external: true } : undefined,
    );
  },
};
