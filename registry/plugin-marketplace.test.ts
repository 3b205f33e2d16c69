// skillgate as a Claude Code plugin, through the real binary (pinned in e2e/):
// - from the committed marketplace (.claude-plugin/marketplace.json, an npm source)
//   with `claude plugin marketplace add` + `claude plugin install`, the package
//   fetched from the loopback registry, then a headless session whose
//   `git commit` the gate refuses;
// - from a checkout that was never built (a git clone: no dist/, no node_modules):
//   the session says which command builds it, and after exactly that command the
//   gate refuses the commit.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { CLAUDE_BIN, contentText, makeTempRepo, runClaude, toolResults, type RunResult } from "../e2e/harness.ts";
import { publishSkillgate, ROOT, startRegistry, tempDir, type Registry } from "./registry.ts";

const bash = (command: string, id: string) => ({ toolUse: { name: "Bash", input: { command, description: "commit" }, id } });
const commitScript = [bash('git commit --allow-empty -m "feat: first"', "toolu_commit"), { text: "ok" }];

let reg: Registry;

before(async () => {
  assert.ok(fs.existsSync(CLAUDE_BIN), `no Claude Code binary at ${CLAUDE_BIN}: run (cd e2e && npm ci)`);
  reg = await startRegistry();
  publishSkillgate(reg);
});

after(async () => {
  await reg?.stop();
});

/** The environment of `claude plugin …`: its own HOME, npm pointed at the loopback registry, no traffic elsewhere. */
function claudeEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    LANG: "C.UTF-8",
    HOME: home,
    // Claude Code fetches an npm source with npm; an http registry is accepted only when it is npm's default one.
    npm_config_registry: reg.url,
    npm_config_cache: path.join(home, ".npm"),
    npm_config_update_notifier: "false",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
  };
}

function claude(args: string[], home: string): string {
  const r = spawnSync(CLAUDE_BIN, args, { env: claudeEnv(home), encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 0, `claude ${args.join(" ")} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The tool_result the model got for a tool call. */
function resultOf(r: RunResult, id: string) {
  for (const q of r.requests) {
    const b = toolResults(q.body).find((x) => x.tool_use_id === id);
    if (b) return { error: b.is_error === true, text: contentText(b.content) };
  }
  assert.fail(`no tool_result for ${id} in any request; stderr: ${r.stderr.slice(0, 500)}`);
}

const gitLog = (repo: string) => execFileSync("git", ["log", "--format=%s"], { cwd: repo, encoding: "utf8" }).trim().split("\n");
const notices = (r: RunResult) => r.events.filter((e) => e.type === "system" && typeof e["content"] === "string").map((e) => String(e["content"]));

function assertRefusedByCommitGate(r: RunResult, repo: string): void {
  assert.equal(r.timedOut, false, "the session timed out");
  assert.equal(r.exitCode, 0, `claude -p exited ${r.exitCode}: ${r.stderr.slice(0, 500)}`);
  const res = resultOf(r, "toolu_commit");
  assert.equal(res.error, true, `the commit was not refused: ${res.text}`);
  assert.ok(res.text.startsWith("PreToolUse:Bash hook error: skillgate[commit-gate]: "), res.text);
  assert.match(res.text, /skillgate:commit/, "under the plugin the reason names the namespaced skill");
  assert.deepEqual(gitLog(repo), ["init"], "the refused commit did not run");
}

test("the committed marketplace: add it, install skillgate from the registry, and a session's git commit is refused", async () => {
  const committed = JSON.parse(fs.readFileSync(path.join(ROOT, ".claude-plugin/marketplace.json"), "utf8")) as Marketplace;
  const entry = committed.plugins.find((p) => p.name === "skillgate");
  assert.deepEqual(entry?.source, { source: "npm", package: "skillgate" }, "the committed marketplace installs the npm package skillgate");
  // The same marketplace, its npm source pointed at the registry this test started.
  const market = tempDir("marketplace");
  fs.mkdirSync(path.join(market, ".claude-plugin"));
  const forTest = { ...committed, plugins: committed.plugins.map((p) => (p === entry ? { ...p, source: { ...p.source, registry: reg.url } } : p)) };
  fs.writeFileSync(path.join(market, ".claude-plugin/marketplace.json"), JSON.stringify(forTest, null, 2) + "\n");

  const home = tempDir("home");
  claude(["plugin", "marketplace", "add", market], home);
  claude(["plugin", "install", `skillgate@${committed.name}`], home);
  const installed = JSON.parse(fs.readFileSync(path.join(home, ".claude/plugins/installed_plugins.json"), "utf8")) as {
    plugins: Record<string, { installPath: string; version: string }[]>;
  };
  const record = installed.plugins[`skillgate@${committed.name}`]?.[0];
  assert.ok(record, `not installed: ${JSON.stringify(installed)}`);
  const version = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
  assert.equal(record.version, version);
  assert.ok(fs.existsSync(path.join(record.installPath, "dist/hook.cjs")), `the installed plugin has no dist/hook.cjs: ${record.installPath}`);

  const repo = makeTempRepo();
  const r = await runClaude({ prompt: "commit it", cwd: repo, home, script: commitScript, env: { npm_config_registry: reg.url } });
  const init = r.events.find((e) => e.type === "system" && e.subtype === "init");
  assert.ok(
    (init?.["plugins"] as { name: string; path: string }[] | undefined)?.some((p) => p.name === "skillgate" && p.path === record.installPath),
    JSON.stringify(init?.["plugins"]),
  );
  assertRefusedByCommitGate(r, repo);
});

test("a plugin from a git clone that was never built says which command builds it, and after that command it gates", async () => {
  const clone = cloneWithoutBuild();
  const repo = makeTempRepo();
  const first = await runClaude({ prompt: "commit it", cwd: repo, pluginDir: clone, script: commitScript });
  assert.equal(first.exitCode, 0, first.stderr.slice(0, 500));
  const said = notices(first).find((n) => n.includes(`skillgate at ${clone} is not built`));
  assert.ok(said, `no notice about the unbuilt plugin; system events: ${JSON.stringify(notices(first)).slice(0, 800)}`);
  assert.ok(said.includes(`run \`cd ${clone} && npm ci\``), said);
  assert.match(said, /gates are OFF/);
  assert.equal(resultOf(first, "toolu_commit").error, false, "gates are off until it is built: the commit runs");

  // Its dependencies installed (this checkout's, linked), dist/ still missing: the command is the build alone.
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(clone, "node_modules"));
  const second = await runClaude({ prompt: "commit it", cwd: makeTempRepo(), pluginDir: clone, script: commitScript });
  const build = notices(second)
    .map((n) => /run `([^`]+)`/.exec(n)?.[1])
    .find((c) => c !== undefined);
  assert.equal(build, `cd ${clone} && npm run build`, JSON.stringify(notices(second)).slice(0, 800));
  const ran = spawnSync("sh", ["-c", build], { encoding: "utf8" });
  assert.equal(ran.status, 0, `\`${build}\` failed:\n${ran.stdout}\n${ran.stderr}`);

  const repo3 = makeTempRepo();
  const third = await runClaude({ prompt: "commit it", cwd: repo3, pluginDir: clone, script: commitScript, env: { SKILLGATE_STATE: tempDir("state") } });
  assertRefusedByCommitGate(third, repo3);
});

interface Marketplace {
  name: string;
  plugins: { name: string; source: Record<string, string> }[];
}

/** The checkout's tracked files in a temp folder with a .git of its own: what `git clone` gives, before npm ci. */
function cloneWithoutBuild(): string {
  const dir = tempDir("clone");
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
  for (const f of files) {
    const from = path.join(ROOT, f);
    if (!fs.existsSync(from)) continue; // deleted in the work tree, not yet committed
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, f));
  }
  execFileSync("git", ["init", "-q"], { cwd: dir });
  assert.ok(!fs.existsSync(path.join(dir, "dist")), "a clone has no dist/");
  return dir;
}
