// A case's events as Codex CLI 0.171 sends them (test/fixtures/codex/, captured
// from the real binary), and Codex's answer read back. Codex's tools: `Bash`
// and `apply_patch`; no read, skill or subagent tool (a skill is loaded by
// printing its SKILL.md, or by the user's `$skill`); PostToolUse only after a
// success, so no failure events and no output to cap.
import { codex } from "../../../hooks/hosts/codex/adapter.js";
import { INJECTS } from "../../../hooks/hosts/codex/mentions.js";
import type { Event } from "../../../hooks/core/types.js";
import { parsed, plainTool, printedText, skillFile, skillText, text, type CaseHost, type Encoded } from "./host.js";

const base = (e: Event, name: string) => ({
  session_id: e.sessionId,
  turn_id: e.promptId ?? "turn-1",
  cwd: e.cwd,
  hook_event_name: name,
  model: "gpt-5.5",
  permission_mode: "bypassPermissions",
  ...(e.agentId !== undefined ? { agent_id: e.agentId } : {}),
});

const ok = (payload: Record<string, unknown>): Encoded => ({ payload, host: codex });

/** An apply_patch envelope that adds (write) or updates (edit) the files. */
function patch(kind: "write" | "edit", paths: string[]): string {
  const files = paths.map((p) => (kind === "write" ? `*** Add File: ${p}\n+x\n` : `*** Update File: ${p}\n@@\n-old\n+new\n`));
  return `*** Begin Patch\n${files.join("")}*** End Patch\n`;
}

export const codexCases: CaseHost = {
  name: "codex",
  adapter: codex,
  // A rollout's token_count (the shape of test/fixtures/codex/rollout-*.jsonl).
  transcript: {
    field: "transcript_path",
    line: (tokens) =>
      JSON.stringify({
        type: "event_msg",
        payload: { type: "token_count", info: { last_token_usage: { input_tokens: tokens, cached_input_tokens: 0, output_tokens: 0 } } },
      }),
  },
  encode(e, ctx) {
    switch (e.kind) {
      case "tool-call": {
        const t = e.tool;
        if (t.kind === "shell") return ok({ ...base(e, "PreToolUse"), tool_name: "Bash", tool_input: { command: t.command }, tool_use_id: "call_1" });
        if (t.kind === "write" || t.kind === "edit")
          return ok({ ...base(e, "PreToolUse"), tool_name: "apply_patch", tool_input: { command: patch(t.kind, t.paths) }, tool_use_id: "call_1" });
        if (plainTool(t) !== undefined) return ok({ ...base(e, "PreToolUse"), tool_name: t.name, tool_input: {}, tool_use_id: "call_1" });
        return { unplayable: `Codex has no ${t.kind} tool` };
      }
      case "tool-result": {
        const t = e.tool;
        const post = (command: string, response: string) =>
          ok({ ...base(e, "PostToolUse"), tool_name: "Bash", tool_input: { command }, tool_response: response, tool_use_id: "call_1" });
        if (t.kind === "shell") return post(t.command, text(e.output?.response.stdout));
        if (t.kind === "read" && t.whole && t.path) return post(`cat ${t.path}`, printedText(t.path, "x\n"));
        if (t.kind === "skill" && t.skill && e.loads.length)
          return post(`cat ${skillFile(ctx, t.skill)}`, printedText(skillFile(ctx, t.skill), skillText(t.skill)));
        if (t.kind === "skill") return { unplayable: "Codex has no skill tool, so no failed skill call" };
        if (t.kind === "write" || t.kind === "edit")
          return ok({
            ...base(e, "PostToolUse"),
            tool_name: "apply_patch",
            tool_input: { command: patch(t.kind, t.paths) },
            tool_response: "Exit code: 0\n",
            tool_use_id: "call_1",
          });
        return { unplayable: `Codex has no ${t.kind === "read" ? "partial read" : t.kind} tool` };
      }
      case "tool-failure":
        return { unplayable: "Codex sends no event for a failed tool call" };
      case "prompt":
        return ok({ ...base(e, "UserPromptSubmit"), prompt: e.prompt ?? "" });
      case "prompt-expansion":
        // `$commit`: Codex puts the skill's text into the turn; the entry marks the mentions it injects (INJECTS).
        if (!e.loads.length) return { unplayable: "Codex has no slash command that loads nothing" };
        return ok({ ...base(e, "UserPromptSubmit"), prompt: e.loads.map((s) => `$${s}`).join(" "), [INJECTS]: e.loads });
      case "stop":
        return ok({ ...base(e, e.agentId !== undefined ? "SubagentStop" : "Stop"), stop_hook_active: e.continuing, last_assistant_message: e.finalMessage });
      case "session-start":
        return ok({ ...base(e, "SessionStart"), source: e.source });
      case "compaction":
        return ok({ ...base(e, e.phase === "before" ? "PreCompact" : "PostCompact"), trigger: "auto" });
      default:
        return { unplayable: `Codex has no ${e.kind} event` };
    }
  },
  answer(stdout) {
    const out = parsed(stdout);
    const hso = (out.hookSpecificOutput ?? {}) as Record<string, unknown>;
    const eventName = typeof hso.hookEventName === "string" ? hso.hookEventName : undefined;
    const system = text(out.systemMessage);
    if (hso.permissionDecision === "deny") return { verdicts: ["deny"], message: text(hso.permissionDecisionReason), notice: system, eventName };
    if (out.decision === "block") return { verdicts: ["block"], message: text(out.reason), notice: system, eventName };
    if (hso.additionalContext) return { verdicts: ["hint"], message: text(hso.additionalContext), notice: system, eventName };
    // Events with no model channel (compaction) say a reminder to the user, where a notice goes too.
    if (system) return { verdicts: ["allow", "hint"], message: system, notice: system, eventName };
    return { verdicts: ["allow"], message: "", notice: "", eventName };
  },
  cannot: (verdict) => (verdict === "cap" ? "Codex cannot replace a tool's output" : undefined),
};
