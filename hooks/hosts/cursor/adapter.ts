// The only file that knows Cursor's hook event names, tool names and field
// names. DOCUMENTED SHAPES ONLY: no Cursor binary is reachable here, so this
// adapter is proven on the payloads Cursor's hooks documentation describes
// (test/fixtures/cursor/, SOURCES.md names each source), never on a capture.
//
// What differs from Claude Code:
// - `.cursor/hooks.json` `{"version":1,"hooks":{"<event>":[{"command":…}]}}`, camelCase events;
//   every payload names its event (hook_event_name) and its conversation (conversation_id).
// - Refusing a tool: beforeShellExecution / beforeReadFile answer {"permission":"deny",
//   "user_message", "agent_message"}; preToolUse answers {"decision":"deny","reason"}
//   (sources differ on preToolUse, so its refusal carries both spellings).
// - A prompt cannot get model context (beforeSubmitPrompt answers only continue/user_message):
//   a hint reaches the user there; sessionStart's additional_context reaches the model.
// - postToolUse can replace only MCP output: outputs are never capped here.
// - stop: {"followup_message"} is sent as the next user message (Cursor caps the loop with
//   loop_limit, default 5); the payload has no final answer, so the final-answer gate has nothing to read.
// - No skill tool is documented for hooks: a skill is loaded by reading its SKILL.md whole
//   (postToolUse of the Read tool).
import type { Decision, Effects, Event, ToolCall } from "../../core/types.js";
import type { Host, Normalized } from "../../core/host.js";
import { environment } from "./env.js";
import { str, obj, optional, type Json } from "../../io/payload.js";

/** The events skillgate registers (install.ts) and handles. */
export const CURSOR_EVENTS = [
  "sessionStart",
  "beforeSubmitPrompt",
  "beforeShellExecution",
  "beforeReadFile",
  "preToolUse",
  "postToolUse",
  "postToolUseFailure",
  "subagentStart",
  "preCompact",
  "stop",
] as const;
type CursorEvent = (typeof CURSOR_EVENTS)[number];
const isCursorEvent = (name: string): name is CursorEvent => (CURSOR_EVENTS as readonly string[]).includes(name);

/** Tools preToolUse sees that have their own gated event: handled there, not twice. */
const OWN_EVENT_TOOLS = new Set(["Shell", "Read"]);

export function normalize(payload: unknown): Normalized {
  const p = obj(payload);
  const name = str(p.hook_event_name);
  if (!name) return { ok: false, ignored: false, error: "the event has no hook_event_name" };
  if (!isCursorEvent(name)) return { ok: false, ignored: true };
  // conversation_id is the one id every event carries (session_id only on sessionStart/End).
  const sessionId = str(p.conversation_id) ?? str(p.session_id);
  if (sessionId === undefined) return { ok: false, ignored: false, error: `${name} event has no conversation_id` };
  const roots = Array.isArray(p.workspace_roots) ? p.workspace_roots.filter((r): r is string => typeof r === "string") : [];
  const base = { sessionId, cwd: str(p.cwd) ?? roots[0] ?? "", ...optional("promptId", str(p.generation_id)) };
  const transcriptPath = str(p.transcript_path) || undefined;
  const ok = (event: Event): Normalized => ({ ok: true, event, ...optional("transcriptPath", transcriptPath) });
  const toolUseId = optional("toolUseId", str(p.tool_use_id));

  switch (name) {
    case "beforeShellExecution":
      return ok({ ...base, kind: "tool-call", tool: { kind: "shell", name: "Shell", command: str(p.command) ?? "" } });
    case "beforeReadFile":
      return ok({ ...base, kind: "tool-call", tool: { kind: "read", name: "Read", ...optional("path", str(p.file_path)), whole: true } });
    case "preToolUse": {
      const tool = toolOf(p);
      if (OWN_EVENT_TOOLS.has(tool.name)) return { ok: false, ignored: true };
      return ok({ ...base, kind: "tool-call", tool, ...toolUseId });
    }
    case "postToolUse":
      // Loads come from reads of a whole SKILL.md (the core checks the folder); no output to cap.
      return ok({ ...base, kind: "tool-result", tool: toolOf(p), loads: [], ...toolUseId });
    case "postToolUseFailure":
      return ok({ ...base, kind: "tool-failure", tool: toolOf(p), ...toolUseId });
    case "beforeSubmitPrompt":
      return ok({ ...base, kind: "prompt", prompt: str(p.prompt) ?? "" });
    case "sessionStart":
      return ok({ ...base, kind: "session-start", source: "startup" });
    case "subagentStart":
      return ok({
        ...base,
        kind: "subagent-start",
        agentId: str(p.subagent_id) ?? `${str(p.subagent_type) ?? "subagent"}:${str(p.generation_id) ?? ""}`,
        agentType: str(p.subagent_type) ?? "general-purpose",
        ...optional("task", str(p.prompt)),
      });
    case "preCompact":
      return ok({ ...base, kind: "compaction", phase: "before" });
    case "stop":
      // loop_count > 0: this stop follows a followup_message we (or another hook) sent.
      return ok({ ...base, kind: "stop", finalMessage: "", continuing: typeof p.loop_count === "number" && p.loop_count > 0 });
  }
}

/** Cursor's agent tool names (hooks docs' matcher examples): Shell, Read, Write, StrReplace, Edit, Delete, Task, … */
function toolOf(p: Json): ToolCall {
  const name = str(p.tool_name) ?? "";
  const input = obj(p.tool_input);
  const file = str(input.file_path) ?? str(input.path) ?? str(input.target_file);
  const paths = file ? [file] : [];
  switch (name) {
    case "Shell":
      return { kind: "shell", name, command: str(input.command) ?? "" };
    case "Read":
      // A Read with an offset or limit is a slice, not the skill.
      return { kind: "read", name, ...optional("path", file), whole: input.offset === undefined && input.limit === undefined };
    case "Write":
      return { kind: "write", name, paths };
    case "StrReplace":
    case "Edit":
    case "MultiEdit":
    case "Delete":
      return { kind: "edit", name, paths };
    case "Task":
      return { kind: "subagent", name, subagentType: str(input.subagent_type) ?? "general-purpose", ...optional("prompt", str(input.prompt)) };
    case "WebFetch":
      return { kind: "fetch", name };
    default:
      return { kind: "other", name };
  }
}

/**
 * A shell or read tool call comes only from beforeShellExecution / beforeReadFile (preToolUse
 * leaves Shell and Read to them), so the tool's kind says which answer shape the event takes.
 */
const fromPermissionEvent = (tool: ToolCall): boolean => tool.kind === "shell" || tool.kind === "read";

/** Decision → the JSON Cursor reads on stdout (undefined: print nothing). */
export function render(event: Event, d: Decision, _effects: Effects = {}): Json | undefined {
  const out: Json = {};
  if (event.kind === "tool-call") {
    const deny = d.verdict === "deny";
    if (fromPermissionEvent(event.tool)) {
      out.permission = deny ? "deny" : "allow";
      if (deny) {
        out.agent_message = d.message;
        out.user_message = d.message;
      }
    } else if (deny) {
      // preToolUse: documented as {decision, reason}; older pages show the permission shape.
      Object.assign(out, { decision: "deny", reason: d.message, permission: "deny", agent_message: d.message, user_message: d.message });
    }
    if (!deny && (d.verdict === "hint" || d.notice) && (d.verdict === "hint" ? d.message : d.notice))
      out.user_message = d.verdict === "hint" ? d.message : d.notice;
  } else if (event.kind === "stop" && d.verdict === "block") {
    out.followup_message = d.message;
  } else if (event.kind === "prompt") {
    out.continue = true;
    const text = [d.verdict !== "allow" ? d.message : undefined, d.notice].filter(Boolean).join("\n");
    if (text) out.user_message = text;
  } else if (event.kind === "session-start") {
    const text = [d.verdict !== "allow" ? d.message : undefined, d.notice].filter(Boolean).join("\n");
    if (text) out.additional_context = text;
  } else if (event.kind === "subagent-start" && d.verdict === "deny") {
    out.decision = "deny";
    out.reason = d.message;
  }
  return Object.keys(out).length ? out : undefined;
}

export function renderFailure(message: string, refuseToolCall: boolean): Json {
  // Both tool-refusal spellings: the failing event may be any of the gated ones.
  return refuseToolCall ? { permission: "deny", decision: "deny", reason: message, agent_message: message, user_message: message } : { user_message: message };
}

export const cursor: Host = {
  name: "cursor",
  // No skill tool is documented for Cursor's hooks: skills load by reading SKILL.md whole.
  capabilities: { subagentsLoadSkills: true },
  // A shell `cat` is not seen as a read here: only the Read tool, without offset/limit, loads a SKILL.md.
  howToLoad: (_skill, file) => `read ${file} whole with the Read tool (no offset or limit)`,
  normalize,
  render,
  renderFailure,
  looksLikeToolCall: (raw) => /"hook_event_name"\s*:\s*"(beforeShellExecution|beforeReadFile|preToolUse|beforeMCPExecution)"/.test(raw.slice(0, 65_536)),
  environment,
};
