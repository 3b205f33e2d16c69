// Build step (scripts/build.mjs): dist/hook.node.cache and dist/hook.node-shell.cache,
// the V8 code caches the Node route starts from (hooks/node-loader.cjs says why). The hook is loaded
// the way dist/hook.cjs loads it, then run in-process on one event of each
// kind the hook sees most, so the functions those events compile are in the
// cache too (V8 compiles a function on its first call). Then one shell
// PreToolUse per other host (its captured payload in test/fixtures/<host>/)
// through that host's own options, as dist/hook-<host>.cjs runs it.
// Usage: node scripts/node-code-cache.mjs DIST
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

const dist = path.resolve(process.argv[2] ?? "dist");
const root = path.resolve(dist, "..");
const fixtures = path.join(root, "cases", "fixtures");
const event = (name, patch = {}) => JSON.stringify({ ...JSON.parse(fs.readFileSync(path.join(fixtures, `${name}.json`), "utf8")), ...patch });
const bash = (command) => event("pre-tool-use-bash", { tool_input: { command, description: "cache" } });
const events = [
  event("session-start-startup"),
  event("user-prompt-submit"),
  bash("cd x && git commit -m 'cache'"),
  bash("ls -la"),
  event("pre-tool-use-write"),
  event("pre-tool-use-read"),
  event("post-tool-use-read"),
  event("post-tool-use-bash"),
  event("post-tool-use-skill"),
  bash("cd x && git commit -m 'cache'"),
  event("stop"),
];
const commit = "cd x && git commit -m 'cache'";
/** Per host: the hook's arguments, its captured shell PreToolUse, and the command put in it. */
const hostEvents = {
  codex: { args: [], file: "PreToolUse-Bash.json", patch: (e) => ({ ...e, tool_input: { command: commit } }) },
  gemini: { args: [], file: "BeforeTool-run_shell_command.json", patch: (e) => ({ ...e, tool_input: { command: commit, description: "cache" } }) },
  copilot: { args: ["preToolUse"], file: "preToolUse-bash.json", patch: (e) => ({ ...e, toolArgs: { command: commit, description: "cache" } }) },
  cursor: { args: [], file: "beforeShellExecution.json", patch: (e) => ({ ...e, command: commit }) },
};
const state = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-code-cache-"));
const env = { ...process.env, SKILLGATE_STATE: state, SKILLGATE_TABLE: path.join(root, "triggers.json") };
delete env.CLAUDE_PROJECT_DIR;
try {
  const { hook, scripts } = createRequire(import.meta.url)(path.join(dist, "hook.cjs")).load();
  for (const e of events) await hook.runHook(e, { env, packageRoot: root });
  for (const [host, h] of Object.entries(hostEvents)) {
    const file = path.join(root, "test", "fixtures", host, h.file);
    // A build without the test fixtures (none in the package) caches Claude Code's events only.
    if (!fs.existsSync(file)) continue;
    const o = hook.hosts[host].hookOptions(h.args);
    const text = JSON.stringify(h.patch(JSON.parse(fs.readFileSync(file, "utf8"))));
    await hook.runHook(o.input ? o.input(text, env) : text, { env, packageRoot: root, host: o.host });
  }
  // Each script the events loaded: the hook and the shell parser's (dist/hook.node-shell.cjs).
  for (const [name, script] of scripts) fs.writeFileSync(path.join(dist, `${name}.cache`), script.createCachedData());
  if (!scripts.has("hook.node-shell")) throw new Error("no event loaded dist/hook.node-shell.cjs: its code cache was not made");
} finally {
  fs.rmSync(state, { recursive: true, force: true });
}
