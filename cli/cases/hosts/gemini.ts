// A case's events as Gemini CLI 0.61 sends them (test/fixtures/gemini/,
// captured from the real binary), and Gemini's answer read back. Tools:
// run_shell_command, write_file, replace, read_file, activate_skill; no
// failure event, no slash-command expansion, no subagent stop or start (a
// subagent's tool calls are told apart by the entry: SUBAGENT), and the only
// compaction event is PreCompress (`manual` always compresses).
import { gemini } from "../../../hooks/hosts/gemini/adapter.js";
import { SUBAGENT } from "../../../hooks/hosts/gemini/subagents.js";
import type { Event } from "../../../hooks/core/types.js";
import { cannotTellTurns, firstPath, plainTool, parsed, text, type CaseHost, type Encoded } from "./host.js";

const base = (e: Event, name: string) => ({
  session_id: e.sessionId,
  cwd: e.cwd,
  hook_event_name: name,
  timestamp: "2026-12-03T07:52:59.397Z",
  ...(e.agentId !== undefined ? { [SUBAGENT]: e.agentId } : {}),
});

const ok = (payload: Record<string, unknown>): Encoded => ({ payload, host: gemini });

function toolOf(e: Extract<Event, { kind: "tool-call" | "tool-result" }>): { tool_name: string; tool_input: Record<string, unknown> } | { unplayable: string } {
  const t = e.tool;
  switch (t.kind) {
    case "shell":
      return { tool_name: "run_shell_command", tool_input: { command: t.command, description: "run" } };
    case "write":
      return { tool_name: "write_file", tool_input: { file_path: firstPath(t.paths), content: "x" } };
    case "edit":
      return { tool_name: "replace", tool_input: { file_path: firstPath(t.paths), old_string: "a", new_string: "b" } };
    case "read":
      return { tool_name: "read_file", tool_input: { file_path: t.path ?? "", ...(t.whole ? {} : { start_line: 1, end_line: 5 }) } };
    case "skill":
      return { tool_name: "activate_skill", tool_input: { name: t.skill ?? "" } };
    case "fetch":
      return { tool_name: "web_fetch", tool_input: { prompt: "https://example.com" } };
    default: {
      const name = plainTool(t);
      return name !== undefined
        ? { tool_name: name, tool_input: {} }
        : { unplayable: t.kind === "subagent" ? "Gemini CLI's adapter has no subagent tool call" : `an MCP tool call is named per host (${t.name})` };
    }
  }
}

export const geminiCases: CaseHost = {
  name: "gemini",
  adapter: gemini,
  // A session file's gemini message (the shape of test/fixtures/gemini/session-*.jsonl).
  transcript: {
    field: "transcript_path",
    line: (tokens) => JSON.stringify({ id: "m1", type: "gemini", content: "", tokens: { input: tokens, output: 0, cached: 0, total: tokens } }),
  },
  encode(e) {
    switch (e.kind) {
      case "tool-call": {
        const tool = toolOf(e);
        return "unplayable" in tool ? tool : ok({ ...base(e, "BeforeTool"), ...tool });
      }
      case "tool-result": {
        const tool = toolOf(e);
        if ("unplayable" in tool) return tool;
        const t = e.tool;
        // activate_skill's success is an <activated_skill> body; an unknown skill answers with `error`.
        const response =
          t.kind === "skill"
            ? e.loads.length
              ? { llmContent: `<activated_skill name="${t.skill}">\n  <instructions>\n  </instructions>\n</activated_skill>`, returnDisplay: "" }
              : { llmContent: "", error: `Skill "${t.skill}" not found` }
            : { llmContent: t.kind === "shell" ? text(e.output?.response.stdout) : "x\n", returnDisplay: "" };
        return ok({ ...base(e, "AfterTool"), ...tool, tool_response: response });
      }
      case "tool-failure":
        return { unplayable: "Gemini CLI sends no event for a failed tool call" };
      case "prompt":
        return ok({ ...base(e, "BeforeAgent"), prompt: e.prompt ?? "" });
      case "prompt-expansion":
        return { unplayable: "Gemini CLI sends no event for a slash command's expansion" };
      case "stop":
        if (e.agentId !== undefined) return { unplayable: "Gemini CLI sends no stop event for a subagent" };
        return ok({ ...base(e, "AfterAgent"), prompt: "", prompt_response: e.finalMessage, stop_hook_active: e.continuing });
      case "session-start":
        if (e.source === "compact" || e.source === "fork") return { unplayable: `Gemini CLI has no ${e.source} session start` };
        return ok({ ...base(e, "SessionStart"), source: e.source });
      case "compaction":
        if (e.phase === "after") return { unplayable: "Gemini CLI has no event after a compaction" };
        return ok({ ...base(e, "PreCompress"), trigger: "manual" });
      default:
        return { unplayable: `Gemini CLI has no ${e.kind} event` };
    }
  },
  answer(stdout, e) {
    const out = parsed(stdout);
    const hso = (out.hookSpecificOutput ?? {}) as Record<string, unknown>;
    const eventName = typeof hso.hookEventName === "string" ? hso.hookEventName : undefined;
    const system = text(out.systemMessage);
    if (out.decision === "deny") {
      // One refusal shape, three meanings: a refused tool call, a rejected answer, a replaced tool result.
      const verdict = e?.kind === "tool-call" ? "deny" : e?.kind === "stop" ? "block" : "cap";
      // A replaced result reads as Claude Code's does (the new output as JSON), and as the text itself.
      const message = verdict === "cap" ? `${JSON.stringify({ llmContent: out.reason })}\n${text(out.reason)}` : text(out.reason);
      return { verdicts: [verdict], message, notice: system, eventName };
    }
    if (hso.additionalContext) return { verdicts: ["hint"], message: text(hso.additionalContext), notice: system, eventName };
    if (system) return { verdicts: ["allow", "hint"], message: system, notice: system, eventName };
    return { verdicts: ["allow"], message: "", notice: "", eventName };
  },
  cannot: (verdict, e) => cannotTellTurns("Gemini CLI", verdict, e),
};
