// skillgate as an opencode plugin: the same table, state and decide() as the
// Claude Code hook, run in-process. Bundled to dist/opencode-plugin.mjs;
// `skillgate install --host opencode` puts a one-line re-export of it into
// .opencode/plugins/ (or ~/.config/opencode/plugins/).
//
// The table is loaded once per plugin instance (one per opencode project
// directory); session state is kept in memory and written to the state folder
// 200 ms after the last change, so a tool call costs no file I/O.
//
// This module exports only the plugin function: opencode calls every function
// a plugin module exports as a plugin.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { decide } from "../../core/decide.js";
import { withSkillFiles } from "../../io/skill-digests.js";
import { recordCap } from "../../core/counters.js";
import { shellCommandOf } from "../../core/facts.js";
import { factsOf } from "../../core/shell-facts.js";
import { prefilteredFacts } from "../../core/shell-prefilter.js";
import { emptyState, type Decision, type Effects, type Event, type SessionState } from "../../core/types.js";
import type { CompiledTable } from "../../core/table/compile.js";
import { outputRoot, saveCapped } from "../../io/output-store.js";
import { isSafeSessionId, StateStore } from "../../io/state-store.js";
import { noteShellCall, procStat } from "../../io/tickets.js";
import { loadContext } from "../../runner/context.js";
import { beginEvidence, evidenceWhere, finishEvidence, withEvidence } from "../../runner/hook.js";
import {
  applyToChatMessage, applyToToolOutput, checkRunOf, opencodeHost, render, STOP_MARK, type ChatPart, type Rendered,
} from "./adapter.js";
import { packageRootOf, tableFileOf } from "./paths.js";
import { obj, type Json } from "../../io/payload.js";

/** The parts of opencode's PluginInput we use (@opencode-ai/plugin 1.18.33). */
interface PluginInput {
  directory: string;
  worktree?: string;
  client?: {
    app?: { log?: (o: { body: { service: string; level: string; message: string } }) => Promise<unknown> };
    session?: { promptAsync?: (o: { path: { id: string }; body: { parts: { type: "text"; text: string }[] } }) => Promise<unknown> };
  };
}

interface ToolInput {
  tool: string;
  sessionID: string;
  callID: string;
  args?: unknown;
}


const FLUSH_MS = 200;

/** The decision when the output could not be capped: the output passes untouched, any reminders stay. */
function withoutCap(d: Decision): Decision {
  if (d.verdict !== "cap") return d;
  const rows = d.rows.filter((r) => r !== d.cap.row);
  return d.message ? { verdict: "hint", rows, message: d.message } : { verdict: "allow", rows };
}

export const SkillgatePlugin = async (input: PluginInput) => {
  const env = process.env;
  const directory = input.directory;
  const host = opencodeHost(directory);
  const packageRoot = packageRootOf(path.dirname(fileURLToPath(import.meta.url)));
  const warn = (message: string): void => {
    process.stderr.write(`${message}\n`);
    input.client?.app?.log?.({ body: { service: "skillgate", level: "warn", message } }).catch(() => undefined);
  };

  const ctx = await loadContext({ env, packageRoot, host }, { tableFile: tableFileOf(env, directory, packageRoot), globs: true });
  const stateDir = ctx.stateDir;
  const failClosed = (ctx.ok ? ctx.table.table.failMode : ctx.failMode) === "closed";
  const table: CompiledTable | undefined = ctx.ok ? ctx.table : undefined;
  if (!ctx.ok) warn(`skillgate: trigger table unusable, ${failClosed ? "refusing tool calls" : "gates are OFF"}: ${ctx.error}`);
  /** Evidence rows or gates that require one: only then do tool calls go through the runner's evidence steps. */
  const usesEvidence = table?.rows.some(({ row }) => row.kind === "evidence" || (row.kind === "gate" && row.require !== undefined)) ?? false;
  /** Checks bind to opencode's project directory (the runner's default is $CLAUDE_PROJECT_DIR, Claude Code's). */
  const evidenceEnv: NodeJS.ProcessEnv = { CLAUDE_PROJECT_DIR: directory };

  const store = new StateStore(stateDir);
  const states = new Map<string, SessionState>();
  const dirty = new Set<string>();
  /** Subagent session → its parent (from session.created). */
  const parents = new Map<string, string>();
  /** Reminders waiting for the next thing the model reads (a tool result or a prompt), per main session. */
  const pending = new Map<string, string[]>();
  /** Per session: its latest assistant message (id, the user message it answers) and that message's text. */
  const lastAnswer = new Map<string, { id: string; parentID?: string; text: string }>();
  /** Our own follow-up prompts (a refused stop), by message id → the user message whose turn they continue. */
  const followUps = new Map<string, string>();
  /** Sessions where a follow-up was just sent: the next user message there is it. */
  const awaitingFollowUp = new Map<string, string>();
  /** Per session: the prompt size of its latest model request, in tokens (for budget rows). */
  const promptTokens = new Map<string, number>();
  let flushTimer: NodeJS.Timeout | undefined;
  let partSeq = 0;

  /**
   * A subagent's session → the main session's id plus agentId (state and loads
   * belong to the main session); the main session's prompts and tool results
   * carry its latest prompt size (budget rows remind on them).
   */
  const attribute = (event: Event): Event => {
    let root = event.sessionId;
    for (let i = 0; i < 32 && parents.has(root); i++) root = parents.get(root) ?? root;
    if (root !== event.sessionId) return { ...event, sessionId: root, agentId: event.sessionId };
    const tokens = promptTokens.get(root);
    return tokens !== undefined && (event.kind === "tool-result" || event.kind === "prompt") ? { ...event, contextTokens: tokens } : event;
  };

  const stateOf = (id: string): SessionState => {
    const cached = states.get(id);
    if (cached) return cached;
    let s = emptyState();
    if (isSafeSessionId(id)) {
      const r = store.read(id);
      if (r.warning) warn(r.warning);
      s = r.state;
    }
    states.set(id, s);
    return s;
  };

  const flush = (): void => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    for (const id of dirty) {
      const s = states.get(id);
      if (!s) continue;
      try {
        store.update(id, () => s);
      } catch (e) {
        warn(`skillgate: session state not saved (${(e as Error).message})`);
      }
    }
    dirty.clear();
  };

  const keep = (id: string, before: SessionState, after: SessionState): void => {
    if (after === before) return;
    states.set(id, after);
    if (!isSafeSessionId(id)) return;
    dirty.add(id);
    flushTimer ??= setTimeout(flush, FLUSH_MS);
    flushTimer.unref?.();
  };

  const capOutput = (event: Extract<Event, { kind: "tool-result" }>, d: Decision & { verdict: "cap" }, t: CompiledTable) => {
    try {
      const root = outputRoot(env.SKILLGATE_OUTPUT_DIR ?? t.table.outputDir, stateDir);
      if (!root.ok) throw new Error(root.error);
      if (!event.output) throw new Error("no output");
      const saved = saveCapped(root.dir, `${event.sessionId}-${event.toolUseId ?? Date.now()}`, event.output, d.cap.headChars, d.cap.row);
      return { decision: d as Decision, effects: { updatedOutput: saved.updated } as Effects, result: { ok: true as const, charsSaved: saved.charsSaved } };
    } catch (e) {
      warn(`skillgate: output of ${event.tool.name} not capped (${(e as Error).message})`);
      return { decision: withoutCap(d), effects: {} as Effects, result: { ok: false as const } };
    }
  };

  /**
   * normalize → attribute → [evidence: record a finished check, freshness] → decide on the in-memory
   * state → [evidence: note the tree a check starts on] → cap effect → render. The evidence steps are
   * the hook runner's own (runner/hook.ts), so a gate that requires evidence decides as it does there.
   */
  const handle = async (payload: { hook: string; input: unknown; output?: unknown }): Promise<{ event?: Event; rendered?: Rendered }> => {
    const n = host.normalize(payload);
    if (!n.ok) {
      if (!n.ignored) warn(`skillgate: ${n.error}`);
      return {};
    }
    const event = attribute(n.event);
    if (!table) return { event };
    let facts = shellCommandOf(event) !== undefined ? (prefilteredFacts(event, table) ?? factsOf(event)) : undefined;
    const where = usesEvidence ? evidenceWhere(event, stateDir, evidenceEnv) : undefined;
    if (usesEvidence) {
      if (event.kind === "tool-result") {
        const note = await finishEvidence(checkRunOf(event, payload), table, where);
        if (note) warn(note);
      }
      const e = await withEvidence(event, table, facts, where);
      if (e.notice) warn(e.notice);
      facts = e.facts;
    }
    const before = stateOf(event.sessionId);
    // The skills' digests are read here as the hook runner reads them (docs/loads.md).
    const out = decide(withSkillFiles(event, table, before), table, before, facts);
    let decision = out.decision;
    let effects: Effects = {};
    let after = out.state;
    if (decision.verdict === "cap" && event.kind === "tool-result") {
      const c = capOutput(event, decision, table);
      decision = c.decision;
      effects = c.effects;
      after = recordCap(after, event.tool.name, c.result);
    }
    keep(event.sessionId, before, after);
    if ("tool" in event && event.tool.kind === "shell") gitHookTicket(event, decision.verdict === "deny");
    if (usesEvidence && event.kind === "tool-call" && decision.verdict !== "deny") {
      // opencode's args could be rewritten, but no capture proves the rewritten call is what runs: no reuse here.
      const b = await beginEvidence(event, table, out, where, false);
      if (b.notice) warn(b.notice);
    }
    return { event, rendered: render(event, decision, effects) };
  };

  /** The git hooks tell this call's commits from a person's by its ticket; they read the state from disk, so it is saved first (docs/git-hooks.md). */
  const self = procStat(process.pid);
  const gitHookTicket = (event: Event & { tool: { kind: string; name: string } }, refused: boolean): void => {
    try {
      if (event.kind === "tool-call" && !refused) flush();
      noteShellCall(event, refused, stateDir, { host: host.name, packageRoot, env, tableFile: ctx.tableFile, ...(self ? { client: { pid: self.pid, start: self.start } } : {}) });
    } catch (e) {
      warn(`skillgate: the git hooks will not know this call (${(e as Error).message})`);
    }
  };

  const takePending = (event: Event | undefined): string[] => {
    if (!event || event.agentId !== undefined) return [];
    const notes = pending.get(event.sessionId) ?? [];
    pending.delete(event.sessionId);
    return notes;
  };

  /** A part id that sorts right after `after` (opencode orders parts by id). */
  const newPartId = (after: string | undefined): string => `${after ?? `prt_${Date.now().toString(16)}`}sg${(partSeq++).toString(36)}`;

  const trackMessage = (info: Json): void => {
    if (info.role !== "assistant" || typeof info.id !== "string" || typeof info.sessionID !== "string") return;
    // The request's prompt size: input plus cached input (1.18.33: tokens {input, output, cache {read, write}}, zeros until the step ends).
    const t = obj(info.tokens);
    const cache = obj(t.cache);
    const size = [t.input, cache.read, cache.write].reduce<number>((n, v) => n + (typeof v === "number" && Number.isFinite(v) ? v : 0), 0);
    if (size > 0) promptTokens.set(info.sessionID, size);
    if (lastAnswer.get(info.sessionID)?.id === info.id) return;
    lastAnswer.set(info.sessionID, { id: info.id, ...(typeof info.parentID === "string" ? { parentID: info.parentID } : {}), text: "" });
  };

  const trackPart = (part: Json): void => {
    if (part.type !== "text" || part.synthetic === true || typeof part.sessionID !== "string" || typeof part.text !== "string") return;
    const answer = lastAnswer.get(part.sessionID);
    if (answer && answer.id === part.messageID) answer.text = part.text;
  };

  /**
   * The final-answer gate. opencode's session.idle cannot hold the turn open,
   * so a refused stop becomes a follow-up prompt with the reason (the model
   * answers it in a new turn). That follow-up continues the same turn: its own
   * stop passes (decide's loop guard), like Claude Code's stop_hook_active.
   */
  const stopGate = async (sessionID: string): Promise<void> => {
    const answer = lastAnswer.get(sessionID);
    if (!answer) return;
    lastAnswer.delete(sessionID);
    const original = answer.parentID !== undefined ? followUps.get(answer.parentID) : undefined;
    const { event, rendered } = await handle({
      hook: "stop",
      input: { sessionID, finalMessage: answer.text, promptId: original ?? answer.parentID, continuing: original !== undefined },
    });
    if (!rendered?.refuse || !event || event.agentId !== undefined) return;
    const send = input.client?.session?.promptAsync;
    if (!send) return warn(`skillgate: final answer refused, but this opencode has no session.promptAsync: ${rendered.refuse}`);
    awaitingFollowUp.set(sessionID, original ?? answer.parentID ?? "");
    send({ path: { id: sessionID }, body: { parts: [{ type: "text", text: `${STOP_MARK}\n${rendered.refuse}` }] } }).catch((e: Error) =>
      warn(`skillgate: could not send the final-answer refusal: ${e.message}`),
    );
  };

  return {
    /** Make opencode's skill tool list the table's skills too (skills.paths in the merged config). */
    config: async (config: Json): Promise<void> => {
      if (!table || !fs.existsSync(table.skillsDir)) return;
      const skills = obj(config.skills);
      const paths = Array.isArray(skills.paths) ? (skills.paths as unknown[]) : [];
      if (!paths.includes(table.skillsDir)) config.skills = { ...skills, paths: [...paths, table.skillsDir] };
    },

    event: async (i: { event: { type?: unknown; properties?: unknown } }): Promise<void> => {
      try {
        const event = obj(i?.event);
        const p = obj(event.properties);
        switch (event.type) {
          case "session.created": {
            const info = obj(p.info);
            if (typeof info.id === "string" && typeof info.parentID === "string") parents.set(info.id, info.parentID);
            return;
          }
          case "message.updated":
            return trackMessage(obj(p.info));
          case "message.part.updated":
            return trackPart(obj(p.part));
          case "session.idle":
            if (typeof p.sessionID === "string") await stopGate(p.sessionID);
            return flush();
        }
        const { event: e, rendered } = await handle({ hook: "event", input: i });
        // A subagent's compaction leaves the main context as it was; the main session's reminders wait for the model's next read.
        if (e && e.agentId === undefined && rendered?.context) pending.set(e.sessionId, [...(pending.get(e.sessionId) ?? []), rendered.context]);
      } catch (e) {
        warn(`skillgate: internal error on an opencode event: ${(e as Error).message}`);
      }
    },

    "chat.message": async (i: { sessionID: string }, output: { message?: { id?: string; sessionID?: string }; parts?: ChatPart[] }): Promise<void> => {
      try {
        const turn = awaitingFollowUp.get(i.sessionID);
        const text = (output.parts ?? []).map((x) => (typeof x?.text === "string" ? x.text : "")).join("\n");
        if (turn !== undefined && text.startsWith(STOP_MARK)) {
          // Our own follow-up (a refused stop): not the user's words, no hints; remember whose turn it continues.
          awaitingFollowUp.delete(i.sessionID);
          if (output.message?.id) followUps.set(output.message.id, turn);
          return;
        }
        const { event, rendered } = await handle({ hook: "chat.message", input: i, output });
        applyToChatMessage(rendered, output, newPartId, takePending(event));
      } catch (e) {
        warn(`skillgate: internal error on chat.message: ${(e as Error).message}`);
      }
    },

    "tool.execute.before": async (i: ToolInput, output: { args: unknown }): Promise<void> => {
      let refusal: string | undefined;
      try {
        if (!ctx.ok) refusal = failClosed ? `skillgate: trigger table unusable, refusing tool calls: ${ctx.error}` : undefined;
        else refusal = (await handle({ hook: "tool.execute.before", input: i, output })).rendered?.refuse;
      } catch (e) {
        warn(`skillgate: internal error on ${i?.tool}: ${(e as Error).message}`);
        if (failClosed) refusal = `skillgate: internal error, refusing (failMode closed): ${(e as Error).message}`;
      }
      // Throwing is how an opencode plugin refuses a tool call: the message is the tool's error, read by the model.
      if (refusal) throw new Error(refusal);
    },

    "tool.execute.after": async (i: ToolInput, output: { title?: unknown; output?: unknown; metadata?: unknown }): Promise<void> => {
      try {
        const { event, rendered } = await handle({ hook: "tool.execute.after", input: i, output });
        applyToToolOutput(rendered, output, takePending(event));
      } catch (e) {
        warn(`skillgate: internal error after ${i?.tool}: ${(e as Error).message}`);
      }
    },

    dispose: async (): Promise<void> => flush(),
  };
};
