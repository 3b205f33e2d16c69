// The only file that knows Claude Code's field names. Shapes checked against
// payloads captured from the real 2.1.328 binary (cases/fixtures/).
import type { Decision, Event, EventKind } from "../../core/types.js";

const KINDS = new Set<EventKind>([
  "PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "UserPromptExpansion",
  "SessionStart", "PreCompact", "PostCompact", "Stop", "SubagentStop",
]);

const WRITE_TOOLS: Record<string, string> = { Write: "file_path", Edit: "file_path", MultiEdit: "file_path", NotebookEdit: "notebook_path" };
const SUBAGENT_TOOLS = new Set(["Agent", "Task"]);

type Json = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});

export type Normalized = { ok: true; event: Event } | { ok: false; ignored: true } | { ok: false; ignored: false; error: string };

export function normalize(payload: unknown): Normalized {
  const p = obj(payload);
  const name = str(p.hook_event_name);
  if (!name) return { ok: false, ignored: false, error: "the event has no hook_event_name" };
  if (!KINDS.has(name as EventKind)) return { ok: false, ignored: true };
  const sessionId = str(p.session_id);
  if (sessionId === undefined) return { ok: false, ignored: false, error: `${name} event has no session_id` };
  const event: Event = { kind: name as EventKind, sessionId, cwd: str(p.cwd) ?? "" };
  const agentId = str(p.agent_id);
  if (agentId) event.agentId = agentId;
  const promptId = str(p.prompt_id);
  if (promptId) event.promptId = promptId;
  const transcript = str(p.transcript_path);
  if (transcript) event.transcriptPath = transcript;
  if (typeof p.context_tokens === "number" && Number.isFinite(p.context_tokens)) event.contextTokens = p.context_tokens;

  switch (event.kind) {
    case "PreToolUse":
    case "PostToolUse":
    case "PostToolUseFailure":
      readTool(p, event);
      break;
    case "UserPromptSubmit": {
      // A finished background subagent comes back as a "prompt" too; those are not the user's words.
      const prompt = str(p.prompt) ?? "";
      if (!prompt.startsWith("<task-notification>")) event.prompt = prompt;
      break;
    }
    case "UserPromptExpansion": {
      // A slash command the user typed (`/commit`) puts the skill in context.
      const cmd = str(p.command_name);
      if (cmd && (str(p.expansion_type) ?? "slash_command") === "slash_command") event.loads = [cmd];
      break;
    }
    case "SessionStart":
      event.source = str(p.source) ?? "startup";
      break;
    case "Stop":
    case "SubagentStop":
      event.finalMessage = str(p.last_assistant_message) ?? "";
      event.stopHookActive = p.stop_hook_active === true;
      break;
  }
  return { ok: true, event };
}

function readTool(p: Json, event: Event): void {
  const tool = str(p.tool_name) ?? "";
  const input = obj(p.tool_input);
  event.tool = tool;
  if (tool === "Bash") event.command = str(input.command) ?? "";
  const pathField = Object.hasOwn(WRITE_TOOLS, tool) ? WRITE_TOOLS[tool] : undefined;
  if (pathField) {
    const file = str(input[pathField]);
    if (file) event.writes = [file];
  }
  if (SUBAGENT_TOOLS.has(tool)) event.subagentType = str(input.subagent_type) ?? "general-purpose";
  const id = str(p.tool_use_id);
  if (id) event.toolUseId = id;
  if (event.kind === "PostToolUse") {
    event.loads = loadsOf(tool, input, p.tool_response);
    event.skillFileRead = skillFileReadOf(tool, input);
    event.output = outputOf(p.tool_response);
  }
}

/** Text fields of a tool result, in the order the model reads them (Bash: stdout then stderr). */
const OUTPUT_FIELDS = ["stdout", "stderr", "result", "output", "content"];

function outputOf(response: unknown): Event["output"] {
  const r = obj(response);
  const fields = OUTPUT_FIELDS.filter((f) => typeof r[f] === "string");
  if (fields.length === 0) return undefined;
  const out: NonNullable<Event["output"]> = { response: r, fields, chars: fields.reduce((n, f) => n + (r[f] as string).length, 0) };
  // 2.1.328: a Bash output over 30,000 chars is saved by Claude Code itself; the hook gets its head, the path and the size.
  if (typeof r.persistedOutputPath === "string" && typeof r.persistedOutputSize === "number") {
    out.persistedPath = r.persistedOutputPath;
    out.chars = Math.max(out.chars, r.persistedOutputSize);
  }
  return out;
}

/** Skills a successful Skill call puts into the main context (a forked skill runs in a subagent instead). */
function loadsOf(tool: string, input: Json, response: unknown): string[] | undefined {
  if (tool !== "Skill") return undefined;
  const skill = str(input.skill);
  const r = obj(response);
  return skill && r.success !== false && r.status !== "forked" ? [skill] : undefined;
}

/** A whole Read of a SKILL.md (a chapter-sized slice with offset/limit is not the skill). */
function skillFileReadOf(tool: string, input: Json): string | undefined {
  if (tool !== "Read" || input.offset !== undefined || input.limit !== undefined) return undefined;
  const file = str(input.file_path);
  return file && /\/SKILL\.md$/.test(file) ? file : undefined;
}

/** Decision → the JSON Claude Code reads on stdout (undefined: print nothing). */
export function render(event: Event, d: Decision): Json | undefined {
  const out: Json = {};
  if (d.verdict === "deny" && event.kind === "PreToolUse") {
    out.hookSpecificOutput = { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: d.message };
  } else if (d.verdict === "block") {
    out.decision = "block";
    out.reason = d.message;
  } else if (d.verdict === "cap" && d.updatedOutput) {
    // Replaces the tool result before the model sees it (2.1.328: same shape as tool_response).
    out.hookSpecificOutput = { hookEventName: event.kind, updatedToolOutput: d.updatedOutput, ...(d.message ? { additionalContext: d.message } : {}) };
  } else if ((d.verdict === "hint" || d.verdict === "cap") && d.message) {
    out.hookSpecificOutput = { hookEventName: event.kind, additionalContext: d.message };
  }
  if (d.notice) out.systemMessage = d.notice;
  return Object.keys(out).length ? out : undefined;
}

/** When the event could not be read: tell the user, decide nothing. */
export function renderNotice(message: string, denyTool = false): Json {
  return denyTool
    ? { systemMessage: message, hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: message } }
    : { systemMessage: message };
}
