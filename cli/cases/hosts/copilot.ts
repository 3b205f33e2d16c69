// A case's events as GitHub Copilot CLI 1.0.102 sends them
// (test/fixtures/copilot/, captured from the real binary), and Copilot's
// answer read back. The payload does not name its event: the installed
// command passes it, so each step gets the adapter of its own event. A
// subagent's events carry its own sessionId, agentId and parentAgentId (the
// main session); agentStop's final answer is read from the transcript by the
// entry (here it is given, as the entry passes it); no slash-command
// expansion, no compaction other than preCompact. No user-only channel: a
// notice goes to additionalContext, where a hint goes too.
import { copilotHost } from "../../../hooks/hosts/copilot/adapter.js";
import type { Event } from "../../../hooks/core/types.js";
import { cannotTellTurns, firstPath, plainTool, parsed, text, type CaseHost, type Encoded } from "./host.js";

const base = (e: Event) => ({
  // A subagent's events carry its own session id (= its agentId) and the main session as parentAgentId.
  sessionId: e.agentId ?? e.sessionId,
  timestamp: 1796284439854,
  cwd: e.cwd,
  ...(e.agentId !== undefined ? { agentId: e.agentId, agentType: "task", parentAgentId: e.sessionId } : {}),
});

const ok = (event: string, payload: Record<string, unknown>): Encoded => ({ payload, host: copilotHost(event) });

function toolOf(
  e: Extract<Event, { kind: "tool-call" | "tool-result" | "tool-failure" }>,
): { toolName: string; toolArgs: Record<string, unknown> } | { unplayable: string } {
  const t = e.tool;
  switch (t.kind) {
    case "shell":
      return { toolName: "bash", toolArgs: { command: t.command, description: "run" } };
    case "write":
      return { toolName: "create", toolArgs: { path: firstPath(t.paths), file_text: "x" } };
    case "edit":
      return { toolName: "edit", toolArgs: { path: firstPath(t.paths), old_str: "a", new_str: "b" } };
    case "read":
      return { toolName: "view", toolArgs: { path: t.path ?? "", ...(t.whole ? {} : { view_range: [1, 5] }) } };
    case "skill":
      return { toolName: "skill", toolArgs: { skill: t.skill ?? "" } };
    case "subagent":
      return { toolName: "task", toolArgs: { description: "task", prompt: t.prompt ?? "do it", agent_type: t.subagentType, name: "t1" } };
    case "fetch":
      return { toolName: "web_fetch", toolArgs: { url: "https://example.com" } };
    default: {
      const name = plainTool(t);
      return name !== undefined ? { toolName: name, toolArgs: {} } : { unplayable: `an MCP tool call is named per host (${t.name})` };
    }
  }
}

export const copilotCases: CaseHost = {
  name: "copilot",
  adapter: copilotHost("preToolUse"),
  // An events.jsonl usage record (the shape of test/fixtures/copilot/events-*.jsonl).
  transcript: {
    field: "transcriptPath",
    line: (tokens) =>
      JSON.stringify({ type: "session.usage_record", data: { usage: { inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } } }),
  },
  encode(e) {
    switch (e.kind) {
      case "tool-call": {
        const tool = toolOf(e);
        return "unplayable" in tool ? tool : ok("preToolUse", { ...base(e), ...tool });
      }
      case "tool-result": {
        const tool = toolOf(e);
        if ("unplayable" in tool) return tool;
        const t = e.tool;
        const result =
          t.kind === "skill"
            ? e.loads.length
              ? { resultType: "success", textResultForLlm: `Skill "${t.skill}" loaded successfully. Follow the instructions in the skill context.` }
              : { resultType: "failure", textResultForLlm: `Skill "${t.skill}" not found` }
            : { resultType: "success", textResultForLlm: t.kind === "shell" ? text(e.output?.response.stdout) : "x\n" };
        return ok("postToolUse", { ...base(e), ...tool, toolResult: result });
      }
      case "tool-failure": {
        const tool = toolOf(e);
        return "unplayable" in tool ? tool : ok("postToolUseFailure", { ...base(e), ...tool, error: e.error ?? "Exit code 1" });
      }
      case "prompt":
        return ok("userPromptSubmitted", { ...base(e), prompt: e.prompt ?? "" });
      case "prompt-expansion":
        return { unplayable: "Copilot CLI sends no event for a slash command's expansion" };
      case "stop":
        return e.agentId !== undefined
          ? ok("subagentStop", { ...base(e), agentName: "task", response: e.finalMessage, stopReason: "end_turn", stop_hook_active: e.continuing })
          : ok("agentStop", {
              ...base(e),
              transcriptPath: "/nonexistent/events.jsonl",
              finalMessage: e.finalMessage,
              stopReason: "end_turn",
              stop_hook_active: e.continuing,
            });
      case "session-start":
        if (e.source !== "startup" && e.source !== "resume") return { unplayable: `Copilot CLI has no ${e.source} session start` };
        return ok("sessionStart", { ...base(e), source: e.source === "resume" ? "resume" : "new" });
      case "compaction":
        if (e.phase === "after") return { unplayable: "Copilot CLI has no event after a compaction" };
        return ok("preCompact", { ...base(e), trigger: "auto", customInstructions: "" });
      case "subagent-start":
        return ok("subagentStart", { ...base(e), agentName: "task", agentType: e.agentType });
      default:
        return { unplayable: `Copilot CLI has no ${e.kind} event` };
    }
  },
  answer(stdout, e) {
    const out = parsed(stdout);
    const context = text(out.additionalContext);
    if (out.permissionDecision === "deny") return { verdicts: ["deny"], message: text(out.permissionDecisionReason), eventName: undefined };
    if (out.decision === "block") return { verdicts: ["block"], message: text(out.reason) };
    if (out.modifiedResult) return { verdicts: ["cap"], message: `${JSON.stringify(out.modifiedResult)}\n${context}`, notice: context };
    // additionalContext carries a hint and a notice alike.
    if (context) return { verdicts: ["allow", "hint"], message: context, notice: context };
    // Events with no context channel (compaction, stop) cannot carry a reminder.
    return { verdicts: e?.kind === "compaction" || e?.kind === "stop" ? ["allow", "hint"] : ["allow"], message: "" };
  },
  cannot: (verdict, e) => cannotTellTurns("Copilot CLI", verdict, e),
};
