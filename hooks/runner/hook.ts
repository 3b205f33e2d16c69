// One hook run, stage by stage:
//   stdin text → JSON → normalize (host) → context (table, state folder)
//   → read state → edge facts (link targets, settings, effects audit, evidence)
//   → decide (pure) → effects (output file) → write state → tickets → render (host).
// Every host goes through runEvent: a hook process by runHook (text in, text
// out), an in-process plugin by calling runEvent with the normalized event.
// Never throws: every failure becomes a message the user sees, and a refusal
// only when the table asks to fail closed.
import fs from "node:fs";
import path from "node:path";
import type { Host, HostEnvironment } from "../core/host.js";
import { decide, type Outcome } from "../core/decide.js";
import { emptyState, type Decision, type Effects, type Event, type SessionState, type Table } from "../core/types.js";
import type { CompiledTable } from "../core/table/compile.js";
import type { Facts } from "../core/facts.js";
import { shellCommandOf, toolFacts } from "../core/facts.js";
import { onlyCountsChanged, recordCap, recordRawPass, recordSummary } from "../core/counters.js";
import type { RawReason } from "../core/summaries/gate.js";
import { matchRows } from "../core/match.js";
import { checkOf, requiredEvidence } from "../core/policies/evidence.js";
import { carriesBudgetReminder } from "../core/policies/budget.js";
import { isSafeSessionId, StateStore } from "../io/state-store.js";
import { stateDirOf } from "../io/state-dir.js";
import { loadContext, type HookEnv } from "./context.js";
import { afterShellCall, beforeShellCall, cleanAuditSnapshots, noteStateWrite, restorePending, takeBackCommits } from "./audit.js";
import { needsWriteGlobs, shellFactsBeforeTable, shellFactsWithTable } from "./call-facts.js";
import { plainCommands } from "../core/shell-prefilter.js";
import { EFFECTS_AUDIT_ROW, EFFECTS_RESTORE_ROW } from "../core/policies/effects-audit.js";
import { SKILL_CHANGED_ROW } from "../core/policies/skill-changed.js";
import { withSkillFiles } from "../io/skill-digests.js";
import { lap, note } from "./timings.js";
import { noteShellCall, type ProcessId } from "../io/tickets.js";

export { stateDirOf, type HookEnv };

/** Events larger than this are not parsed (a shell command is capped separately). */
export const MAX_EVENT_BYTES = 8 * 1024 * 1024;

export interface HookResult {
  stdout: string;
  stderr: string;
  /** What was decided, structured (for the case runner and `explain`); absent when nothing was decided. */
  trace?: HookTrace;
}

/** One event's answer, before it is printed: what an in-process host applies itself. */
export interface EventResult {
  /** The host's answer (Host.render, or Host.renderFailure); undefined: nothing to say. */
  answer: Record<string, unknown> | undefined;
  /** What the user should see (a hook process prints it on stderr), "" or newline-terminated lines. */
  stderr: string;
  trace?: HookTrace;
}

/** How runEvent reads and writes session state: the state folder's files (StateStore) unless a host brings its own. */
export type SessionStore = Pick<StateStore, "read" | "count" | "update" | "cleanOld">;

/** What an in-process host adds to one event that a hook process learns from its payload or its parent. */
export interface EventOptions {
  /** The client's transcript file (budget rows read the prompt size from its tail). */
  transcriptPath?: string;
  /**
   * The same finished shell call as evidence records it, when the host reports the exit status apart from the
   * result (opencode: a non-zero `metadata.exit` on a successful tool call is a failed run).
   */
  checkRun?: Extract<Event, { kind: "tool-result" | "tool-failure" }>;
  /** Where session state lives (default: a StateStore on the state folder). */
  store?: (stateDir: string) => SessionStore;
  /** The agent client's process, when the host runs in it (an in-process plugin); a hook process's client is found from its parent. */
  client?: ProcessId;
}

const printed = (r: EventResult): HookResult => ({
  stdout: r.answer ? JSON.stringify(r.answer) : "",
  stderr: r.stderr,
  ...(r.trace ? { trace: r.trace } : {}),
});

export interface HookTrace {
  verdict: Decision["verdict"];
  rows: string[];
  matched: string[];
  state: SessionState;
}

/** What is known so far about the event being handled: how a failure has to answer. */
interface FailureContext {
  host: Host;
  input: string;
  kind?: Event["kind"];
  /** The table's own failMode once it is loaded; until then $SKILLGATE_FAIL_MODE. */
  failMode?: "open" | "closed";
}

export async function runHook(input: string, h: HookEnv): Promise<HookResult> {
  const fc: FailureContext = { host: h.host, input };
  try {
    return await run(input, h, fc);
  } catch (e) {
    return printed(internalError(e, h, fc));
  }
}

/** An internal error: fail the way the table (or the environment) asks, and say so. */
function internalError(e: unknown, h: HookEnv, fc: FailureContext): EventResult {
  const err = e instanceof Error ? e : new Error(String(e));
  const closed = (fc.failMode ?? (h.env.SKILLGATE_FAIL_MODE === "closed" ? "closed" : "open")) === "closed";
  const r = failure(`skillgate: internal error: ${err.message}`, closed, fc);
  return { ...r, stderr: `${r.stderr}${err.stack ?? ""}\n` };
}

async function run(input: string, h: HookEnv, fc: FailureContext): Promise<HookResult> {
  if (input.length > MAX_EVENT_BYTES || Buffer.byteLength(input) > MAX_EVENT_BYTES) return tooLarge(fc.host);
  let payload: unknown;
  try {
    payload = JSON.parse(input);
  } catch (e) {
    return printed(failure(`skillgate: the hook event is not JSON (${(e as Error).message})`, false, fc));
  }
  const n = fc.host.normalize(payload);
  lap("parse");
  if (!n.ok) return n.ignored ? { stdout: "", stderr: "" } : printed(failure(`skillgate: ${n.error}`, false, fc));
  fc.kind = n.event.kind;
  return printed(await decideEvent(n.event, h, fc, n.transcriptPath ? { transcriptPath: n.transcriptPath } : {}));
}

/**
 * The decision for one normalized event, with all its I/O: every host's one
 * pipeline. An in-process host (opencode's plugin) calls this with the event
 * it normalized; a hook process comes through runHook. Never throws.
 */
export async function runEvent(event: Event, h: HookEnv, o: EventOptions = {}): Promise<EventResult> {
  const fc: FailureContext = { host: h.host, input: "", kind: event.kind };
  try {
    return await decideEvent(event, h, fc, o);
  } catch (e) {
    return internalError(e, h, fc);
  }
}

async function decideEvent(given: Event, h: HookEnv, fc: FailureContext, o: EventOptions): Promise<EventResult> {
  const transcriptPath = o.transcriptPath;
  // The shell parser and the glob engine are the biggest modules: load them
  // only for a tool call about to run (the parser only for a shell call the
  // pre-filter cannot vouch for: call-facts.ts).
  const shell = await shellFactsBeforeTable(given, h.env);
  let facts: Facts | undefined = shell.facts;
  lap("facts");
  const canRefuse = given.kind === "tool-call" || given.kind === "stop" || given.kind === "session-start";
  // Write globs (picomatch) only for a call that writes something: most shell calls write nothing.
  // (and for the restore: a shell call that may write notes the files write rows guard; a pending check lists them again)
  // What the host's environment says (folders, files), read once per event.
  const he = fc.host.environment(h.env);
  const pending = restorePending(stateDirOf({ ...h, ...optionalDataDir(he.dataDir) }), given.sessionId);
  // A shell call the pre-filter vouched for as read-only (its phase 1 passed) takes no snapshot and no ticket; any
  // other may change anything, so the restore lists what the write rows guard.
  const shellCall = given.kind === "tool-call" && given.tool.kind === "shell";
  const vouched = shellCall && shell.pending;
  const globs = (given.kind === "tool-call" && (needsWriteGlobs(facts ?? toolFacts(given)) || (shellCall && !vouched))) || pending;
  // The real spellings of protected paths cost a few file system calls: only for a call that can write.
  const realPaths = globs || (given.kind === "tool-call" && given.tool.kind === "other");
  const contextOptions = { checkSkills: canRefuse, protect: given.kind === "tool-call" };
  let ctx = await loadContext({ ...h, host: fc.host }, { globs, realPaths, ...contextOptions }, he);
  lap("table");
  if (ctx.ok && shell.pending) {
    facts = await shellFactsWithTable(given, h.env, shell, ctx.table);
    // Not expected (test/shell-prefilter.test.ts: what passes phase 1 writes nothing), but a write must never meet a table without globs.
    if (!globs && needsWriteGlobs(facts)) ctx = await loadContext({ ...h, host: fc.host }, { globs: true, realPaths: true, ...contextOptions }, he);
    lap("facts");
  }
  if (shellCommandOf(given) !== undefined) note("skip", shell.pending && facts === shell.facts ? 1 : 0);
  fc.failMode = ctx.ok ? ctx.table.table.failMode : ctx.failMode;
  if (!ctx.ok) {
    // Failing open, the call runs: its ticket lets the git hooks apply the same fail mode to its commits (docs/git-hooks.md).
    if (ctx.failMode !== "closed" && "tool" in given && isSafeSessionId(given.sessionId)) {
      try {
        noteShellCall(given, false, stateDirOf({ ...h, ...optionalDataDir(he.dataDir) }), {
          host: fc.host.name,
          ...(fc.host.configEnv ? { configEnv: fc.host.configEnv } : {}),
          packageRoot: h.packageRoot,
          env: h.env,
          ...(o.client ? { client: o.client } : {}),
          ...(h.hookPid !== undefined ? { hookPid: h.hookPid } : {}),
        });
      } catch {
        /* the git hooks then refuse the agent's commit: closed, never silently open */
      }
    }
    return failure(
      `skillgate: trigger table unusable, ${ctx.failMode === "closed" ? "refusing tool calls" : "gates are OFF"}: ${ctx.error}`,
      ctx.failMode === "closed",
      fc,
    );
  }
  const notices: string[] = [];
  if (pending) {
    // Guarded files a shell command changed unseen are put back before the state or the table is trusted (runner/restore.ts).
    const ok = ctx;
    const r = await (await import("./restore.js")).withRestore(
      given,
      ok,
      { stateDir: ok.stateDir, host: ok.host, env: h.env, packageRoot: h.packageRoot, tableFile: ok.tableFile },
      async () => {
        const again = await loadContext({ ...h, host: fc.host }, { globs: true, realPaths, ...contextOptions });
        return again.ok ? again : undefined;
      },
    );
    given = r.event;
    ctx = r.ctx;
    if (r.notice) notices.push(r.notice);
  }
  const { table, stateDir, host } = ctx;

  // A hostile session id never becomes a path: decide from empty state, store nothing.
  const store = isSafeSessionId(given.sessionId) ? (o.store ? o.store(stateDir) : new StateStore(stateDir)) : undefined;
  if (!store) notices.push(`skillgate: session id ${JSON.stringify(given.sessionId.slice(0, 40))} is not a safe file name; state is not kept for it`);
  const current = store ? store.read(given.sessionId) : { state: emptyState() };
  const event = withSkillFiles(
    await takeBackCommits(
      await afterShellCall(
        withLinkTargets(withSettingsFacts(await withContextTokens(given, table, transcriptPath, host), host, he, current.state, h.packageRoot)),
        stateDir,
      ),
      table,
      current.state,
    ),
    table,
    current.state,
  );
  if (current.warning) notices.push(current.warning);
  const where = evidenceWhere(event, stateDir, he.projectDir);
  // A finished check is recorded before anything else looks at its output.
  if (event.kind === "tool-result" || event.kind === "tool-failure") {
    const n = await finishEvidence(o.checkRun ?? event, table, where);
    if (n) notices.push(n);
  }
  const withFacts = await withEvidence(event, table, facts, where);
  if (withFacts.notice) notices.push(withFacts.notice);
  const decideFacts = withFacts.facts;
  lap("state");
  let outcome: Outcome = decide(event, table, current.state, decideFacts);
  lap("decide");

  // The output cap writes its file first; the state then records how it went.
  let effects: Effects = {};
  let record: ((s: SessionState) => SessionState) | undefined;
  if (outcome.decision.verdict === "cap" && event.kind === "tool-result") {
    const c = await capOutput(event, outcome.decision, table.table, stateDir, h.env);
    outcome = { ...outcome, decision: c.decision };
    effects = c.effects;
    record = c.record;
    if (c.notice) notices.push(c.notice);
  }
  if (event.kind === "session-start") {
    notices.push(...sessionNotices(ctx.tableFile, ctx.isDefaultTable, table));
    // Housekeeping once per session: old session files, old capped outputs.
    if (store && event.source === "startup") {
      store.cleanOld(table.table.stateMaxAgeDays);
      await cleanAuditSnapshots(stateDir);
    }
    if (table.rows.some((r) => r.row.kind === "cap")) await cleanOutputs(table.table, stateDir, h.env);
  }

  lap("cap");
  // A decision that changed nothing but counters (a finished call, a repeated refusal): an append, not a locked rewrite.
  const countOnly = record ? undefined : onlyCountsChanged(current.state, outcome.state);
  if (store && countOnly) {
    try {
      store.count(event.sessionId, countOnly);
    } catch (e) {
      notices.push(`skillgate: not counted in stats (${(e as Error).message})`);
    }
  } else if (store && (outcome.state !== current.state || record)) {
    // Decide again under the lock on fresh state, so parallel hooks of one session lose nothing.
    try {
      store.update(event.sessionId, (fresh) => {
        // The fresh decision wins (a hint another hook just showed is not shown twice); the cap already done is kept.
        const again = decide(event, table, fresh, decideFacts);
        const decision = again.decision.verdict === "cap" && !effects.updatedOutput ? withoutCap(again.decision) : again.decision;
        outcome = { ...again, decision, state: record ? record(again.state) : again.state };
        // What the hook writes is what the restore compares the state file with.
        if (outcome.state !== fresh) noteStateWrite(stateDir, event.sessionId, JSON.stringify(outcome.state));
        return outcome.state;
      });
    } catch (e) {
      notices.push(`skillgate: session state not saved (${(e as Error).message})`);
    }
  }

  lap("save");
  // A check about to run (and allowed to): answer it from a fresh record, or note the tree it runs on.
  if (event.kind === "tool-call" && outcome.decision.verdict !== "deny") {
    const b = await beginEvidence(event, table, outcome, where, host.capabilities.rewritesToolInput === true, host.capabilities.reportsExitStatus === true);
    if (b.updatedInput) effects = { ...effects, updatedInput: b.updatedInput };
    if (b.notice) notices.push(b.notice);
  }
  // The git hooks tell this call's commits from a person's by its ticket (docs/git-hooks.md): written before the
  // effects snapshot, so a person's commit in between is known as a person's (io/persons-updates.ts). A call the
  // pre-filter vouches for as read-only (`ls -la`, `grep -rn x src`) runs no git and needs none.
  if ("tool" in event && store && !vouched) {
    try {
      noteShellCall(event, outcome.decision.verdict === "deny", stateDir, {
        host: host.name,
        ...(host.configEnv ? { configEnv: host.configEnv } : {}),
        packageRoot: h.packageRoot,
        env: h.env,
        tableFile: ctx.tableFile,
        ...(o.client ? { client: o.client } : {}),
        ...(h.hookPid !== undefined ? { hookPid: h.hookPid } : {}),
      });
    } catch (e) {
      notices.push(`skillgate: the git hooks will not know this call (${(e as Error).message})`);
    }
  }
  if (outcome.decision.verdict !== "deny") {
    try {
      await beforeShellCall(event, vouched, table, outcome.state, stateDir, {
        stateDir,
        host,
        env: h.env,
        packageRoot: h.packageRoot,
        tableFile: ctx.tableFile,
      });
    } catch (e) {
      notices.push(`skillgate: effects audit snapshot not taken (${(e as Error).message})`);
    }
  }
  for (const row of [EFFECTS_AUDIT_ROW, EFFECTS_RESTORE_ROW, SKILL_CHANGED_ROW]) {
    if (outcome.decision.rows.includes(row) && "message" in outcome.decision && outcome.decision.message) {
      // The user hears of it too, not only the model.
      notices.push(
        outcome.decision.message
          .split("\n")
          .filter((l) => l.startsWith(`skillgate[${row}]`))
          .join("\n"),
      );
    }
  }
  const decision: Decision = notices.length ? { ...outcome.decision, notice: notices.join("\n") } : outcome.decision;
  lap("after");
  const answer = host.render(event, decision, effects);
  let stderr = decision.notice ? decision.notice + "\n" : "";
  // A machine-readable account of the decision, for the case runner and for debugging.
  const trace: HookTrace = { verdict: decision.verdict, rows: decision.rows, matched: outcome.matched, state: outcome.state };
  if (h.env.SKILLGATE_TRACE) stderr += `skillgate-trace ${JSON.stringify(trace)}\n`;
  return { answer, stderr, trace };
}

/**
 * A write through a symlink writes its target: the target is added to the
 * paths the call writes, so a link to a protected or gated file is refused
 * like the file itself.
 */
function withLinkTargets(event: Event): Event {
  if (event.kind !== "tool-call" || (event.tool.kind !== "write" && event.tool.kind !== "edit")) return event;
  const targets: string[] = [];
  for (const p of event.tool.paths) {
    if (p.length > 4096) continue;
    const abs = path.resolve(event.cwd || "/", p);
    // A new file in a symlinked folder is written in the folder's target: resolve the nearest existing parent.
    for (let dir = abs, rest = ""; ; rest = path.join(path.basename(dir), rest), dir = path.dirname(dir)) {
      try {
        const real = path.join(fs.realpathSync(dir), rest);
        if (real !== abs) targets.push(real);
        break;
      } catch {
        if (path.dirname(dir) === dir) break;
      }
    }
  }
  return targets.length ? { ...event, tool: { ...event.tool, paths: [...event.tool.paths, ...targets] } } : event;
}

/**
 * The settings files that register the hook, read at the edge: which ones do
 * at session start, and whether a changed one no longer does.
 */
function withSettingsFacts(event: Event, host: Host, he: HostEnvironment, state: SessionState, packageRoot: string): Event {
  const registers = host.registersSkillgate;
  if (!registers) return event;
  const weakens = (f: string) => host.weakensSkillgate?.(f) === true;
  const files = he.settingsFiles;
  const projectDir = he.projectDir;
  const ours = { packageRoot, ...(projectDir ? { projectDir } : {}) };
  if (event.kind === "session-start") {
    // After a compaction or /clear the client keeps the settings it started with: so does the comparison.
    if ((event.source === "compact" || event.source === "clear") && state.guardedSettings?.some((g) => g.startsWith(WAS)))
      return { ...event, guardedSettings: state.guardedSettings };
    // Files that already switch skillgate off (SKILLGATE_* in env, the user's choice) are noted as `weak:<file>`: only a new one is refused.
    // `was:<file>` and its registration deficits: a later change is compared with them, per event.
    const was = host.settingsDeficits ? files.map((f) => [`${WAS}${f}`, ...(host.settingsDeficits?.(f, ours) ?? [])].join("\n")) : [];
    return { ...event, guardedSettings: [...files.filter((f) => registers(f)), ...files.filter(weakens).map((f) => `${WEAK}${f}`), ...was] };
  }
  if (event.kind === "config-change") {
    // Without a file_path (or with one that is no settings file), every settings file is read again.
    const changed = event.file !== undefined && files.includes(event.file) ? [event.file] : event.file !== undefined ? [event.file, ...files] : files;
    const before = (f: string) =>
      state.guardedSettings
        ?.find((g) => g.split("\n")[0] === `${WAS}${f}`)
        ?.split("\n")
        .slice(1);
    const weakenings = changed.flatMap((f) => (host.settingsWeakenings?.(f, before(f), ours) ?? []).map((w) => `${f}: ${w}`));
    const guarded = (f: string) => state.guardedSettings?.some((g) => g === f) ?? false;
    const weakBefore = (f: string) => state.guardedSettings?.some((g) => g === `${WEAK}${f}`) ?? false;
    // disableAllHooks (or SKILLGATE_* in env) switches skillgate off from any settings file, registering or not.
    const removes = changed.some((f) => (guarded(f) && !registers(f)) || (!weakBefore(f) && weakens(f)));
    return removes || weakenings.length ? { ...event, removesSkillgate: true, ...(weakenings.length ? { weakenings } : {}) } : event;
  }
  return event;
}

const WAS = "was:";
const WEAK = "weak:";

/** What the user should know when a session starts: which table governs it, and which skills cannot be loaded. */
function sessionNotices(tableFile: string, isDefault: boolean, table: CompiledTable): string[] {
  const out: string[] = [];
  if (!isDefault) out.push(`skillgate: table ${tableFile} is active (${table.rows.length} rows${table.table.extends ? ", extending the default table" : ""})`);
  if (table.disabled.length) {
    const closed = table.table.failMode === "closed";
    out.push(
      `skillgate: ${table.disabled.length} row${table.disabled.length === 1 ? " is" : "s are"} OFF (invalid)${closed ? "; failMode closed: the calls they would govern are refused" : ""}:\n${table.disabled.map((d) => `  ${d.error}`).join("\n")}`,
    );
  }
  if (table.missingSkills.length) {
    out.push(
      `skillgate: skills named by the table are not installed where the client can load them: ${table.missingSkills.join(", ")} (looked in ${table.skillRoots.join(", ")}); copy them into a skills folder the agent CLI reads (\`skillgate init\` does it for Claude Code)`,
    );
  }
  return out;
}

/** Budget rows need the prompt size: read it from the transcript's tail when the event does not carry it. */
async function withContextTokens(event: Event, table: CompiledTable, transcriptPath: string | undefined, host: Host): Promise<Event> {
  if ((event.kind !== "prompt" && event.kind !== "tool-result") || event.contextTokens !== undefined || !transcriptPath || !host.promptSize) return event;
  if (!carriesBudgetReminder(event) || !table.rows.some((r) => r.row.kind === "budget")) return event;
  const callId = event.kind === "tool-result" ? event.toolUseId : undefined;
  const tokens = await (await import("../io/transcript-tail.js")).contextTokensFromTranscript(transcriptPath, host.promptSize, callId);
  return tokens === undefined ? event : { ...event, contextTokens: tokens };
}

/** The decision when the output could not be capped: the output passes untouched, any reminders stay. */
function withoutCap(d: Decision & { verdict: "cap" }): Decision {
  const rows = d.rows.filter((r) => r !== d.cap.row);
  return d.message ? { verdict: "hint", rows, message: d.message } : { verdict: "allow", rows };
}

/** $SKILLGATE_OUTPUT_DIR, else the table's outputDir, else (undefined) a private folder made per installation. */
function outputDirOf(table: Table, env: NodeJS.ProcessEnv): string | undefined {
  return env.SKILLGATE_OUTPUT_DIR ?? table.outputDir;
}

type CapResult = { decision: Decision; effects: Effects; record: (s: SessionState) => SessionState; notice?: string };

/**
 * A long output: only a command that only reads is summarized (the shell
 * analysis runs here, on this path only); a writing or opaque command's
 * output passes raw, counted by reason; an unknown program's keeps the plain
 * head cap. The raw text is saved first, then the summary with its evidence
 * header replaces the output. On any failure the output passes untouched.
 */
async function capOutput(
  event: Extract<Event, { kind: "tool-result" }>,
  d: Decision & { verdict: "cap" },
  table: Table,
  stateDir: string,
  env: NodeJS.ProcessEnv,
): Promise<CapResult> {
  const tool = event.tool.name;
  const failed = (why: string): CapResult => ({
    decision: withoutCap(d),
    effects: {},
    record: (s) => recordCap(s, tool, { ok: false }),
    notice: `skillgate: output of ${tool} not summarized (${why})`,
  });
  const raw = (reason: RawReason): CapResult => ({ decision: withoutCap(d), effects: {}, record: (s) => recordRawPass(s, reason) });
  const output = event.output;
  if (!output) return failed("no output");
  try {
    const { summarize, readOnlyCommands, commandHint } = await import("../core/summaries/index.js");
    let hint: ReturnType<typeof commandHint>;
    let headOnly = false;
    if (event.tool.kind === "shell") {
      // The pre-filter's analysis when it vouches for the command (same commands, no write, nothing opaque), else the parser's.
      const plain = plainCommands(event.tool.command);
      const a = plain.skip ? plain.analysis : (await import("../core/shell/analyze.js")).analyzeCommand(event.tool.command);
      // Opaque parts first: the analysis also lists them as "<dynamic>" writes.
      if (a.opaque.length > 0) return raw("unknown");
      if (a.writes.length > 0) return raw("write");
      const v = readOnlyCommands(a.commands);
      if (v.kind === "write") return raw("write");
      // A program we know nothing of (seq, make, a script) neither reads-only nor visibly writes:
      // it is not summarized, but keeps the plain cap (head + the raw file's path), as before profiles.
      headOnly = !v.readOnly;
      hint = commandHint(a.commands);
    }
    const { outputRoot, saveRaw, saveCapped, readSaved, withSummary } = await import("../io/output-store.js");
    const root = outputRoot(outputDirOf(table, env), stateDir);
    if (!root.ok) return failed(root.error);
    const name = `${event.sessionId}-${event.toolUseId ?? Date.now()}`;
    if (headOnly) {
      const c = saveCapped(root.dir, name, output, d.cap.headChars, d.cap.row);
      return { decision: d, effects: { updatedOutput: c.updated }, record: (st) => recordCap(st, tool, { ok: true, charsSaved: c.charsSaved }) };
    }
    const file = saveRaw(root.dir, name, output);
    const saved = readSaved(file);
    const s = summarize(saved.text, { profile: d.cap.profile, rawPath: file, ...(hint ? { command: hint } : {}) });
    if (s.raw) return raw(s.raw);
    const charsSaved = Math.max(0, output.chars - s.keptChars);
    return {
      decision: d,
      effects: { updatedOutput: withSummary(output, `${s.text}\n${summaryTag(d, saved.truncated ? saved.text.length : undefined)}`) },
      record: (st) => recordSummary(recordCap(st, tool, { ok: true, charsSaved }), d.cap.profile),
    };
  } catch (e) {
    return failed((e as Error).message);
  }
}

/** The row that summarized (the model and the case runner read it), and whether only a head was summarized. */
function summaryTag(d: Decision & { verdict: "cap" }, headOnly: number | undefined): string {
  const part = headOnly !== undefined ? `; only the first ${headOnly.toLocaleString("en-US")} characters were summarized, the rest is in raw_evidence` : "";
  return `[skillgate[${d.cap.row}]: long output summarized under budget profile ${d.cap.profile}${part}]`;
}

// ─── Evidence (docs/evidence.md, "How the hook uses it") ─────────────────

export type Where = { stateDir: string; workspace: string };

/** Evidence binds to the project the host names (HostEnvironment.projectDir), else the event's cwd. */
export function evidenceWhere(event: Event, stateDir: string, projectDir: string | undefined): Where | undefined {
  const workspace = projectDir || event.cwd;
  return workspace ? { stateDir, workspace } : undefined;
}

const optionalDataDir = (dataDir: string | undefined) => (dataDir ? { dataDir } : {});

const hasEvidenceRows = (table: CompiledTable) => table.rows.some(({ row }) => row.kind === "evidence");

/**
 * Freshness of the checks the matched gates require, computed before the
 * pure decision. Only when such a gate matched: no git process otherwise.
 */
export async function withEvidence(
  event: Event,
  table: CompiledTable,
  facts: Facts | undefined,
  where: Where | undefined,
): Promise<{ facts: Facts | undefined; notice?: string }> {
  if (event.kind !== "tool-call" && event.kind !== "stop") return { facts };
  if (!table.rows.some(({ row }) => row.kind === "gate" && row.require)) return { facts };
  const base = facts ?? toolFacts(event);
  const ids = requiredEvidence(matchRows(event, table, base));
  if (ids.length === 0) return { facts };
  const evidence: NonNullable<Facts["evidence"]> = {};
  if (!where) return { facts: { ...base, evidence }, notice: "skillgate: no workspace folder to check evidence in" };
  const { currentFreshness } = await import("../io/evidence-run.js");
  for (const id of ids) {
    const row = table.rows.map((r) => r.row).find((r) => r.kind === "evidence" && r.id === id);
    if (!row || row.kind !== "evidence") continue;
    try {
      evidence[id] = currentFreshness(checkOf(row), where);
    } catch (e) {
      // An error proves nothing: the gate refuses and says why.
      evidence[id] = { status: "missing", note: `its freshness could not be computed (${(e as Error).message})` };
    }
  }
  return { facts: { ...base, evidence } };
}

/** PreToolUse of a check's command in the main thread: reuse a fresh record, or start a pending run. */
export async function beginEvidence(
  event: Extract<Event, { kind: "tool-call" }>,
  table: CompiledTable,
  outcome: Outcome,
  where: Where | undefined,
  canRewrite: boolean,
  reportsExit = true,
): Promise<{ updatedInput?: Record<string, unknown>; notice?: string }> {
  if (event.tool.kind !== "shell" || event.agentId !== undefined || !event.toolUseId || !where || !hasEvidenceRows(table)) return {};
  const rows = table.rows.map((r) => r.row).filter((r) => r.kind === "evidence" && outcome.matched.includes(r.id) && !outcome.opaque.includes(r.id));
  // A result without an exit status would record every run as a pass (Codex: openai/codex#34289).
  if (!reportsExit)
    return rows.length
      ? {
          notice: rows
            .map((r) => `skillgate[${r.id}]: this run will not count as evidence: this client does not tell hooks a command's exit status`)
            .join("\n"),
        }
      : {};
  const notices: string[] = [];
  const { reuseOrBegin } = await import("../io/evidence-run.js");
  for (const row of rows) {
    if (row.kind !== "evidence") continue;
    try {
      // A host that cannot rewrite the call runs it for real: then it is recorded like any run.
      const spec = canRewrite ? checkOf(row) : { ...checkOf(row), reuse: false };
      const r = reuseOrBegin(spec, where, {
        sessionId: event.sessionId,
        toolUseId: event.toolUseId,
        command: event.tool.command,
        cwd: event.cwd,
        ...(event.tool.background ? { background: true } : {}),
      });
      if (r.kind === "reuse") return { updatedInput: { ...(event.input ?? {}), command: r.decision.command } };
      if (r.kind === "not-recorded") notices.push(`skillgate[${row.id}]: ${r.why}`);
    } catch (e) {
      notices.push(`skillgate[${row.id}]: this run will not count as evidence (${(e as Error).message})`);
    }
  }
  return notices.length ? { notice: notices.join("\n") } : {};
}

/** PostToolUse / PostToolUseFailure of a shell call: record the run a PreToolUse started (nothing happens otherwise). */
export async function finishEvidence(
  event: Extract<Event, { kind: "tool-result" | "tool-failure" }>,
  table: CompiledTable,
  where: Where | undefined,
): Promise<string | undefined> {
  if (event.tool.kind !== "shell" || event.agentId !== undefined || !event.toolUseId || !where || !hasEvidenceRows(table)) return undefined;
  // No evidence folder yet: no check was ever started, so there is nothing to finish (and nothing to load).
  if (!fs.existsSync(`${where.stateDir}/evidence`)) return undefined;
  try {
    const { finishCheck } = await import("../io/evidence-run.js");
    const failed = event.kind === "tool-failure";
    let output = "";
    if (event.kind === "tool-failure") output = event.error ?? "";
    else if (event.output) output = (await import("../io/output-store.js")).wholeText(event.output);
    const unfinished = event.kind === "tool-result" ? event.unfinished : undefined;
    const r = finishCheck(where, {
      toolUseId: event.toolUseId,
      failed,
      output,
      ...(event.durationMs !== undefined ? { durationMs: event.durationMs } : {}),
      ...(unfinished ? { unfinished } : {}),
    });
    if (r.kind === "unfinished") return `skillgate[${r.check}]: this run does not count as evidence: ${r.why}, so its exit status was not seen`;
    return r.kind === "unreadable" ? `skillgate: a started check could not be recorded (${r.why})` : undefined;
  } catch (e) {
    return `skillgate: a check's run was not recorded (${(e as Error).message})`;
  }
}

async function cleanOutputs(table: Table, stateDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  try {
    const { outputRoot, cleanOldOutputs } = await import("../io/output-store.js");
    const root = outputRoot(outputDirOf(table, env), stateDir, false);
    if (root.ok) cleanOldOutputs(root.dir, table.outputMaxAgeDays);
  } catch {
    /* cleaning is housekeeping: never worth failing a session start */
  }
}

/** An event over the cap is not parsed: say so (the fail mode of an unread table is unknown, so open). */
export function tooLarge(host: Host): HookResult {
  const message = `skillgate: hook event over ${MAX_EVENT_BYTES} bytes was not read; gates did not run for it`;
  return { stdout: JSON.stringify(host.renderFailure(message, false)), stderr: message + "\n" };
}

/** Tell the user; when failing closed, also refuse — but only a tool call can be refused. */
function failure(message: string, closed: boolean, fc: FailureContext): EventResult {
  const toolCall = fc.kind !== undefined ? fc.kind === "tool-call" : fc.host.looksLikeToolCall(fc.input);
  return { answer: fc.host.renderFailure(message, closed && toolCall), stderr: message + "\n" };
}
