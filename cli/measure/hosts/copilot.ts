// GitHub Copilot CLI's session files: ~/.copilot/session-state/<id>/events.jsonl
// (1.0.102: test/fixtures/copilot/events-commit-before-after-load.jsonl, from
// the real binary). One event a line, {type, data}: `session.start` (sessionId,
// context.cwd), `user.message` (content), `tool.execution_start` (toolCallId,
// toolName, arguments), `tool.execution_complete` (success, result.content),
// `assistant.message` (content; toolRequests), `session.usage_record` (a
// request's usage), `session.compaction_complete`. Every event of the file is
// read as the main thread's (no capture here shows a subagent's events in it).
import { normalize } from "../../../hooks/hosts/copilot/adapter.js";
import { add, addTokens, jsonLines, newSession, num, obj, str, type HostSession, type Json } from "./session.js";

export function readCopilot(text: string): { sessions: HostSession[]; malformed: number } {
  const { lines, malformed } = jsonLines(text);
  let s: HostSession | undefined;
  const calls = new Map<string, Json>();
  const emit = (event: string, p: Json) => s && add(s, normalize(event, { sessionId: s.id, cwd: s.cwd, ...p }));
  for (const line of lines) {
    const d = obj(line.data);
    switch (line.type) {
      case "session.start":
        s ??= newSession(str(d.sessionId) ?? "", str(obj(d.context).cwd) ?? "");
        break;
      case "user.message":
        emit("userPromptSubmitted", { prompt: str(d.content) ?? "" });
        break;
      case "tool.execution_start": {
        if (!s) break;
        s.toolCalls++;
        const call = { toolName: str(d.toolName) ?? "", toolArgs: d.arguments ?? {} };
        calls.set(str(d.toolCallId) ?? "", call);
        emit("preToolUse", call);
        break;
      }
      case "tool.execution_complete": {
        const call = calls.get(str(d.toolCallId) ?? "");
        // A call the hook refused (error.code "denied") never ran.
        if (!call || obj(d.error).code === "denied") break;
        const content = str(obj(d.result).content) ?? str(obj(d.error).message) ?? "";
        if (d.success === true) emit("postToolUse", { ...call, toolResult: { resultType: "success", textResultForLlm: content } });
        else emit("postToolUseFailure", { ...call, error: content });
        break;
      }
      case "assistant.message": {
        const toolRequests = Array.isArray(d.toolRequests) ? d.toolRequests : [];
        if (!toolRequests.length && str(d.content)) emit("agentStop", { finalMessage: d.content, stop_hook_active: false });
        break;
      }
      case "session.usage_record": {
        if (!s) break;
        const u = obj(d.usage);
        s.requests++;
        s.promptSizes.push(num(u.inputTokens) + num(u.cacheReadTokens) + num(u.cacheWriteTokens));
        addTokens(s, num(u.inputTokens), num(u.outputTokens), num(u.cacheReadTokens), num(u.cacheWriteTokens));
        break;
      }
      case "session.compaction_complete":
        if (!s || d.success === false) break;
        s.compactions++;
        emit("preCompact", { trigger: "auto" });
        break;
    }
  }
  return { sessions: s ? [s] : [], malformed };
}
