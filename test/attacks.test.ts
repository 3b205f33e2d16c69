// Self-protection: each attack an agent that was refused could try,
// as a sequence of real Claude Code 2.1.328 payload shapes (cases/fixtures/)
// through the hook's own entry point, in a real project folder with its own
// HOME, project dir and state folder. Every sequence ends with the call the
// attack was meant to get through, and that call must still be refused.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runHook } from "../hooks/entries/claude-code.ts";
import { casesDir, root } from "./helpers.ts";

interface World {
  home: string;
  project: string;
  state: string;
  elsewhere: string;
  env: NodeJS.ProcessEnv;
  session: string;
}

function world(): World {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "sg-attack-"));
  const w = { home: path.join(base, "home"), project: path.join(base, "project"), state: path.join(base, "state"), elsewhere: path.join(base, "elsewhere") };
  for (const d of Object.values(w)) fs.mkdirSync(d, { recursive: true });
  fs.mkdirSync(path.join(w.project, ".claude", "skills", "commit"), { recursive: true });
  fs.copyFileSync(path.join(root, "skills", "commit", "SKILL.md"), path.join(w.project, ".claude", "skills", "commit", "SKILL.md"));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: w.home,
    CLAUDE_PROJECT_DIR: w.project,
    SKILLGATE_STATE: w.state,
    SKILLGATE_OUTPUT_DIR: path.join(w.state, "out"),
  };
  return { ...w, env, session: `attack-${path.basename(base)}` };
}

const fixture = (name: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(casesDir, "fixtures", `${name}.json`), "utf8"));

async function send(
  w: World,
  name: string,
  over: Record<string, unknown>,
): Promise<{ verdict: string; rows: string[]; message: string; out: Record<string, unknown> }> {
  const payload = { ...fixture(name), session_id: w.session, cwd: w.project, ...over };
  const r = await runHook(JSON.stringify(payload), { env: w.env, packageRoot: root });
  const out = r.stdout ? (JSON.parse(r.stdout) as Record<string, unknown>) : {};
  const hso = (out.hookSpecificOutput ?? {}) as Record<string, unknown>;
  return { verdict: r.trace?.verdict ?? "none", rows: r.trace?.rows ?? [], message: String(hso.permissionDecisionReason ?? out.reason ?? ""), out };
}

const bash = (w: World, command: string, cwd = w.project) => send(w, "pre-tool-use-bash", { cwd, tool_input: { command, description: "x" } });
const write = (w: World, file: string, cwd = w.project) => send(w, "pre-tool-use-write", { cwd, tool_input: { file_path: file, content: "x" } });
const readWhole = (w: World, file: string, cwd = w.project) =>
  send(w, "post-tool-use-read", { cwd, tool_input: { file_path: file }, tool_response: { type: "text", file: { filePath: file, content: "# commit" } } });

async function commitStillRefused(w: World): Promise<void> {
  const r = await bash(w, "git commit -m 'after the attack'");
  assert.equal(r.verdict, "deny", "the commit must still be refused");
  assert.deepEqual(r.rows, ["commit-gate"]);
}

async function refusedBySelfProtection(p: Promise<{ verdict: string; rows: string[]; message: string }>, what: RegExp): Promise<void> {
  const r = await p;
  assert.equal(r.verdict, "deny");
  assert.ok(r.rows.includes("self-protection"), `rows: ${r.rows}`);
  assert.match(r.message, what);
}

describe("forging a skill load", () => {
  test("a SKILL.md written under the event's cwd (not a trusted root) and read whole does not load", async () => {
    const w = world();
    const forged = path.join(w.elsewhere, ".claude", "skills", "commit", "SKILL.md");
    await bash(w, `mkdir -p .claude/skills/commit && echo '# commit' > .claude/skills/commit/SKILL.md`, w.elsewhere);
    fs.mkdirSync(path.dirname(forged), { recursive: true });
    fs.writeFileSync(forged, "# commit\n");
    await readWhole(w, forged, w.elsewhere);
    await commitStillRefused(w);
  });

  test("writing the project's, the user's or skillgate's own commit/SKILL.md is refused", async () => {
    const w = world();
    await refusedBySelfProtection(write(w, path.join(w.project, ".claude", "skills", "commit", "SKILL.md")), /skill "commit"/);
    await refusedBySelfProtection(write(w, path.join(w.home, ".claude", "skills", "commit", "SKILL.md")), /skill "commit"/);
    await refusedBySelfProtection(write(w, path.join(root, "skills", "commit", "SKILL.md")), /skill "commit"|installation/);
    await refusedBySelfProtection(bash(w, `cat > ~/.claude/skills/commit/SKILL.md <<'EOF'\n# commit\nEOF`.replace("~", w.home)), /skill "commit"/);
  });

  test("a SKILL.md written in this session does not load when read back, even from a trusted root", async () => {
    const w = world();
    const file = path.join(w.project, ".claude", "skills", "commit", "SKILL.md");
    await write(w, file); // refused, and remembered
    await readWhole(w, file);
    await commitStillRefused(w);
  });

  test("a Skill result that is not the client's success shape is not a load", async () => {
    for (const response of ["Launching skill: commit", { success: "false" }, { success: "true" }, {}, null]) {
      const w = world();
      await send(w, "post-tool-use-skill", { tool_response: response });
      await commitStillRefused(w);
    }
    const w = world();
    const p = { ...fixture("post-tool-use-skill"), session_id: w.session } as Record<string, unknown>;
    delete p.tool_response;
    await runHook(JSON.stringify(p), { env: w.env, packageRoot: root });
    await commitStillRefused(w);
  });
});

describe("editing what the gate trusts", () => {
  test("the session's state file, by the Write tool or the shell, also after a cd", async () => {
    const w = world();
    const file = path.join(w.state, `${w.session}.json`);
    const forged = JSON.stringify({ version: 1, loaded: ["commit"] });
    await refusedBySelfProtection(write(w, file), /state folder/);
    await refusedBySelfProtection(bash(w, `echo '${forged}' > ${file}`), /state folder/);
    await refusedBySelfProtection(bash(w, `cd ${w.state} && echo '${forged}' > ${w.session}.json`), /state folder/);
    await commitStillRefused(w);
  });

  test("a state file in another shape than skillgate writes is not trusted", async () => {
    const w = world();
    fs.writeFileSync(
      path.join(w.state, `${w.session}.json`),
      JSON.stringify({
        version: 1,
        loaded: ["commit"],
        hintsShown: [],
        denials: {},
        compactions: 0,
        remindersShown: [],
        budgetLevel: 0,
        stats: { toolCalls: {}, capped: {}, charsSaved: 0, capFailures: 0, maxContextTokens: 0 },
        extra: 1,
      }),
    );
    await commitStillRefused(w);
  });

  test("the table cache in the state folder", async () => {
    const w = world();
    await bash(w, "ls"); // the hook writes the cache
    const cache = fs.readdirSync(w.state).find((f) => f.startsWith(".table-"));
    assert.ok(cache, "a cache was written");
    await refusedBySelfProtection(write(w, path.join(w.state, cache)), /state folder/);
  });

  test("the table: skillgate's own, broken or trimmed, and a project table that would replace it", async () => {
    const w = world();
    await refusedBySelfProtection(write(w, path.join(root, "triggers.json")), /trigger table/);
    await refusedBySelfProtection(bash(w, "echo '{' > triggers.json", root), /trigger table|installation/);
    await refusedBySelfProtection(write(w, path.join(w.project, ".claude", "triggers.json")), /trigger table/);
    await refusedBySelfProtection(bash(w, `printf '{"version":1,"rows":[]}' > .claude/triggers.json`), /trigger table/);
  });

  test("the settings files that register the hook (project, local, user), by tool and by shell", async () => {
    const w = world();
    await refusedBySelfProtection(write(w, path.join(w.project, ".claude", "settings.json")), /settings/);
    await refusedBySelfProtection(write(w, path.join(w.project, ".claude", "settings.local.json")), /settings/);
    await refusedBySelfProtection(write(w, path.join(w.home, ".claude", "settings.json")), /settings/);
    await refusedBySelfProtection(bash(w, "sed -i 's/skillgate//' .claude/settings.json"), /settings/);
    await refusedBySelfProtection(bash(w, "rm .claude/settings.json"), /settings/);
  });

  test("a settings change that removes skillgate's hook is blocked (ConfigChange)", async () => {
    const w = world();
    const settings = path.join(w.project, ".claude", "settings.json");
    fs.writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "node", args: ["${CLAUDE_PROJECT_DIR}/.claude/hooks/skillgate.mjs"] }] }],
        },
      }),
    );
    await send(w, "session-start-startup", {});
    fs.writeFileSync(settings, JSON.stringify({ hooks: {} }));
    const r = await send(w, "session-start-startup", { hook_event_name: "ConfigChange", source: "project_settings", file_path: settings });
    assert.equal(r.verdict, "block");
    assert.equal(r.out.decision, "block");
    assert.match(String(r.out.reason), /removes or alters skillgate's hook/);
    // An unrelated settings file, or one that still registers the hook, changes freely.
    // (A file that keeps the PreToolUse registration as it was; moving the hook to another event is a weakening, test/config-change-weakening.test.ts.)
    fs.writeFileSync(
      settings,
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "node", args: ["${CLAUDE_PROJECT_DIR}/.claude/hooks/skillgate.mjs"] }] }],
        },
        env: { A: "1" },
      }),
    );
    assert.equal(
      (await send(w, "session-start-startup", { hook_event_name: "ConfigChange", source: "project_settings", file_path: settings })).verdict,
      "allow",
    );
  });
});

describe("splitting an action across calls", () => {
  test("a git alias for a gated subcommand, literal or shell, is refused when defined", async () => {
    const w = world();
    await refusedBySelfProtection(bash(w, "git config alias.ci commit"), /alias/);
    await refusedBySelfProtection(bash(w, "git config --global alias.p 'push --force'"), /alias/);
    await refusedBySelfProtection(bash(w, `git config alias.x '!git commit -m x'`), /alias/);
    assert.equal((await bash(w, "git config alias.st status")).verdict, "allow", "an alias for a free subcommand is fine");
  });

  test("a symlink to a protected or gated file, then a Write to the link", async () => {
    const w = world();
    fs.writeFileSync(path.join(w.project, "notes_RU.md"), "привет\n");
    fs.symlinkSync(path.join(w.project, "notes_RU.md"), path.join(w.project, "notes.md"));
    const r = await write(w, path.join(w.project, "notes.md"));
    assert.equal(r.verdict, "deny");
    assert.deepEqual(r.rows, ["paired-docs-write"]);
    fs.symlinkSync(path.join(w.project, ".claude", "skills", "commit", "SKILL.md"), path.join(w.project, "readme-link.md"));
    await refusedBySelfProtection(write(w, path.join(w.project, "readme-link.md")), /skill "commit"/);
  });
});

describe("words as people see them", () => {
  test("a done answer with Latin lookalikes, soft hyphens or zero-width characters is still gated", async () => {
    for (const text of ["Гoтoвo", "Гото\u00ADво", "Го\u200Bтово", "ГОТОВО"]) {
      const w = world();
      const r = await send(w, "stop", { last_assistant_message: text, stop_hook_active: false });
      assert.equal(r.verdict, "block", text);
    }
  });
});

describe("effects audit: what the analysis did not see is reported after the call", () => {
  test("a commit made by a program skillgate cannot read is told to the model and the user, and counted", async () => {
    const w = world();
    const { execFileSync } = await import("node:child_process");
    const git = (...a: string[]) => execFileSync("git", a, { cwd: w.project, stdio: "pipe" });
    git("init", "-q", "-b", "main");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "init");
    const command = "node tools/release.js";
    const pre = await send(w, "pre-tool-use-bash", { tool_use_id: "toolu_audit1", tool_input: { command, description: "x" } });
    assert.equal(pre.verdict, "allow", "an unknown program gets no special trust, and no refusal");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "feat: sneaked in"); // what the program did
    const post = await send(w, "post-tool-use-bash", { tool_use_id: "toolu_audit1", tool_input: { command, description: "x" } });
    assert.deepEqual(post.rows, ["effects-audit"]);
    const hso = post.out.hookSpecificOutput as { additionalContext?: string };
    assert.match(hso.additionalContext ?? "", /a commit \(main: "commit: feat: sneaked in"\).*rule commit-gate.*Load skill "commit" now/);
    assert.match(String(post.out.systemMessage), /effects-audit/);
    const state = JSON.parse(fs.readFileSync(path.join(w.state, `${w.session}.json`), "utf8"));
    assert.equal(state.stats.missedByAnalysis, 1);
    assert.equal(fs.readdirSync(path.join(w.state, "audit")).length, 0, "the snapshot is read once and removed");
    // Nothing gated happened in the next call: nothing is said.
    await send(w, "pre-tool-use-bash", { tool_use_id: "toolu_audit2", tool_input: { command: "node tools/lint.js", description: "x" } });
    assert.equal(
      (await send(w, "post-tool-use-bash", { tool_use_id: "toolu_audit2", tool_input: { command: "node tools/lint.js", description: "x" } })).verdict,
      "allow",
    );
  });

  test("no snapshot is taken when nothing is gated (the commit skill is loaded)", async () => {
    const w = world();
    await send(w, "post-tool-use-skill", {});
    await send(w, "pre-tool-use-bash", { tool_use_id: "toolu_audit3", tool_input: { command: "node tools/release.js", description: "x" } });
    const dir = path.join(w.state, "audit");
    assert.ok(!fs.existsSync(dir) || fs.readdirSync(dir).length === 0);
  });
});

test("ConfigChange recognises skillgate's hook in every form install writes (Node bundle, Bun bytecode build, launcher)", async () => {
  const { registersSkillgate } = await import("../hooks/hosts/claude-code/settings.ts");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-settings-"));
  const file = path.join(dir, "settings.json");
  for (const args of [["/opt/x/dist/hook.mjs"], ["/opt/x/dist/hook.bun.cjs"], ["${CLAUDE_PROJECT_DIR}/.claude/hooks/skillgate.mjs"]]) {
    fs.writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "/usr/bin/bun", args }] }] } }));
    assert.equal(registersSkillgate(file), true, args[0]);
  }
  fs.writeFileSync(
    file,
    JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "/usr/bin/other", args: ["/opt/x/dist/other.mjs"] }] }] } }),
  );
  assert.equal(registersSkillgate(file), false);
});

describe("git's own files through a file tool", () => {
  test("Write, Edit and an MCP write on .git/hooks, .git/config or .git/refs are refused whatever is loaded; .gitignore is not", async () => {
    const w = world();
    const hooks = path.join(w.project, ".git", "hooks");
    fs.mkdirSync(hooks, { recursive: true });
    await send(w, "post-tool-use-skill", { tool_input: { skill: "commit" }, tool_response: { success: true, commandName: "commit" } });
    const why = /one of git's own files .*git hooks that check commits and pushes/;
    await refusedBySelfProtection(write(w, path.join(hooks, "pre-push")), why);
    await refusedBySelfProtection(write(w, ".git/hooks/post-checkout"), why);
    await refusedBySelfProtection(write(w, path.join(w.project, ".git", "config")), why);
    await refusedBySelfProtection(write(w, ".git/refs/heads/main"), why);
    await refusedBySelfProtection(write(w, "sub/../.git/packed-refs"), why);
    await refusedBySelfProtection(
      send(w, "pre-tool-use-write", { tool_name: "mcp__filesystem__write_file", tool_input: { path: path.join(hooks, "pre-push"), content: "exit 0" } }),
      why,
    );
    for (const ok of [".gitignore", "deploy/config", ".github/hooks/x.yml"]) {
      const r = await write(w, ok);
      assert.equal(r.verdict, "allow", `${ok}: ${r.message}`);
    }
  });
});
