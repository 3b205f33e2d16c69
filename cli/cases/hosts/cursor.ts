// A case's events as Cursor's hooks documentation describes them
// (test/fixtures/cursor/, SOURCES.md: no Cursor binary was reachable, so these
// shapes are documented ones, never captured), and Cursor's answer read back.
// Shell calls and reads have their own events (beforeShellExecution,
// beforeReadFile); no skill tool (a skill loads by a whole Read of its
// SKILL.md); no agent id on a subagent's tool calls; stop carries no final
// answer; no slash-command expansion; no output replacement.
import { cursor } from "../../../hooks/hosts/cursor/adapter.js";
import type { Event } from "../../../hooks/core/types.js";
import { firstPath, parsed, plainTool, skillFile, text, type CaseHost, type Encoded } from "./host.js";

const base = (e: Event, name: string) => ({
  hook_event_name: name,
  conversation_id: e.sessionId,
  generation_id: e.promptId ?? "gen-1",
  workspace_roots: [e.cwd],
  cwd: e.cwd,
});

const ok = (payload: Record<string, unknown>): Encoded => ({ payload, host: cursor });

export const cursorCases: CaseHost = {
  name: "cursor",
  adapter: cursor,
  encode(e, ctx) {
    if (e.agentId !== undefined && e.kind !== "subagent-start") return { unplayable: "Cursor's payloads do not say a tool call or stop is a subagent's" };
    switch (e.kind) {
      case "tool-call": {
        const t = e.tool;
        if (t.kind === "shell") return ok({ ...base(e, "beforeShellExecution"), command: t.command });
        if (t.kind === "read")
          return t.whole
            ? ok({ ...base(e, "beforeReadFile"), file_path: t.path ?? "", content: "" })
            : { unplayable: "Cursor gates reads in beforeReadFile, which has no line range" };
        if (t.kind === "write")
          return ok({ ...base(e, "preToolUse"), tool_name: "Write", tool_input: { file_path: firstPath(t.paths), contents: "x" }, tool_use_id: "tool-1" });
        if (t.kind === "edit") return ok({ ...base(e, "preToolUse"), tool_name: "Edit", tool_input: { file_path: firstPath(t.paths) }, tool_use_id: "tool-1" });
        if (t.kind === "subagent")
          return ok({
            ...base(e, "preToolUse"),
            tool_name: "Task",
            tool_input: { subagent_type: t.subagentType, prompt: t.prompt ?? "do it" },
            tool_use_id: "tool-1",
          });
        if (t.kind === "fetch")
          return ok({ ...base(e, "preToolUse"), tool_name: "WebFetch", tool_input: { url: "https://example.com" }, tool_use_id: "tool-1" });
        if (plainTool(t) !== undefined) return ok({ ...base(e, "preToolUse"), tool_name: t.name, tool_input: {}, tool_use_id: "tool-1" });
        return { unplayable: `Cursor has no ${t.kind} tool` };
      }
      case "tool-result": {
        const t = e.tool;
        const post = (tool: string, input: Record<string, unknown>, output: string) =>
          ok({ ...base(e, "postToolUse"), tool_name: tool, tool_input: input, tool_output: output, tool_use_id: "tool-1", duration: 12 });
        if (t.kind === "shell") return post("Shell", { command: t.command }, text(e.output?.response.stdout));
        if (t.kind === "read") return t.whole ? post("Read", { path: t.path ?? "" }, "x") : { unplayable: "Cursor's documented Read result has no line range" };
        if (t.kind === "skill" && t.skill && e.loads.length) return post("Read", { path: skillFile(ctx, t.skill) }, "# skill");
        return { unplayable: t.kind === "skill" ? "Cursor has no skill tool, so no failed skill call" : `Cursor has no ${t.kind} result` };
      }
      case "tool-failure": {
        const t = e.tool;
        const other = plainTool(t);
        if (t.kind !== "shell" && other === undefined) return { unplayable: `Cursor's failed ${t.kind} call is not played here` };
        return ok({
          ...base(e, "postToolUseFailure"),
          tool_name: other ?? "Shell",
          tool_input: t.kind === "shell" ? { command: t.command } : {},
          error_message: e.error ?? "Exit code 1",
          tool_use_id: "tool-1",
        });
      }
      case "prompt":
        return ok({ ...base(e, "beforeSubmitPrompt"), prompt: e.prompt ?? "", attachments: [] });
      case "prompt-expansion":
        return { unplayable: "Cursor sends no event for a slash command's expansion" };
      case "stop":
        if (e.finalMessage) return { unplayable: "Cursor's stop carries no final answer" };
        return ok({ ...base(e, "stop"), status: "completed", loop_count: e.continuing ? 1 : 0 });
      case "session-start":
        if (e.source !== "startup") return { unplayable: `Cursor has no ${e.source} session start` };
        return ok({ ...base(e, "sessionStart"), session_id: e.sessionId });
      case "compaction":
        if (e.phase === "after") return { unplayable: "Cursor has no event after a compaction" };
        return ok({ ...base(e, "preCompact"), trigger: "auto" });
      case "subagent-start":
        return ok({ ...base(e, "subagentStart"), subagent_id: e.agentId, subagent_type: e.agentType, ...(e.task ? { prompt: e.task } : {}) });
      default:
        return { unplayable: `Cursor has no ${e.kind} event` };
    }
  },
  answer(stdout, e) {
    const out = parsed(stdout);
    const user = text(out.user_message);
    if (e?.kind === "tool-call" && (out.permission === "deny" || out.decision === "deny"))
      return { verdicts: ["deny"], message: text(out.agent_message) || text(out.reason) };
    if (e?.kind === "subagent-start" && out.decision === "deny") return { verdicts: ["deny"], message: text(out.reason) };
    if (out.followup_message) return { verdicts: ["block"], message: text(out.followup_message) };
    if (out.additional_context) return { verdicts: ["allow", "hint"], message: text(out.additional_context), notice: text(out.additional_context) };
    // A hint on a tool call or a prompt reaches only the user (user_message), where a notice goes too.
    if (user) return { verdicts: ["allow", "hint"], message: user, notice: user };
    // Tool results and compactions have no channel at all.
    return { verdicts: e?.kind === "tool-result" || e?.kind === "compaction" || e?.kind === "tool-failure" ? ["allow", "hint"] : ["allow"], message: "" };
  },
  cannot: (verdict) => (verdict === "cap" ? "Cursor cannot replace a tool's output" : undefined),
};
