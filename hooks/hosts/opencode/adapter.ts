// The only file that knows opencode's hook shapes. Pure: payload → Event,
// Decision → what to do to the hook's output. Shapes checked against payloads
// captured from the real opencode 1.18.33 (test/fixtures/opencode/).
//
// opencode calls plugin hooks in-process as (input, output): a hook refuses a
// tool call by throwing (the message becomes the tool's error, which the model
// reads), and changes what the model sees by mutating `output`.
import type { Decision, Event } from "../../core/types.js";

/**
 * opencode's tool ids → the names rows and the guard use (Claude Code's), so
 * one triggers.json serves both hosts. Unknown ids (MCP tools, custom tools) pass as they are.
 */
export const TOOL_NAMES: Readonly<Record<string, string>> = {
  bash: "Bash",
  read: "Read",
  write: "Write",
  edit: "Edit",
  multiedit: "MultiEdit",
  task: "Task",
  skill: "Skill",
  webfetch: "WebFetch",
  websearch: "WebSearch",
  glob: "Glob",
  grep: "Grep",
  list: "LS",
  todowrite: "TodoWrite",
};

type Json = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

/** Which session an opencode session id belongs to: a subagent's (task tool) session has a parent. */
export interface Where {
  /** The top-level session (state is kept per top-level session, like Claude Code's session_id). */
  sessionId: string;
  /** Set for a subagent's session: its own id. */
  agentId?: string;
  /** The directory opencode runs in (the plugin's `directory`). */
  cwd: string;
}

function base(kind: Event["kind"], w: Where): Event {
  const e: Event = { kind, sessionId: w.sessionId, cwd: w.cwd };
  if (w.agentId !== undefined) e.agentId = w.agentId;
  return e;
}

export interface ToolBeforeInput {
  tool: string;
  sessionID: string;
  callID: string;
}

/** `tool.execute.before` (input {tool, sessionID, callID}, output {args}) → PreToolUse. */
export function normalizeToolBefore(input: ToolBeforeInput, output: { args: unknown }, w: Where): Event {
  const e = base("PreToolUse", w);
  readTool(input.tool, obj(output.args), e);
  if (input.callID) e.toolUseId = input.callID;
  return e;
}

/** `tool.execute.after` (input {tool, sessionID, callID, args}, output {title, output, metadata}) → PostToolUse. Fires only on success. */
export function normalizeToolAfter(input: ToolBeforeInput & { args?: unknown }, output: { title?: unknown; output?: unknown; metadata?: unknown }, w: Where): Event {
  const e = base("PostToolUse", w);
  const args = obj(input.args);
  readTool(input.tool, args, e);
  if (input.callID) e.toolUseId = input.callID;
  const text = str(output.output);
  if (text !== undefined) e.output = { response: { output: text }, fields: ["output"], chars: text.length };
  if (input.tool === "skill") {
    // The skill tool's result opens with <skill_content name="X"> (1.18.33); a failed load throws and never gets here.
    const name = str(args.name) ?? text?.match(/^<skill_content name="([^"]+)">/)?.[1];
    if (name) e.loads = [name];
  }
  if (input.tool === "read" && args.offset === undefined && args.limit === undefined) {
    const file = str(args.filePath);
    if (file && /(^|\/)SKILL\.md$/.test(file)) e.skillFileRead = file;
  }
  return e;
}

function readTool(tool: string, args: Json, e: Event): void {
  e.tool = Object.hasOwn(TOOL_NAMES, tool) ? TOOL_NAMES[tool] : tool;
  switch (tool) {
    case "bash":
      e.command = str(args.command) ?? "";
      break;
    case "write":
    case "edit":
    case "multiedit": {
      const file = str(args.filePath);
      if (file) e.writes = [file];
      break;
    }
    case "apply_patch": {
      // GPT-family models edit through apply_patch: the paths are inside the patch envelope.
      const paths = patchPaths(str(args.patchText) ?? "");
      if (paths.length) e.writes = paths;
      break;
    }
    case "task":
      e.subagentType = str(args.subagent_type) ?? "general";
      break;
  }
}

/** Paths an apply_patch envelope adds, updates, deletes or moves to (`*** Add File: p`, `*** Move to: p`, ...). */
export function patchPaths(patch: string): string[] {
  const out: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+?)\s*$/gm)) {
    if (m[1] && !out.includes(m[1])) out.push(m[1]);
  }
  return out;
}

export interface ChatPart {
  type?: string;
  text?: string;
  synthetic?: boolean;
  id?: string;
  [k: string]: unknown;
}

/** `chat.message` (output {message, parts}) → UserPromptSubmit with the text the user wrote (synthetic parts left out). */
export function normalizeChatMessage(output: { parts?: ChatPart[] }, w: Where): Event {
  const e = base("UserPromptSubmit", w);
  e.prompt = (output.parts ?? [])
    .filter((p) => p.type === "text" && !p.synthetic && typeof p.text === "string")
    .map((p) => p.text)
    .join("\n");
  return e;
}

/** First line of the follow-up prompt a refused final answer becomes (how the plugin knows its own message). */
export const STOP_MARK = "[skillgate: final answer refused]";

/**
 * session.idle → Stop: the session's last assistant text, the user message it
 * answers (the turn), and whether this turn already goes on because of our refusal.
 */
export function normalizeStop(finalMessage: string, promptId: string | undefined, continuing: boolean, w: Where): Event {
  const e = base("Stop", w);
  e.finalMessage = finalMessage;
  e.stopHookActive = continuing;
  if (promptId) e.promptId = promptId;
  return e;
}

/** A bus event (the `event` hook) → the Event it means, if any. Session bookkeeping (parents) is the plugin's. */
export function normalizeBusEvent(event: { type?: unknown; properties?: unknown }, w: Where): Event | undefined {
  if (event.type === "session.compacted") {
    // opencode has summarised the session: the skill texts loaded before are gone from the context.
    const e = base("SessionStart", w);
    e.source = "compact";
    return e;
  }
  return undefined;
}

/**
 * The core's "how to load" wording names Claude Code's Skill tool; opencode's
 * tool is `skill` with a `name` argument. Reworded at the edge so the model calls the right tool.
 */
export function forOpencode(message: string): string {
  return message.replace(/call the Skill tool with skill "([^"]+)"/g, 'call the skill tool with name "$1"');
}

/** PreToolUse: the error to throw (its message is what the model reads as the tool's result), or undefined to let the call run. */
export function renderToolBefore(d: Decision): Error | undefined {
  if (d.verdict !== "deny" && d.verdict !== "block") return undefined;
  return new Error(forOpencode(d.message ?? "skillgate: refused"));
}

/** PostToolUse: rewrite output.output (capped head + pointer) and append reminders for the model. */
export function renderToolAfter(d: Decision, output: { output?: unknown }, extra: string[] = []): void {
  if (d.verdict === "cap" && d.updatedOutput && typeof d.updatedOutput.output === "string") output.output = d.updatedOutput.output;
  const notes = [...(d.verdict === "hint" || d.verdict === "cap" ? [d.message] : []), ...extra].filter((m): m is string => !!m);
  if (notes.length && typeof output.output === "string") output.output = `${output.output}\n\n${notes.map(forOpencode).join("\n")}`;
}

/**
 * chat.message: a hint becomes a synthetic text part of the user's message
 * (the model reads it with the prompt; opencode saves and shows it as synthetic).
 * `newId` makes a part id that sorts after the message's own parts.
 */
export function renderChatMessage(d: Decision, output: { message?: { id?: string; sessionID?: string }; parts?: ChatPart[] }, newId: (after: string | undefined) => string, extra: string[] = []): void {
  const notes = [...(d.verdict === "hint" ? [d.message] : []), ...extra].filter((m): m is string => !!m);
  if (!notes.length || !Array.isArray(output.parts)) return;
  const last = output.parts.at(-1);
  output.parts.push({
    id: newId(last?.id),
    messageID: output.message?.id ?? (last?.messageID as string | undefined),
    sessionID: output.message?.sessionID ?? (last?.sessionID as string | undefined),
    type: "text",
    synthetic: true,
    text: notes.map(forOpencode).join("\n"),
  });
}
