// dist/hook.mjs: the hook as settings written by skillgate before 0.2 run it
// (and as `import` finds it). It runs dist/hook.cjs, the Node route.
import { createRequire } from "node:module";

const { load } = createRequire(import.meta.url)("./hook.cjs");
await load().hook.hookMain();
