// Guarded files put back (runner/restore.ts), with Claude Code 2.1.328 payload
// shapes (cases/fixtures/) and real programs that change files behind the
// analysis's back: a node or python program the analysis cannot read. After
// the call (or at the next event, for work left running) the file is as it
// was, and the model (additionalContext) and the user (systemMessage) are told.
// Each event runs in an engine of its own, loaded anew as a hook process loads
// it (scripts/fuzz.ts freshEngine: the bundle runHook is, without the process
// start); what one event leaves the next is on disk, as between processes. Two
// tests go through the built hook as `install` writes it (node dist/hook.cjs):
// a call put back, and work that outlives the call caught at the next event.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freshEngine } from "../scripts/fuzz.ts";
import { casesDir, hookBundle, root } from "./helpers.ts";

const engine = await freshEngine();
process.on("exit", engine.cleanup);

interface World {
  base: string;
  project: string;
  state: string;
  table: string;
  env: NodeJS.ProcessEnv;
  session: string;
  /** Each event through `node dist/hook.cjs` (else through a fresh engine in this process). */
  viaProcess: boolean;
}

let n = 0;
function world(o: { viaProcess?: boolean } = {}): World {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sg-restore-")));
  const project = path.join(base, "project");
  const home = path.join(base, "home");
  const claude = path.join(project, ".claude");
  fs.mkdirSync(path.join(project, "docs"), { recursive: true });
  fs.mkdirSync(home);
  fs.mkdirSync(path.join(project, ".git")); // the repository's top: what the restore lists
  // The project's own table (the active one) and its skills, where Claude Code finds them.
  fs.mkdirSync(claude);
  fs.copyFileSync(path.join(root, "triggers.json"), path.join(claude, "triggers.json"));
  fs.cpSync(path.join(root, "skills"), path.join(claude, "skills"), { recursive: true });
  fs.writeFileSync(path.join(project, "docs", "a_RU.md"), "привет\n", { mode: 0o640 });
  fs.chmodSync(path.join(project, "docs", "a_RU.md"), 0o640);
  fs.writeFileSync(path.join(project, "docs", "notes.md"), "free to edit\n");
  const state = path.join(base, "state");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_PROJECT_DIR: project,
    SKILLGATE_STATE: state,
    SKILLGATE_OUTPUT_DIR: path.join(base, "out"),
    SKILLGATE_TRACE: "1",
  };
  return { base, project, state, table: path.join(claude, "triggers.json"), env, session: `restore-${process.pid}-${n++}`, viaProcess: o.viaProcess ?? false };
}

const fixture = (name: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(casesDir, "fixtures", `${name}.json`), "utf8"));

interface Answer {
  verdict: string;
  rows: string[];
  context: string;
  notice: string;
  state: Record<string, unknown>;
}

async function hook(w: World, name: string, over: Record<string, unknown>): Promise<Answer> {
  const input = JSON.stringify({ ...fixture(name), session_id: w.session, cwd: w.project, ...over });
  let r: { stdout: string; stderr: string };
  if (w.viaProcess) {
    const p = spawnSync(process.execPath, [hookBundle], { input, env: w.env, encoding: "utf8" });
    assert.equal(p.status, 0, p.stderr);
    r = p;
  } else r = await engine.runHook(input, { env: w.env, packageRoot: root });
  const out = r.stdout ? (JSON.parse(r.stdout) as Record<string, unknown>) : {};
  const hso = (out.hookSpecificOutput ?? {}) as Record<string, unknown>;
  const trace = /skillgate-trace (.*)/.exec(r.stderr)?.[1];
  const t = trace ? (JSON.parse(trace) as { verdict: string; rows: string[]; state: Record<string, unknown> }) : { verdict: "none", rows: [], state: {} };
  return {
    verdict: t.verdict,
    rows: t.rows,
    context: String(hso.additionalContext ?? hso.permissionDecisionReason ?? ""),
    notice: String(out.systemMessage ?? ""),
    state: t.state,
  };
}

let calls = 0;
/** One Bash call, run for real between its PreToolUse and its PostToolUse, as Claude Code does. */
async function bash(w: World, command: string): Promise<{ pre: Answer; post: Answer }> {
  const id = `toolu_restore${calls++}`;
  const input = { command, description: "x" };
  const pre = await hook(w, "pre-tool-use-bash", { tool_use_id: id, tool_input: input });
  assert.equal(pre.verdict, "allow", `${command}: ${pre.context}`);
  const ran = spawnSync("/bin/sh", ["-c", command], { cwd: w.project, encoding: "utf8" });
  assert.equal(ran.status, 0, ran.stderr);
  const post = await hook(w, "post-tool-use-bash", {
    tool_use_id: id,
    tool_input: input,
    tool_response: { stdout: ran.stdout, stderr: ran.stderr, interrupted: false, isImage: false, noOutputExpected: false },
  });
  return { pre, post };
}

/**
 * A program the analysis cannot read: every path it touches is decoded at run
 * time (`T[i]`, hex), so no path-like word of it names a guarded file.
 */
function program(w: World, name: string, targets: string[], js: string): string {
  fs.mkdirSync(path.join(w.project, "tools"), { recursive: true });
  const hex = targets.map((t) => Buffer.from(t).toString("hex"));
  fs.writeFileSync(path.join(w.project, "tools", name), `const T = ${JSON.stringify(hex)}.map((h) => Buffer.from(h, 'hex').toString());\n${js}\n`);
  return `node tools/${name}`;
}

describe("a guarded file changed by a program the analysis cannot read is put back", () => {
  test("a new docs/x_RU.md is removed, and the model and the user are told which file and which skill", async () => {
    const w = world({ viaProcess: true });
    const cmd = program(w, "gen.js", ["docs/x_RU.md"], "require('fs').writeFileSync(T[0], 'written unseen\\n');");
    const { post } = await bash(w, cmd);
    assert.equal(fs.existsSync(path.join(w.project, "docs", "x_RU.md")), false, "the new file is gone");
    assert.ok(post.rows.includes("effects-restore"), `rows: ${post.rows}`);
    assert.match(
      post.context,
      /skillgate\[effects-restore\]: that shell command created .*docs\/x_RU\.md, which rule paired-docs-write keeps for skill "paired-docs" \(not loaded\); skillgate removed it/,
    );
    assert.match(post.context, /kept at .*x_RU\.md/);
    assert.match(post.notice, /effects-restore.*x_RU\.md/);
    const kept = /kept at (\S+?)\)/.exec(post.context)?.[1] ?? "";
    assert.equal(fs.readFileSync(kept, "utf8"), "written unseen\n", "what the command left is kept for the user");
    assert.equal(fs.readFileSync(path.join(w.project, "docs", "notes.md"), "utf8"), "free to edit\n");
  });

  test("a deleted guarded file is recreated byte for byte with its mode; an unguarded edit stays", async () => {
    const w = world();
    const file = path.join(w.project, "docs", "a_RU.md");
    const before = fs.statSync(file);
    const cmd = program(
      w,
      "clean.js",
      ["docs/a_RU.md", "docs/notes.md"],
      "const fs = require('fs'); fs.unlinkSync(T[0]); fs.writeFileSync(T[1], 'edited\\n');",
    );
    const { post } = await bash(w, cmd);
    assert.equal(fs.readFileSync(file, "utf8"), "привет\n");
    assert.equal(fs.statSync(file).mode & 0o7777, 0o640);
    assert.ok(Math.abs(fs.statSync(file).mtimeMs - before.mtimeMs) < 1, "its modification time too");
    assert.match(post.context, /deleted .*a_RU\.md.*skillgate recreated it as it was/);
    assert.equal(fs.readFileSync(path.join(w.project, "docs", "notes.md"), "utf8"), "edited\n", "a file no row guards is the agent's to change");
  });

  test("python: an edited guarded file is rewritten as it was", {
    skip: spawnSync("python3", ["-c", "0"]).status !== 0 ? "python3 is not installed" : false,
  }, async () => {
    const w = world();
    const { post } = await bash(w, `python3 -c "import os; open(bytes.fromhex('${Buffer.from("docs/a_RU.md").toString("hex")}').decode(), 'a').write('more')"`);
    assert.equal(fs.readFileSync(path.join(w.project, "docs", "a_RU.md"), "utf8"), "привет\n");
    assert.match(post.context, /changed .*a_RU\.md.*skill "paired-docs".*put it back as it was/);
  });

  test("with the skill loaded, the same write stays and nothing is said", async () => {
    const w = world();
    await hook(w, "post-tool-use-skill", { tool_input: { skill: "paired-docs" }, tool_response: { success: true, commandName: "paired-docs" } });
    const cmd = program(w, "gen.js", ["docs/x_RU.md"], "require('fs').writeFileSync(T[0], 'with the skill\\n');");
    const { post } = await bash(w, cmd);
    assert.equal(fs.readFileSync(path.join(w.project, "docs", "x_RU.md"), "utf8"), "with the skill\n");
    assert.ok(!post.rows.includes("effects-restore"), `rows: ${post.rows}`);
  });
});

describe("what the gate trusts is put back whatever is loaded", () => {
  test("an edited trigger table is put back before the next decision uses it", async () => {
    const w = world();
    const original = fs.readFileSync(w.table, "utf8");
    const cmd = program(
      w,
      "table.js",
      [w.table],
      "const fs = require('fs'); const t = JSON.parse(fs.readFileSync(T[0], 'utf8')); t.rows = t.rows.filter((r) => r.id !== 'commit-gate'); fs.writeFileSync(T[0], JSON.stringify(t));",
    );
    const { post } = await bash(w, cmd);
    assert.equal(fs.readFileSync(w.table, "utf8"), original);
    assert.match(post.context, /changed .*triggers\.json, a trigger table skillgate loads; skillgate put it back/);
    const commit = await hook(w, "pre-tool-use-bash", { tool_use_id: "toolu_after", tool_input: { command: "git commit -m x", description: "x" } });
    assert.equal(commit.verdict, "deny", "the commit gate is still there");
  });

  test("a load written into the session's state file is undone; the hook's own state writes are not", async () => {
    const w = world();
    await hook(w, "user-prompt-submit", { prompt: "please check the логи" }); // the hook writes the state (a hint shown)
    const stateFile = path.join(w.state, `${w.session}.json`);
    assert.ok(fs.existsSync(stateFile));
    const cmd = program(
      w,
      "forge.js",
      [stateFile],
      "const fs = require('fs'); const s = JSON.parse(fs.readFileSync(T[0], 'utf8')); s.loaded.push('com' + 'mit'); fs.writeFileSync(T[0], JSON.stringify(s));",
    );
    const { post } = await bash(w, cmd);
    assert.match(post.context, /changed .*\.json, skillgate's state of this session \(the skills it counts as loaded\); skillgate put it back/);
    assert.deepEqual((JSON.parse(fs.readFileSync(stateFile, "utf8")) as { loaded: string[] }).loaded, []);
    assert.equal(
      (await hook(w, "pre-tool-use-bash", { tool_use_id: "toolu_c", tool_input: { command: "git commit -m x", description: "x" } })).verdict,
      "deny",
    );
    // The hook's own writes during a pending restore (a real load) stand.
    const id = "toolu_long";
    program(w, "noop.js", [], "");
    await hook(w, "pre-tool-use-bash", { tool_use_id: id, tool_input: { command: "node tools/noop.js", description: "x" } });
    await hook(w, "post-tool-use-skill", {});
    const post2 = await hook(w, "post-tool-use-bash", {
      tool_use_id: id,
      tool_input: { command: "node tools/noop.js", description: "x" },
      tool_response: { stdout: "", stderr: "", interrupted: false, isImage: false, noOutputExpected: false },
    });
    assert.ok(!post2.rows.includes("effects-restore"), `rows: ${post2.rows} ${post2.context}`);
    assert.deepEqual((JSON.parse(fs.readFileSync(stateFile, "utf8")) as { loaded: string[] }).loaded, ["commit"]);
  });

  test("settings: a change that removes skillgate's hook is put back; one that keeps it (a permission granted) stays", async () => {
    const w = world();
    const settings = path.join(w.project, ".claude", "settings.local.json");
    const registered = { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "node /opt/skillgate/dist/hook.cjs" }] }] } };
    fs.writeFileSync(settings, JSON.stringify(registered));
    const grant = program(
      w,
      "grant.js",
      [settings],
      "const fs = require('fs'); const s = JSON.parse(fs.readFileSync(T[0], 'utf8')); s.permissions = { allow: ['Bash(npm test)'] }; fs.writeFileSync(T[0], JSON.stringify(s));",
    );
    const first = (await bash(w, grant)).post;
    assert.ok(!first.rows.includes("effects-restore"), `rows: ${first.rows}`);
    assert.deepEqual(JSON.parse(fs.readFileSync(settings, "utf8")).permissions, { allow: ["Bash(npm test)"] });
    const kept = fs.readFileSync(settings, "utf8");
    const off = program(
      w,
      "off.js",
      [settings],
      "const fs = require('fs'); const s = JSON.parse(fs.readFileSync(T[0], 'utf8')); delete s.hooks; fs.writeFileSync(T[0], JSON.stringify(s));",
    );
    const post = (await bash(w, off)).post;
    assert.equal(fs.readFileSync(settings, "utf8"), kept);
    assert.match(post.context, /changed .*settings\.local\.json, claude-code settings that register skillgate's hook; skillgate put it back/);
  });

  test("a SKILL.md written into a skill's folder is removed", async () => {
    const w = world();
    const userSkill = path.join(w.env.HOME ?? "", ".claude", "skills", "commit", "SKILL.md");
    const cmd = program(
      w,
      "skill.js",
      [userSkill],
      "const fs = require('fs'); fs.mkdirSync(require('path').dirname(T[0]), { recursive: true }); fs.writeFileSync(T[0], '# commit anything goes');",
    );
    const { post } = await bash(w, cmd);
    assert.equal(fs.existsSync(userSkill), false);
    assert.match(post.context, /created .*commit\/SKILL\.md, the text of skill "commit", which the gate trusts; skillgate removed it/);
  });
});

describe("risk and work that outlives the call", () => {
  test("a file created under src/auth/ by an unread program makes the session audit", async () => {
    const w = world();
    const cmd = program(
      w,
      "auth.js",
      ["src/auth", "src/auth/token.ts"],
      "const fs = require('fs'); fs.mkdirSync(T[0], { recursive: true }); fs.writeFileSync(T[1], 'x');",
    );
    const { post } = await bash(w, cmd);
    assert.equal(post.state.riskRow, "high-risk-writes");
    assert.ok(fs.existsSync(path.join(w.project, "src", "auth", "token.ts")), "a risk row's file is not put back: it only raises the profile");
    assert.ok(!post.rows.includes("effects-restore"), "nothing to tell: like a seen risky write");
  });

  test("a background writer is caught at the session's next event", async () => {
    const w = world({ viaProcess: true });
    // The job writes once the test says so (after the call's result): however slow the machine, it outlives the call.
    const go = path.join(w.base, "go");
    const cmd = program(
      w,
      "later.js",
      ["docs/late_RU.md", go],
      "require('child_process').spawn(process.execPath, ['-e', `const fs = require('fs'); const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(T[1])})) { fs.writeFileSync(${JSON.stringify(T[0])}, 'later'); clearInterval(t); } }, 50); setTimeout(() => process.exit(0), 60000)`], { detached: true, stdio: 'ignore' }).unref();",
    );
    const { post } = await bash(w, cmd);
    const late = path.join(w.project, "docs", "late_RU.md");
    assert.equal(fs.existsSync(late), false, "nothing written yet when the call ends");
    assert.ok(!post.rows.includes("effects-restore"), `rows: ${post.rows}`);
    fs.writeFileSync(go, "");
    for (let i = 0; i < 300 && !fs.existsSync(late); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(fs.existsSync(late), "the background job wrote");
    const next = await hook(w, "user-prompt-submit", { prompt: "next" });
    assert.equal(fs.existsSync(late), false);
    assert.match(next.context, /work an earlier shell command left running created .*late_RU\.md.*skillgate removed it/);
    assert.equal(fs.existsSync(path.join(w.state, "restore", w.session)), false, "nothing pending after the next event");
  });

  test("a command the pre-filter vouches for as read-only takes no snapshot", async () => {
    const w = world();
    await bash(w, "ls -la docs");
    assert.equal(fs.existsSync(path.join(w.state, "restore")), false);
  });
});

describe("the listing cache", () => {
  test("a warm listing reads no folder, still sees a file added later, and a tampered cache is not believed", async () => {
    const { listMatching } = await import("../hooks/io/guarded-files.ts");
    const { ListingCache } = await import("../hooks/io/stat-cache.ts");
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), "sg-listing-"));
    const state = fs.mkdtempSync(path.join(os.tmpdir(), "sg-listing-state-"));
    for (const d of ["a", "a/b", "c", "node_modules/x", ".git"]) fs.mkdirSync(path.join(repo, d), { recursive: true });
    for (const f of ["a/one_RU.md", "a/b/two_RU.md", "c/other.ts", "node_modules/x/three_RU.md"]) fs.writeFileSync(path.join(repo, f), "x");
    const match = (rel: string) => rel.endsWith("_RU.md");
    // Past the racy window: folders changed within 2 s are never cached.
    const old = (Date.now() - 10_000) / 1000;
    for (const d of ["", "a", "a/b", "c"]) fs.utimesSync(path.join(repo, d), old, old);
    await new Promise((r) => setTimeout(r, 2_100));
    const c1 = ListingCache.load(state, repo, "k");
    assert.deepEqual(listMatching(repo, match, { cache: c1 }).files.sort(), ["a/b/two_RU.md", "a/one_RU.md"]);
    c1.save();
    const warm = listMatching(repo, match, { cache: ListingCache.load(state, repo, "k") });
    assert.equal(warm.read, 0, "every folder answered by the cache");
    fs.writeFileSync(path.join(repo, "c", "new_RU.md"), "x");
    const after = listMatching(repo, match, { cache: ListingCache.load(state, repo, "k") });
    assert.deepEqual(after.files.sort(), ["a/b/two_RU.md", "a/one_RU.md", "c/new_RU.md"]);
    assert.equal(after.read, 1, "only the changed folder is read");
    const file = ListingCache.load(state, repo, "k").file;
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("one_RU.md", "won_RU.md"));
    const forged = ListingCache.load(state, repo, "k");
    assert.match(forged.warning ?? "", /failed its check/);
    assert.ok(listMatching(repo, match, { cache: forged }).files.includes("a/one_RU.md"));
  });
});

describe("git's own work-tree commands", () => {
  /** A repository whose branch `other` has another docs/a_RU.md; on main, with a guarded file's baseline. */
  function branches(): World {
    const w = world();
    const git = (...a: string[]) =>
      assert.equal(spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...a], { cwd: w.project }).status, 0, a.join(" "));
    fs.rmSync(path.join(w.project, ".git"), { recursive: true });
    git("init", "-q", "-b", "main");
    git("add", "docs");
    git("commit", "-qm", "one");
    git("checkout", "-qb", "other");
    fs.writeFileSync(path.join(w.project, "docs", "a_RU.md"), "другая ветка\n");
    git("commit", "-qam", "two");
    git("checkout", "-q", "main");
    return w;
  }
  const doc = (w: World) => fs.readFileSync(path.join(w.project, "docs", "a_RU.md"), "utf8");

  test("a branch switch that changes a guarded file is put back like any write, and the model is told", async () => {
    const w = branches();
    const before = doc(w);
    const { post } = await bash(w, "git checkout -q other");
    assert.equal(doc(w), before, "the guarded file is as it was before the call");
    assert.ok(post.rows.includes("effects-restore"), `rows: ${post.rows}`);
    assert.match(post.context, /skillgate\[effects-restore\]: .*a_RU\.md.*"paired-docs"/);
  });

  test("a read-only git command next to a write does not shield it (stash list, worktree list)", async () => {
    for (const tail of ["git stash list", "git worktree list", "git log -1"]) {
      const w = branches();
      const before = doc(w);
      const cmd = program(w, "gen.js", ["docs/a_RU.md"], "require('fs').writeFileSync(T[0], 'unseen');");
      await bash(w, `${cmd}; ${tail}`);
      assert.equal(doc(w), before, `${tail}: the file written by the program is put back`);
    }
  });

  test("git apply and a cherry-pick without a commit are writes too", async () => {
    for (const cmd of ["git diff main other | git apply", "git diff main other > p.patch && git apply p.patch", "git cherry-pick -n other"]) {
      const w = branches();
      const before = doc(w);
      await bash(w, cmd);
      assert.equal(doc(w), before, `${cmd}: put back`);
    }
  });

  test("with the skill loaded, the branch's version stays", async () => {
    const w = branches();
    await hook(w, "post-tool-use-skill", { tool_input: { skill: "paired-docs" }, tool_response: { success: true, commandName: "paired-docs" } });
    await bash(w, "git checkout -q other");
    assert.equal(doc(w), "другая ветка\n");
  });
});

describe("git's hooks and config", () => {
  test("a program that writes a git hook or moves core.hooksPath is undone; git's own config writes stay", async () => {
    const w = world();
    const git = (...a: string[]) => assert.equal(spawnSync("git", a, { cwd: w.project }).status, 0, a.join(" "));
    fs.rmSync(path.join(w.project, ".git"), { recursive: true });
    git("init", "-q", "-b", "main");
    const hook = path.join(w.project, ".git", "hooks", "pre-push");
    const config = path.join(w.project, ".git", "config");
    fs.writeFileSync(hook, '#!/bin/sh\nexec check-push "$@"\n', { mode: 0o755 });
    const before = { hook: fs.readFileSync(hook, "utf8"), config: fs.readFileSync(config, "utf8") };
    const cmd = program(
      w,
      "doors.js",
      [".git/hooks/pre-push", ".git/config", ".git/hooks/post-checkout"],
      "const fs = require('fs'); fs.writeFileSync(T[0], 'exit 0'); fs.appendFileSync(T[1], '[core]\\n\\thooksPath = /dev/null\\n'); fs.writeFileSync(T[2], 'echo x > docs/h_RU.md', { mode: 0o755 });",
    );
    const { post } = await bash(w, cmd);
    assert.equal(fs.readFileSync(hook, "utf8"), before.hook, "the hook is put back");
    assert.equal(fs.readFileSync(config, "utf8"), before.config, "core.hooksPath is taken out again");
    assert.equal(fs.existsSync(path.join(w.project, ".git", "hooks", "post-checkout")), false, "a new hook is removed");
    assert.match(post.context, /git's hooks folder/);
    assert.match(post.context, /git's config/);
    // git's own writes to its config (an identity, a remote) are not a door: they stay.
    await bash(w, "git config user.email me@example.com && git remote add origin ../elsewhere.git");
    assert.match(fs.readFileSync(config, "utf8"), /me@example\.com[\s\S]*elsewhere\.git/);
  });
});
