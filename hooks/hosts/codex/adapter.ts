// The only file that knows Codex CLI's event names, tool names and field
// names. Shapes checked against payloads captured from the real 0.171.0
// binary (test/fixtures/codex/, e2e-codex/).
//
// What differs from Claude Code:
// - Tools the hooks see: `Bash` (exec_command; tool_input.command is a string),
//   `apply_patch` (tool_input.command is the raw patch envelope), MCP tools.
//   File reads are not a tool: the model reads files, SKILL.md included, with the shell.
// - A skill is loaded by reading its SKILL.md (Codex lists skills with their paths in
//   the instructions), or by the user naming it as `$skill` in the prompt when Codex has
//   that skill (it then puts the file into the turn itself; the entry marks which
//   mentions those are, mentions.ts). A `$name` Codex has no skill for loads nothing.
// - PostToolUse fires only after a successful call, and its tool_response is the
//   output text; it cannot replace a shell's output, so outputs are never capped here.
// - Output JSON is parsed strictly per event: only the fields each event accepts are sent.
import { parse as parseShell } from "shell-quote";
import type { Decision, Effects, Event, SessionSource, ToolCall } from "../../core/types.js";
import type { Host, Normalized } from "../../core/host.js";
import { environment } from "./env.js";
import { patchPaths } from "../../core/apply-patch.js";
import { str, obj, optional, payloadHead, type Json } from "../../io/payload.js";
import { mcpToolCall, mcpToolPart } from "../../core/mcp-tools.js";
import { INJECTS } from "./mentions.js";
import { codexPromptSize } from "./prompt-size.js";

const HOOK_EVENTS = new Set(["PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "PreCompact", "PostCompact", "Stop", "SubagentStop"]);
const SOURCES = new Set<SessionSource>(["startup", "resume", "clear", "compact", "fork"]);

export function normalize(payload: unknown): Normalized {
  const p = obj(payload);
  const head = payloadHead(p, HOOK_EVENTS);
  if ("ok" in head) return head;
  const { name, sessionId } = head;
  // turn_id is Codex's turn: the stop loop guard keys on it like Claude Code's prompt id.
  const base = { sessionId, cwd: str(p.cwd) ?? "", ...optional("agentId", str(p.agent_id)), ...optional("promptId", str(p.turn_id)) };
  const transcriptPath = str(p.transcript_path) || undefined;
  const ok = (event: Event): Normalized => ({ ok: true, event, ...optional("transcriptPath", transcriptPath) });

  switch (name) {
    case "PreToolUse":
      return ok({ ...base, kind: "tool-call", tool: toolOf(p), ...optional("toolUseId", str(p.tool_use_id)) });
    case "PostToolUse": {
      const tool = resultToolOf(p);
      // No `output`: Codex cannot replace a shell's output, so there is nothing a cap could do.
      // A whole read of a SKILL.md: what it printed is the text the model got (compared with the skill as installed).
      return ok({
        ...base,
        kind: "tool-result",
        tool,
        loads: [],
        ...optional("readText", tool.kind === "read" ? str(p.tool_response) : undefined),
        ...optional("toolUseId", str(p.tool_use_id)),
      });
    }
    case "UserPromptSubmit": {
      const prompt = str(p.prompt) ?? "";
      // `$commit` in the prompt: Codex puts that skill's SKILL.md into the turn, if it has the skill.
      // Only the mentions the entry found Codex injects (INJECTS) load; without the mark, none do.
      const injects = Array.isArray(p[INJECTS]) ? (p[INJECTS] as unknown[]).filter((n): n is string => typeof n === "string") : [];
      const loaded = skillMentions(prompt).filter((n) => injects.includes(n));
      if (loaded.length) return ok({ ...base, kind: "prompt-expansion", loads: loaded });
      return ok({ ...base, kind: "prompt", prompt });
    }
    case "SessionStart": {
      const source = str(p.source) ?? "startup";
      return ok({ ...base, kind: "session-start", source: SOURCES.has(source as SessionSource) ? (source as SessionSource) : "startup" });
    }
    case "PreCompact":
    case "PostCompact":
      return ok({ ...base, kind: "compaction", phase: name === "PreCompact" ? "before" : "after" });
    default: {
      // Stop / SubagentStop.
      const agentId = name === "SubagentStop" ? (base.agentId ?? "subagent") : base.agentId;
      return ok({
        ...base,
        ...optional("agentId", agentId),
        kind: "stop",
        finalMessage: str(p.last_assistant_message) ?? "",
        continuing: p.stop_hook_active === true,
      });
    }
  }
}

function toolOf(p: Json): ToolCall {
  const name = str(p.tool_name) ?? "";
  const input = obj(p.tool_input);
  if (name === "Bash") return { kind: "shell", name, command: str(input.command) ?? "" };
  if (name === "apply_patch") {
    const { added, changed } = patchPaths(str(input.command) ?? "");
    // A patch that only adds files writes; anything else edits what is there.
    return { kind: changed.length ? "edit" : "write", name, paths: [...added, ...changed] };
  }
  // An MCP tool is `mcp__<server>__<tool>`, its arguments the tool_input.
  if (name.startsWith("mcp__")) return mcpToolCall(name, mcpToolPart(name.slice("mcp__".length), "__") ?? "", input);
  return { kind: "other", name };
}

/**
 * A shell call that printed one SKILL.md whole is a read of that file: the way
 * a Codex model loads a skill. The core then checks the file is in a skills folder.
 */
function resultToolOf(p: Json): ToolCall {
  const tool = toolOf(p);
  if (tool.kind !== "shell") return tool;
  const file = wholeFileRead(tool.command, str(p.tool_response));
  return file !== undefined && /(^|[/\\])SKILL\.md$/.test(file) ? { kind: "read", name: tool.name, path: file, whole: true } : tool;
}

/**
 * The one file a command prints entirely: `cat FILE`, or `sed -n '1,Np' FILE`
 * when the output has fewer than N lines (the file ended before the range did).
 * Anything else (pipes, several files, other programs, partial ranges): undefined.
 */
export function wholeFileRead(command: string, output: string | undefined): string | undefined {
  let words: string[];
  try {
    const parsed = parseShell(command, (v) => `$${v}`);
    if (!parsed.every((t): t is string => typeof t === "string")) return undefined;
    words = parsed;
  } catch {
    return undefined;
  }
  // shell-quote hands variables back as `$NAME`: a path built from the environment is not a literal file.
  if (words.some((w) => w.includes("$"))) return undefined;
  const [prog, ...args] = words;
  if (prog === "cat") {
    const files = args[0] === "--" ? args.slice(1) : args;
    return files.length === 1 && !files[0]?.startsWith("-") ? files[0] : undefined;
  }
  if (prog === "sed" && args.length === 3 && args[0] === "-n") {
    const m = /^1,(\d+)p$/.exec(args[1] ?? "");
    const file = args[2];
    if (!m || !file || file.startsWith("-") || output === undefined) return undefined;
    const lines = output.split("\n").length - (output.endsWith("\n") ? 1 : 0);
    return lines < Number(m[1]) ? file : undefined;
  }
  return undefined;
}

/** Skill names the user mentioned as `$name` (Codex's explicit skill mention). */
export function skillMentions(prompt: string): string[] {
  const out = new Set<string>();
  for (const m of prompt.matchAll(/(?<![\w$])\$([A-Za-z][\w.:-]*[\w])/g)) if (m[1]) out.add(m[1]);
  return [...out];
}

const HOOK_NAME: Partial<Record<Event["kind"], string>> = {
  "tool-call": "PreToolUse",
  "tool-result": "PostToolUse",
  prompt: "UserPromptSubmit",
  "prompt-expansion": "UserPromptSubmit",
  "session-start": "SessionStart",
};

/** Decision → the JSON Codex reads on stdout (undefined: print nothing). */
export function render(event: Event, d: Decision, _effects: Effects = {}): Json | undefined {
  const out: Json = {};
  const hookEventName = HOOK_NAME[event.kind];
  if (d.verdict === "deny" && event.kind === "tool-call") {
    // Codex tells the model "Command blocked by PreToolUse hook: <reason>".
    out.hookSpecificOutput = { hookEventName, permissionDecision: "deny", permissionDecisionReason: d.message };
  } else if (d.verdict === "block" && event.kind === "stop") {
    // The reason becomes the prompt of one more turn.
    out.decision = "block";
    out.reason = d.message;
  } else if ((d.verdict === "hint" || d.verdict === "cap" || d.verdict === "block") && d.message && hookEventName) {
    out.hookSpecificOutput = { hookEventName, additionalContext: d.message };
  } else if (d.verdict !== "allow" && d.message) {
    // Events with no model-facing channel (compaction): the user at least sees it.
    out.systemMessage = d.message;
  }
  if (d.notice) out.systemMessage = typeof out.systemMessage === "string" ? `${out.systemMessage}\n${d.notice}` : d.notice;
  return Object.keys(out).length ? out : undefined;
}

export function renderFailure(message: string, refuseToolCall: boolean): Json {
  return refuseToolCall
    ? { systemMessage: message, hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: message } }
    : { systemMessage: message };
}

export const codex: Host = {
  configEnv: /^CODEX_HOME$/,
  name: "codex",
  // Codex subagents have the same shell, so they can read a SKILL.md themselves.
  // No skill tool: a skill is loaded by printing its SKILL.md (or by the user's `$skill`).
  capabilities: { subagentsLoadSkills: true },
  // The shell is the only tool the hooks see: printing the SKILL.md whole loads it (wholeFileRead), wherever it is.
  howToLoad: (_skill, file) => `read ${file} in full (\`cat\` it)`,
  normalize,
  render,
  renderFailure,
  looksLikeToolCall: (raw) => /"hook_event_name"\s*:\s*"PreToolUse"/.test(raw.slice(0, 65_536)),
  environment,
  promptSize: codexPromptSize,
};
