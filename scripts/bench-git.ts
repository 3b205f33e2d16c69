// A person's `git commit` with and without skillgate's git hooks (docs/git-hooks.md):
// the hook script decides "not an agent" with shell builtins, so the difference is
// a few sh starts per commit (reference-transaction runs per transaction and state).
// Also shown, for scale: the same commit while an agent's shell call is live (the
// script then starts node, which finds the caller is no descendant of that agent).
// Run alone: node --import tsx scripts/bench-git.ts [--samples N]; `npm run bench` runs it too.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { installGitHooks } from "../hooks/io/git-hooks.js";
import { AGENT_MARKERS } from "../hooks/effects/caller.js";
import { writeTicket } from "../hooks/io/tickets.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export function gitCommitBench(samples: number): string[] {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-bench-git-state-"));
  const env: NodeJS.ProcessEnv = { ...process.env, SKILLGATE_STATE: state, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };
  for (const k of Object.keys(AGENT_MARKERS)) delete env[k];
  const repo = (hooks: boolean) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-bench-git-"));
    for (const a of [
      ["init", "-q", "-b", "main"],
      ["config", "user.name", "B"],
      ["config", "user.email", "b@example.invalid"],
      ["commit", "--allow-empty", "-qm", "init"],
    ])
      spawnSync("git", a, { cwd: dir, env });
    if (hooks)
      installGitHooks(dir, { node: process.execPath, entry: path.join(root, "dist", "git-hook.mjs"), stateDir: state, markers: Object.keys(AGENT_MARKERS) });
    return dir;
  };
  const plain = repo(false),
    hooked = repo(true);
  const commit = (dir: string) => {
    const t0 = performance.now();
    const r = spawnSync("git", ["commit", "--allow-empty", "-qm", "bench"], { cwd: dir, env });
    if (r.status !== 0) throw new Error(`git commit failed in ${dir}: ${r.stderr}`);
    return performance.now() - t0;
  };
  const a: number[] = [],
    b: number[] = [],
    c: number[] = [],
    sh: number[] = [];
  const spawnSh = () => {
    const t0 = performance.now();
    spawnSync("/bin/sh", ["-c", ":"], { env });
    return performance.now() - t0;
  };
  for (let i = 0; i < samples; i++) a.push(commit(plain)), b.push(commit(hooked)), sh.push(spawnSh());
  // A live ticket of a client that is not this commit's ancestor (pid 1): node starts, then lets the person's commit pass.
  writeTicket(state, {
    v: 1,
    host: "claude-code",
    sessionId: "bench",
    toolUseId: "toolu_bench",
    tool: "Bash",
    cwd: hooked,
    client: { pid: 1, start: 0 },
    at: Date.now(),
    packageRoot: root,
    env: {},
  });
  for (let i = 0; i < Math.max(3, Math.floor(samples / 3)); i++) c.push(commit(hooked));
  for (const d of [plain, hooked, state]) fs.rmSync(d, { recursive: true, force: true });
  const [ma, mb, mc, ms] = [median(a), median(b), median(c), median(sh)];
  return [
    `\n## a person's git commit --allow-empty, ${samples} alternating samples (goal: ≤ 20 ms more with the git hooks)`,
    `without skillgate's git hooks   median ${ma.toFixed(1)} ms`,
    `with them (no agent marker)     median ${mb.toFixed(1)} ms   (+${(mb - ma).toFixed(1)} ms)`,
    `for scale: one \`sh -c :\` start   median ${ms.toFixed(1)} ms (git runs the script twice per commit: prepared, committed; ${os.loadavg()[0]?.toFixed(1)} load)`,
    `with them, an agent call live   median ${mc.toFixed(1)} ms   (+${(mc - ma).toFixed(1)} ms: node starts and finds no agent above the commit)`,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const argv = process.argv.slice(2);
  console.log(gitCommitBench(Number(argv[argv.indexOf("--samples") + 1]) || 30).join("\n"));
}
