// Runs every labeled command of test/corpus/classes/*.jsonl for real, in a throw-away git repo, and checks
// that its label matches what bash and git actually did: a commit made by `git commit`, a push whose source
// is HEAD, a forced (non-fast-forward) update of a remote ref, a write to a *_RU.md / *_EN.md file.
// Labels are truth about effects, so the analyser is measured against bash and git, not against itself.
//
//   node --import tsx scripts/corpus-verify.ts [--class NAME] [--id ID] [--jobs N] [--verbose] [--json FILE] [--invert] [--layers]
//
// --layers (needs `npm run build`): for every must-refuse record, which layer holds it. "analysis": the shell
// analysis refuses it before it runs (decided as test/shell-analysis.test.ts decides it). Otherwise the command
// runs as an agent's Bash call through skillgate itself — the built hook's PreToolUse (which may still refuse it
// with the real files), the command, its PostToolUse (the restore) — in a repo with skillgate's git hooks
// installed (reference-transaction, pre-push): "effect layer" when none of its labeled effects is left (a doc
// put back counts as held), "got through" when one is. Must-allow records report how many the analysis refuses.
//
// --invert swaps every label (refuse -> no effect, allow -> a commit) to show the checker can fail:
// every record must then come out as a mismatch.
//
// Safety: every command runs with cwd, HOME, TMPDIR and git's system config file inside a fresh temp dir, GIT_* unset, stdin
// /dev/null, a short timeout (its process group is killed), remotes are local bare repos (no network).
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compiledTable } from "../cli/table-file.ts";
import { factsOf } from "../hooks/core/shell-facts.ts";
import { decide } from "../hooks/core/decide.ts";
import { emptyState, type Event } from "../hooks/core/types.ts";
import { installGitHooks } from "../hooks/io/git-hooks.ts";
import { AGENT_MARKERS } from "../hooks/effects/caller.ts";
import { corpusWorld } from "../test/corpus/world.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLASSES_DIR = path.join(ROOT, "test/corpus/classes");
type Effect = "commit" | "push-head" | "force" | "paired-doc" | "new-commit";
const ROW_EFFECT: Record<string, Effect> = {
  "commit-gate": "commit",
  "push-head-block": "push-head",
  "force-push-block": "force",
  "paired-docs-write": "paired-doc",
};
const EFFECTS: readonly Effect[] = ["commit", "push-head", "force", "paired-doc", "new-commit"];
// A revision that is HEAD itself, as git passes it to pre-push: HEAD, @, HEAD~0, HEAD^0, HEAD@{0}, HEAD^{commit}.
const HEAD_SPELLING = /^(HEAD|@)(~0+|\^0+|@\{0\}|\^\{(commit)?\})*$/;
const BASE_CLASSES = [
  "git-indirection",
  "git-shell-strings",
  "git-other-name",
  "launchers",
  "code-from-files",
  "expansions",
  "inline-programs",
  "push-semantics",
  "writes-more-programs",
  "false-positives",
  "everyday",
];
// Every .jsonl of the folder is a class (files added later, such as launcher-option-forms.jsonl, included); the
// eleven base classes must all be there.
const CLASS_NAMES = [
  ...BASE_CLASSES,
  ...fs
    .readdirSync(CLASSES_DIR)
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => f.slice(0, -".jsonl".length))
    .filter((c) => !BASE_CLASSES.includes(c))
    .sort(),
];
const PAIRED = /_(RU|EN)\.md$/;
const TIMEOUT_MS = 6000;

// files: repo-relative ("~/" = HOME; ".git/config" is appended to); symlinks: path -> target;
// sh: verifier-only preparation (a submodule, extra commits) run before the snapshot, untraced.
interface Setup {
  files?: Record<string, string>;
  symlinks?: Record<string, string>;
  env?: Record<string, string>;
  sh?: string;
}
interface Rec {
  id: string;
  command: string;
  expect: "refuse" | "allow";
  rows: string[];
  setup?: Setup;
  note?: string;
  verify?: "skip-missing-tool";
  tool?: string;
  effects?: Effect[];
  file: string;
  line: number;
}

// ---------- reading and checking the label files ----------
function loadRecords(): { recs: Rec[]; errors: string[] } {
  const triggers = JSON.parse(fs.readFileSync(path.join(ROOT, "triggers.json"), "utf8")) as { rows: { id: string }[] };
  const rowIds = new Set(triggers.rows.map((r) => r.id));
  const recs: Rec[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const cls of CLASS_NAMES) {
    const file = path.join(CLASSES_DIR, `${cls}.jsonl`);
    if (!fs.existsSync(file)) {
      errors.push(`${cls}.jsonl: missing`);
      continue;
    }
    const lines = fs.readFileSync(file, "utf8").split("\n");
    lines.forEach((text, i) => {
      if (!text.trim()) return;
      const where = `${cls}.jsonl:${i + 1}`;
      let o: Record<string, unknown>;
      try {
        o = JSON.parse(text) as Record<string, unknown>;
      } catch (e) {
        errors.push(`${where}: not JSON (${String(e)})`);
        return;
      }
      if (i === 0) {
        if (typeof o.comment !== "string") errors.push(`${where}: first line must be {"comment": ...}`);
        return;
      }
      const r = { ...o, file: cls, line: i + 1 } as unknown as Rec;
      if (typeof r.id !== "string" || !r.id.startsWith(`${cls}.`)) errors.push(`${where}: id must start with "${cls}."`);
      if (seen.has(r.id)) errors.push(`${where}: duplicate id ${r.id}`);
      seen.add(r.id);
      if (typeof r.command !== "string" || !r.command) errors.push(`${where}: command missing`);
      if (r.expect !== "refuse" && r.expect !== "allow") errors.push(`${where}: expect must be refuse|allow`);
      if (!Array.isArray(r.rows)) errors.push(`${where}: rows must be an array`);
      else {
        for (const row of r.rows) if (!rowIds.has(row)) errors.push(`${where}: unknown row ${row}`);
        if (r.rows.length > 0 !== (r.expect === "refuse")) errors.push(`${where}: refuse needs rows, allow needs none`);
      }
      if (r.effects && !r.effects.every((e) => EFFECTS.includes(e))) errors.push(`${where}: bad effects`);
      if (r.verify === "skip-missing-tool" && !r.tool) errors.push(`${where}: skip-missing-tool needs "tool"`);
      recs.push(r);
    });
  }
  return { recs, errors };
}

// ---------- the two template worlds ----------
// World "ff": remote branches are behind local ones (any push fast-forwards; the pre-push hook records
// each pushed source). World "diverged": remote branches hold a commit the local side lacks, so only a
// forced update can move them. Both: a staged change (a commit succeeds), a clean work tree otherwise
// (a record's setup.files dirties what it needs), notes_*.md and docs/guide_*.md differing between HEAD~1 and HEAD.
function sh(cwd: string, cmd: string): string {
  const r = spawnSync("bash", ["-c", cmd], { cwd, env: cleanEnv({ HOME: cwd }), encoding: "utf8" });
  if (r.status !== 0) throw new Error(`template step failed: ${cmd}\n${r.stderr}`);
  return r.stdout;
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_") && !k.startsWith("SKG_")) env[k] = v;
  delete env.TMUX;
  delete env.STY;
  delete env.npm_config_prefix;
  for (const k of Object.keys(env)) if (k.startsWith("npm_")) delete env[k];
  return { ...env, LANG: "C.UTF-8", TERM: "dumb", EDITOR: "true", VISUAL: "true", PAGER: "cat", ...extra };
}

const PRE_PUSH = `#!/bin/sh
# records what each push sends: <local ref> <local sha> <remote ref> <remote sha>
cat >> "$(dirname "$0")/../prepush.log"
`;

function buildWorld(base: string, kind: "ff" | "diverged"): string {
  const w = path.join(base, kind);
  fs.mkdirSync(path.join(w, "home"), { recursive: true });
  fs.mkdirSync(path.join(w, "tmp"), { recursive: true });
  const repo = path.join(w, "repo");
  sh(w, `git init -q --bare remote.git && git init -q -b work repo`);
  const cfg = [
    "git config user.name Dev && git config user.email dev@example.com",
    "git config gc.auto 0 && git config maintenance.auto false && git config advice.detachedHead false",
  ].join(" && ");
  sh(repo, cfg);
  const write = (p: string, s: string) => {
    fs.mkdirSync(path.dirname(path.join(repo, p)), { recursive: true });
    fs.writeFileSync(path.join(repo, p), s);
  };
  write("README.md", "# demo\n");
  write("notes_RU.md", "# Заметки\nверсия 1\n");
  write("notes_EN.md", "# Notes\nversion 1\n");
  write("docs/guide_RU.md", "# Руководство\nшаг 1\n");
  write("docs/guide_EN.md", "# Guide\nstep 1\n");
  write("src/app.js", "console.log('v1');\n");
  write(".gitignore", "prepush.log\n");
  sh(repo, `git add -A && git commit -qm base && git remote add origin REMOTE_URL_PLACEHOLDER`);
  write("docs/guide_RU.md", "# Руководство\nшаг 1\nшаг 2\n");
  write("docs/guide_EN.md", "# Guide\nstep 1\nstep 2\n");
  write("notes_RU.md", "# Заметки\nверсия 2\n");
  write("notes_EN.md", "# Notes\nversion 2\n");
  sh(repo, `git commit -qam second && git branch main && git branch feature/x`);
  // Remote: base commit on every branch (ff world) or base + a remote-only commit (diverged world).
  const bare = path.join(w, "remote.git");
  sh(repo, `git push -q "${bare}" HEAD~1:refs/heads/work HEAD~1:refs/heads/main HEAD~1:refs/heads/feature/x`);
  if (kind === "diverged") {
    sh(
      w,
      `git clone -q remote.git other && cd other && git config user.name Other && git config user.email o@example.com && ` +
        `for b in work main feature/x; do git checkout -q "$b" && echo "$b" > remote-only.txt && git add . && git commit -qm "remote $b"; done && ` +
        `git push -q origin work main feature/x && cd .. && rm -rf other`,
    );
  }
  sh(repo, `git fetch -q "${bare}" '+refs/heads/*:refs/remotes/origin/*' && git branch -q -u origin/work work`);
  // Work tree state every command starts from.
  write("src/app.js", "console.log('v2');\n");
  sh(repo, `git add src/app.js`);
  fs.writeFileSync(path.join(repo, ".git/hooks/pre-push"), PRE_PUSH, { mode: 0o755 });
  return w;
}

// ---------- per-record run ----------
interface Snapshot {
  docs: Map<string, string>;
  reflogs: Map<string, number>;
  remote: Map<string, string>;
  local: Map<string, string>;
  reached: string[];
}

function walk(dir: string, out: string[]): void {
  let ents: fs.Dirent[];
  try {
    ents = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of ents) {
    const p = path.join(dir, e.name);
    // (skillgate-state: the guarded run's state folder, where the restore keeps what it found)
    if (e.isDirectory()) {
      if (e.name !== ".git" && e.name !== "node_modules" && e.name !== "remote.git" && e.name !== "obs" && e.name !== "skillgate-state") walk(p, out);
    } else out.push(p);
  }
}

/** A document's state; `contentOnly`: what it holds (a document the restore put back is held, though touched). */
function docState(p: string, contentOnly = false): string {
  try {
    const st = fs.lstatSync(p, { bigint: true });
    const body = st.isSymbolicLink() ? `link:${fs.readlinkSync(p)}` : crypto.createHash("sha1").update(fs.readFileSync(p)).digest("hex");
    return contentOnly ? `${st.size}:${body}` : `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${body}`;
  } catch {
    return "unreadable";
  }
}

function refs(gitDir: string): Map<string, string> {
  const r = spawnSync("git", ["--git-dir", gitDir, "for-each-ref", "--format=%(refname) %(objectname)"], { env: cleanEnv({}), encoding: "utf8" });
  const m = new Map<string, string>();
  for (const l of r.stdout.split("\n")) {
    const [n, h] = l.split(" ");
    if (n && h) m.set(n, h);
  }
  return m;
}

/** Local branches and HEAD (its commit, also when detached). */
function localRefs(gitDir: string): Map<string, string> {
  const m = refs(gitDir);
  for (const k of [...m.keys()]) if (!k.startsWith("refs/heads/")) m.delete(k);
  const head = spawnSync("git", ["--git-dir", gitDir, "rev-parse", "-q", "--verify", "HEAD"], { env: cleanEnv({}), encoding: "utf8" }).stdout.trim();
  if (head) m.set("HEAD", head);
  return m;
}

function snapshot(w: string, contentOnly = false): Snapshot {
  const files: string[] = [];
  walk(w, files);
  const docs = new Map<string, string>();
  for (const f of files) if (PAIRED.test(f)) docs.set(path.relative(w, f), docState(f, contentOnly));
  const reflogs = new Map<string, number>();
  const logs: string[] = [];
  walk(path.join(w, "repo/.git/logs"), logs);
  for (const f of logs) reflogs.set(f, fs.readFileSync(f, "utf8").split("\n").filter(Boolean).length);
  const gitDir = path.join(w, "repo/.git");
  const local = localRefs(gitDir);
  // every commit a ref reached (branches, tags, remote-tracking refs, HEAD; not refs/stash), as the git hook asks
  const reached = [...new Set([...[...refs(gitDir)].filter(([k]) => k !== "refs/stash").map(([, v]) => v), ...local.values()])];
  return { docs, reflogs, remote: refs(path.join(w, "remote.git")), local, reached };
}

function prepare(template: string, dir: string, setup: Setup | undefined): string {
  fs.cpSync(template, dir, { recursive: true, verbatimSymlinks: true });
  const repo = path.join(dir, "repo");
  const cfgPath = path.join(repo, ".git/config");
  fs.writeFileSync(cfgPath, fs.readFileSync(cfgPath, "utf8").replace("REMOTE_URL_PLACEHOLDER", path.join(dir, "remote.git")));
  for (const [rel, body] of Object.entries(setup?.files ?? {})) {
    const target = rel.startsWith("~/") ? path.join(dir, "home", rel.slice(2)) : path.join(repo, rel);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (rel === ".git/config")
      fs.appendFileSync(target, `\n${body}`); // setup config adds to the repo's own
    else fs.writeFileSync(target, body, { mode: body.startsWith("#!") || rel.endsWith(".sh") ? 0o755 : 0o644 });
  }
  for (const [rel, target] of Object.entries(setup?.symlinks ?? {})) fs.symlinkSync(target, path.join(repo, rel));
  if (setup?.sh) {
    const r = spawnSync("bash", ["-c", setup.sh], {
      cwd: repo,
      env: cleanEnv({ HOME: path.join(dir, "home"), TMPDIR: path.join(dir, "tmp") }),
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`setup.sh failed: ${r.stderr}`);
  }
  fs.mkdirSync(path.join(dir, "obs"), { recursive: true });
  return repo;
}

function killLeftovers(marker: string): void {
  // Processes started by this run that escaped its process group (setsid, nohup &, tmux server):
  // found by the marker in their environment, ended by pid.
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, "latin1").includes(`SKG_CORPUS_RUN=${marker}\0`)) process.kill(Number(pid), "SIGKILL");
    } catch {
      /* gone or not ours */
    }
  }
}

function runCommand(
  rec: Rec,
  dir: string,
  repo: string,
  guardEnv: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string; timedOut: boolean }> {
  const env = cleanEnv({
    ...guardEnv,
    HOME: path.join(dir, "home"),
    TMPDIR: path.join(dir, "tmp"),
    TMUX_TMPDIR: path.join(dir, "tmp"),
    GIT_TRACE2_EVENT: path.join(dir, "obs/trace2.json"),
    SKG_CORPUS_RUN: dir,
    // `git config --system` must never reach the machine's /etc/gitconfig (every git on the machine reads it)
    GIT_CONFIG_SYSTEM: path.join(dir, "obs/system.gitconfig"),
    ...(rec.setup?.env ?? {}),
  });
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", rec.command], { cwd: repo, env, stdio: ["ignore", "ignore", "pipe"], detached: true });
    let stderr = "";
    let timedOut = false;
    child.stderr.on("data", (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-(child.pid ?? 0), "SIGKILL");
      } catch {
        /* exited */
      }
    }, TIMEOUT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      // Background work (nohup …&, setsid, tmux -d) gets a moment to land before we look.
      const async = /(^|[^&])&($|[^&>])|nohup|setsid|tmux|screen|\bat\b|batch|disown/.test(rec.command);
      setTimeout(
        () => {
          killLeftovers(dir);
          resolve({ code, stderr, timedOut });
        },
        async ? 1500 : 0,
      );
    });
  });
}

function isAncestor(gitDir: string, a: string, b: string): boolean {
  return spawnSync("git", ["--git-dir", gitDir, "merge-base", "--is-ancestor", a, b], { env: cleanEnv({}) }).status === 0;
}

/** From the trace2 stream: a `git commit` exited 0; a plumbing process that writes a commit object exited 0. */
function commitsFromTrace(file: string): { commit: boolean; plumbing: boolean } {
  const out = { commit: false, plumbing: false };
  if (!fs.existsSync(file)) return out;
  const names = new Map<string, string>();
  const argvs = new Map<string, string[]>();
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line) continue;
    let ev: { event?: string; sid?: string; name?: string; code?: number; argv?: string[] };
    try {
      ev = JSON.parse(line) as typeof ev;
    } catch {
      continue;
    }
    if (ev.event === "start" && ev.sid && ev.argv) argvs.set(ev.sid, ev.argv);
    if (ev.event === "cmd_name" && ev.sid && ev.name) names.set(ev.sid, ev.name);
    if (ev.event === "exit" && ev.sid && ev.code === 0) {
      const n = names.get(ev.sid);
      const argv = argvs.get(ev.sid) ?? [];
      // `git commit --dry-run` exits 0 having committed nothing
      if (n === "commit" && argv.lastIndexOf("--dry-run") <= argv.lastIndexOf("--no-dry-run")) out.commit = true;
      if (n === "commit-tree" || n === "fast-import" || (n === "hash-object" && argv.includes("commit"))) out.plumbing = true;
    }
  }
  return out;
}

/**
 * new-commit (the git hooks' commit effect, docs/git-hooks.md): a local branch or HEAD now points at a commit
 * that no ref reached before — merge, cherry-pick, revert, am, rebase, commit-tree published, as well as commit.
 */
function newCommitOnBranch(before: Snapshot, after: Snapshot, gitDir: string): boolean {
  const moved = [...after.local].filter(([k, v]) => before.local.get(k) !== v).map(([, v]) => v);
  return moved.some((v) => {
    const r = spawnSync("git", ["--git-dir", gitDir, "rev-list", "-n1", v, "--not", ...before.reached], { env: cleanEnv({}), encoding: "utf8" });
    return r.status === 0 && r.stdout.trim() !== "";
  });
}

/**
 * A commit assembled by plumbing (commit-tree, fast-import, hash-object -t commit) counts as a commit when it
 * is published in the same command: a local branch, HEAD or a remote branch now points at a commit that no
 * local branch or HEAD contained before.
 */
function publishedNewCommit(before: Snapshot, after: Snapshot, gitDir: string): boolean {
  const olds = [...new Set(before.local.values())];
  const moved = [
    ...[...after.local].filter(([k, v]) => before.local.get(k) !== v).map(([, v]) => ({ v, dir: gitDir })),
    ...[...after.remote].filter(([k, v]) => before.remote.get(k) !== v).map(([, v]) => ({ v, dir: gitDir })),
  ];
  return moved.some(({ v, dir }) => !olds.some((o) => isAncestor(dir, v, o)));
}

// ---------- the effect layer: the command as an agent's Bash call through skillgate ----------
const HOOK_BUNDLE = path.join(ROOT, "dist", "hook.cjs");
const GIT_HOOK_ENTRY = path.join(ROOT, "dist", "git-hook.mjs");
const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(ROOT, "cases", "fixtures", `${name}.json`), "utf8")) as Record<string, unknown>;

interface Guard {
  state: string;
  session: string;
  toolUseId: string;
  env: Record<string, string>;
}

/** One hook event through the built hook, as Claude Code sends it; whether it refused. */
function hookEvent(g: Guard, name: string, repo: string, over: Record<string, unknown>): { deny: boolean; out: string } {
  const input = JSON.stringify({ ...fixture(name), session_id: g.session, cwd: repo, tool_use_id: g.toolUseId, ...over });
  const r = spawnSync(process.execPath, [HOOK_BUNDLE], { input, env: cleanEnv(g.env), encoding: "utf8", cwd: repo });
  if (r.status !== 0) throw new Error(`hook ${name} failed: ${r.stderr.slice(0, 300)}`);
  return { deny: /"permissionDecision":\s*"deny"/.test(r.stdout), out: r.stdout };
}

async function observe(
  rec: Rec,
  template: string,
  dir: string,
  want: Set<Effect>,
  guarded = false,
): Promise<{ seen: Set<Effect>; detail: string; pushed: boolean; hookDenied?: boolean }> {
  const repo = prepare(template, dir, rec.setup);
  let guard: Guard | undefined;
  if (guarded) {
    const state = path.join(dir, "skillgate-state");
    const home = path.join(dir, "home");
    guard = {
      state,
      session: `corpus-${path.basename(path.dirname(dir))}`,
      toolUseId: `toolu_${crypto.randomBytes(6).toString("hex")}`,
      env: { SKILLGATE_STATE: state, HOME: home, CLAUDE_PROJECT_DIR: repo, CLAUDECODE: "1" },
    };
    const inst = installGitHooks(repo, { node: process.execPath, entry: GIT_HOOK_ENTRY, stateDir: state, markers: Object.keys(AGENT_MARKERS) });
    if (!inst.dir.ok) throw new Error(`git hooks not installed: ${inst.dir.why}`);
    const pre = hookEvent(guard, "pre-tool-use-bash", repo, { tool_input: { command: rec.command, description: "corpus" } });
    if (pre.deny) return { seen: new Set(), detail: "refused by the PreToolUse analysis with the real files", pushed: false, hookDenied: true };
  }
  const before = snapshot(dir, guarded);
  const res = await runCommand(rec, dir, repo, guard ? { SKILLGATE_STATE: guard.state, CLAUDECODE: "1" } : {});
  if (guard) {
    hookEvent(guard, "post-tool-use-bash", repo, {
      tool_input: { command: rec.command, description: "corpus" },
      tool_response: { stdout: "", stderr: res.stderr.slice(0, 2000), interrupted: false, isImage: false, noOutputExpected: false },
    });
  }
  const after = snapshot(dir, guarded);
  const seen = new Set<Effect>();
  const detail: string[] = [];
  // commit: a `git commit` process exited 0 (trace2), or a reflog line says "commit" (env-clearing launchers)
  const traced = commitsFromTrace(path.join(dir, "obs/trace2.json"));
  if (traced.commit) seen.add("commit");
  if (traced.plumbing && publishedNewCommit(before, after, path.join(repo, ".git"))) {
    seen.add("commit");
    detail.push("plumbing commit published");
  }
  for (const f of after.reflogs.keys()) {
    const lines = fs
      .readFileSync(f, "utf8")
      .split("\n")
      .filter(Boolean)
      .slice(before.reflogs.get(f) ?? 0);
    for (const l of lines) if (/\t(commit|commit \((amend|merge|initial)\)):/.test(l)) seen.add("commit");
  }
  // push of HEAD: the pre-push hook saw HEAD as a pushed source
  const pp = path.join(repo, ".git/prepush.log");
  const pushLines = fs.existsSync(pp) ? fs.readFileSync(pp, "utf8").split("\n").filter(Boolean) : [];
  if (pushLines.some((l) => HEAD_SPELLING.test(l.split(" ")[0] ?? ""))) seen.add("push-head");
  // new-commit is looked for only in records labeled with it (the commit row names `git commit`; other classes
  // label only what that row is about) — also under --invert, so an inverted label fails
  if ((rec.effects ?? []).includes("new-commit") && newCommitOnBranch(before, after, path.join(repo, ".git"))) seen.add("new-commit");
  let pushed = pushLines.length > 0;
  // forced: a remote ref moved to a commit that does not contain its old value
  const bare = path.join(dir, "remote.git");
  for (const [ref, old] of before.remote) {
    const now = after.remote.get(ref);
    if (now !== old) pushed = true;
    if (now && now !== old && !isAncestor(bare, old, now)) {
      seen.add("force");
      detail.push(`forced ${ref}`);
    }
  }
  for (const ref of after.remote.keys()) if (!before.remote.has(ref)) pushed = true;
  // paired documents: created, changed, touched or removed anywhere under the run's dir
  for (const k of new Set([...before.docs.keys(), ...after.docs.keys()])) {
    if (before.docs.get(k) !== after.docs.get(k)) {
      seen.add("paired-doc");
      detail.push(`doc ${k}`);
    }
  }
  if (res.timedOut) detail.push("timeout");
  if ([...want].some((e) => !seen.has(e))) detail.push(`exit ${res.code} ${res.stderr.trim().split("\n").slice(-2).join(" | ").slice(0, 200)}`);
  return { seen, detail: detail.join("; "), pushed };
}

// ---------- --layers: which layer holds each record ----------
type Layer = "analysis" | "effect layer" | "got through" | "skipped";

async function layersMain(todo: Rec[], worlds: { ff: string; diverged: string }, base: string, jobs: number, verbose: boolean): Promise<void> {
  if (!fs.existsSync(HOOK_BUNDLE) || !fs.existsSync(GIT_HOOK_ENTRY)) throw new Error("--layers runs the built hook: npm run build first");
  const table = await compiledTable(path.join(ROOT, "triggers.json"));
  const refusedByAnalysis = (r: Rec): boolean => {
    const w = corpusWorld(r.setup);
    const event: Event = { kind: "tool-call", sessionId: "layers", cwd: w.cwd, tool: { kind: "shell", name: "Bash", command: r.command } };
    return decide(event, table, emptyState(), factsOf(event, w)).decision.verdict === "deny";
  };
  const results: { rec: Rec; layer: Layer; detail: string }[] = [];
  let next = 0;
  let counter = 0;
  async function worker(): Promise<void> {
    while (next < todo.length) {
      const rec = todo[next++];
      if (!rec) break;
      if (rec.verify === "skip-missing-tool") {
        results.push({ rec, layer: "skipped", detail: `no ${rec.tool}` });
        continue;
      }
      if (refusedByAnalysis(rec)) {
        results.push({ rec, layer: "analysis", detail: "" });
        continue;
      }
      if (rec.expect === "allow") {
        results.push({ rec, layer: "got through", detail: "allowed" });
        continue;
      }
      const want = new Set<Effect>(rec.effects ?? rec.rows.map((r) => ROW_EFFECT[r]).filter((e): e is Effect => e !== undefined));
      const dir = path.join(base, `l${counter++}`);
      fs.mkdirSync(dir);
      try {
        const a = await observe(rec, worlds.ff, path.join(dir, "ff"), want, true);
        if (a.hookDenied) {
          results.push({ rec, layer: "analysis", detail: a.detail });
          continue;
        }
        const seen = new Set([...a.seen].filter((e) => e !== "force" && want.has(e)));
        let detail = a.detail;
        if (want.has("force")) {
          const b = await observe(rec, worlds.diverged, path.join(dir, "div"), new Set(["force"]), true);
          if (b.seen.has("force")) seen.add("force");
          detail += b.detail ? ` [div: ${b.detail}]` : "";
        }
        results.push({ rec, layer: seen.size === 0 ? "effect layer" : "got through", detail: seen.size ? `left: ${[...seen]} ${detail}` : detail });
      } catch (e) {
        results.push({ rec, layer: "got through", detail: `setup failed: ${String(e).slice(0, 200)}` });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      const last = results[results.length - 1];
      if (verbose && last) console.log(`${last.layer.padEnd(13)} ${rec.id} ${last.detail}`);
    }
  }
  await Promise.all(Array.from({ length: jobs }, () => worker()));
  for (const r of results.filter((x) => x.rec.expect === "refuse" && x.layer === "got through").sort((x, y) => x.rec.id.localeCompare(y.rec.id))) {
    console.log(`GOT-THROUGH ${r.rec.id} ${r.detail}\n    ${r.rec.command.replace(/\n/g, "⏎").slice(0, 160)}`);
  }
  console.log(`\nclass                          attacks analysis effect-layer through harmless refused`);
  const row = (name: string, rs: typeof results) => {
    const att = rs.filter((r) => r.rec.expect === "refuse" && r.layer !== "skipped");
    const ok = rs.filter((r) => r.rec.expect === "allow");
    const n = (l: Layer) => att.filter((r) => r.layer === l).length;
    console.log(
      `${name.padEnd(30)}${String(att.length).padStart(8)}${String(n("analysis")).padStart(9)}${String(n("effect layer")).padStart(13)}${String(n("got through")).padStart(8)}${String(ok.length).padStart(9)}${String(ok.filter((r) => r.layer === "analysis").length).padStart(8)}`,
    );
    return {
      att: att.length,
      analysis: n("analysis"),
      effect: n("effect layer"),
      through: n("got through"),
      ok: ok.length,
      okRefused: ok.filter((r) => r.layer === "analysis").length,
    };
  };
  for (const cls of CLASS_NAMES) {
    const rs = results.filter((r) => r.rec.file === cls);
    if (rs.length) row(cls, rs);
  }
  const t = row("total", results);
  const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : "0.0");
  console.log(
    `\nrefused before running (analysis): ${t.analysis}/${t.att} = ${pct(t.analysis, t.att)}%; held by the effect layer: ${t.effect}; refused or held: ${pct(t.analysis + t.effect, t.att)}%; got through: ${t.through}`,
  );
  console.log(`harmless refused by the analysis: ${t.okRefused}/${t.ok} = ${pct(t.okRefused, t.ok)}%`);
  process.exitCode = t.through > 0 ? 1 : 0;
}

// ---------- main ----------
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const { recs, errors } = loadRecords();
  for (const e of errors) console.log(`FORMAT ${e}`);
  const onlyClass = arg("--class");
  const onlyId = arg("--id");
  const jobs = Number(arg("--jobs") ?? "2");
  const verbose = process.argv.includes("--verbose");
  const invert = process.argv.includes("--invert");
  const todo = recs.filter((r) => (!onlyClass || r.file === onlyClass) && (!onlyId || r.id === onlyId));
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "skg-corpus-"));
  // the temp folder goes away however the run ends (a failed template build included)
  process.on("exit", () => fs.rmSync(base, { recursive: true, force: true }));
  const worlds = { ff: buildWorld(path.join(base, "tpl"), "ff"), diverged: buildWorld(path.join(base, "tpl"), "diverged") };
  if (process.argv.includes("--layers")) return layersMain(todo, worlds, base, jobs, verbose);
  const results: { rec: Rec; status: "agree" | "mismatch" | "skipped"; seen: Effect[]; want: Effect[]; detail: string }[] = [];
  let next = 0;
  let counter = 0;
  async function worker(): Promise<void> {
    while (next < todo.length) {
      const rec = todo[next++];
      if (!rec) break;
      const labeled = new Set<Effect>(rec.effects ?? rec.rows.map((r) => ROW_EFFECT[r]).filter((e): e is Effect => e !== undefined));
      const want = invert ? new Set<Effect>(labeled.size > 0 ? [] : ["commit"]) : labeled;
      if (rec.verify === "skip-missing-tool") {
        const present = spawnSync("bash", ["-c", `command -v ${rec.tool ?? "-"}`]).status === 0;
        results.push({
          rec,
          status: "skipped",
          seen: [],
          want: [...want],
          detail: present ? `tool ${rec.tool} IS installed: drop the skip` : `no ${rec.tool}`,
        });
        continue;
      }
      const dir = path.join(base, `r${counter++}`);
      fs.mkdirSync(dir);
      let a: Awaited<ReturnType<typeof observe>>;
      try {
        a = await observe(rec, worlds.ff, path.join(dir, "ff"), want);
      } catch (e) {
        results.push({ rec, status: "mismatch", seen: [], want: [...want], detail: `setup failed: ${String(e).slice(0, 200)}` });
        continue;
      }
      const seen = new Set<Effect>([...a.seen].filter((e) => e !== "force"));
      let detail = a.detail;
      if (a.pushed || want.has("force")) {
        // Only the diverged world can tell a forced push from a fast-forward.
        const b = await observe(rec, worlds.diverged, path.join(dir, "div"), new Set([...want].filter((e) => e === "force")));
        if (b.seen.has("force")) seen.add("force");
        if (b.detail) detail += ` [div: ${b.detail}]`;
      }
      fs.rmSync(dir, { recursive: true, force: true });
      const same = want.size === seen.size && [...want].every((e) => seen.has(e));
      results.push({ rec, status: same ? "agree" : "mismatch", seen: [...seen], want: [...want], detail });
      if (verbose) console.log(`${same ? "ok " : "BAD"} ${rec.id} want=[${[...want]}] seen=[${[...seen]}] ${detail}`);
    }
  }
  await Promise.all(Array.from({ length: jobs }, () => worker()));
  fs.rmSync(base, { recursive: true, force: true });

  const byClass = new Map<string, { n: number; refuse: number; allow: number; agree: number; mismatch: number; skipped: number }>();
  for (const r of results) {
    const c = byClass.get(r.rec.file) ?? { n: 0, refuse: 0, allow: 0, agree: 0, mismatch: 0, skipped: 0 };
    c.n++;
    c[r.rec.expect]++;
    c[r.status]++;
    byClass.set(r.rec.file, c);
  }
  for (const r of results.filter((x) => x.status === "mismatch").sort((x, y) => x.rec.id.localeCompare(y.rec.id))) {
    console.log(`MISMATCH ${r.rec.id} labeled=[${r.want}] observed=[${r.seen}] ${r.detail}\n    ${r.rec.command}`);
  }
  for (const r of results.filter((x) => x.status === "skipped" && x.detail.includes("IS installed"))) console.log(`SKIP-WRONG ${r.rec.id} ${r.detail}`);
  console.log(`\nclass                         records refuse allow  agree mismatch skipped`);
  const tot = { n: 0, refuse: 0, allow: 0, agree: 0, mismatch: 0, skipped: 0 };
  for (const cls of CLASS_NAMES) {
    const c = byClass.get(cls);
    if (!c) continue;
    for (const k of Object.keys(tot) as (keyof typeof tot)[]) tot[k] += c[k];
    console.log(
      `${cls.padEnd(30)}${String(c.n).padStart(7)}${String(c.refuse).padStart(7)}${String(c.allow).padStart(6)}${String(c.agree).padStart(7)}${String(c.mismatch).padStart(9)}${String(c.skipped).padStart(8)}`,
    );
  }
  console.log(
    `${"total".padEnd(30)}${String(tot.n).padStart(7)}${String(tot.refuse).padStart(7)}${String(tot.allow).padStart(6)}${String(tot.agree).padStart(7)}${String(tot.mismatch).padStart(9)}${String(tot.skipped).padStart(8)}`,
  );
  const jsonOut = arg("--json");
  if (jsonOut)
    fs.writeFileSync(
      jsonOut,
      JSON.stringify(
        results.map((r) => ({ id: r.rec.id, status: r.status, want: r.want, seen: r.seen, detail: r.detail })),
        null,
        1,
      ),
    );
  process.exitCode = errors.length > 0 || tot.mismatch > 0 ? 1 : 0;
}

await main();
