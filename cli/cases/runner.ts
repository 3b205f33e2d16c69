// Runs JSON cases through the real hook: either a spawned hook process (what
// Claude Code runs) or the same runHook() in-process (for the mutation
// tester, which runs every case once per table row). Either way the verdict
// and rows are read back from the hook's real stdout.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runHook } from "../../hooks/runner/hook.js";
import { emptyState } from "../../hooks/core/types.js";
import { deepMerge, loadFixture, type Case, type StepExpect } from "./format.js";

export type Invoke = (input: string, env: NodeJS.ProcessEnv) => Promise<{ stdout: string; stderr: string }>;

/** Spawn `<command...> ` with the event on stdin, as Claude Code does. */
export function processInvoker(command: string[]): Invoke {
  return (input, env) =>
    new Promise((resolve, reject) => {
      const child = spawn(command[0]!, command.slice(1), { env, stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve({ stdout, stderr }) : reject(new Error(`hook exited ${code}: ${stderr}`))));
      child.stdin.end(input);
    });
}

export function inProcessInvoker(packageRoot: string): Invoke {
  return (input, env) => runHook(input, { env, packageRoot });
}

export interface Observed {
  verdict: StepExpect["verdict"];
  rows: string[];
  message: string;
  /** systemMessage: what the user (not the model) is told. */
  notice: string;
  matched: string[];
  state?: { loaded: string[]; hintsShown: string[]; compactions: number };
}

/** Read the verdict back from Claude Code's output JSON, rows from the `skillgate[...]` tags. */
export function observe(stdout: string, stderr: string): Observed {
  const out = stdout.trim() ? (JSON.parse(stdout) as Record<string, any>) : {};
  const hso = out.hookSpecificOutput ?? {};
  let verdict: Observed["verdict"] = "allow";
  let message = "";
  if (hso.permissionDecision === "deny") [verdict, message] = ["deny", hso.permissionDecisionReason];
  else if (out.decision === "block") [verdict, message] = ["block", out.reason];
  else if (hso.updatedToolOutput) [verdict, message] = ["cap", `${JSON.stringify(hso.updatedToolOutput)}\n${hso.additionalContext ?? ""}`];
  else if (hso.additionalContext) [verdict, message] = ["hint", hso.additionalContext];
  const rows = [...String(message).matchAll(/skillgate\[([^\]]+)\]/g)].flatMap((m) => m[1]!.split(","));
  const traceLine = stderr.split("\n").find((l) => l.startsWith("skillgate-trace "));
  const trace = traceLine ? JSON.parse(traceLine.slice("skillgate-trace ".length)) : undefined;
  return { verdict, rows, message, notice: String(out.systemMessage ?? ""), matched: trace?.matched ?? [], state: trace?.state };
}

export interface CaseResult {
  id: string;
  ok: boolean;
  failures: string[];
}

export async function runCase(c: Case, opts: { casesDir: string; table: string; invoke: Invoke }): Promise<CaseResult> {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-case-"));
  const failures: string[] = [];
  try {
    const sessionId = `case-${c.id.replace(/[^A-Za-z0-9_-]/g, "-")}-${process.pid}`;
    if (c.state) fs.writeFileSync(path.join(stateDir, `${sessionId}.json`), JSON.stringify({ ...emptyState(), ...c.state }));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SKILLGATE_STATE: stateDir,
      SKILLGATE_OUTPUT_DIR: path.join(stateDir, "outputs"),
      SKILLGATE_TABLE: c.table ? path.resolve(opts.casesDir, c.table) : opts.table,
      SKILLGATE_TRACE: "1",
    };
    delete env.CLAUDE_PROJECT_DIR;
    let last: Observed | undefined;
    for (const [i, step] of c.steps.entries()) {
      const payload = deepMerge({ ...loadFixture(opts.casesDir, step.fixture), session_id: sessionId }, step.with);
      // Transcript fixtures are named relative to cases/.
      if (typeof payload.transcript_path === "string" && payload.transcript_path.startsWith("fixtures/")) payload.transcript_path = path.join(opts.casesDir, payload.transcript_path);
      const { stdout, stderr } = await opts.invoke(JSON.stringify(payload), env);
      const got = (last = observe(stdout, stderr));
      const where = `step ${i + 1} (${step.fixture})`;
      // Claude Code reads hookSpecificOutput only for the event it belongs to.
      const hso = stdout.trim() ? (JSON.parse(stdout) as { hookSpecificOutput?: { hookEventName?: string } }).hookSpecificOutput : undefined;
      if (hso && hso.hookEventName !== payload.hook_event_name) failures.push(`${where}: hookSpecificOutput.hookEventName is ${hso.hookEventName}, the event is ${String(payload.hook_event_name)}`);
      const e = step.expect;
      if (got.verdict !== e.verdict || got.rows.join(",") !== e.rows.join(",")) {
        failures.push(`${where}: expected ${e.verdict} [${e.rows}], got ${got.verdict} [${got.rows}]${got.message ? `: ${got.message.slice(0, 200)}` : ""}`);
      }
      if (e.matched && got.matched.join(",") !== e.matched.join(",")) failures.push(`${where}: expected matched [${e.matched}], got [${got.matched}]`);
      if (e.says && !got.message.includes(e.says)) failures.push(`${where}: message lacks "${e.says}": ${got.message.slice(0, 200)}`);
      if (e.notice && !got.notice.includes(e.notice)) failures.push(`${where}: user notice lacks "${e.notice}": ${got.notice.slice(0, 200)}`);
    }
    if (c.expectState) {
      for (const [k, v] of Object.entries(c.expectState)) {
        const actual = (last?.state as Record<string, unknown> | undefined)?.[k];
        if (JSON.stringify(actual) !== JSON.stringify(v)) failures.push(`final state ${k}: expected ${JSON.stringify(v)}, got ${JSON.stringify(actual)}`);
      }
    }
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
  return { id: c.id, ok: failures.length === 0, failures };
}

/** Run cases with a small pool (the hook is a process per step). */
export async function runCases(cases: Case[], opts: { casesDir: string; table: string; invoke: Invoke; parallel?: number }): Promise<CaseResult[]> {
  const results: CaseResult[] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const i = next++;
      results[i] = await runCase(cases[i]!, opts);
    }
  };
  await Promise.all(Array.from({ length: opts.parallel ?? 4 }, worker));
  return results;
}
