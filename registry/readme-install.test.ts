// skillgate published to a loopback npm registry, installed in a fresh project
// by the README's own install lines (run as written, the registry given only
// through npm_config_registry), then a real PreToolUse `git commit` event sent
// through the hook command that install wrote into .claude/settings.json.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { freshProject, npmEnv, publishSkillgate, readmeInstallLines, ROOT, startRegistry, tempDir, type Registry } from "./registry.ts";

const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
const lines = readmeInstallLines(readme);

/** The file each host's install writes in the project, by the line's --host (none: Claude Code). */
const HOST_FILES: Record<string, string> = {
  "claude-code": ".claude/settings.json",
  codex: ".codex/hooks.json",
  gemini: ".gemini/settings.json",
  copilot: ".github/hooks/skillgate.json",
  opencode: ".opencode/plugins/skillgate.js",
};

let reg: Registry;
let project: string;
let home: string;
const ran: { line: string; status: number | null; out: string }[] = [];

before(async () => {
  reg = await startRegistry();
  publishSkillgate(reg);
  project = freshProject();
  home = tempDir("home");
  for (const line of lines) {
    // As a person types it: one shell line, in the project, with only the registry redirected.
    const r = spawnSync("sh", ["-c", line], { cwd: project, env: npmEnv(reg, home), encoding: "utf8", timeout: 300_000 });
    ran.push({ line, status: r.status, out: `${r.stdout}\n${r.stderr}` });
  }
});

after(async () => {
  await reg?.stop();
});

test("the README holds the install lines: npm install, init, and install for every host", () => {
  assert.ok(lines.includes("npm install --save-dev skillgate"), `README.md has no \`npm install --save-dev skillgate\` line in a sh block; found: ${JSON.stringify(lines)}`);
  assert.ok(lines.includes("npx skillgate init"), "README.md: no `npx skillgate init` line beside it");
  const hosts = lines.filter((l) => /^npx skillgate install(\s|$)/.test(l)).map(hostOf);
  assert.deepEqual([...hosts].sort(), Object.keys(HOST_FILES).sort(), "one install line per host");
});

test("every README line exits 0", () => {
  assert.equal(ran.length, lines.length);
  for (const r of ran) assert.equal(r.status, 0, `\`${r.line}\` exited ${r.status}:\n${r.out}`);
});

test("npm install put the registry's skillgate into the project", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8")) as { devDependencies?: Record<string, string> };
  assert.ok(pkg.devDependencies?.skillgate, `package.json has no devDependencies.skillgate: ${JSON.stringify(pkg)}`);
  const lock = JSON.parse(fs.readFileSync(path.join(project, "package-lock.json"), "utf8")) as { packages: Record<string, { resolved?: string }> };
  const resolved = lock.packages["node_modules/skillgate"]?.resolved ?? "";
  assert.ok(resolved.startsWith(reg.url), `skillgate resolved from ${resolved}, not from the loopback registry ${reg.url}`);
  assert.ok(fs.existsSync(path.join(project, "node_modules/skillgate/dist/hook.cjs")), "the published package holds dist/hook.cjs");
  assert.ok(fs.existsSync(path.join(project, ".claude/triggers.json")), "npx skillgate init wrote .claude/triggers.json");
});

for (const [host, file] of Object.entries(HOST_FILES)) {
  test(`install for ${host} wrote ${file} naming the installed package`, () => {
    const line = lines.find((l) => /^npx skillgate install(\s|$)/.test(l) && hostOf(l) === host);
    assert.ok(line, `README.md: no install line for ${host}`);
    const text = fs.readFileSync(path.join(project, file), "utf8");
    assert.match(text, /skillgate/, `${file} does not name skillgate:\n${text}`);
    if (host !== "claude-code" && host !== "opencode") JSON.parse(text); // the JSON config files parse
  });
}

test("a PreToolUse `git commit` sent through the command in .claude/settings.json is refused by the commit gate", () => {
  const settings = JSON.parse(fs.readFileSync(path.join(project, ".claude/settings.json"), "utf8")) as Settings;
  const handler = (settings.hooks?.PreToolUse ?? []).find((g) => !g.matcher || new RegExp(`^(?:${g.matcher})$`).test("Bash"))?.hooks?.[0];
  assert.ok(handler?.command, `.claude/settings.json has no PreToolUse hook for Bash: ${JSON.stringify(settings.hooks)}`);
  const event = {
    session_id: "registry-test-session",
    transcript_path: path.join(home, ".claude/projects/app/registry-test-session.jsonl"),
    cwd: project,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: 'git commit -m "add skillgate"', description: "Commit" },
    tool_use_id: "toolu_registry_test_1",
  };
  // Claude Code runs an exec-form hook (command + args) without a shell, a string command with one.
  const env = { PATH: process.env.PATH, HOME: home, CLAUDE_PROJECT_DIR: project };
  const r = handler.args
    ? spawnSync(expand(handler.command, project), handler.args.map((a) => expand(a, project)), { cwd: project, env, input: JSON.stringify(event), encoding: "utf8" })
    : spawnSync("sh", ["-c", handler.command], { cwd: project, env, input: JSON.stringify(event), encoding: "utf8" });
  assert.equal(r.status, 0, `the hook exited ${r.status}: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
  assert.equal(out.hookSpecificOutput?.permissionDecision, "deny", `not refused: ${r.stdout}`);
  assert.match(out.hookSpecificOutput?.permissionDecisionReason ?? "", /commit-gate/, `the reason does not name the commit gate: ${r.stdout}`);
  assert.match(out.hookSpecificOutput?.permissionDecisionReason ?? "", /\bcommit\b.*skill|skill.*\bcommit\b/i, `the reason does not name the commit skill: ${r.stdout}`);
});

interface Settings {
  hooks?: Record<string, { matcher?: string; hooks?: { command: string; args?: string[] }[] }[]>;
}

function hostOf(line: string): string {
  return /--host\s+(\S+)/.exec(line)?.[1] ?? "claude-code";
}

/** Claude Code's expansion of $CLAUDE_PROJECT_DIR in a hook command. */
function expand(s: string, project: string): string {
  return s.replace(/\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR\b/g, project);
}
