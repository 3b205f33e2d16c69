// Codex CLI's rollout file: each model response ends with an event_msg
// `token_count` whose info.last_token_usage is that request's usage. OpenAI's
// input_tokens already include the cached ones; the next prompt is about input
// + output. Codex may run the tool before the count is on file: then the
// previous response's size counts (a reminder one call later, never a wrong one).
import type { PromptSizeReader } from "../../core/host.js";
import { count, jsonLineWith } from "../../core/transcript-line.js";

export const codexPromptSize: PromptSizeReader = {
  fromLine(line) {
    const rec = jsonLineWith(line, ["token_count", "last_token_usage"]) as
      | { type?: string; payload?: { type?: string; info?: { last_token_usage?: unknown } } }
      | undefined;
    if (!rec || rec.type !== "event_msg" || rec.payload?.type !== "token_count") return undefined;
    const last = rec.payload.info?.last_token_usage;
    if (!last || typeof last !== "object") return undefined;
    return count(last, "input_tokens") + count(last, "output_tokens");
  },
};
