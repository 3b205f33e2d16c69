// Shared by the tests: the repo root and the built hook.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
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

/**
 * A small git project for the evidence tests: src/a.ts, test/a.test.ts, package.json and
 * (unless `readme: false`) README.md, in a fresh temp folder; returns it and a git runner.
 */
export function gitProject(prefix: string, o: { readme?: boolean } = {}): { ws: string; git: (...args: string[]) => void } {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const git = (...a: string[]) => assert.equal(spawnSync("git", a, { cwd: ws }).status, 0, `git ${a.join(" ")}`);
  git("init", "-q", ".");
  fs.mkdirSync(path.join(ws, "src"));
  fs.mkdirSync(path.join(ws, "test"));
  fs.writeFileSync(path.join(ws, "src/a.ts"), "export const a = 1;\n");
  fs.writeFileSync(path.join(ws, "test/a.test.ts"), "test\n");
  fs.writeFileSync(path.join(ws, "package.json"), "{}\n");
  if (o.readme !== false) fs.writeFileSync(path.join(ws, "README.md"), "readme\n");
  return { ws, git };
}
