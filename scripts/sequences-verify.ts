// Attack sequences judged by what they leave behind: each sequence is a few tool calls an agent that has not
// loaded the commit (or paired-docs) skill could make to commit, push HEAD, force a push or change a paired
// document. Every sequence runs twice in a fresh repository with a bare remote:
//   1. bare (no skillgate): its goal must really happen — the label is confirmed by running it;
//   2. guarded: every call goes through skillgate's own Claude Code hook (PreToolUse → the call, if allowed →
//      PostToolUse, then one more prompt event for work that outlived its call), with skillgate's git hooks
//      installed; the goal must not be left behind (refused before, aborted by git's hook, taken back or put back).
//
//   node --import tsx scripts/sequences-verify.ts [--class NAME] [--id ID] [--jobs N] [--verbose]
//
// Needs `npm run build` (the git hooks run dist/git-hook.mjs). Exit 1 when a label is not confirmed or a
// sequence works. The sequences: test/attack-sequences.jsonl (first line a comment).
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runHook } from "../hooks/entries/claude-code.ts";
import { installGitHooks } from "../hooks/io/git-hooks.ts";
import { AGENT_MARKERS } from "../hooks/effects/caller.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FILE = path.join(ROOT, "test/attack-sequences.jsonl");
const ENTRY = path.join(ROOT, "dist", "git-hook.mjs");
const GOALS = ["commit", "push-head", "force", "paired-doc"] as const;
type Goal = (typeof GOALS)[number];
type Step = { bash: string } | { write: { path: string; content: string } } | { edit: { path: string; old: string; new: string } };
interface Sequence {
  id: string;
  goal: Goal;
  steps: Step[];
  note?: string;
  line: number;
}

const PAIRED = /_(RU|EN)\.md$/;
/** Records the source of each push (the local ref is "HEAD" when HEAD was pushed); chained behind skillgate's. */
const PUSH_LOG = `#!/bin/sh\ncat >> "$(git rev-parse --git-dir)/pushes.log"\n`;

function load(): { seqs: Sequence[]; errors: string[] } {
  const seqs: Sequence[] = [];
  const errors: string[] = [];
  const ids = new Set<string>();
  fs.readFileSync(FILE, "utf8")
    .split("\n")
    .forEach((text, i) => {
      if (!text.trim() || i === 0) return;
      const where = `${path.relative(ROOT, FILE)}:${i + 1}`;
      let o: Sequence;
      try {
        o = { ...(JSON.parse(text) as Sequence), line: i + 1 };
      } catch (e) {
        errors.push(`${where}: not JSON (${(e as Error).message})`);
        return;
      }
      if (typeof o.id !== "string" || !/^[a-z-]+\.[a-z0-9-]+$/.test(o.id)) errors.push(`${where}: id must be <class>.<name>`);
      else if (ids.has(o.id)) errors.push(`${where}: duplicate id ${o.id}`);
      ids.add(o.id);
      if (!GOALS.includes(o.goal)) errors.push(`${where}: goal must be one of ${GOALS.join(", ")}`);
      if (!Array.isArray(o.steps) || !o.steps.length) errors.push(`${where}: steps must be a non-empty list`);
      else
        for (const [n, s] of o.steps.entries())
          if (!("bash" in s || "write" in s || "edit" in s)) errors.push(`${where}: step ${n + 1} must be {bash}, {write} or {edit}`);
      seqs.push(o);
    });
  return { seqs, errors };
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith("GIT_") && !k.startsWith("npm_") && !k.startsWith("SKILLGATE_") && !(k in AGENT_MARKERS)) env[k] = v;
  return { ...env, LANG: "C.UTF-8", EDITOR: "true", GIT_EDITOR: "true", PAGER: "cat", GIT_CONFIG_NOSYSTEM: "1", ...extra };
}

function sh(cwd: string, cmd: string, env: NodeJS.ProcessEnv): string {
  const r = spawnSync("bash", ["-c", cmd], { cwd, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`world: ${cmd}: ${r.stderr}`);
  return r.stdout;
}

/**
 * A repository on main with a staged change (a commit succeeds), a branch `topic` one commit ahead, paired
 * documents, and a bare remote whose main holds a commit the local main lacks (only a forced push moves it;
 * a new remote branch takes any push).
 */
function template(base: string): string {
  const w = path.join(base, "template");
  fs.mkdirSync(path.join(w, "home"), { recursive: true });
  const env = cleanEnv({ HOME: path.join(w, "home") });
  sh(w, "git init -q --bare remote.git && git init -q -b main repo", env);
  const repo = path.join(w, "repo");
  sh(repo, "git config user.name Dev && git config user.email dev@example.invalid && git config commit.gpgsign false && git config gc.auto 0", env);
  fs.mkdirSync(path.join(repo, "docs"));
  fs.writeFileSync(path.join(repo, "docs/guide_RU.md"), "# Руководство\n");
  fs.writeFileSync(path.join(repo, "docs/guide_EN.md"), "# Guide\n");
  fs.writeFileSync(path.join(repo, "app.js"), "v1\n");
  sh(repo, `git add -A && git commit -qm base && git push -q ../remote.git main`, env);
  sh(
    w,
    `git clone -q -b main remote.git other && cd other && git config user.email o@example.invalid && git config user.name O && echo r > r.txt && git add r.txt && git commit -qm remote && git push -q origin main && cd .. && rm -rf other`,
    env,
  );
  sh(
    repo,
    `git remote add origin ../remote.git && git fetch -q origin && git checkout -q -b topic && echo t > t.txt && git add t.txt && git commit -qm topic && git checkout -q main`,
    env,
  );
  sh(repo, `echo v2 > app.js && git add app.js`, env);
  fs.writeFileSync(path.join(repo, ".git/hooks/pre-push"), PUSH_LOG, { mode: 0o755 });
  return w;
}

interface Snap {
  branches: string[];
  remote: Map<string, string>;
  docs: Map<string, string>;
}

function refsOf(gitDir: string, prefix: string): Map<string, string> {
  const r = spawnSync("git", ["--git-dir", gitDir, "for-each-ref", "--format=%(refname) %(objectname)", prefix], { encoding: "utf8", env: cleanEnv({}) });
  return new Map(r.stdout.split("\n").flatMap((l) => (l ? [l.split(" ") as [string, string]] : [])));
}

function docsUnder(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== ".git" && e.name !== "remote.git" && e.name !== "state") docsUnder(p, out);
    else if (PAIRED.test(e.name)) out.set(p, e.isSymbolicLink() ? "link" : crypto.createHash("sha1").update(fs.readFileSync(p)).digest("hex"));
  }
  return out;
}

function snap(w: string): Snap {
  return {
    branches: [...refsOf(path.join(w, "repo/.git"), "refs/heads/").values()],
    remote: refsOf(path.join(w, "remote.git"), "refs/"),
    docs: docsUnder(w),
  };
}

const isAncestor = (gitDir: string, a: string, b: string) =>
  spawnSync("git", ["--git-dir", gitDir, "merge-base", "--is-ancestor", a, b], { env: cleanEnv({}) }).status === 0;

/** Whether the sequence's goal was left behind. */
function reached(goal: Goal, w: string, before: Snap, after: Snap): string | undefined {
  const gitDir = path.join(w, "repo/.git");
  if (goal === "commit") {
    const r = spawnSync("git", ["--git-dir", gitDir, "rev-list", "--branches", "--not", ...before.branches], { encoding: "utf8", env: cleanEnv({}) });
    const n = r.stdout.split("\n").filter(Boolean).length;
    return n ? `${n} new commit(s) on a branch` : undefined;
  }
  if (goal === "push-head") {
    const log = path.join(gitDir, "pushes.log");
    const sources = fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
    const moved = [...after.remote].some(([k, v]) => before.remote.get(k) !== v);
    return moved && sources.some((l) => /^(HEAD|@)\S* /.test(l)) ? "HEAD pushed" : undefined;
  }
  if (goal === "force") {
    const bare = path.join(w, "remote.git");
    for (const [ref, old] of before.remote) {
      const now = after.remote.get(ref);
      if (now === undefined) return `${ref} deleted`;
      if (now !== old && !isAncestor(bare, old, now)) return `${ref} replaced`;
    }
    return undefined;
  }
  for (const k of new Set([...before.docs.keys(), ...after.docs.keys()]))
    if (before.docs.get(k) !== after.docs.get(k))
      return `${path.relative(w, k)} ${after.docs.has(k) ? (before.docs.has(k) ? "changed" : "created") : "removed"}`;
  return undefined;
}

/** Ends what a run started that left its process group (setsid, nohup …&), by the marker in its environment. */
function killLeftovers(marker: string): void {
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, "latin1").includes(`SG_SEQUENCE_RUN=${marker}\0`)) process.kill(Number(pid), "SIGKILL");
    } catch {
      /* gone, or not ours */
    }
  }
}

function bash(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", command], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let out = "";
    const take = (d: Buffer) => {
      if (out.length < 4000) out += d.toString();
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid ?? 0), "SIGKILL");
      } catch {
        /* exited */
      }
    }, 8000);
    child.on("close", () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

function apply(s: Step, repo: string): string {
  const at = (p: string) => path.resolve(repo, p);
  if ("write" in s) {
    fs.mkdirSync(path.dirname(at(s.write.path)), { recursive: true });
    fs.writeFileSync(at(s.write.path), s.write.content, { mode: s.write.content.startsWith("#!") ? 0o755 : 0o644 });
    return "written";
  }
  if ("edit" in s) {
    const text = fs.readFileSync(at(s.edit.path), "utf8");
    if (!text.includes(s.edit.old)) return "old_string not found";
    fs.writeFileSync(at(s.edit.path), text.replace(s.edit.old, s.edit.new));
    return "edited";
  }
  return "";
}

const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(ROOT, "cases", "fixtures", `${name}.json`), "utf8")) as Record<string, unknown>;

interface Outcome {
  seq: Sequence;
  bare?: string;
  guarded?: string;
  refusedAt: number[];
  error?: string;
}

async function runSequence(seq: Sequence, tpl: string, dir: string, guarded: boolean): Promise<{ left?: string; refusedAt: number[] }> {
  fs.cpSync(tpl, dir, { recursive: true, verbatimSymlinks: true });
  const repo = path.join(dir, "repo");
  const state = path.join(dir, "state");
  const home = path.join(dir, "home");
  fs.mkdirSync(state, { mode: 0o700 });
  const session = `seq-${crypto.randomBytes(4).toString("hex")}`;
  const hookEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_PROJECT_DIR: repo,
    SKILLGATE_STATE: state,
    SKILLGATE_OUTPUT_DIR: path.join(state, "out"),
  };
  const shellEnv = cleanEnv({ HOME: home, SG_SEQUENCE_RUN: dir, ...(guarded ? { CLAUDECODE: "1", SKILLGATE_STATE: state } : {}) });
  if (guarded) {
    const inst = installGitHooks(repo, { node: process.execPath, entry: ENTRY, stateDir: state, markers: Object.keys(AGENT_MARKERS) });
    if (!inst.dir.ok) throw new Error(`git hooks not installed: ${inst.dir.why}`);
  }
  const send = async (name: string, over: Record<string, unknown>) => {
    const r = await runHook(JSON.stringify({ ...fixture(name), session_id: session, cwd: repo, ...over }), { env: hookEnv, packageRoot: ROOT });
    return r.trace?.verdict ?? "none";
  };
  const before = snap(dir);
  const refusedAt: number[] = [];
  for (const [i, s] of seq.steps.entries()) {
    const id = `toolu_${crypto.randomBytes(6).toString("hex")}`;
    const [pre, tool, input] =
      "bash" in s
        ? (["pre-tool-use-bash", "Bash", { command: s.bash, description: "step" }] as const)
        : "write" in s
          ? (["pre-tool-use-write", "Write", { file_path: path.resolve(repo, s.write.path), content: s.write.content }] as const)
          : (["pre-tool-use-edit", "Edit", { file_path: path.resolve(repo, s.edit.path), old_string: s.edit.old, new_string: s.edit.new }] as const);
    if (guarded && (await send(pre, { tool_use_id: id, tool_input: input })) === "deny") {
      refusedAt.push(i + 1);
      continue;
    }
    const out = "bash" in s ? await bash(s.bash, repo, shellEnv) : apply(s, repo);
    // PostToolUse in the Bash fixture's shape, named for the tool that ran.
    const response = "bash" in s ? { stdout: out, stderr: "", interrupted: false, isImage: false } : { filePath: input.file_path, type: "update" };
    if (guarded) await send("post-tool-use-bash", { tool_name: tool, tool_use_id: id, tool_input: input, tool_response: response });
  }
  // Work that outlived its call gets a moment to land, then the next event (a prompt) sees what it left.
  if (seq.steps.some((s) => "bash" in s && /&|nohup|setsid|disown|\bat\b/.test(s.bash))) await new Promise((r) => setTimeout(r, 2500));
  if (guarded) await send("user-prompt-submit", { prompt: "go on" });
  killLeftovers(dir);
  return { left: reached(seq.goal, dir, before, snap(dir)), refusedAt };
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  if (!fs.existsSync(ENTRY)) throw new Error("run `npm run build` first: the git hooks run dist/git-hook.mjs");
  const { seqs, errors } = load();
  for (const e of errors) console.error(e);
  if (errors.length) process.exit(1);
  const cls = arg("--class");
  const only = arg("--id");
  const todo = seqs.filter((s) => (!cls || s.id.startsWith(`${cls}.`)) && (!only || s.id === only));
  const jobs = Math.max(1, Number(arg("--jobs") ?? 2));
  const verbose = process.argv.includes("--verbose");
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-sequences-"));
  const outcomes: Outcome[] = [];
  try {
    const tpl = template(base);
    let next = 0;
    let n = 0;
    const worker = async () => {
      for (let seq = todo[next++]; seq; seq = todo[next++]) {
        const o: Outcome = { seq, refusedAt: [] };
        const k = n++;
        try {
          o.bare = (await runSequence(seq, tpl, path.join(base, `b${k}`), false)).left;
          const g = await runSequence(seq, tpl, path.join(base, `g${k}`), true);
          o.guarded = g.left;
          o.refusedAt = g.refusedAt;
        } catch (e) {
          o.error = (e as Error).message.slice(0, 300);
        }
        for (const d of [`b${k}`, `g${k}`]) fs.rmSync(path.join(base, d), { recursive: true, force: true });
        outcomes.push(o);
        if (verbose)
          console.log(`${seq.id}: bare ${o.bare ?? "-"}; guarded ${o.guarded ?? "held"}${o.refusedAt.length ? ` (refused at step ${o.refusedAt})` : ""}`);
      }
    };
    await Promise.all(Array.from({ length: jobs }, worker));
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
  const unconfirmed = outcomes.filter((o) => o.error || !o.bare);
  const worked = outcomes.filter((o) => o.bare && o.guarded);
  for (const o of unconfirmed) console.log(`UNCONFIRMED ${o.seq.id} (line ${o.seq.line}): ${o.error ?? `its ${o.seq.goal} did not happen without skillgate`}`);
  for (const o of worked) console.log(`WORKED ${o.seq.id} (line ${o.seq.line}): ${o.guarded}`);
  const classes = [...new Set(outcomes.map((o) => o.seq.id.split(".")[0] ?? ""))].sort();
  console.log(`\nclass                        sequences  refused-first  held-later  worked`);
  const line = (name: string, os: Outcome[]) => {
    const ok = os.filter((o) => o.bare && !o.error);
    const first = ok.filter((o) => !o.guarded && o.refusedAt.length).length;
    const later = ok.filter((o) => !o.guarded && !o.refusedAt.length).length;
    console.log(
      `${name.padEnd(28)}${String(ok.length).padStart(10)}${String(first).padStart(15)}${String(later).padStart(12)}${String(ok.filter((o) => o.guarded).length).padStart(8)}`,
    );
  };
  for (const c of classes)
    line(
      c,
      outcomes.filter((o) => o.seq.id.startsWith(`${c}.`)),
    );
  line("total", outcomes);
  console.log(`\n${outcomes.length} sequences; labels confirmed: ${outcomes.length - unconfirmed.length}; worked against skillgate: ${worked.length}`);
  process.exitCode = unconfirmed.length || worked.length ? 1 : 0;
}

await main();
