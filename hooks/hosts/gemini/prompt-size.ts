// Gemini CLI's session file (0.61: JSON lines): a `gemini` message carries its
// request's tokens {input, output, cached, …}; input (promptTokenCount)
// already holds the cached part. The next prompt is about input + output. A
// message written again as it grows keeps its id: the last line counts.
import type { PromptSizeReader } from "../../core/host.js";
import { count, jsonLineWith } from "../../core/transcript-line.js";

export const geminiPromptSize: PromptSizeReader = {
  fromLine(line) {
    const rec = jsonLineWith(line, ['"gemini"', '"tokens"']) as { type?: string; tokens?: unknown } | undefined;
    if (!rec || rec.type !== "gemini" || !rec.tokens || typeof rec.tokens !== "object" || typeof (rec.tokens as { input?: unknown }).input !== "number")
      return undefined;
    return count(rec.tokens, "input") + count(rec.tokens, "output");
  },
};
