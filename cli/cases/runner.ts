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
import { emptyState, type Event } from "../../hooks/core/types.js";
import type { Host } from "../../hooks/core/host.js";
import { claudeCode, normalize as claudeNormalize } from "../../hooks/hosts/claude-code/adapter.js";
import { claudePromptSize } from "../../hooks/hosts/claude-code/prompt-size.js";
import { skillName } from "../../hooks/core/match.js";
import { STATE_KEYS, type Case, type Verdict } from "./format.js";
import { claudeCodeCases } from "./hosts/claude-code.js";
import type { Answer, CaseHost } from "./hosts/host.js";

/** What one hook run gave back: its output, and its trace when it decided (a failure path decides nothing). */
export interface Ran {
  stdout: string;
  stderr: string;
  trace?: HookTrace;
}

/** `host`: the adapter that reads this input (default Claude Code's). */
export type Invoke = (input: string, env: NodeJS.ProcessEnv, host?: Host) => Promise<Ran>;

/**
 * In-process: the same runHook() the hook executable calls. Tests under tsx
 * pass a bundled copy (scripts/fuzz.ts loadEngine): there every dynamic
 * import the engine does per event is a round trip to tsx's loader thread.
 */
export function inProcessInvoker(packageRoot: string, run: typeof runHook = runHook): Invoke {
  return (input, env, host) => run(input, { env, packageRoot, ...(host ? { host } : {}) });
}

const TRACE_PREFIX = "skillgate-trace ";

/** Spawn `<command...>` with the event on stdin, as the client does; the trace comes from the `skillgate-trace` stderr line. */
export function processInvoker(command: string[]): Invoke {
  const [exe, ...args] = command;
  if (!exe) throw new Error("processInvoker: empty command");
  return (input, env, host) =>
    new Promise((resolve, reject) => {
      // The built hook this spawns is Claude Code's.
      if (host && host !== claudeCode) return reject(new Error(`the process runner plays Claude Code payloads only, not ${host.name}'s`));
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
        resolve({
          stdout: stdout.trim(),
          stderr: stderr
            .split("\n")
            .filter((l) => !l.startsWith(TRACE_PREFIX))
            .join("\n"),
          trace,
        });
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
  /** What only the user sees (undefined: this answer has no such channel). */
  notice?: string;
  /** The verdicts the host's answer can mean (the trace's must be one of them). */
  rendered: Verdict[];
  /** The event the answer says it is for, when it says. */
  eventName?: string;
}

export function observe(ran: Ran, read: (stdout: string) => Answer = (out) => claudeCodeCases.answer(out)): Observed {
  const a = read(ran.stdout);
  const t = ran.trace;
  const verdict = t?.verdict ?? a.verdicts[0] ?? "allow";
  return {
    verdict,
    rows: t?.rows ?? [],
    matched: t?.matched ?? [],
    state: t?.state,
    message: a.message,
    ...(a.notice !== undefined ? { notice: a.notice } : {}),
    rendered: a.verdicts,
    ...(a.eventName !== undefined ? { eventName: a.eventName } : {}),
  };
}

export interface CaseResult {
  id: string;
  /** The host the case ran on. */
  host: string;
  ok: boolean;
  failures: string[];
  /** The case could not run on this host, and why (ok is then true: nothing failed, nothing passed). */
  skipped?: string;
  /** Expectations this host cannot meet, left unchecked, each with its step and reason. */
  unchecked: string[];
}

export interface RunOptions {
  /** The table under test (cases with their own table use theirs). */
  table: string;
  invoke: Invoke;
  /** State folder shared by the run (sessions are per case); made and removed when absent. */
  stateDir?: string;
  /** The host whose payloads the case is played as (default Claude Code). */
  host?: CaseHost;
  /** The table's skills folder (hosts with no skill tool load a skill by reading its SKILL.md there). */
  skillsDir?: string;
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

/** A step as the host sends it: its payload and adapter, or why the host cannot send it. */
type Play = { payload: Record<string, unknown>; host: Host; event?: Event } | { unplayable: string } | { ignored: true };

/**
 * The engine event of a step (read by Claude Code's adapter from the step's payload), then the host's
 * payload for it. Details only Claude Code's payloads carry make the step unplayable elsewhere. A step whose
 * prompt size comes from a transcript gets one in the host's own format, with the same size (scratch: where).
 */
function play(host: CaseHost, payload: Record<string, unknown>, skillsDir: string, scratch: string): Play {
  if (host.native) return { payload, host: host.adapter };
  const n = claudeNormalize(payload);
  if (!n.ok) return n.ignored ? { ignored: true } : { unplayable: `not an event: ${n.error}` };
  const e = n.event;
  const transcript = n.transcriptPath && fs.existsSync(n.transcriptPath) ? hostTranscript(host, n.transcriptPath, scratch) : undefined;
  if (typeof transcript === "string") return { unplayable: transcript };
  const only = claudeCodeOnly(e);
  if (only) return { unplayable: only };
  const encoded = host.encode(e, { skillsDir });
  if ("unplayable" in encoded) return encoded;
  return { ...encoded, payload: transcript ? { ...encoded.payload, [transcript.field]: transcript.file } : encoded.payload, event: e };
}

/** The case's Claude Code transcript as this host writes its own: a file with one line of the same prompt size (or why not). */
function hostTranscript(host: CaseHost, claudeFile: string, scratch: string): { field: string; file: string } | string {
  if (!host.transcript) return `${host.name}'s prompt size does not come from a transcript`;
  const lines = fs.readFileSync(claudeFile, "utf8").split("\n");
  let tokens: number | undefined;
  for (let i = lines.length - 1; i >= 0 && tokens === undefined; i--) tokens = claudePromptSize.fromLine(lines[i] ?? "");
  if (tokens === undefined) return "the case's transcript carries no prompt size";
  const file = path.join(scratch, `transcript-${host.name}-${tokens}.jsonl`);
  if (!fs.existsSync(file)) fs.writeFileSync(file, `${host.transcript.line(tokens)}\n`, { mode: 0o600 });
  return { field: host.transcript.field, file };
}

/** What an engine event says that only Claude Code's payloads say. */
function claudeCodeOnly(e: Event): string | undefined {
  if ("tool" in e && e.tool.kind === "shell" && e.tool.background) return "a shell call run in the background (Claude Code's run_in_background)";
  if (e.kind === "tool-result" && e.unfinished)
    return `a tool result that says the call was ${e.unfinished === "background" ? "moved to the background" : "interrupted"} (Claude Code's)`;
  if (e.kind === "tool-result" && e.output?.persistedPath) return "an output Claude Code saved to a file itself";
  if ((e.kind === "tool-result" || e.kind === "prompt") && e.contextTokens !== undefined) return "the prompt size Claude Code's event carries";
  if (e.kind === "prompt" && e.prompt === undefined) return "a background task's notification (Claude Code's)";
  return undefined;
}

/**
 * A message text that is part of Claude Code's own instructions for loading a skill (`Skill tool with skill
 * "commit"`) is checked as the host's own instructions for that skill: each host says it in its tool names.
 */
function hostWording(text: string, host: CaseHost, skillsDir: string): string {
  if (host.native) return text;
  const skill = /skill "([^"]+)"/.exec(text)?.[1];
  if (!skill) return text;
  const file = path.join(skillsDir, skillName(skill), "SKILL.md");
  return claudeCode.howToLoad(skill, file).includes(text) ? host.adapter.howToLoad(skill, file) : text;
}

/** Rows that record or require evidence need the host to report a check's exit status. */
const evidenceTables = new Map<string, boolean>();
function usesEvidence(table: string): boolean {
  let v = evidenceTables.get(table);
  if (v === undefined) {
    try {
      const rows = (JSON.parse(fs.readFileSync(table, "utf8")) as { rows?: { kind?: unknown; require?: unknown }[] }).rows ?? [];
      v = rows.some((r) => r?.kind === "evidence" || (r?.kind === "gate" && r.require !== undefined));
    } catch {
      v = false;
    }
    evidenceTables.set(table, v);
  }
  return v;
}

export async function runCase(c: Case, opts: RunOptions): Promise<CaseResult> {
  const host = opts.host ?? claudeCodeCases;
  const own = opts.stateDir === undefined;
  const stateDir = opts.stateDir ?? scratchDir("skillgate-case-");
  const failures: string[] = [];
  const unchecked: string[] = [];
  const table = c.table ?? opts.table;
  try {
    const notOn = c.notOn?.[host.name as keyof NonNullable<Case["notOn"]>];
    if (notOn) return { id: c.id, host: host.name, ok: true, failures, unchecked, skipped: `the case says it does not hold here: ${notOn}` };
    if (!host.native && !host.adapter.capabilities.reportsExitStatus && usesEvidence(table)) {
      return {
        id: c.id,
        host: host.name,
        ok: true,
        failures,
        unchecked,
        skipped: `its table records checks as evidence, and ${host.name}'s adapter does not say it reports a shell call's exit status (capabilities.reportsExitStatus)`,
      };
    }
    const sessionId = `case-${c.id.replace(/[^A-Za-z0-9_-]/g, "-")}-${process.pid}-${++runs}`;
    // Every step first: a case runs on a host only if the host can send each of its events.
    const plays: Exclude<Play, { unplayable: string }>[] = [];
    for (const [i, step] of c.steps.entries()) {
      const payload: Record<string, unknown> = step.ownSession ? step.payload : { ...step.payload, session_id: sessionId };
      const p = play(host, payload, opts.skillsDir ?? "", stateDir);
      if ("unplayable" in p) return { id: c.id, host: host.name, ok: true, failures, unchecked, skipped: `step ${i + 1} (${step.label}): ${p.unplayable}` };
      plays.push(p);
    }
    if (c.state) fs.writeFileSync(path.join(stateDir, `${sessionId}.json`), JSON.stringify({ ...emptyState(), ...c.state }), { mode: 0o600 });
    // Only what the hook needs: the developer's own skills, project or plugin must not change a case's outcome.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: path.join(stateDir, "home"),
      SKILLGATE_STATE: stateDir,
      SKILLGATE_OUTPUT_DIR: path.join(stateDir, "outputs"),
      SKILLGATE_TABLE: table,
    };
    let last: HookTrace["state"] | undefined;
    for (const [i, step] of c.steps.entries()) {
      const p = plays[i]!;
      const where = `step ${i + 1} (${step.label})`;
      const e = step.expect;
      // An event the host's adapter ignores as Claude Code's does: nothing is sent, nothing decided.
      const got: Observed =
        "ignored" in p
          ? { verdict: "allow", rows: [], matched: [], message: "", notice: "", rendered: ["allow"] }
          : observe(await opts.invoke(JSON.stringify(p.payload), env, p.host), (out) => host.answer(out, p.event));
      if (got.state) last = got.state;
      if (!got.rendered.includes(got.verdict)) failures.push(`${where}: the trace says ${got.verdict} but the answer says ${got.rendered.join(" or ")}`);
      // The client reads hookSpecificOutput only for the event it belongs to.
      const eventName = "payload" in p ? p.payload.hook_event_name : undefined;
      if (got.eventName !== undefined && got.eventName !== eventName)
        failures.push(`${where}: hookSpecificOutput.hookEventName is ${got.eventName}, the event is ${String(eventName)}`);
      const cannot = "event" in p && p.event ? host.cannot?.(e.verdict, p.event) : undefined;
      if (cannot) {
        unchecked.push(`${where}: expects ${e.verdict}, but ${cannot}`);
        continue;
      }
      if (got.verdict !== e.verdict || got.rows.join(",") !== e.rows.join(",")) {
        failures.push(
          `${where}: expected ${e.verdict} [${e.rows.join(", ")}], got ${got.verdict} [${got.rows.join(", ")}]${got.message ? `: ${got.message.slice(0, 200)}` : ""}`,
        );
      }
      if (e.matched && got.matched.join(",") !== e.matched.join(","))
        failures.push(`${where}: expected matched [${e.matched.join(", ")}], got [${got.matched.join(", ")}]`);
      for (const text of [e.messageIncludes ?? []].flat().map((t) => hostWording(t, host, opts.skillsDir ?? "")))
        if (!got.message.includes(text)) failures.push(`${where}: the message lacks "${text}": ${got.message.slice(0, 200)}`);
      const notices = [e.noticeIncludes ?? []].flat();
      if (notices.length && got.notice === undefined) unchecked.push(`${where}: noticeIncludes, but ${host.name} has no user-only channel here`);
      else
        for (const text of notices)
          if (!(got.notice ?? "").includes(text)) failures.push(`${where}: the user notice lacks "${text}": ${(got.notice ?? "").slice(0, 200)}`);
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
  return { id: c.id, host: host.name, ok: failures.length === 0, failures, unchecked };
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
