// skillgate published to a loopback npm registry, installed in a fresh project
// by the README's own install lines (run as written, the registry given only
// through npm_config_registry), then a real PreToolUse `git commit` event sent
// through the hook command that install wrote into .claude/settings.json, and
// each other host's own shape through the command in that host's config.
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
  assert.ok(
    lines.includes("npm install --save-dev skillgate"),
    `README.md has no \`npm install --save-dev skillgate\` line in a sh block; found: ${JSON.stringify(lines)}`,
  );
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
  test(`install for ${host} wrote ${file} running the installed package`, () => {
    const line = lines.find((l) => /^npx skillgate install(\s|$)/.test(l) && hostOf(l) === host);
    assert.ok(line, `README.md: no install line for ${host}`);
    const text = fs.readFileSync(path.join(project, file), "utf8");
    if (host === "claude-code") {
      // The portable form: the launcher committed beside the settings finds node_modules/skillgate.
      assert.ok(text.includes("${CLAUDE_PROJECT_DIR}/.claude/hooks/skillgate.mjs"), `${file} does not run the project's launcher:\n${text}`);
      assert.ok(fs.existsSync(path.join(project, ".claude/hooks/skillgate.mjs")), "the launcher is in .claude/hooks/");
    } else {
      // The portable form a team can commit: the package npm installed (node_modules/skillgate), named without
      // an absolute path (the host's project variable, a path relative to the file, or Node's module resolution).
      assert.ok(/node_modules\/skillgate\/dist\/|require\('skillgate\/dist\//.test(text), `${file} does not run the installed package:\n${text}`);
      assert.ok(!text.includes(project) && !text.includes(ROOT), `${file} names an absolute path of this machine:\n${text}`);
    }
    if (file.endsWith(".json")) JSON.parse(text);
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
    ? spawnSync(
        expand(handler.command, project),
        handler.args.map((a) => expand(a, project)),
        { cwd: project, env, input: JSON.stringify(event), encoding: "utf8" },
      )
    : spawnSync("sh", ["-c", handler.command], { cwd: project, env, input: JSON.stringify(event), encoding: "utf8" });
  assert.equal(r.status, 0, `the hook exited ${r.status}: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
  assert.equal(out.hookSpecificOutput?.permissionDecision, "deny", `not refused: ${r.stdout}`);
  assert.match(out.hookSpecificOutput?.permissionDecisionReason ?? "", /commit-gate/, `the reason does not name the commit gate: ${r.stdout}`);
  assert.match(
    out.hookSpecificOutput?.permissionDecisionReason ?? "",
    /\bcommit\b.*skill|skill.*\bcommit\b/i,
    `the reason does not name the commit skill: ${r.stdout}`,
  );
});

/**
 * The other hosts' configs, each fed its own client's PreToolUse shape (a payload captured
 * from the real client, in test/fixtures/), through the command string the config holds.
 */
const HOST_EVENTS = {
  codex: {
    fixture: "codex/PreToolUse-Bash.json",
    commands: (c: Json) => hookCommands(c["hooks"], "PreToolUse", "Bash", "command"),
    event: (e: Json, project: string) => ({ ...e, session_id: "registry-codex", cwd: project, tool_input: { command: "git commit -m wip" } }),
    verdict: (o: Json) => [obj(o["hookSpecificOutput"])?.["permissionDecision"], obj(o["hookSpecificOutput"])?.["permissionDecisionReason"]],
  },
  gemini: {
    fixture: "gemini/BeforeTool-run_shell_command.json",
    commands: (c: Json) => hookCommands(c["hooks"], "BeforeTool", "run_shell_command", "command"),
    event: (e: Json, project: string) => ({
      ...e,
      session_id: "registry-gemini",
      cwd: project,
      tool_input: { command: "git commit -m wip", description: "c" },
    }),
    verdict: (o: Json) => [o["decision"], o["reason"]],
  },
  copilot: {
    fixture: "copilot/preToolUse-bash.json",
    // Copilot's file lists handlers per event directly, each with the `bash` line it runs.
    commands: (c: Json) => ((obj(c["hooks"])?.["preToolUse"] as Json[] | undefined) ?? []).map((h) => String(h["bash"])),
    event: (e: Json, project: string) => ({ ...e, sessionId: "registry-copilot", cwd: project, toolArgs: { command: "git commit -m wip", description: "c" } }),
    verdict: (o: Json) => [o["permissionDecision"], o["permissionDecisionReason"]],
  },
} as const;

for (const [host, h] of Object.entries(HOST_EVENTS)) {
  test(`${host}: its PreToolUse \`git commit\` sent through the command in ${HOST_FILES[host]} is refused by the commit gate`, () => {
    const commands = h.commands(JSON.parse(fs.readFileSync(path.join(project, HOST_FILES[host]!), "utf8")) as Json);
    assert.equal(commands.length, 1, `one skillgate handler for a shell call in ${HOST_FILES[host]}: ${JSON.stringify(commands)}`);
    const fixture = JSON.parse(fs.readFileSync(path.join(ROOT, "test/fixtures", h.fixture), "utf8")) as Json;
    const r = spawnSync("sh", ["-c", commands[0]!], {
      cwd: project,
      // What each client sets for its hook commands: Gemini GEMINI_PROJECT_DIR, Copilot COPILOT_PROJECT_DIR; Codex runs them in the session's folder.
      env: { PATH: process.env.PATH, HOME: home, GEMINI_PROJECT_DIR: project, COPILOT_PROJECT_DIR: project },
      input: JSON.stringify(h.event(fixture, project)),
      encoding: "utf8",
    });
    assert.equal(r.status, 0, `the hook exited ${r.status}: ${r.stderr}`);
    const [decision, reason] = h.verdict(JSON.parse(r.stdout) as Json);
    assert.equal(decision, "deny", r.stdout);
    assert.match(String(reason), /^skillgate\[commit-gate\]: Load skill "commit" first/, r.stdout);
  });
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined);

/** The `field` of every handler under hooks[event] whose matcher (a regex) takes `tool`. */
function hookCommands(hooks: unknown, event: string, tool: string, field: string): string[] {
  const groups = (obj(hooks)?.[event] as { matcher?: string; hooks?: Json[] }[] | undefined) ?? [];
  return groups.filter((g) => !g.matcher || new RegExp(g.matcher).test(tool)).flatMap((g) => (g.hooks ?? []).map((x) => String(x[field])));
}

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
