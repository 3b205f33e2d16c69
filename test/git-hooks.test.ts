// skillgate's git hooks in real repositories (docs/git-hooks.md): installed
// where git runs hooks (core.hooksPath honoured), chained to the hooks already
// there (which still run and can still fail the commit or the push), taken out
// byte for byte; and the check itself: which ref updates are commit effects,
// which pushes are forced, who the caller is (ticket, ancestry, marker), and the
// refusal text, which is the PreToolUse gate's own (the core's decide()).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runHook } from "../hooks/entries/claude-code.js";
import { installGitHooks, inspectGitHooks, uninstallGitHooks, hookScript, CHAINED_SUFFIX, type GitHookConfig } from "../hooks/io/git-hooks.js";
import { AGENT_MARKERS, callerOf } from "../hooks/effects/caller.js";
import { isHeadRef, parsePushUpdates, parseRefUpdates } from "../hooks/effects/refs.js";
import { procStat, writeTicket, type Ticket } from "../hooks/io/tickets.js";
import { cliRun, gitRepoWithCommit } from "./helpers.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ENTRY = path.join(ROOT, "dist", "git-hook.mjs");
const FIX = path.join(ROOT, "cases", "fixtures");
const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(FIX, name), "utf8")) as Record<string, unknown>;

const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), `skillgate-git-hooks-${p}-`));

/** A person's environment: no agent marker, no global git config, the given state folder. */
function personEnv(state: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SKILLGATE_STATE: state, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", ...extra };
  for (const k of Object.keys(AGENT_MARKERS)) if (!(k in extra)) delete env[k];
  return env;
}
const agentEnv = (state: string) => personEnv(state, { CLAUDECODE: "1" });

function git(repo: string, args: string[], env: NodeJS.ProcessEnv, input?: string): SpawnSyncReturns<string> {
  return spawnSync("git", args, { cwd: repo, env, encoding: "utf8", ...(input !== undefined ? { input } : {}) });
}
function gitOk(repo: string, args: string[], env: NodeJS.ProcessEnv): string {
  const r = git(repo, args, env);
  assert.equal(r.status, 0, `git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

let template: string | undefined;
/**
 * A repository of its own for a test: main with one commit of a.txt, no hook. git makes it once (init, config,
 * add, commit: six runs) and each test gets a copy of that folder, which git reads as the same repository.
 */
function repoWith(state: string): string {
  if (!template) {
    const t = tmp("template");
    gitRepoWithCommit(t, personEnv(state));
    template = t;
  }
  const repo = tmp("repo");
  fs.cpSync(template, repo, { recursive: true });
  return repo;
}

const config = (state: string, o: Partial<GitHookConfig> = {}): GitHookConfig => ({
  node: process.execPath,
  entry: ENTRY,
  stateDir: state,
  markers: Object.keys(AGENT_MARKERS),
  ...o,
});

/** Every file of a folder with its bytes and mode. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(dir)) return out;
  for (const n of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, n);
    const st = fs.lstatSync(p);
    out[n] = st.isSymbolicLink() ? `link:${fs.readlinkSync(p)}` : `${(st.mode & 0o777).toString(8)}:${fs.readFileSync(p, "base64")}`;
  }
  return out;
}

function edit(repo: string, text: string): void {
  fs.appendFileSync(path.join(repo, "a.txt"), `${text}\n`);
}

// ─── install, chain, uninstall ───────────────────────────────────────

test("install puts both hooks where git runs them; a person's commit passes; uninstall leaves the folder as it was", () => {
  const state = tmp("state");
  const repo = repoWith(state);
  const hooks = path.join(repo, ".git", "hooks");
  const before = snapshot(hooks);
  const r = installGitHooks(repo, config(state));
  assert.deepEqual(
    r.changes.map((c) => [c.name, c.action]),
    [
      ["reference-transaction", "installed"],
      ["pre-push", "installed"],
    ],
  );
  for (const n of ["reference-transaction", "pre-push"]) assert.ok((fs.statSync(path.join(hooks, n)).mode & 0o111) !== 0, `${n} is executable`);
  assert.deepEqual(
    inspectGitHooks(repo, config(state)).hooks.map((h) => h.state),
    ["installed", "installed"],
  );
  assert.deepEqual(
    installGitHooks(repo, config(state)).changes.map((c) => c.action),
    ["unchanged", "unchanged"],
    "a second install changes nothing",
  );
  edit(repo, "person");
  gitOk(repo, ["commit", "-qam", "person"], personEnv(state));
  const u = uninstallGitHooks(repo);
  assert.deepEqual(
    u.changes.map((c) => c.action),
    ["removed", "removed"],
  );
  assert.deepEqual(snapshot(hooks), before);
  assert.deepEqual(
    inspectGitHooks(repo, config(state)).hooks.map((h) => h.state),
    ["missing", "missing"],
  );
});

test("a reference-transaction hook already there still runs, can still fail the commit, and comes back byte for byte", () => {
  const state = tmp("state");
  const repo = repoWith(state);
  const hooks = path.join(repo, ".git", "hooks");
  const mine = path.join(hooks, "reference-transaction");
  const seen = path.join(repo, "seen.txt");
  // Fails the transaction when a file says so; records its $0, args and stdin.
  fs.writeFileSync(
    mine,
    `#!/bin/sh\necho "$0 $*" >> ${JSON.stringify(seen)}\ncat >> ${JSON.stringify(seen)}\n[ ! -e ${JSON.stringify(path.join(repo, "fail"))} ]\n`,
    { mode: 0o750 },
  );
  const before = snapshot(hooks);
  const r = installGitHooks(repo, config(state));
  assert.equal(r.changes[0]?.chained, mine + CHAINED_SUFFIX);
  assert.equal(inspectGitHooks(repo, config(state)).hooks[0]?.chained, mine + CHAINED_SUFFIX);
  edit(repo, "one");
  gitOk(repo, ["commit", "-qam", "one"], personEnv(state));
  const text = fs.readFileSync(seen, "utf8");
  assert.match(
    text,
    /^(.*\/)?\.git\/hooks\/reference-transaction prepared$/m,
    "the chained hook saw its own path as $0 (as git spells it) and git's arguments",
  );
  assert.match(text, / refs\/heads\/main$/m, "and git's stdin");
  fs.writeFileSync(path.join(repo, "fail"), "");
  edit(repo, "two");
  const failed = git(repo, ["commit", "-qam", "two"], personEnv(state));
  assert.notEqual(failed.status, 0, "the chained hook still fails the commit");
  // The agent path (stdin read first, then handed on) chains the same way.
  fs.rmSync(path.join(repo, "fail"));
  fs.writeFileSync(seen, "");
  const agent = git(repo, ["update-ref", "refs/heads/side", "HEAD"], agentEnv(state));
  assert.equal(agent.status, 0, agent.stderr);
  assert.match(fs.readFileSync(seen, "utf8"), / refs\/heads\/side$/m, "the chained hook got stdin after skillgate read it");
  uninstallGitHooks(repo);
  assert.deepEqual(snapshot(hooks), before, "byte for byte, mode included");
});

test("husky-style core.hooksPath: installed in .husky/_, the user's .husky/pre-push still runs with its arguments and can fail the push", () => {
  const state = tmp("state");
  const repo = repoWith(state);
  const bare = tmp("remote");
  gitOk(bare, ["init", "-q", "--bare"], personEnv(state));
  const env = personEnv(state);
  gitOk(repo, ["remote", "add", "origin", bare], env);
  // husky v9's layout: .husky/_/<hook> sources .husky/_/h, which runs .husky/<hook> found by $0.
  const husky = path.join(repo, ".husky");
  fs.mkdirSync(path.join(husky, "_"), { recursive: true });
  fs.writeFileSync(
    path.join(husky, "_", "h"),
    `#!/usr/bin/env sh\nn=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\nsh -e "$s" "$@"\nc=$?\n[ $c != 0 ] && echo "husky - $n script failed (code $c)"\nexit $c\n`,
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(husky, "_", "pre-push"), `#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n`, { mode: 0o755 });
  const seen = path.join(repo, "pushed.txt");
  fs.writeFileSync(
    path.join(husky, "pre-push"),
    `echo "args: $*" >> ${JSON.stringify(seen)}\ncat >> ${JSON.stringify(seen)}\n[ ! -e ${JSON.stringify(path.join(repo, "fail"))} ]\n`,
  );
  gitOk(repo, ["config", "core.hooksPath", ".husky/_"], env);
  const before = snapshot(path.join(husky, "_"));
  const r = installGitHooks(repo, config(state));
  assert.equal(r.dir.ok && r.dir.dir, path.join(fs.realpathSync(repo), ".husky", "_"));
  assert.ok(fs.existsSync(path.join(husky, "_", `pre-push${CHAINED_SUFFIX}`)));
  gitOk(repo, ["push", "-q", "origin", "main"], env);
  assert.match(
    fs.readFileSync(seen, "utf8"),
    new RegExp(`^args: origin ${bare.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m"),
    "husky found the user's hook by $0",
  );
  assert.match(fs.readFileSync(seen, "utf8"), /^refs\/heads\/main [0-9a-f]{40} refs\/heads\/main 0{40}$/m);
  fs.writeFileSync(path.join(repo, "fail"), "");
  edit(repo, "x");
  gitOk(repo, ["commit", "-qam", "x"], env);
  assert.notEqual(git(repo, ["push", "-q", "origin", "main"], env).status, 0, "the user's husky hook still fails the push");
  uninstallGitHooks(repo);
  assert.deepEqual(snapshot(path.join(husky, "_")), before);
});

test("a file skillgate did not write is never overwritten when a chained one is in the way", () => {
  const state = tmp("state");
  const repo = repoWith(state);
  const hooks = path.join(repo, ".git", "hooks");
  fs.writeFileSync(path.join(hooks, "pre-push"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  fs.writeFileSync(path.join(hooks, `pre-push${CHAINED_SUFFIX}`), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  const before = snapshot(hooks);
  const r = installGitHooks(repo, config(state));
  assert.equal(r.changes.find((c) => c.name === "pre-push")?.action, "conflict");
  assert.equal(snapshot(hooks)["pre-push"], before["pre-push"]);
});

test("the CLI: install, doctor and uninstall of a Claude Code project carry the git hooks; no repository is a note, not a failure", async () => {
  const state = tmp("state");
  const repo = repoWith(state);
  const home = tmp("home");
  const env = { ...personEnv(state), HOME: home };
  // The verbs in this process (cli(), the code the binary bundles; pack.test.ts runs the installed command's install,
  // doctor and uninstall): what is tested is what they do to the repository's hooks and what they say.
  const cli = async (a: string[], o: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) => {
    const r = await cliRun(a, { env: o.env ?? env, cwd: o.cwd ?? repo });
    return { status: r.code, stdout: r.out, stderr: r.err };
  };
  const i = await cli(["install", "--project", repo, "--with-skills", "--runtime", "node"]);
  assert.equal(i.status, 0, i.stderr);
  assert.match(i.stdout, /git hook reference-transaction: installed/);
  const d = await cli(["doctor", "--project", repo]);
  assert.match(d.stdout, /git hook reference-transaction: installed in /);
  assert.match(d.stdout, /git hook pre-push: installed in /);
  const u = await cli(["uninstall", "--project", repo]);
  assert.equal(u.status, 0, u.stderr);
  assert.match(u.stdout, /git hook pre-push: removed/);
  const d2 = await cli(["doctor", "--project", repo]);
  assert.match(d2.stdout, /git hook reference-transaction: missing/);
  // Another host goes through the same call (cli/install.ts, after the host's own install).
  const codexHome = path.join(home, ".codex");
  const cx = await cli(["install", "--host", "codex", "--project", repo, "--with-skills"], { env: { ...env, CODEX_HOME: codexHome } });
  assert.equal(cx.status, 0, cx.stderr + cx.stdout);
  assert.match(cx.stdout, /git hook reference-transaction: installed/);
  const cxu = await cli(["uninstall", "--host", "codex", "--project", repo], { env: { ...env, CODEX_HOME: codexHome } });
  assert.match(cxu.stdout, /git hook reference-transaction: removed/);
  const plain = tmp("plain");
  const n = await cli(["install", "--project", plain, "--with-skills", "--runtime", "node"], { cwd: plain });
  assert.equal(n.status, 0, n.stderr);
  assert.match(n.stdout, /git hooks: not installed \(.* is not in a git repository\)/);
});

test("a person's commit never starts node: the script decides with builtins (a broken node path does not matter to it)", () => {
  const state = tmp("state");
  const repo = repoWith(state);
  installGitHooks(repo, config(state, { node: "/nonexistent/node" }));
  edit(repo, "p");
  gitOk(repo, ["commit", "-qam", "person"], personEnv(state));
  edit(repo, "a");
  const agent = git(repo, ["commit", "-qam", "agent"], agentEnv(state));
  assert.notEqual(agent.status, 0, "an agent's commit is refused when the check cannot run");
  assert.match(agent.stderr, /cannot run its check \(\/nonexistent\/node/);
});

// ─── what counts ────────────────────────────────────────────────────

/** With the marker and no ticket, every commit effect is refused and everything else passes: the classifier seen from outside. */
test("commit effects: commit, merge, cherry-pick, revert, am, rebase, commit-tree + update-ref, branch -f count; checkout -b, reset, ff, fetch, stash do not", () => {
  const state = tmp("state");
  const repo = repoWith(state);
  const p = personEnv(state);
  const a = agentEnv(state);
  const bare = tmp("remote");
  gitOk(bare, ["init", "-q", "--bare"], p);
  gitOk(repo, ["remote", "add", "origin", bare], p);
  // Material, made by a person: a side branch with two commits, a patch file.
  gitOk(repo, ["checkout", "-qb", "side"], p);
  edit(repo, "s1");
  gitOk(repo, ["commit", "-qam", "s1"], p);
  fs.writeFileSync(path.join(repo, "b.txt"), "b\n");
  gitOk(repo, ["add", "b.txt"], p);
  gitOk(repo, ["commit", "-qm", "s2"], p);
  const patch = gitOk(repo, ["format-patch", "-1", "--stdout"], p);
  gitOk(repo, ["checkout", "-q", "main"], p);
  fs.writeFileSync(path.join(repo, "c.txt"), "c\n");
  gitOk(repo, ["add", "c.txt"], p);
  gitOk(repo, ["commit", "-qm", "m1"], p);
  gitOk(repo, ["push", "-q", "origin", "main", "side"], p);
  installGitHooks(repo, config(state));
  const refused = (args: string[], input?: string) => {
    const head = gitOk(repo, ["rev-parse", "HEAD"], p);
    const r = git(repo, args, a, input);
    assert.notEqual(r.status, 0, `git ${args.join(" ")} should be refused`);
    assert.match(r.stderr, /skillgate: git refused a new commit on /, `git ${args.join(" ")}: ${r.stderr}`);
    assert.equal(gitOk(repo, ["rev-parse", "HEAD"], p), head, "nothing moved");
    // Leave no half-done operation behind.
    for (const abort of [
      ["merge", "--abort"],
      ["cherry-pick", "--abort"],
      ["revert", "--abort"],
      ["am", "--abort"],
      ["rebase", "--abort"],
    ])
      git(repo, abort, p);
    git(repo, ["reset", "-q", "--hard"], p);
  };
  const passes = (args: string[]) => {
    const r = git(repo, args, a);
    assert.equal(r.status, 0, `git ${args.join(" ")} should pass: ${r.stderr}`);
  };
  edit(repo, "agent");
  refused(["commit", "-qam", "agent"]);
  refused(["commit", "--allow-empty", "-qm", "empty"]);
  refused(["commit", "--no-verify", "--allow-empty", "-qm", "no-verify"]);
  refused(["merge", "--no-ff", "-q", "-m", "merge", "side"]);
  refused(["cherry-pick", "side"]);
  refused(["revert", "--no-edit", "HEAD"]);
  refused(["am", "-q"], patch);
  refused(["rebase", "-q", "main", "side"]);
  gitOk(repo, ["checkout", "-q", "main"], p);
  const tree = gitOk(repo, ["rev-parse", "HEAD^{tree}"], p);
  const loose = gitOk(repo, ["commit-tree", tree, "-p", "HEAD", "-m", "plumbing"], a);
  refused(["update-ref", "refs/heads/main", loose]);
  refused(["branch", "-f", "side", loose]);
  refused(["checkout", "-q", "--detach", loose]);
  // Stash: refs/stash is not a branch, so a stash is no commit effect; the stash commit put on a branch is.
  edit(repo, "stashed");
  passes(["stash", "-q"]);
  refused(["branch", "stashed", "stash@{0}"]);
  passes(["stash", "drop", "-q"]);
  passes(["checkout", "-qb", "fresh"]);
  passes(["checkout", "-q", "main"]);
  passes(["reset", "-q", "--hard", "HEAD~1"]);
  passes(["merge", "-q", "--ff-only", "origin/main"]);
  passes(["branch", "-f", "side", "main"]);
  passes(["fetch", "-q", "origin"]);
  passes(["tag", "v1"]);
});

test("refs: stdin lines parsed as git writes them; HEAD spellings pre-push passes", () => {
  assert.deepEqual(
    parseRefUpdates(`${"0".repeat(40)} ${"a".repeat(40)} HEAD\n${"0".repeat(40)} ${"a".repeat(40)} refs/heads/main\n`).map((u) => u.ref),
    ["HEAD", "refs/heads/main"],
  );
  assert.deepEqual(
    parsePushUpdates(`HEAD~0 ${"a".repeat(40)} refs/heads/x ${"0".repeat(40)}\n(delete) ${"0".repeat(40)} refs/heads/y ${"b".repeat(40)}\n`).map(
      (u) => u.localRef,
    ),
    ["HEAD~0", "(delete)"],
  );
  for (const s of ["HEAD", "@", "HEAD~0", "HEAD^0", "HEAD@{0}", "HEAD~2"]) assert.ok(isHeadRef(s), s);
  for (const s of ["refs/heads/main", "main", "HEADS", "(delete)"]) assert.ok(!isHeadRef(s), s);
});

// ─── the caller, through the real hook's tickets ───────────────────

const SESSION = "b5cc2829-727d-4e5e-8388-e2c758f4060c";

/** One event through the real hook (the tool-call hook that writes and retires tickets). */
async function hookEvent(name: string, repo: string, state: string, over: Record<string, unknown>) {
  const payload = { ...fixture(name), cwd: repo, ...over };
  return runHook(JSON.stringify(payload), { env: { ...personEnv(state), CLAUDE_PROJECT_DIR: repo, HOME: state }, packageRoot: ROOT });
}
const bashCall = (repo: string, state: string, command: string, id: string, extra: Record<string, unknown> = {}) =>
  hookEvent("pre-tool-use-bash.json", repo, state, { tool_input: { command, description: "t" }, tool_use_id: id, ...extra });

test("a ticket: the PreToolUse of a shell call writes it (client by pid and start time), its PostToolUse retires it", async () => {
  const state = tmp("state");
  const repo = repoWith(state);
  await bashCall(repo, state, "node tools/commit.js", "toolu_t1");
  const live = path.join(state, "tickets", `${SESSION}--toolu_t1.json`);
  const t = JSON.parse(fs.readFileSync(live, "utf8").split("\n")[1] ?? "") as Ticket;
  assert.equal(t.sessionId, SESSION);
  assert.equal(t.toolUseId, "toolu_t1");
  assert.equal(t.host, "claude-code");
  assert.equal(t.cwd, repo);
  assert.equal(t.client?.pid, process.ppid, "the client: the test's parent runs this in-process hook");
  assert.equal(t.client?.start, procStat(process.ppid)?.start);
  assert.equal(t.env.SKILLGATE_STATE, state);
  await hookEvent("post-tool-use-bash.json", repo, state, { tool_use_id: "toolu_t1" });
  assert.ok(!fs.existsSync(live));
  assert.ok(fs.existsSync(path.join(state, "tickets", "done", `${SESSION}--toolu_t1.json`)));
  // A refused call gets no ticket.
  await bashCall(repo, state, "git commit -m x", "toolu_t2");
  assert.ok(!fs.existsSync(path.join(state, "tickets", `${SESSION}--toolu_t2.json`)));
});

test("an agent's commit, known by its ticket: refused with the PreToolUse gate's own reason, allowed once the skill is loaded", async () => {
  const state = tmp("state");
  const repo = repoWith(state);
  installGitHooks(repo, config(state));
  // What the PreToolUse gate says about `git commit`: the git hook must say the same.
  const gate = await bashCall(repo, state, "git commit", "toolu_gate");
  const reason = (JSON.parse(gate.stdout) as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;
  assert.match(reason, /commit-gate/);
  await bashCall(repo, state, "node tools/commit.js", "toolu_c1");
  edit(repo, "agent");
  // No marker at all (an agent that scrubbed its environment): the ticket and the ancestry find it.
  const r = git(repo, ["commit", "-qam", "agent"], personEnv(state));
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /made by the main agent's shell call toolu_c1/);
  assert.ok(r.stderr.includes(reason), `the gate's reason, verbatim:\n${reason}\nin:\n${r.stderr}`);
  await hookEvent("post-tool-use-skill.json", repo, state, {});
  const ok = git(repo, ["commit", "-qam", "agent"], personEnv(state));
  assert.equal(ok.status, 0, ok.stderr);
});

test("a ticket that skillgate's hook did not write vouches for nothing: one naming another session where the skill is loaded is refused", async () => {
  const state = tmp("state");
  const repo = repoWith(state);
  installGitHooks(repo, config(state));
  // Session B has the commit skill loaded; this session (A) has not.
  const OTHER = "0e6f7d1c-4b2a-4c1e-9d3f-2a1b0c9d8e7f";
  await hookEvent("post-tool-use-skill.json", repo, state, { session_id: OTHER });
  await bashCall(repo, state, "node tools/commit.js", "toolu_real");
  const dir = path.join(state, "tickets");
  const real = path.join(dir, `${SESSION}--toolu_real.json`);
  const text = fs.readFileSync(real, "utf8");
  assert.match(text, /^[0-9a-f]{16}\n\{/, "a ticket is signed on its first line");
  const mine = JSON.parse(text.slice(17)) as Ticket;
  // What a program the analysis cannot read could do in the call: take its own ticket away and leave one of B's.
  fs.rmSync(real);
  const forged: Ticket = { ...mine, sessionId: OTHER, toolUseId: "toolu_forged" };
  const plant = (name: string, body: string) => fs.writeFileSync(path.join(dir, name), body);
  edit(repo, "forged");
  for (const body of [JSON.stringify(forged), `0123456789abcdef\n${JSON.stringify(forged)}`, `${text.slice(0, 16)}\n${JSON.stringify(forged)}`]) {
    plant(`${OTHER}--toolu_forged.json`, body);
    const r = git(repo, ["commit", "-qam", "forged"], personEnv(state));
    assert.notEqual(r.status, 0, `a forged ticket let the commit through: ${body.slice(0, 40)}`);
    assert.match(r.stderr, /toolu_forged\.json claims to be a shell call of this agent but its checksum does not match/);
  }
  // The same ticket as the hook writes it (signed) would pass: B has the skill. That is what the signature stands between.
  fs.rmSync(path.join(dir, `${OTHER}--toolu_forged.json`));
  writeTicket(state, forged);
  gitOk(repo, ["commit", "-qam", "forged"], personEnv(state));
  // A person's commit is not held up by a stray file that claims some other process.
  plant(`${OTHER}--toolu_stray.json`, JSON.stringify({ ...forged, client: { pid: 1, start: 1 }, cwd: "/elsewhere" }));
  fs.rmSync(path.join(dir, `${OTHER}--toolu_forged.json`));
  edit(repo, "person");
  gitOk(repo, ["commit", "-qam", "person"], { ...personEnv(state), SKILLGATE_STATE: state });
});

test("a subagent's commit is checked against the subagent's own context, not the main thread's", async () => {
  const state = tmp("state");
  const repo = repoWith(state);
  installGitHooks(repo, config(state));
  await hookEvent("post-tool-use-skill.json", repo, state, {});
  const sub = { agent_id: "ad7d092f2e8146deb", agent_type: "general-purpose" };
  await bashCall(repo, state, "node tools/commit.js", "toolu_sub", sub);
  edit(repo, "sub");
  const r = git(repo, ["commit", "-qam", "sub"], personEnv(state));
  assert.notEqual(r.status, 0, "the main thread's load does not count in the subagent");
  assert.match(r.stderr, /subagent ad7d092f2e8146deb/);
});

test("work that outlives the call: a retired ticket of an ancestor client, the marker with a recent ticket of this repository, the marker with none", async () => {
  const state = tmp("state");
  const repo = repoWith(state);
  installGitHooks(repo, config(state));
  // run_in_background / `&`: the call is over, the client (an ancestor) still runs.
  await bashCall(repo, state, "node tools/commit.js &", "toolu_bg");
  await hookEvent("post-tool-use-bash.json", repo, state, { tool_use_id: "toolu_bg" });
  edit(repo, "bg");
  // The marker is inherited by what the call left running; the ancestry names the very call.
  const bg = git(repo, ["commit", "-qam", "bg"], agentEnv(state));
  assert.notEqual(bg.status, 0);
  assert.match(bg.stderr, /work its shell call toolu_bg left running/);

  // setsid / nohup / a daemon: not below the client any more; the marker is inherited.
  const other = tmp("state");
  const sleeper = spawn("sleep", ["30"], { stdio: "ignore" });
  try {
    const st = procStat(sleeper.pid!);
    assert.ok(st);
    const t: Ticket = {
      v: 1,
      host: "claude-code",
      sessionId: SESSION,
      toolUseId: "toolu_daemon",
      tool: "Bash",
      cwd: repo,
      client: { pid: st.pid, start: st.start },
      at: Date.now(),
      packageRoot: ROOT,
      env: { SKILLGATE_STATE: other, HOME: other, CLAUDE_PROJECT_DIR: repo },
    };
    writeTicket(other, t);
    const repo2 = repoWith(other);
    installGitHooks(repo2, config(other));
    installGitHooks(repo, config(other));
    edit(repo, "daemon");
    const d = git(repo, ["commit", "-qam", "daemon"], agentEnv(other));
    assert.notEqual(d.status, 0);
    assert.match(d.stderr, /work running outside its calls; its latest shell call is toolu_daemon/);
    // A person in another terminal while that session is open: no marker, not below the client.
    gitOk(repo, ["commit", "-qam", "person"], personEnv(other));
    // The marker, but no ticket of this repository or session: refused, saying how to go on.
    edit(repo2, "lost");
    const lost = git(repo2, ["commit", "-qam", "lost"], agentEnv(other));
    assert.notEqual(lost.status, 0);
    assert.match(lost.stderr, /no shell call skillgate knows of.*Run the git command as a shell tool call of your session, in the foreground/s);
    // Claude Code names the session in the environment: its own latest call wins over the repository's.
    assert.deepEqual(callerOf({ env: { CLAUDE_CODE_SESSION_ID: SESSION }, stateDirs: [other], pid: process.pid, top: repo2 }).kind, "agent");
  } finally {
    sleeper.kill();
  }
});

test("pre-push: a force push, a deletion and a HEAD push of an agent are refused whatever is loaded; a plain push passes; a person's force push passes", async () => {
  const state = tmp("state");
  const repo = repoWith(state);
  const bare = tmp("remote");
  const p = personEnv(state);
  gitOk(bare, ["init", "-q", "--bare"], p);
  gitOk(repo, ["remote", "add", "origin", bare], p);
  gitOk(repo, ["push", "-q", "origin", "main", "main:other"], p);
  installGitHooks(repo, config(state));
  await hookEvent("post-tool-use-skill.json", repo, state, {});
  await bashCall(repo, state, "node tools/push.js", "toolu_push");
  gitOk(repo, ["commit", "--amend", "-qm", "rewritten"], p);
  const force = git(repo, ["push", "-q", "--force", "origin", "main"], p);
  assert.notEqual(force.status, 0);
  assert.match(force.stderr, /not a fast-forward/);
  assert.match(force.stderr, /skillgate\[force-push-block\]/);
  const del = git(repo, ["push", "-q", "origin", ":other"], p);
  assert.notEqual(del.status, 0);
  assert.match(del.stderr, /a deletion[\s\S]*force-push-block/);
  for (const src of ["HEAD~0", "HEAD^0", "HEAD@{0}"]) {
    const h = git(repo, ["push", "-q", "origin", `${src}:refs/heads/new-${src.length}`], p);
    assert.notEqual(h.status, 0, src);
    assert.match(h.stderr, /skillgate\[push-head-block\]/, src);
  }
  gitOk(repo, ["push", "-q", "origin", "main:fresh"], p);
  // The same force push by a person (the agent's call is over, its client is not an ancestor of this one).
  await hookEvent("post-tool-use-bash.json", repo, state, { tool_use_id: "toolu_push" });
  fs.rmSync(path.join(state, "tickets"), { recursive: true });
  gitOk(repo, ["push", "-q", "--force", "origin", "main"], p);
});

test("the script carries what install computed, quoted", () => {
  const s = hookScript("pre-push", config("/tmp/it's here"), false);
  assert.match(s, /^sg_state='\/tmp\/it'\\''s here'$/m);
  assert.match(s, /\$\{CLAUDECODE-\}/);
});

test("git's hooks switched off in the agent's shell (as Gemini CLI does): the unallowed commit is taken back after the call, its changes kept; with the skill it stands", async () => {
  const state = tmp("state");
  const repo = repoWith(state);
  installGitHooks(repo, config(state));
  // Gemini CLI 0.61's shell tool sets core.hooksPath to empty through GIT_CONFIG_*: git runs no hook at all.
  const hooksOff = personEnv(state, { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.hooksPath", GIT_CONFIG_VALUE_0: "" });
  const before = gitOk(repo, ["rev-parse", "HEAD"], hooksOff).trim();
  const call = (id: string) => bashCall(repo, state, "node tools/commit.js", id);
  const result = (id: string) =>
    hookEvent("post-tool-use-bash.json", repo, state, { tool_use_id: id, tool_input: { command: "node tools/commit.js", description: "t" } });

  await call("toolu_off1");
  edit(repo, "agent");
  const made = git(repo, ["commit", "-qam", "agent"], hooksOff);
  assert.equal(made.status, 0, "no hook ran, so git made the commit");
  const commit = gitOk(repo, ["rev-parse", "HEAD"], hooksOff).trim();
  assert.notEqual(commit, before);
  const told = (await result("toolu_off1")).stdout;
  assert.match(told, /skillgate\[effects-audit\]: a commit \(main: \\"commit: agent\\"\)/);
  assert.match(told, new RegExp(`moved main back to ${before.slice(0, 12)}: the commit ${commit.slice(0, 12)} stays in the reflog`));
  assert.equal(gitOk(repo, ["rev-parse", "HEAD"], hooksOff).trim(), before, "the branch is where it was before the call");
  assert.equal(gitOk(repo, ["diff", "--cached", "--name-only"], hooksOff).trim(), "a.txt", "the commit's change is still staged");

  // The skill loaded: the same commit stands and nothing is said.
  await hookEvent("post-tool-use-skill.json", repo, state, {});
  await call("toolu_off2");
  assert.equal(git(repo, ["commit", "-qm", "agent again"], hooksOff).status, 0);
  const after = gitOk(repo, ["rev-parse", "HEAD"], hooksOff).trim();
  assert.doesNotMatch((await result("toolu_off2")).stdout, /effects-audit/);
  assert.equal(gitOk(repo, ["rev-parse", "HEAD"], hooksOff).trim(), after);
});
