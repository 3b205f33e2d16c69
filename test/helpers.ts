// Shared by the tests: the repo root and the built hook.
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const casesDir = path.join(root, "cases");
export const defaultTable = path.join(root, "triggers.json");
/** The hook as `install` writes it for Node. */
export const hookBundle = path.join(root, "dist", "hook.cjs");
/** The Bun build as `install` writes it for Bun. */
export const bunHookBundle = path.join(root, "dist", "hook.bun.cjs");
/** dist/hook.mjs: what settings written by older installs run (it runs dist/hook.cjs). */
export const legacyHookBundle = path.join(root, "dist", "hook.mjs");
