// Shared by the tests: the repo root and the built hook.
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const casesDir = path.join(root, "cases");
export const defaultTable = path.join(root, "triggers.json");
export const hookBundle = path.join(root, "dist", "hook.mjs");
