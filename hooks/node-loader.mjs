// dist/hook.mjs and dist/hook-<host>.mjs: the hook as settings written by older
// installs run it (and as `import` finds it). It runs the Node route,
// dist/hook.cjs, for the host its file name says (hooks/node-loader.cjs).
import { createRequire } from "node:module";

const { run, hostOf } = createRequire(import.meta.url)("./hook.cjs");
await run(hostOf(decodeURIComponent(import.meta.url.slice(import.meta.url.lastIndexOf("/") + 1))));
