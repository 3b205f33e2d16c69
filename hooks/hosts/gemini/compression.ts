// Will this PreCompress compress? Gemini CLI 0.61 fires PreCompress `auto`
// before every model request and only then checks the size: it compresses when
// the last prompt's token count reaches compressionThreshold (settings
// `model.compressionThreshold`, default 0.5) × the model's window (1,048,576 for
// every Gemini model; 256,000 for Gemma 4) — context/chatCompressionService.ts,
// core/tokenLimits.ts. The last prompt size is in the session transcript (each
// `gemini` record's tokens.input). This repeats that check at the edge, so the
// adapter can treat a compressing PreCompress as the compaction it is.
// Errs towards "compresses": the CLI can still skip (nothing old enough to
// summarize, an earlier failed summary); a spurious reset costs one refusal.
import fs from "node:fs";
import path from "node:path";
import { jsonLineWith } from "../../core/transcript-line.js";
import { readTail } from "../../io/transcript-tail.js";

const DEFAULT_THRESHOLD = 0.5;

export function tokenLimit(model: string | undefined): number {
  return model && /^gemma-4/.test(model) ? 256_000 : 1_048_576;
}

/** The last model response's prompt size (tokens.input) and model, from the transcript's tail. */
export function lastPrompt(file: string): { tokens: number; model?: string } | undefined {
  const lines = (readTail(file) ?? "").split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const rec = jsonLineWith(lines[i] ?? "", ['"gemini"', '"tokens"']) as { type?: string; model?: unknown; tokens?: { input?: unknown } } | undefined;
    if (rec?.type !== "gemini" || typeof rec.tokens?.input !== "number") continue;
    return { tokens: rec.tokens.input, ...(typeof rec.model === "string" ? { model: rec.model } : {}) };
  }
  return undefined;
}

/** `model.compressionThreshold` from the project's, else the user's settings.json (comments not supported: default then). */
export function compressionThreshold(settingsFiles: string[]): number {
  for (const file of settingsFiles) {
    try {
      const v = (JSON.parse(fs.readFileSync(file, "utf8")) as { model?: { compressionThreshold?: unknown } }).model?.compressionThreshold;
      if (typeof v === "number" && v > 0 && v <= 1) return v;
    } catch {}
  }
  return DEFAULT_THRESHOLD;
}

/** Whether an automatic PreCompress will compress, given its transcript and the settings (project first). */
export function autoCompresses(transcriptPath: string | undefined, project: string, home: string | undefined): boolean {
  if (!transcriptPath) return false;
  const last = lastPrompt(transcriptPath);
  if (!last) return false;
  const files = [path.join(project, ".gemini", "settings.json"), ...(home ? [path.join(home, "settings.json")] : [])];
  return last.tokens >= compressionThreshold(files) * tokenLimit(last.model);
}
