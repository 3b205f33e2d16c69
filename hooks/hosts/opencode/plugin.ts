// skillgate as an opencode plugin: the same table, state and decide() as the
// Claude Code hook, run in-process. Bundled to dist/opencode-plugin.mjs;
// `skillgate install --host opencode` puts a one-line re-export of it into
// .opencode/plugins/ (or ~/.config/opencode/plugins/).
//
// This module exports only the plugin function: opencode calls every function
// a plugin module exports as a plugin.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { decide } from "../../core/decide.js";
import { recordCap } from "../../core/guard.js";
import { factsOf } from "../../core/shell-facts.js";
import { emptyState, type Decision, type Event, type SessionState } from "../../core/types.js";
import type { CompiledTable } from "../../core/table/compile.js";
import { outputRoot, saveCapped } from "../../io/output-store.js";
import { stateDirOf } from "../../io/state-dir.js";
import { isSafeSessionId, StateStore } from "../../io/state-store.js";
import { loadTable, resolveTableFile } from "../../io/table-load.js";
import {
  forOpencode, normalizeBusEvent, normalizeChatMessage, normalizeStop, normalizeToolAfter, normalizeToolBefore,
  renderChatMessage, renderToolAfter, renderToolBefore, STOP_MARK, type ChatPart, type ToolBeforeInput, type Where,
} from "./adapter.js";

/** The parts of opencode's PluginInput we use (@opencode-ai/plugin 1.18.33). */
interface PluginInput {
  directory: string;
  worktree?: string;
  client?: {
    app?: { log?: (o: { body: { service: string; level: string; message: string } }) => Promise<unknown> };
    session?: { promptAsync?: (o: { path: { id: string }; body: { parts: { type: "text"; text: string }[] } }) => Promise<unknown> };
  };
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

/** State is written this long after the last change (and on session.idle / dispose): no file I/O on the tool-call path. */
const FLUSH_MS = 200;

/** skillgate's own folder: the nearest parent of this module holding triggers.json and package.json. */
function packageRootOf(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "triggers.json")) && fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, "..");
  }
}

/** $SKILLGATE_TABLE, else the project's .opencode/triggers.json, else .claude/triggers.json, else skillgate's own. */
function tableFileOf(env: NodeJS.ProcessEnv, directory: string, packageRoot: string): string {
  const own = path.join(directory, ".opencode", "triggers.json");
  if (!env.SKILLGATE_TABLE && fs.existsSync(own)) return own;
  return resolveTableFile({ ...env, CLAUDE_PROJECT_DIR: directory }, packageRoot);
}

/** Folders whose `<skill>/SKILL.md` opencode loads as skills (1.18.33 discovery): reading one whole loads it. */
function skillRootsOf(env: NodeJS.ProcessEnv, directory: string): string[] {
  const home = env.HOME ?? os.homedir();
  const config = env.XDG_CONFIG_HOME ?? path.join(home, ".config");
  return [
    ...[".opencode/skills", ".opencode/skill", ".claude/skills", ".agents/skills"].map((d) => path.join(directory, d)),
    path.join(config, "opencode", "skills"),
    path.join(config, "opencode", "skill"),
    path.join(home, ".claude", "skills"),
    path.join(home, ".agents", "skills"),
  ];
}

export const SkillgatePlugin = async (input: PluginInput) => {
  const env = process.env;
  const directory = input.directory;
  const packageRoot = packageRootOf(path.dirname(fileURLToPath(import.meta.url)));
  const stateDir = stateDirOf({ env, packageRoot });
  const warn = (message: string): void => {
    process.stderr.write(`${message}\n`);
    input.client?.app?.log?.({ body: { service: "skillgate", level: "warn", message } }).catch(() => undefined);
  };

  // The table is read once per plugin instance (one per opencode project directory).
  const loaded = await loadTable(tableFileOf(env, directory, packageRoot), stateDir, env, { globs: true });
  const failClosed = loaded.ok ? loaded.compiled.table.failMode === "closed" : loaded.failMode === "closed";
  let table: CompiledTable | undefined;
  if (loaded.ok) {
    table = loaded.compiled;
    table.skillRoots.push(...skillRootsOf(env, directory));
  } else {
    warn(`skillgate: trigger table unusable, ${failClosed ? "refusing tool calls" : "gates are OFF"}: ${loaded.error}`);
  }

  const store = new StateStore(stateDir);
  const states = new Map<string, SessionState>();
  const dirty = new Set<string>();
  /** Subagent session → its parent (from session.created). */
  const parents = new Map<string, string>();
  /** Reminders waiting for the next thing the model reads (a tool result or a prompt). */
  const pending = new Map<string, string[]>();
  /** Per session: its latest assistant message (id, the user message it answers) and that message's text so far. */
  const lastAnswer = new Map<string, { id: string; parentID?: string; text: string }>();
  /** Our own follow-up prompts (a blocked stop), by message id → the user message whose turn they continue. */
  const followUps = new Map<string, string>();
  /** Sessions where a follow-up was just sent: the next user message there is it. */
  const awaitingFollowUp = new Map<string, string>();
  let flushTimer: NodeJS.Timeout | undefined;
  let partSeq = 0;

  const where = (sessionID: string): Where => {
    let root = sessionID;
    for (let i = 0; i < 32 && parents.has(root); i++) root = parents.get(root) ?? root;
    return root === sessionID ? { sessionId: sessionID, cwd: directory } : { sessionId: root, agentId: sessionID, cwd: directory };
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

  const setState = (id: string, before: SessionState, after: SessionState): void => {
    if (after === before) return;
    states.set(id, after);
    if (!isSafeSessionId(id)) return;
    dirty.add(id);
    flushTimer ??= setTimeout(flush, FLUSH_MS);
    flushTimer.unref?.();
  };

  /** decide() on the session's state, keep the new state, and save a capped output. */
  const run = (event: Event): Decision => {
    if (!table) return { verdict: "allow", rows: [] };
    const facts = event.kind === "PreToolUse" && event.command !== undefined ? factsOf(event) : undefined;
    const before = stateOf(event.sessionId);
    const out = decide(event, table, before, facts);
    let decision = out.decision;
    let after = out.state;
    if (decision.cap && event.output && event.tool) {
      const c = capOutput(event, decision, table);
      decision = c.decision;
      after = recordCap(after, event.tool, c.result);
      if (c.notice) warn(c.notice);
    }
    setState(event.sessionId, before, after);
    return decision;
  };

  const capOutput = (event: Event, d: Decision, t: CompiledTable): { decision: Decision; result: Parameters<typeof recordCap>[2]; notice?: string } => {
    const failed = (why: string) => ({
      decision: { ...d, verdict: d.message ? ("hint" as const) : ("allow" as const), rows: d.rows.filter((r) => r !== d.cap?.row), cap: undefined },
      result: { ok: false as const },
      notice: `skillgate: output of ${event.tool} not capped (${why})`,
    });
    try {
      const root = outputRoot(env.SKILLGATE_OUTPUT_DIR ?? t.table.outputDir, stateDir);
      if (!root.ok || !event.output || !d.cap) return failed(root.ok ? "nothing to cap" : root.error);
      const saved = saveCapped(root.dir, `${event.sessionId}-${event.toolUseId ?? Date.now()}`, event.output, d.cap.headChars, d.cap.row);
      return { decision: { ...d, updatedOutput: saved.updated }, result: { ok: true, charsSaved: saved.charsSaved } };
    } catch (e) {
      return failed((e as Error).message);
    }
  };

  const trackMessage = (info: Json): void => {
    if (info.role !== "assistant" || typeof info.id !== "string" || typeof info.sessionID !== "string") return;
    const prev = lastAnswer.get(info.sessionID);
    if (prev?.id === info.id) return;
    lastAnswer.set(info.sessionID, { id: info.id, parentID: typeof info.parentID === "string" ? info.parentID : undefined, text: "" });
  };

  const trackPart = (part: Json): void => {
    if (part.type !== "text" || part.synthetic === true || typeof part.sessionID !== "string" || typeof part.text !== "string") return;
    const answer = lastAnswer.get(part.sessionID);
    if (answer && answer.id === part.messageID) answer.text = part.text;
  };

  /**
   * The final-answer gate. opencode's session.idle cannot hold the turn open,
   * so a refused stop becomes a follow-up prompt with the reason (the model
   * answers it in a new turn). Our follow-up continues the same turn: its
   * next stop passes (decide's loop guard), like Claude Code's stop_hook_active.
   */
  const stopGate = (sessionID: string): void => {
    const w = where(sessionID);
    const answer = lastAnswer.get(sessionID);
    if (!answer || w.agentId !== undefined) return;
    lastAnswer.delete(sessionID);
    const original = answer.parentID !== undefined ? followUps.get(answer.parentID) : undefined;
    const d = run(normalizeStop(answer.text, original ?? answer.parentID, original !== undefined, w));
    if (d.verdict !== "block" || !d.message) return;
    const send = input.client?.session?.promptAsync;
    if (!send) return warn(`skillgate: final answer refused but this opencode has no session.promptAsync: ${d.message}`);
    awaitingFollowUp.set(sessionID, original ?? answer.parentID ?? "");
    send({ path: { id: sessionID }, body: { parts: [{ type: "text", text: `${STOP_MARK}\n${forOpencode(d.message)}` }] } }).catch((e: Error) =>
      warn(`skillgate: could not send the final-answer refusal: ${e.message}`),
    );
  };

  const takePending = (id: string): string[] => {
    const notes = pending.get(id) ?? [];
    pending.delete(id);
    return notes;
  };

  /** A part id that sorts right after `after` (opencode orders parts by id). */
  const newPartId = (after: string | undefined): string => `${after ?? `prt_${Date.now().toString(16)}`}sg${(partSeq++).toString(36)}`;

  return {
    /** Make opencode's skill tool list the table's skills too (skills.paths in the merged config). */
    config: async (config: Json): Promise<void> => {
      if (!table || !fs.existsSync(table.skillsDir)) return;
      const skills = obj(config.skills);
      const paths = Array.isArray(skills.paths) ? (skills.paths as unknown[]) : [];
      if (!paths.includes(table.skillsDir)) config.skills = { ...skills, paths: [...paths, table.skillsDir] };
    },

    event: async ({ event }: { event: { type?: unknown; properties?: unknown } }): Promise<void> => {
      try {
        const p = obj(event.properties);
        if (event.type === "session.created") {
          const info = obj(p.info);
          if (typeof info.id === "string" && typeof info.parentID === "string") parents.set(info.id, info.parentID);
          return;
        }
        if (event.type === "message.updated") return trackMessage(obj(p.info));
        if (event.type === "message.part.updated") return trackPart(obj(p.part));
        if (event.type === "session.idle") {
          if (typeof p.sessionID === "string") stopGate(p.sessionID);
          return flush();
        }
        if (typeof p.sessionID !== "string") return;
        const w = where(p.sessionID);
        if (w.agentId !== undefined) return; // a subagent's compaction leaves the main context as it was
        const e = normalizeBusEvent(event, w);
        if (!e) return;
        const d = run(e);
        if (d.message) pending.set(w.sessionId, [...(pending.get(w.sessionId) ?? []), d.message]);
      } catch (e) {
        warn(`skillgate: internal error on ${String(event.type)}: ${(e as Error).message}`);
      }
    },

    "chat.message": async (i: { sessionID: string }, output: { message?: { id?: string; sessionID?: string }; parts?: ChatPart[] }): Promise<void> => {
      try {
        const w = where(i.sessionID);
        const turn = awaitingFollowUp.get(i.sessionID);
        const text = (output.parts ?? []).map((p) => (typeof p.text === "string" ? p.text : "")).join("\n");
        if (turn !== undefined && text.startsWith(STOP_MARK)) {
          // Our own follow-up (a refused stop): not the user's words, no hints; remember whose turn it continues.
          awaitingFollowUp.delete(i.sessionID);
          if (output.message?.id) followUps.set(output.message.id, turn);
          return;
        }
        const d = run(normalizeChatMessage(output, w));
        renderChatMessage(d, output, newPartId, w.agentId === undefined ? takePending(w.sessionId) : []);
      } catch (e) {
        warn(`skillgate: internal error on chat.message: ${(e as Error).message}`);
      }
    },

    "tool.execute.before": async (i: ToolBeforeInput, output: { args: unknown }): Promise<void> => {
      let refusal: Error | undefined;
      try {
        if (!table && failClosed) refusal = new Error(`skillgate: trigger table unusable, refusing tool calls: ${loaded.ok ? "" : loaded.error}`);
        else refusal = renderToolBefore(run(normalizeToolBefore(i, output, where(i.sessionID))));
      } catch (e) {
        warn(`skillgate: internal error on ${i.tool}: ${(e as Error).message}`);
        if (failClosed) refusal = new Error(`skillgate: internal error, refusing (failMode closed): ${(e as Error).message}`);
      }
      // Throwing is how an opencode plugin refuses a tool call: the message is the tool's error, read by the model.
      if (refusal) throw refusal;
    },

    "tool.execute.after": async (i: ToolBeforeInput & { args?: unknown }, output: { title?: unknown; output?: unknown; metadata?: unknown }): Promise<void> => {
      try {
        const w = where(i.sessionID);
        const d = run(normalizeToolAfter(i, output, w));
        renderToolAfter(d, output, w.agentId === undefined ? takePending(w.sessionId) : []);
      } catch (e) {
        warn(`skillgate: internal error after ${i.tool}: ${(e as Error).message}`);
      }
    },

    dispose: async (): Promise<void> => flush(),
  };
};
