// Claude Code's transcript: the last main-thread assistant message's usage.
// The next request's prompt is about its input + cache read + cache creation +
// output tokens. Subagents' lines (isSidechain) are another context.
import type { PromptSizeReader } from "../../core/host.js";
import { count, jsonLineWith } from "../../core/transcript-line.js";

export const claudePromptSize: PromptSizeReader = {
  fromLine(line) {
    const rec = jsonLineWith(line, ['"assistant"', '"usage"']) as { type?: string; isSidechain?: boolean; message?: { usage?: unknown } } | undefined;
    if (!rec || rec.type !== "assistant" || rec.isSidechain || !rec.message?.usage) return undefined;
    const u = rec.message.usage;
    return count(u, "input_tokens") + count(u, "cache_read_input_tokens") + count(u, "cache_creation_input_tokens") + count(u, "output_tokens");
  },
  // Claude Code writes the assistant message after PreToolUse may already have run: wait for the call's id.
  callMarker: (callId) => `"id":${JSON.stringify(callId)}`,
};
