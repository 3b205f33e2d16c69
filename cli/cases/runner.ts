// Runs cases through the hook's own entry point, runHook(): in-process for
// every case (milliseconds each, what `skillgate cases` and the mutation
// tester use), or through a spawned hook process (dist/hook.mjs under Node or
// Bun) for the smoke that proves the shipped bundle behaves the same.
// Expectations are checked against the hook's structured trace (verdict,
// rows, matched, state) — never against wording, except messageIncludes.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { HookTrace } from "../../hooks/runner/hook.js";
import { runHook } from "../../hooks/entries/claude-code.js";
import { emptyState } from "../../hooks/core/types.js";
import { STATE_KEYS, type Case, type Verdict } from "./format.js";
import { claudeCodeAnswer } from "./hosts/claude-code.js";

/** What one hook run gave back: its output, and its trace when it decided (a failure path decides nothing). */
export interface Ran {
  stdout: string;
  stderr: string;
  trace?: HookTrace;
}

export type Invoke = (input: string, env: NodeJS.ProcessEnv) => Promise<Ran>;

/**
 * In-process: the same runHook() the hook executable calls. Tests under tsx
 * pass a bundled copy (scripts/fuzz.ts loadEngine): there every dynamic
 * import the engine does per event is a round trip to tsx's loader thread.
 */
export function inProcessInvoker(packageRoot: string, run: typeof runHook = runHook): Invoke {
  return (input, env) => run(input, { env, packageRoot });
}

const TRACE_PREFIX = "skillgate-trace ";

/** Spawn `<command...>` with the event on stdin, as the client does; the trace comes from the `skillgate-trace` stderr line. */
export function processInvoker(command: string[]): Invoke {
  const [exe, ...args] = command;
  if (!exe) throw new Error("processInvoker: empty command");
  return (input, env) =>
    new Promise((resolve, reject) => {
      const child = spawn(exe, args, { env: { ...env, SKILLGATE_TRACE: "1" }, stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("error", reject);
      child.on("close", (code) => {
        if (code !== 0) return reject(new Error(`hook exited ${code}: ${stderr}`));
        const line = stderr.split("\n").find((l) => l.startsWith(TRACE_PREFIX));
        const trace = line ? (JSON.parse(line.slice(TRACE_PREFIX.length)) as HookTrace) : undefined;
        resolve({ stdout: stdout.trim(), stderr: stderr.split("\n").filter((l) => !l.startsWith(TRACE_PREFIX)).join("\n"), trace });
      });
      child.stdin.end(input);
    });
}

/** A run, read: verdict, rows, matched and state from the trace; the texts from the host's answer. */
export interface Observed {
  verdict: Verdict;
  rows: string[];
  matched: string[];
  /** Absent when the run decided nothing (a broken table, a bad event): then no row and no state. */
  state?: HookTrace["state"];
  /** What the model gets. */
  message: string;
  /** What only the user sees. */
  notice: string;
  /** The verdict the host's answer expresses (must agree with the trace's). */
  rendered: Verdict;
  /** The event the answer says it is for, when it says. */
  eventName?: string;
}

export function observe(ran: Ran): Observed {
  const a = claudeCodeAnswer(ran.stdout);
  const t = ran.trace;
  return { verdict: t?.verdict ?? a.verdict, rows: t?.rows ?? [], matched: t?.matched ?? [], state: t?.state, message: a.message, notice: a.notice, rendered: a.verdict, eventName: a.eventName };
}

export interface CaseResult {
  id: string;
  ok: boolean;
  failures: string[];
}

export interface RunOptions {
  /** The table under test (cases with their own table use theirs). */
  table: string;
  invoke: Invoke;
  /** State folder shared by the run (sessions are per case); made and removed when absent. */
  stateDir?: string;
}

let runs = 0;

/** Scratch space for state folders: memory-backed where there is one (thousands of small state writes in a mutation run). */
export function scratchDir(prefix: string): string {
  for (const base of ["/dev/shm", os.tmpdir()]) {
    try {
      fs.accessSync(base, fs.constants.W_OK);
      return fs.mkdtempSync(path.join(base, prefix));
    } catch {
      /* next */
    }
  }
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function runCase(c: Case, opts: RunOptions): Promise<CaseResult> {
  const own = opts.stateDir === undefined;
  const stateDir = opts.stateDir ?? scratchDir("skillgate-case-");
  const failures: string[] = [];
  try {
    const sessionId = `case-${c.id.replace(/[^A-Za-z0-9_-]/g, "-")}-${process.pid}-${++runs}`;
    if (c.state) fs.writeFileSync(path.join(stateDir, `${sessionId}.json`), JSON.stringify({ ...emptyState(), ...c.state }), { mode: 0o600 });
    // Only what the hook needs: the developer's own skills, project or plugin must not change a case's outcome.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: path.join(stateDir, "home"),
      SKILLGATE_STATE: stateDir,
      SKILLGATE_OUTPUT_DIR: path.join(stateDir, "outputs"),
      SKILLGATE_TABLE: c.table ?? opts.table,
    };
    let last: HookTrace["state"] | undefined;
    for (const [i, step] of c.steps.entries()) {
      const payload: Record<string, unknown> = step.ownSession ? step.payload : { ...step.payload, session_id: sessionId };
      const where = `step ${i + 1} (${step.label})`;
      const got = observe(await opts.invoke(JSON.stringify(payload), env));
      if (got.state) last = got.state;
      if (got.rendered !== got.verdict) failures.push(`${where}: the trace says ${got.verdict} but the answer says ${got.rendered}`);
      // The client reads hookSpecificOutput only for the event it belongs to.
      if (got.eventName !== undefined && got.eventName !== payload.hook_event_name) failures.push(`${where}: hookSpecificOutput.hookEventName is ${got.eventName}, the event is ${String(payload.hook_event_name)}`);
      const e = step.expect;
      if (got.verdict !== e.verdict || got.rows.join(",") !== e.rows.join(",")) {
        failures.push(`${where}: expected ${e.verdict} [${e.rows.join(", ")}], got ${got.verdict} [${got.rows.join(", ")}]${got.message ? `: ${got.message.slice(0, 200)}` : ""}`);
      }
      if (e.matched && got.matched.join(",") !== e.matched.join(",")) failures.push(`${where}: expected matched [${e.matched.join(", ")}], got [${got.matched.join(", ")}]`);
      for (const text of [e.messageIncludes ?? []].flat()) if (!got.message.includes(text)) failures.push(`${where}: the message lacks "${text}": ${got.message.slice(0, 200)}`);
      for (const text of [e.noticeIncludes ?? []].flat()) if (!got.notice.includes(text)) failures.push(`${where}: the user notice lacks "${text}": ${got.notice.slice(0, 200)}`);
    }
    if (c.expectState) {
      for (const k of STATE_KEYS) {
        const want = c.expectState[k];
        if (want === undefined) continue;
        const actual = last?.[k];
        if (JSON.stringify(actual) !== JSON.stringify(want)) failures.push(`final state ${k}: expected ${JSON.stringify(want)}, got ${JSON.stringify(actual)}`);
      }
    }
  } catch (e) {
    failures.push(`could not run: ${(e as Error).message}`);
  } finally {
    if (own) fs.rmSync(stateDir, { recursive: true, force: true });
  }
  return { id: c.id, ok: failures.length === 0, failures };
}

/**
 * Run cases, `parallel` at a time (1 for in-process: runHook is CPU-bound),
 * sharing one state folder (so the validated table is cached once per run).
 */
export async function runCases(cases: Case[], opts: RunOptions & { parallel?: number }): Promise<CaseResult[]> {
  const stateDir = opts.stateDir ?? scratchDir("skillgate-cases-");
  try {
    const results: CaseResult[] = new Array(cases.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < cases.length; i = next++) {
        const c = cases[i];
        if (c) results[i] = await runCase(c, { ...opts, stateDir });
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, opts.parallel ?? 1) }, worker));
    return results;
  } finally {
    if (opts.stateDir === undefined) fs.rmSync(stateDir, { recursive: true, force: true });
  }
}
