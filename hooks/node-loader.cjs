// dist/hook.cjs, the Node route of the hook (scripts/build.mjs copies this file there),
// and dist/hook-<host>.cjs, the same file for another host (Codex, Gemini CLI,
// Copilot CLI, Cursor): its name says which host's `main` of the one bundle runs.
// CommonJS on purpose: an ES module entry costs Node 20 its module loader and a
// facade per built-in, 5–10% of a start (`npm run bench`).
// Node 20 keeps no compiled code between runs, and compiling the hook's 350 KB
// on every tool call was a fifth of its time. So the hook is one script,
// dist/hook.node.cjs, run here through node:vm from the V8 code cache the build
// made (dist/hook.node.cache): V8 checks that the cache belongs to this source,
// this V8 version and these flags, and compiles afresh when it does not
// (cachedDataRejected), so a stale cache costs time, never correctness. Both
// files sit in dist/, which self-protection keeps the agent from writing.
"use strict";
// performance.now() would load perf_hooks on every start: only for SKILLGATE_TIMINGS.
const loadStartedAt = process.env.SKILLGATE_TIMINGS === "1" ? performance.now() : undefined;
const fs = require("node:fs");
const vm = require("node:vm");

/**
 * The scripts loaded so far, by name (the code-cache build serializes each). The shell
 * parser is a second script, dist/hook.node-shell.cjs (scripts/build.mjs): most events
 * never need it, and each script's cost is reading and deserializing it.
 */
const scripts = new Map();
const APART = "./hook.node-shell.cjs";
let apart;

/** Run dist/<name>.cjs from its code cache (dist/<name>.cache); returns its exports. */
function loadScript(name) {
  const file = `${__dirname}/${name}.cjs`;
  let cachedData;
  try {
    cachedData = fs.readFileSync(`${__dirname}/${name}.cache`);
  } catch {
    /* no cache built: compile */
  }
  // The build writes it in ASCII (scripts/build.mjs): latin1 skips UTF-8 decoding.
  const source = fs.readFileSync(file, "latin1");
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  scripts.set(name, script);
  const mod = { exports: {} };
  // This file's own require (the bundles sit beside it; node:module's createRequire would cost
  // a start 0.3 ms), but the shell script's modules from its code cache (requireBeside).
  script.runInThisContext()(mod.exports, requireBeside, mod, file, __dirname);
  return mod.exports;
}

/** `./hook.node-shell.cjs#shell-facts`: that module of the shell script, initialized on first use. */
function requireBeside(id) {
  if (!id.startsWith(`${APART}#`)) return require(id);
  apart ??= loadScript("hook.node-shell");
  const m = apart.modules[id.slice(APART.length + 1)];
  if (!m) throw new Error(`dist/hook.node-shell.cjs has no module ${id.slice(APART.length + 1)}: rebuild with npm run build`);
  return m();
}

/** Load the hook bundle; returns its exports and the scripts loaded (the code-cache build serializes them). */
function load() {
  return { hook: loadScript("hook.node"), scripts };
}

/** The host a copy of this loader runs, from its file name: hook-codex.cjs → "codex"; hook.cjs (Claude Code) → undefined. */
function hostOf(fileName) {
  const m = /^hook-([a-z]+)\.[cm]js$/.exec(fileName);
  return m ? m[1] : undefined;
}

/** Run one host's hook (Claude Code's without a host): read the event, answer, exit. */
function run(host, loadStartedAt) {
  try {
    const { hook } = load();
    if (host === undefined) return hook.hookMain({ loadStartedAt }).catch(cannotStart);
    if (!Object.hasOwn(hook.hosts, host)) throw new Error(`the hook bundle has no host "${host}" (it has ${Object.keys(hook.hosts).join(", ")})`);
    return hook.hosts[host].main({ loadStartedAt }).catch(cannotStart);
  } catch (e) {
    cannotStart(e);
    return Promise.resolve();
  }
}

function cannotStart(e) {
  // The bundle is missing or broken: never exit non-zero, never leave the user uninformed.
  process.stderr.write(`skillgate: ${(e && e.stack) || e}\n`);
  process.stdout.write(
    `${JSON.stringify({ systemMessage: `skillgate: cannot start the hook (${__dirname}/hook.node.cjs): ${(e && e.message) || e}. Run npm run build in skillgate's folder.` })}\n`,
  );
  process.exitCode = 0;
}

if (require.main === module) run(hostOf(__filename.slice(__dirname.length + 1)), loadStartedAt);
else module.exports = { load, run, hostOf };
