// Build step (scripts/build.mjs): dist/hook.node.cache, the V8 code cache the
// Node route starts from (hooks/node-loader.cjs says why). The hook is loaded
// the way dist/hook.cjs loads it, then run in-process on one event of each
// kind the hook sees most, so the functions those events compile are in the
// cache too (V8 compiles a function on its first call). Usage: node scripts/node-code-cache.mjs DIST
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
const state = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-code-cache-"));
const env = { ...process.env, SKILLGATE_STATE: state, SKILLGATE_TABLE: path.join(root, "triggers.json") };
delete env.CLAUDE_PROJECT_DIR;
try {
  const { hook, script } = createRequire(import.meta.url)(path.join(dist, "hook.cjs")).load();
  for (const e of events) await hook.runHook(e, { env, packageRoot: root });
  fs.writeFileSync(path.join(dist, "hook.node.cache"), script.createCachedData());
} finally {
  fs.rmSync(state, { recursive: true, force: true });
}
