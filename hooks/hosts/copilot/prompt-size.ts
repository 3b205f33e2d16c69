// Copilot CLI's events.jsonl: each model request is a `session.usage_record`
// {usage: {inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens}}; the
// input is counted apart from the cache. The next prompt is about all four.
import type { PromptSizeReader } from "../../core/host.js";
import { count, jsonLineWith } from "../../core/transcript-line.js";

export const copilotPromptSize: PromptSizeReader = {
  fromLine(line) {
    const rec = jsonLineWith(line, ["session.usage_record"]) as { type?: string; data?: { usage?: unknown } } | undefined;
    if (!rec || rec.type !== "session.usage_record" || !rec.data?.usage || typeof rec.data.usage !== "object") return undefined;
    const u = rec.data.usage;
    return count(u, "inputTokens") + count(u, "cacheReadTokens") + count(u, "cacheWriteTokens") + count(u, "outputTokens");
  },
};
