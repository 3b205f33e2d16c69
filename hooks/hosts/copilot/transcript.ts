// Copilot's agentStop payload has no final message, only the session's
// events.jsonl. The last `assistant.message` there is the answer the agent
// stops with (1.0.102: {"type":"assistant.message","data":{"content":…}}).
import fs from "node:fs";

const TAIL_BYTES = 512 * 1024;

/**
 * This turn's answer: the last assistant.message after the last user.message. Copilot may run
 * agentStop before the answer reaches events.jsonl, so the file is read again for up to waitMs.
 */
export function lastAssistantMessage(file: string, waitMs = 2_000): string {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const found = readAnswer(file);
    if (found.thisTurn || Date.now() >= deadline) return found.text;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}

/** The last assistant.message in the tail, and whether it comes after the last user.message. */
function readAnswer(file: string): { text: string; thisTurn: boolean } {
  let text: string;
  try {
    const fd = fs.openSync(file, "r");
    try {
      const size = fs.fstatSync(fd).size;
      const start = Math.max(0, size - TAIL_BYTES);
      const buf = Buffer.alloc(size - start);
      fs.readSync(fd, buf, 0, buf.length, start);
      text = buf.toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return { text: "", thisTurn: false };
  }
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (!line) continue;
    // A user message before any answer: this turn's answer is not written yet.
    if (line.includes('"user.message"')) return { text: "", thisTurn: false };
    if (!line.includes('"assistant.message"')) continue;
    try {
      const e = JSON.parse(line) as { type?: unknown; data?: { content?: unknown } };
      if (e.type === "assistant.message" && typeof e.data?.content === "string") return { text: e.data.content, thisTurn: true };
    } catch {
      // The first line of the tail may be cut: skip it.
    }
  }
  return { text: "", thisTurn: false };
}
