// The only file that knows Claude Code's event names, tool names and field
// names. Shapes checked against payloads captured from the real 2.1.328
// binary (cases/fixtures/, /work/shared/claude-code-2.1.328/).
import path from "node:path";
import type { Decision, Effects, Event, SessionSource, ToolCall, ToolKind, ToolOutput } from "../../core/types.js";
import type { Host, Normalized } from "../../core/host.js";
import { environment } from "./env.js";
import { registersSkillgate, settingsDeficits, settingsWeakenings, weakensSkillgate } from "./settings.js";
import { str, obj, own, optional, payloadHead, type Json } from "../../io/payload.js";
import { mcpToolCall, mcpToolPart } from "../../core/mcp-tools.js";
import { claudePromptSize } from "./prompt-size.js";

const HOOK_EVENTS = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "SessionStart",
  "PreCompact",
  "PostCompact",
  "Stop",
  "SubagentStop",
  "SubagentStart",
  "ConfigChange",
]);

const TOOL_KINDS: Record<string, ToolKind> = {
  Bash: "shell",
  Write: "write",
  Edit: "edit",
  MultiEdit: "edit",
  NotebookEdit: "edit",
  Read: "read",
  WebFetch: "fetch",
  Skill: "skill",
  Agent: "subagent",
  Task: "subagent",
};
const PATH_FIELD: Record<string, string> = { Write: "file_path", Edit: "file_path", MultiEdit: "file_path", NotebookEdit: "notebook_path" };
const SOURCES = new Set<SessionSource>(["startup", "resume", "clear", "compact", "fork"]);

/**
 * Sets `key` only when `value` is defined (no `key: undefined` under exactOptionalPropertyTypes). `measure`
 * normalizes every event of months of transcripts: one object filled in place, where spreading
 * `optional()` pieces copied the event once per optional field.
 */
function put<T extends object, K extends keyof T>(o: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) o[key] = value;
}

interface Base {
  sessionId: string;
  cwd: string;
  agentId?: string;
  promptId?: string;
}

export function normalize(payload: unknown): Normalized {
  const p = obj(payload);
  const head = payloadHead(p, HOOK_EVENTS);
  if ("ok" in head) return head;
  const { name, sessionId } = head;
  // Fields in the order the spread form had them (sessionId, cwd, agentId, promptId, kind, ...).
  const base: Base = { sessionId, cwd: str(p.cwd) ?? "" };
  put(base, "agentId", str(p.agent_id));
  put(base, "promptId", str(p.prompt_id));
  const tokens = typeof p.context_tokens === "number" && Number.isFinite(p.context_tokens) ? p.context_tokens : undefined;
  const transcriptPath = str(p.transcript_path) || undefined;
  const duration = typeof p.duration_ms === "number" && Number.isFinite(p.duration_ms) && p.duration_ms >= 0 ? p.duration_ms : undefined;
  const ok = (event: Event): Normalized => {
    const n: Normalized = { ok: true, event };
    put(n, "transcriptPath", transcriptPath);
    return n;
  };

  switch (name) {
    case "PreToolUse": {
      const e = Object.assign(base, { kind: "tool-call" as const, tool: toolOf(p) }) as Base & { kind: "tool-call"; tool: ToolCall; toolUseId?: string };
      put(e, "toolUseId", str(p.tool_use_id));
      return ok(Object.assign(e, { input: obj(p.tool_input) }));
    }
    case "PostToolUse": {
      const tool = toolOf(p);
      const e: Extract<Event, { kind: "tool-result" }> = Object.assign(base, { kind: "tool-result" as const, tool, loads: skillLoads(tool, p.tool_response) });
      put(e, "readText", skillText(tool, p.tool_response));
      put(e, "toolUseId", str(p.tool_use_id));
      put(e, "output", outputOf(p.tool_response));
      put(e, "contextTokens", tokens);
      put(e, "durationMs", duration);
      put(e, "unfinished", unfinishedOf(p.tool_response));
      return ok(e);
    }
    case "PostToolUseFailure": {
      const e: Extract<Event, { kind: "tool-failure" }> = Object.assign(base, { kind: "tool-failure" as const, tool: toolOf(p) });
      put(e, "toolUseId", str(p.tool_use_id));
      put(e, "error", str(p.error));
      put(e, "durationMs", duration);
      return ok(e);
    }
    case "UserPromptSubmit": {
      // A finished background subagent comes back as a "prompt" too; those are not the user's words.
      const prompt = str(p.prompt) ?? "";
      const e: Extract<Event, { kind: "prompt" }> = Object.assign(base, { kind: "prompt" as const });
      put(e, "prompt", prompt.startsWith("<task-notification>") ? undefined : prompt);
      put(e, "contextTokens", tokens);
      return ok(e);
    }
    case "UserPromptExpansion": {
      // A slash command the user typed (`/commit`) puts the skill in context.
      const cmd = str(p.command_name);
      const slash = (str(p.expansion_type) ?? "slash_command") === "slash_command";
      return ok(Object.assign(base, { kind: "prompt-expansion" as const, loads: cmd && slash ? [cmd] : [] }));
    }
    case "SessionStart": {
      const source = str(p.source) ?? "startup";
      return ok(Object.assign(base, { kind: "session-start" as const, source: SOURCES.has(source as SessionSource) ? (source as SessionSource) : "startup" }));
    }
    case "ConfigChange": {
      // Whether the change removes skillgate's hook is read from the file at the edge (runner).
      const e = Object.assign(base, { kind: "config-change" as const, source: str(p.source) ?? "unknown" }) as Base & {
        kind: "config-change";
        source: string;
        file?: string;
      };
      put(e, "file", str(p.file_path));
      return ok(Object.assign(e, { removesSkillgate: false }));
    }
    case "SubagentStart": {
      const agentId = base.agentId;
      if (agentId === undefined) return { ok: false, ignored: false, error: "SubagentStart event has no agent_id" };
      return ok(Object.assign(base, { agentId, kind: "subagent-start" as const, agentType: str(p.agent_type) ?? "general-purpose" }));
    }
    case "PreCompact":
    case "PostCompact":
      return ok(Object.assign(base, { kind: "compaction" as const, phase: name === "PreCompact" ? ("before" as const) : ("after" as const) }));
    default: {
      // Stop / SubagentStop. A subagent's stop always belongs to a subagent, even without agent_id.
      put(base, "agentId", name === "SubagentStop" ? (base.agentId ?? "subagent") : base.agentId);
      return ok(Object.assign(base, { kind: "stop" as const, finalMessage: str(p.last_assistant_message) ?? "", continuing: p.stop_hook_active === true }));
    }
  }
}

function toolOf(p: Json): ToolCall {
  const name = str(p.tool_name) ?? "";
  const input = obj(p.tool_input);
  // An MCP tool is `mcp__<server>__<tool>` (a plugin's server: `mcp__plugin_<plugin>_<server>__<tool>`).
  if (name.startsWith("mcp__")) return mcpToolCall(name, mcpToolPart(name.slice("mcp__".length), "__") ?? "", input);
  const kind = own(TOOL_KINDS, name) ?? "other";
  switch (kind) {
    case "shell":
      return { kind, name, command: str(input.command) ?? "", ...(input.run_in_background === true ? { background: true as const } : {}) };
    case "write":
    case "edit": {
      const file = str(input[own(PATH_FIELD, name) ?? "file_path"]);
      return { kind, name, paths: file ? [file] : [] };
    }
    case "read":
      // A slice (offset/limit) of a SKILL.md is a chapter-sized read, not the skill.
      return { kind, name, ...optional("path", str(input.file_path)), whole: input.offset === undefined && input.limit === undefined };
    case "subagent":
      return { kind, name, subagentType: str(input.subagent_type) ?? "general-purpose", ...optional("prompt", str(input.prompt)) };
    case "skill":
      return { kind, name, ...optional("skill", str(input.skill)) };
    default:
      return { kind, name };
  }
}

/** A Skill call loads its skill only in the client's exact success shape (a forked skill runs in a subagent instead). */
function skillLoads(tool: ToolCall, response: unknown): string[] {
  if (tool.kind !== "skill" || !tool.skill) return [];
  const r = obj(response);
  return r.success === true && r.status !== "forked" ? [tool.skill] : [];
}

/** The text a whole Read of a SKILL.md returned (2.1.328: tool_response.file.content), compared with the skill as installed. */
function skillText(tool: ToolCall, response: unknown): string | undefined {
  if (tool.kind !== "read" || !tool.whole || !tool.path || !/(^|[/\\])SKILL\.md$/.test(tool.path)) return undefined;
  return str(obj(obj(response).file).content);
}

/** A Bash result that is no exit status (2.1.328 shape): the user interrupted it, or it went to the background (`backgroundTaskId`). */
function unfinishedOf(response: unknown): "interrupted" | "background" | undefined {
  const r = obj(response);
  return r.interrupted === true ? "interrupted" : typeof r.backgroundTaskId === "string" ? "background" : undefined;
}

/** Text fields of a tool result, in the order the model reads them (Bash: stdout then stderr). */
const OUTPUT_FIELDS = ["stdout", "stderr", "result", "output", "content"];

function outputOf(response: unknown): ToolOutput | undefined {
  const { persistedOutputPath: saved, persistedOutputSize: size, ...r } = obj(response);
  const fields = OUTPUT_FIELDS.filter((f) => typeof r[f] === "string");
  if (fields.length === 0) return undefined;
  // Left in a rewritten result, Claude Code's own note of its saved copy would make it show its preview instead of ours.
  const out: ToolOutput = { response: r, fields, chars: fields.reduce((n, f) => n + String(r[f]).length, 0) };
  // 2.1.328: a Bash output over 30,000 chars is saved by Claude Code itself; the hook gets its head, the path and the size.
  if (typeof saved === "string" && typeof size === "number") {
    // Only a file in Claude Code's tool-results folder is its copy: any other path is never read.
    if (path.isAbsolute(saved) && /\/tool-results\/[^/]+$/.test(saved)) out.persistedPath = saved;
    out.chars = Math.max(out.chars, size);
  }
  return out;
}

const HOOK_NAME: Record<Event["kind"], string> = {
  "tool-call": "PreToolUse",
  "tool-result": "PostToolUse",
  "tool-failure": "PostToolUseFailure",
  prompt: "UserPromptSubmit",
  "prompt-expansion": "UserPromptExpansion",
  stop: "Stop",
  "session-start": "SessionStart",
  "subagent-start": "SubagentStart",
  "config-change": "ConfigChange",
  compaction: "PreCompact",
};

/** Decision → the JSON Claude Code reads on stdout (undefined: print nothing). */
export function render(event: Event, d: Decision, effects: Effects = {}): Json | undefined {
  const out: Json = {};
  const hookEventName = HOOK_NAME[event.kind];
  if (d.verdict === "deny" && event.kind === "tool-call") {
    out.hookSpecificOutput = { hookEventName, permissionDecision: "deny", permissionDecisionReason: d.message };
  } else if (effects.updatedInput && event.kind === "tool-call" && d.verdict !== "deny") {
    // The call runs with a rewritten input (evidence reuse); "allow" is what makes Claude Code apply it.
    out.hookSpecificOutput = {
      hookEventName,
      permissionDecision: "allow",
      updatedInput: effects.updatedInput,
      ...(d.verdict === "hint" && d.message ? { additionalContext: d.message } : {}),
    };
  } else if (d.verdict === "block") {
    out.decision = "block";
    out.reason = d.message;
  } else if (d.verdict === "cap" && effects.updatedOutput) {
    // Replaces the tool result before the model sees it (2.1.328: same shape as tool_response).
    out.hookSpecificOutput = { hookEventName, updatedToolOutput: effects.updatedOutput, ...(d.message ? { additionalContext: d.message } : {}) };
  } else if ((d.verdict === "hint" || d.verdict === "cap") && d.message) {
    out.hookSpecificOutput = { hookEventName, additionalContext: d.message };
  }
  if (d.notice) out.systemMessage = d.notice;
  return Object.keys(out).length ? out : undefined;
}

/** When the event could not be decided: tell the user; deny the tool call when failing closed. */
export function renderFailure(message: string, refuseToolCall: boolean): Json {
  return refuseToolCall
    ? { systemMessage: message, hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: message } }
    : { systemMessage: message };
}

export const claudeCode: Host = {
  configEnv: /^(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA|CLAUDE_CONFIG_DIR)$/,
  name: "claude-code",
  // 2.1.328: a general-purpose subagent's tools include Skill (e2e/FINDINGS.md).
  capabilities: { subagentsLoadSkills: true, rewritesToolInput: true, reportsExitStatus: true },
  // The Skill tool takes {skill}; a whole Read (no offset/limit) of a SKILL.md in a skills folder loads it too.
  howToLoad: (skill, file) => `call the Skill tool with skill "${skill}" (or Read ${file} in full)`,
  pluginCommand: { program: "claude", subcommand: "plugin", removes: ["uninstall", "remove", "disable"] },
  normalize,
  render,
  renderFailure,
  looksLikeToolCall: (raw) => /"hook_event_name"\s*:\s*"PreToolUse"/.test(raw.slice(0, 65_536)),
  environment,
  promptSize: claudePromptSize,
  registersSkillgate,
  weakensSkillgate,
  settingsDeficits,
  settingsWeakenings,
};
