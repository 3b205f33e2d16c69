// The only file that knows GitHub Copilot CLI's event names, tool names and
// field names. Shapes checked against payloads captured from the real 1.0.102
// binary (test/fixtures/copilot/, e2e-copilot/); where a field was not seen
// in a capture, test/fixtures/copilot/SOURCES.md names where it comes from.
//
// What differs from Claude Code:
// - The payload on stdin does not name its event: `.github/hooks/*.json` runs
//   one command per event, and the installed command passes the event name as
//   its argument. So a Copilot host is made per event: copilotHost("preToolUse").
// - camelCase fields: sessionId, cwd, toolName, toolArgs, toolResult; no tool call id.
// - Tools: `bash` (toolArgs.command), `view` (path, view_range), `create`/`edit`
//   (path), `apply_patch` (toolArgs IS the raw patch envelope, a string), `skill`
//   (toolArgs.skill), `task` (agent_type, prompt), `web_fetch`.
// - preToolUse refuses with {permissionDecision:"deny", permissionDecisionReason};
//   the model reads "Denied by preToolUse hook: <reason>".
// - postToolUse fires on success only and may replace the result (modifiedResult),
//   so long outputs can be capped; its additionalContext reaches the model.
// - agentStop carries no final message (only transcriptPath): the entry reads the
//   last assistant message from the transcript and passes it as `finalMessage`.
import type { Decision, Effects, Event, ToolCall, ToolOutput } from "../../core/types.js";
import type { Host, Normalized } from "../../core/host.js";
import { patchPaths } from "../../core/apply-patch.js";
import { environment } from "./env.js";
import { str, obj, optional, type Json, contentCallId } from "../../io/payload.js";
import { mcpToolCall, mcpToolPart } from "../../core/mcp-tools.js";
import { copilotPromptSize } from "./prompt-size.js";

/** The events skillgate registers (install.ts) and handles. */
export const COPILOT_EVENTS = [
  "sessionStart",
  "userPromptSubmitted",
  "preToolUse",
  "postToolUse",
  "postToolUseFailure",
  "preCompact",
  "agentStop",
  "subagentStart",
  "subagentStop",
] as const;
export type CopilotEvent = (typeof COPILOT_EVENTS)[number];
const isCopilotEvent = (name: string): name is CopilotEvent => (COPILOT_EVENTS as readonly string[]).includes(name);

export function normalize(eventName: string, payload: unknown): Normalized {
  if (!isCopilotEvent(eventName)) return { ok: false, ignored: true };
  const p = obj(payload);
  // A subagent's hooks carry its own sessionId, agentId (the same id) and parentAgentId (the
  // session that started it), as captured: the parent is the session, agentId the subagent.
  const sessionId = str(p.parentAgentId) ?? str(p.sessionId);
  if (sessionId === undefined) return { ok: false, ignored: false, error: `${eventName} event has no sessionId` };
  const base = { sessionId, cwd: str(p.cwd) ?? str(p.workingDirectory) ?? "", ...optional("agentId", str(p.agentId)) };
  // The session's events.jsonl: agentStop names it; for other events the hook process adds it (hook.ts).
  const ok = (event: Event): Normalized => ({ ok: true, event, ...optional("transcriptPath", str(p.transcriptPath)) });
  // Copilot's hook payloads carry no tool call id: one from what before and after share.
  const call = { ...base, toolUseId: contentCallId(sessionId, base.agentId, str(p.toolName) ?? "", p.toolArgs) };

  switch (eventName) {
    case "preToolUse":
      return ok({ ...call, kind: "tool-call", tool: toolOf(p) });
    case "postToolUse": {
      const tool = toolOf(p);
      const result = obj(p.toolResult);
      return ok({ ...call, kind: "tool-result", tool, loads: skillLoads(tool, result), ...optional("output", outputOf(result)) });
    }
    case "postToolUseFailure":
      return ok({ ...call, kind: "tool-failure", tool: toolOf(p) });
    case "userPromptSubmitted":
      return ok({ ...base, kind: "prompt", prompt: str(p.prompt) ?? "" });
    case "sessionStart":
      // Copilot's sources: "new" | "startup" | "resume". A new session starts empty, like a startup.
      return ok({ ...base, kind: "session-start", source: str(p.source) === "resume" ? "resume" : "startup" });
    case "preCompact":
      return ok({ ...base, kind: "compaction", phase: "before" });
    case "agentStop":
      // A subagent's agentStop names the parent's transcript; its subagentStop carries its answer.
      if (base.agentId !== undefined) return { ok: false, ignored: true };
      return ok({ ...base, kind: "stop", finalMessage: str(p.finalMessage) ?? "", continuing: p.stop_hook_active === true || p.stopHookActive === true });
    case "subagentStart": {
      const agentId = base.agentId;
      if (agentId === undefined) return { ok: false, ignored: false, error: "subagentStart event has no agentId" };
      return ok({ ...base, agentId, kind: "subagent-start", agentType: str(p.agentType) ?? str(p.agentName) ?? "general-purpose" });
    }
    case "subagentStop":
      // The subagent's answer is `response`; its hooks belong to the subagent, whatever the payload's agentId.
      return ok({
        ...base,
        agentId: base.agentId ?? str(p.agentName) ?? "subagent",
        kind: "stop",
        finalMessage: str(p.response) ?? "",
        continuing: p.stop_hook_active === true || p.stopHookActive === true,
      });
  }
}

function toolOf(p: Json): ToolCall {
  const name = str(p.toolName) ?? "";
  const args = obj(p.toolArgs);
  switch (name) {
    case "bash":
    case "powershell":
      return { kind: "shell", name, command: str(args.command) ?? "" };
    case "view":
      // A view_range is a slice: a slice of a SKILL.md is not the skill.
      return { kind: "read", name, ...optional("path", str(args.path)), whole: args.view_range === undefined };
    case "create":
      return { kind: "write", name, paths: pathsOf(args) };
    case "edit":
    case "str_replace_editor":
      return { kind: "edit", name, paths: pathsOf(args) };
    case "apply_patch": {
      // toolArgs is the patch envelope itself (a string), as in the capture.
      const { added, changed } = patchPaths(typeof p.toolArgs === "string" ? p.toolArgs : (str(args.input) ?? ""));
      return { kind: changed.length ? "edit" : "write", name, paths: [...added, ...changed] };
    }
    case "skill":
      return { kind: "skill", name, ...optional("skill", str(args.skill)) };
    case "task":
      return { kind: "subagent", name, subagentType: str(args.agent_type) ?? "general-purpose", ...optional("prompt", str(args.prompt)) };
    case "web_fetch":
      return { kind: "fetch", name };
    default: {
      // Any other tool with a `-` is an MCP tool, `<server>-<tool>` (1.0.102's own: `github-mcp-server-search_code`).
      const tool = mcpToolPart(name, "-");
      return tool !== undefined ? mcpToolCall(name, tool, args) : { kind: "other", name };
    }
  }
}

function pathsOf(args: Json): string[] {
  const file = str(args.path);
  return file ? [file] : [];
}

/** 1.0.102's answer for a skill it loaded: `Skill "<name>" loaded successfully. …` with resultType success. */
function skillLoads(tool: ToolCall, result: Json): string[] {
  if (tool.kind !== "skill" || !tool.skill || result.resultType !== "success") return [];
  const text = str(result.textResultForLlm) ?? "";
  return text.startsWith(`Skill "${tool.skill}" loaded successfully`) ? [tool.skill] : [];
}

/** The text the model reads is textResultForLlm; modifiedResult replaces the whole result object. */
function outputOf(result: Json): ToolOutput | undefined {
  const text = str(result.textResultForLlm);
  if (text === undefined) return undefined;
  return { response: result, fields: ["textResultForLlm"], chars: text.length };
}

/** Decision → the JSON Copilot CLI reads on stdout for this event (undefined: print nothing). */
export function render(event: Event, d: Decision, effects: Effects = {}): Json | undefined {
  const out: Json = {};
  if (d.verdict === "deny" && event.kind === "tool-call") {
    out.permissionDecision = "deny";
    out.permissionDecisionReason = d.message;
  } else if (d.verdict === "block" && event.kind === "stop") {
    // The reason is queued as the next user message; the runtime caps consecutive blocks.
    out.decision = "block";
    out.reason = d.message;
  } else if (d.verdict === "cap" && event.kind === "tool-result" && effects.updatedOutput) {
    out.modifiedResult = effects.updatedOutput;
    if (d.message) out.additionalContext = d.message;
  } else if ((d.verdict === "hint" || d.verdict === "cap" || d.verdict === "block") && d.message && CONTEXT_EVENTS.has(event.kind)) {
    out.additionalContext = d.message;
  }
  // No user-only channel exists in Copilot's hook outputs: a notice goes to the model's context where one is read.
  if (d.notice && CONTEXT_EVENTS.has(event.kind))
    out.additionalContext = typeof out.additionalContext === "string" ? `${out.additionalContext}\n${d.notice}` : d.notice;
  return Object.keys(out).length ? out : undefined;
}

/** Events whose output has additionalContext (copilot-sdk types.d.ts). */
// subagentStart's additionalContext is prepended to the subagent's first prompt.
const CONTEXT_EVENTS = new Set<Event["kind"]>(["tool-call", "tool-result", "tool-failure", "prompt", "session-start", "subagent-start"]);

export function renderFailure(message: string, refuseToolCall: boolean): Json {
  return refuseToolCall ? { permissionDecision: "deny", permissionDecisionReason: message } : {};
}

/** The Host for one Copilot event (the event name comes from the hook command's argument). */
export function copilotHost(eventName: string): Host {
  return {
    name: "copilot",
    configEnv: /^COPILOT_HOME$/,
    // Subagents (`task`) are offered the `skill` tool too (the tools list of 1.0.102's requests).
    capabilities: { subagentsLoadSkills: true },
    // 1.0.102's tools: `skill` ({skill}; install --with-skills puts the skills in .github/skills), `view` ({path,
    // view_range}; a view without view_range is a whole read). Headless, view is refused outside the repository,
    // so that route is named only for a file in a skills folder of Copilot's.
    howToLoad: (skill, file) =>
      `call the skill tool with skill "${skill}"${/[/\\]\.(github|claude|agents|copilot)[/\\]skills[/\\]/.test(file) ? ` (or view ${file} whole, without view_range)` : ""}`,
    normalize: (payload) => normalize(eventName, payload),
    render,
    renderFailure,
    looksLikeToolCall: () => eventName === "preToolUse",
    environment,
    promptSize: copilotPromptSize,
  };
}
