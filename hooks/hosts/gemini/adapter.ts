// The only file that knows Gemini CLI's event names, tool names and field
// names. Shapes checked against payloads captured from the real 0.61.0
// binary (test/fixtures/gemini/, e2e-gemini/).
//
// What differs from Claude Code:
// - Tools: `run_shell_command`, `write_file`, `replace`, `read_file`
//   (start_line/end_line for a slice), `activate_skill` ({name}), `web_fetch`.
// - A skill is loaded by `activate_skill`; its success is an `<activated_skill name="X">`
//   llmContent with no `error` (an unknown skill answers with `error`).
// - Refusing: `{decision: "deny", reason}` on BeforeTool (the reason is the tool's error
//   the model sees); on AfterAgent it rejects the answer and the reason becomes the retry
//   prompt; on AfterTool the reason replaces the tool result (how a cap is done).
// - PreCompress `auto` fires before every model request, before the CLI even checks the
//   size (chatCompressionService.compress in 0.61), so by itself it says nothing about the
//   context being emptied. `manual` (/compress) always compresses; an `auto` one counts only
//   when the entry (hook.ts) found it will compress and marked it `skillgate_compresses`.
import type { Decision, Effects, Event, SessionSource, ToolCall, ToolOutput } from "../../core/types.js";
import type { Host, Normalized } from "../../core/host.js";
import { environment } from "./env.js";
import { contentCallId, str, obj, optional, payloadHead, type Json } from "../../io/payload.js";
import { mcpToolCall, mcpToolPart } from "../../core/mcp-tools.js";
import { SUBAGENT } from "./subagents.js";
import { geminiPromptSize } from "./prompt-size.js";

/** Set by the entry on an `auto` PreCompress that will compress (compression.ts). */
export const COMPRESSES = "skillgate_compresses";

const HOOK_EVENTS = new Set(["BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "SessionStart", "PreCompress"]);
const SOURCES = new Set<SessionSource>(["startup", "resume", "clear"]);

const KINDS: Record<string, ToolCall["kind"]> = {
  run_shell_command: "shell",
  write_file: "write",
  replace: "edit",
  read_file: "read",
  activate_skill: "skill",
  web_fetch: "fetch",
  google_web_search: "fetch",
};

export function normalize(payload: unknown): Normalized {
  const p = obj(payload);
  const head = payloadHead(p, HOOK_EVENTS);
  if ("ok" in head) return head;
  const { name, sessionId } = head;
  // A subagent's tool call: the entry (hook.ts, subagents.ts) marks it while an invoke_agent runs.
  const base = { sessionId, cwd: str(p.cwd) ?? "", ...optional("agentId", str(p[SUBAGENT])) };
  const transcriptPath = str(p.transcript_path) || undefined;
  const ok = (event: Event): Normalized => ({ ok: true, event, ...optional("transcriptPath", transcriptPath) });
  // Gemini's hook payloads carry no tool call id: one from what BeforeTool and AfterTool share.
  const call = { ...base, toolUseId: contentCallId(sessionId, base.agentId, str(p.tool_name) ?? "", p.tool_input) };

  switch (name) {
    case "BeforeTool":
      return ok({ ...call, kind: "tool-call", tool: toolOf(p) });
    case "AfterTool": {
      const tool = toolOf(p);
      const response = obj(p.tool_response);
      const output = outputOf(response);
      return ok({ ...call, kind: "tool-result", tool, loads: skillLoads(tool, response), ...optional("output", output) });
    }
    case "BeforeAgent":
      return ok({ ...base, kind: "prompt", prompt: str(p.prompt) ?? "" });
    case "AfterAgent":
      return ok({ ...base, kind: "stop", finalMessage: str(p.prompt_response) ?? "", continuing: p.stop_hook_active === true });
    case "SessionStart": {
      const source = str(p.source) ?? "startup";
      return ok({ ...base, kind: "session-start", source: SOURCES.has(source as SessionSource) ? (source as SessionSource) : "startup" });
    }
    default:
      // PreCompress: see the header — an `auto` attempt is not a compaction.
      return str(p.trigger) === "manual" || p[COMPRESSES] === true ? ok({ ...base, kind: "compaction", phase: "before" }) : { ok: false, ignored: true };
  }
}

function toolOf(p: Json): ToolCall {
  const name = str(p.tool_name) ?? "";
  const input = obj(p.tool_input);
  // An MCP tool is `mcp_<server>_<tool>`; the payload's mcp_context names the server's own tool (0.61: extractMcpContext).
  if (name.startsWith("mcp_")) return mcpToolCall(name, str(obj(p.mcp_context).tool_name) ?? mcpToolPart(name.slice("mcp_".length), "_") ?? "", input);
  const kind = Object.hasOwn(KINDS, name) ? (KINDS[name] ?? "other") : "other";
  switch (kind) {
    case "shell":
      return { kind, name, command: str(input.command) ?? "" };
    case "write":
    case "edit": {
      const file = str(input.file_path);
      return { kind, name, paths: file ? [file] : [] };
    }
    case "read": {
      const file = str(input.file_path);
      // A line range of a SKILL.md is a slice, not the skill.
      const whole = input.start_line === undefined && input.end_line === undefined;
      return { kind, name, ...optional("path", file), whole };
    }
    case "skill":
      return { kind, name, ...optional("skill", str(input.name)) };
    default:
      return { kind: kind === "fetch" ? "fetch" : "other", name };
  }
}

/** activate_skill loads its skill only in the exact success shape: no `error`, an `<activated_skill name="X">` body. */
function skillLoads(tool: ToolCall, response: Json): string[] {
  if (tool.kind !== "skill" || !tool.skill || response.error !== undefined) return [];
  const body = str(response.llmContent) ?? "";
  return body.startsWith(`<activated_skill name="${tool.skill}">`) ? [tool.skill] : [];
}

/** The model sees llmContent: that is the text a cap shortens (only when it is plain text). */
function outputOf(response: Json): ToolOutput | undefined {
  const text = str(response.llmContent);
  return text === undefined ? undefined : { response, fields: ["llmContent"], chars: text.length };
}

const HOOK_NAME: Partial<Record<Event["kind"], string>> = {
  "tool-call": "BeforeTool",
  "tool-result": "AfterTool",
  prompt: "BeforeAgent",
  stop: "AfterAgent",
  "session-start": "SessionStart",
};

/** Decision → the JSON Gemini CLI reads on stdout (undefined: print nothing). */
export function render(event: Event, d: Decision, effects: Effects = {}): Json | undefined {
  const out: Json = {};
  const hookEventName = HOOK_NAME[event.kind];
  if (d.verdict === "deny" && event.kind === "tool-call") {
    // The reason is the tool's error the model reads.
    out.decision = "deny";
    out.reason = d.message;
  } else if (d.verdict === "block" && event.kind === "stop") {
    // AfterAgent deny: the answer is rejected and the reason is the next prompt.
    out.decision = "deny";
    out.reason = d.message;
  } else if (d.verdict === "cap" && event.kind === "tool-result" && typeof effects.updatedOutput?.llmContent === "string") {
    // AfterTool deny replaces the tool result with the reason: the head, then where the rest is.
    out.decision = "deny";
    out.reason = d.message ? `${effects.updatedOutput.llmContent}\n\n${d.message}` : effects.updatedOutput.llmContent;
  } else if ((d.verdict === "hint" || d.verdict === "cap" || d.verdict === "block") && d.message && hookEventName) {
    out.hookSpecificOutput = { hookEventName, additionalContext: d.message };
  } else if (d.verdict !== "allow" && d.message) {
    // Events with no model-facing channel (compression): the user at least sees it.
    out.systemMessage = d.message;
  }
  if (d.notice) out.systemMessage = typeof out.systemMessage === "string" ? `${out.systemMessage}\n${d.notice}` : d.notice;
  return Object.keys(out).length ? out : undefined;
}

export function renderFailure(message: string, refuseToolCall: boolean): Json {
  return refuseToolCall ? { systemMessage: message, decision: "deny", reason: message } : { systemMessage: message };
}

export const gemini: Host = {
  configEnv: /^GEMINI_\w*DIR$/,
  name: "gemini",
  // Gemini's subagents share the tool registry, activate_skill included; each gets its own context
  // (agentId from the entry's SUBAGENT mark), so the main thread's loads do not pass into it.
  capabilities: { subagentsLoadSkills: true },
  // 0.61.0's tools: activate_skill ({name}, one of the skills Gemini found: install --with-skills puts them in
  // .gemini/skills); read_file ({file_path}, start_line/end_line for a slice) only inside the workspace, so that
  // route is named only for a file in a skills folder of Gemini's, not for skillgate's own copy.
  howToLoad: (skill, file) =>
    `call activate_skill with name "${skill}"${/[/\\]\.(gemini|agents)[/\\]skills[/\\]/.test(file) ? ` (or read_file ${file} whole, no start_line/end_line)` : ""}`,
  normalize,
  render,
  renderFailure,
  looksLikeToolCall: (raw) => /"hook_event_name"\s*:\s*"BeforeTool"/.test(raw.slice(0, 65_536)),
  environment,
  promptSize: geminiPromptSize,
};
