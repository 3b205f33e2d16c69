// The git hooks' entry (dist/git-hook.mjs), run by the script `skillgate
// install` puts into the repository's hooks folder — only when that script saw
// an agent's environment marker or a live ticket (a person's commit never
// starts node otherwise). Exit 0: git goes on; exit 1: git aborts the
// transaction (reference-transaction, state `prepared`) or the push (pre-push),
// and what is printed on stderr reaches the model as the command's output.
import fs from "node:fs";
import path from "node:path";
import { stateDirPath } from "../io/state-dir.js";
import { environment as claudeEnvironment } from "../hosts/claude-code/env.js";
import { cleanTickets } from "../io/tickets.js";
import { cleanPersonsUpdates, notePersonsUpdates } from "../io/persons-updates.js";
import { AGENT_MARKERS, callerOf, type Caller } from "./caller.js";
import { check, pushCommand, type Verdict } from "./check.js";
import { commitEffects, parsePushUpdates, parseRefUpdates, pushFacts, realGit, type Git } from "./refs.js";

export interface GitHookRun {
  /** reference-transaction or pre-push. */
  hook: string;
  args: string[];
  stdin: string;
  env: NodeJS.ProcessEnv;
  pid: number;
  /** The repository's top folder (git runs a hook there). */
  top: string;
  git?: Git;
  /** The parent git process's arguments (pre-push: --force-with-lease or not), when known. */
  gitArgs?: string[];
}

export interface GitHookResult {
  exit: 0 | 1;
  stderr: string;
}

/** The state folders tickets can be in: the inherited environment's, and the one install wrote into the script. */
export function stateDirsOf(env: NodeJS.ProcessEnv): string[] {
  // Claude Code's plugin keeps its state under $CLAUDE_PLUGIN_DATA (its Host says so); other hosts' is the default.
  const dirs = [stateDirPath(env, claudeEnvironment(env).dataDir), env.SKILLGATE_GIT_HOOK_STATE].filter((d): d is string => !!d).map((d) => path.resolve(d));
  return [...new Set(dirs)];
}

export async function runGitHook(r: GitHookRun): Promise<GitHookResult> {
  if (r.hook === "reference-transaction" && r.args[0] !== "prepared") return { exit: 0, stderr: "" };
  if (r.hook !== "reference-transaction" && r.hook !== "pre-push") return { exit: 0, stderr: "" };
  const stateDirs = stateDirsOf(r.env);
  const caller = callerOf({ env: r.env, stateDirs, pid: r.pid, top: r.top });
  for (const d of stateDirs) {
    try {
      cleanTickets(d);
      cleanPersonsUpdates(d);
    } catch {
      /* housekeeping only */
    }
  }
  if (caller.kind === "person") {
    // The agent's effects audit, comparing its call's refs before and after, must not take this for the agent's.
    notePersons(r, stateDirs);
    return { exit: 0, stderr: "" };
  }
  const git = r.git ?? realGit;
  // Each effect as the shell call that would have it.
  const commands: string[] = [];
  let what = "";
  if (r.hook === "reference-transaction") {
    const fresh = commitEffects(parseRefUpdates(r.stdin), git);
    if (fresh.length === 0) return { exit: 0, stderr: "" };
    const branch = fresh.find((u) => u.ref !== "HEAD")?.ref ?? "HEAD";
    what = `a new commit on ${branch.replace(/^refs\/heads\//, "")} (${fresh[0]?.new.slice(0, 12)})`;
    commands.push("git commit");
  } else {
    const remote = r.args[0] ?? "origin";
    const lease =
      (r.gitArgs ?? []).some((a) => a.startsWith("--force-with-lease")) &&
      !(r.gitArgs ?? []).some((a) => a === "--force" || a === "-f" || /^-[a-z]*f/.test(a) || a.startsWith("+"));
    const pushes = pushFacts(parsePushUpdates(r.stdin), git);
    if (pushes.length === 0) return { exit: 0, stderr: "" };
    for (const p of pushes) commands.push(pushCommand(remote, p, lease));
    what = `a push to ${remote} (${pushes.map((p) => `${p.localRef} → ${p.remoteRef}${p.deletion ? ", a deletion" : p.force ? ", not a fast-forward" : ""}`).join("; ")})`;
  }
  if (caller.kind === "forged-ticket") {
    return refuse(
      `skillgate: git refused ${what}: ${caller.bad.file} claims to be a shell call of this agent but ${caller.bad.why}. ` +
        `Something other than skillgate's hook wrote it, so it cannot say which skills are loaded. ` +
        `The user can remove it; then run the git command as a shell tool call of your session, in the foreground, after loading the skill the table asks for.`,
    );
  }
  if (caller.kind === "unknown-agent") {
    return refuse(
      `skillgate: git refused ${what}: it comes from an agent (${caller.marker} is set, ${AGENT_MARKERS[caller.marker]}'s shell) but from no shell call skillgate knows of, ` +
        `so it cannot tell which skills are loaded. Run the git command as a shell tool call of your session, in the foreground, after loading the skill the table asks for.`,
    );
  }
  for (const found of caller.tickets) {
    for (const command of commands) {
      let v: Verdict;
      try {
        v = await check(found.ticket, found.stateDir, command);
      } catch (e) {
        v = { refused: true, message: `skillgate: the check failed (${(e as Error).message})`, rows: [] };
      }
      if (v.refused) return refuse(`skillgate: git refused ${what} made by ${whose(caller, found.ticket)}, the same as \`${command}\`:\n${v.message}`);
    }
  }
  return { exit: 0, stderr: "" };
}

/** A person's commit or push, noted in each state folder that exists (only there can an agent's call be running). */
function notePersons(r: GitHookRun, stateDirs: string[]): void {
  const updates =
    r.hook === "reference-transaction"
      ? parseRefUpdates(r.stdin).map((u) => ({ ref: u.ref, oid: u.new }))
      : parsePushUpdates(r.stdin).map((u) => ({ ref: u.remoteRef, oid: u.localOid }));
  for (const d of stateDirs) {
    try {
      if (fs.existsSync(d)) notePersonsUpdates(d, updates);
    } catch {
      /* a record only: the person's git command goes on */
    }
  }
}

function whose(c: Extract<Caller, { kind: "agent" }>, t: { agentId?: string; toolUseId: string }): string {
  const agent = t.agentId ? `subagent ${t.agentId}` : "the main agent";
  if (c.how === "live call") return `${agent}'s shell call ${t.toolUseId}`;
  if (c.how === "background of a call") return `${agent} (work its shell call ${t.toolUseId} left running)`;
  return `${agent} (work running outside its calls; its latest shell call is ${t.toolUseId})`;
}

const refuse = (message: string): GitHookResult => ({ exit: 1, stderr: message.endsWith("\n") ? message : `${message}\n` });

function readAllStdin(): string {
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(65536);
  for (;;) {
    let n = 0;
    try {
      n = fs.readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") continue;
      if (code === "EOF") break;
      throw e;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString("utf8");
}

export async function main(argv = process.argv.slice(2)): Promise<void> {
  let result: GitHookResult;
  try {
    const [hook = "", ...args] = argv;
    // The hook script runs in the repository's top folder; node's parent is the script's shell, git is above it.
    const gitArgs = argsOfParentOf(process.ppid);
    result = await runGitHook({ hook, args, stdin: readAllStdin(), env: process.env, pid: process.pid, top: process.cwd(), ...(gitArgs ? { gitArgs } : {}) });
  } catch (e) {
    // The caller is an agent (the script checked): a failure here must not let its commit through unchecked.
    result = refuse(`skillgate: the git hook failed (${(e as Error).message}); refusing. Run \`skillgate doctor\`.`);
  }
  if (result.stderr) fs.writeSync(2, result.stderr);
  process.exit(result.exit);
}

/** The git process's arguments (Linux): how the push was asked for (--force-with-lease or not). */
function argsOfParentOf(scriptPid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${scriptPid}/stat`, "latin1");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return fs.readFileSync(`/proc/${ppid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return undefined;
  }
}

if (process.argv[1] && /git-hook\.(mjs|cjs|ts)$/.test(process.argv[1])) void main();
