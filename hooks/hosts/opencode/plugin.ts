// skillgate as an opencode plugin: every event goes through the same pipeline
// as every other host's hook (the runner's runEvent: table, state, link
// targets, settings facts, effects audit and restore, evidence, output cap,
// git-hook tickets), in-process. What is opencode's own stays here: which
// session is a subagent's, the prompt size from the message stream, reminders
// waiting for the next thing the model reads, and the final-answer gate as a
// follow-up prompt. Session state is kept in memory and written 200 ms after
// the last change (io/state-cache.ts), and at once before a shell call runs. The entry (hooks/entries/opencode-plugin.ts) wires this to
// the runner; bundled to dist/opencode-plugin.mjs, which
// `skillgate install --host opencode` re-exports from .opencode/plugins/.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Env, Host } from "../../core/host.js";
import type { Event } from "../../core/types.js";
import { procStat, type ProcessId } from "../../io/tickets.js";
import { applyToChatMessage, applyToToolOutput, checkRunOf, opencodeHost, STOP_MARK, type ChatPart, type Rendered } from "./adapter.js";
import { packageRootOf } from "./paths.js";
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

/** Who the plugin runs as: the environment, skillgate's folder, this project's Host. */
export interface PluginWhere {
  env: NodeJS.ProcessEnv & Env;
  packageRoot: string;
  host: Host;
}

/** What the plugin needs of the runner, given by the entry (hooks/entries/opencode-plugin.ts). */
export interface PluginEngine {
  /** One runner for this plugin instance (its tables and session state kept between events). */
  start(w: PluginWhere, warn: (message: string) => void): Promise<PluginRunner>;
}

export interface PluginRunner {
  /** The table as the runner loads it: its skills folder (for opencode's config), or why it does not load. */
  table: { ok: true; skillsDir: string; failClosed: boolean } | { ok: false; error: string; failClosed: boolean };
  /** One event through the pipeline every host shares (runner/hook.ts runEvent). */
  run(
    event: Event,
    o: { checkRun?: Extract<Event, { kind: "tool-result" | "tool-failure" }>; client?: ProcessId },
  ): Promise<{ answer: Record<string, unknown> | undefined; stderr: string }>;
  /** Write the session state kept in memory now (the git hooks read it from disk). */
  flush(): void;
}

/** The plugin function opencode calls, over an engine. */
export function opencodePlugin(engine: PluginEngine) {
  return async (input: PluginInput) => {
    const env = process.env;
    const directory = input.directory;
    const host = opencodeHost(directory);
    const packageRoot = packageRootOf(path.dirname(fileURLToPath(import.meta.url)));
    const where: PluginWhere = { env, packageRoot, host };
    const warn = (message: string): void => {
      process.stderr.write(`${message}\n`);
      input.client?.app?.log?.({ body: { service: "skillgate", level: "warn", message } }).catch(() => undefined);
    };

    // The table is read at start for opencode's config (skills folder) and to say once when it does not load;
    // each event then goes through the runner, which reads it again (from its cache) as every hook does.
    const runner = await engine.start(where, warn);
    const started = runner.table;
    if (!started.ok) warn(`skillgate: trigger table unusable, ${started.failClosed ? "refusing tool calls" : "gates are OFF"}: ${started.error}`);
    /** The git hooks tell this call's commits from a person's by its ticket: the client is this process (docs/git-hooks.md). */
    const self = procStat(process.pid);
    const client: ProcessId | undefined = self ? { pid: self.pid, start: self.start } : undefined;

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

    /**
     * normalize → attribute (subagent, prompt size) → the runner's pipeline → the rendering opencode applies.
     * A bash call's exit status rides apart from its result (metadata.exit): evidence records it as the run it was.
     */
    const handle = async (payload: { hook: string; input: unknown; output?: unknown }): Promise<{ event?: Event; rendered?: Rendered }> => {
      const n = host.normalize(payload);
      if (!n.ok) {
        if (!n.ignored) warn(`skillgate: ${n.error}`);
        return {};
      }
      const event = attribute(n.event);
      if (!started.ok) return { event };
      const checkRun = event.kind === "tool-result" ? checkRunOf(event, payload) : undefined;
      const r = await runner.run(event, { ...(checkRun && checkRun !== event ? { checkRun } : {}), ...(client ? { client } : {}) });
      if (r.stderr) warn(r.stderr.replace(/\n$/, ""));
      // A shell call about to run may commit or push: the git hooks read its session's state from disk (docs/git-hooks.md).
      if (event.kind === "tool-call" && event.tool.kind === "shell" && !(r.answer as Rendered | undefined)?.refuse) runner.flush();
      return { event, ...(r.answer ? { rendered: r.answer as Rendered } : {}) };
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
        if (!started.ok || !fs.existsSync(started.skillsDir)) return;
        const skills = obj(config.skills);
        const paths = Array.isArray(skills.paths) ? (skills.paths as unknown[]) : [];
        if (!paths.includes(started.skillsDir)) config.skills = { ...skills, paths: [...paths, started.skillsDir] };
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
              return runner.flush();
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
          if (!started.ok) refusal = started.failClosed ? `skillgate: trigger table unusable, refusing tool calls: ${started.error}` : undefined;
          else refusal = (await handle({ hook: "tool.execute.before", input: i, output })).rendered?.refuse;
        } catch (e) {
          warn(`skillgate: internal error on ${i?.tool}: ${(e as Error).message}`);
          if (started.failClosed) refusal = `skillgate: internal error, refusing (failMode closed): ${(e as Error).message}`;
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

      dispose: async (): Promise<void> => runner.flush(),
    };
  };
}
