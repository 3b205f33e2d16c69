// Copilot's agentStop payload has no final message, only the session's
// events.jsonl. The last `assistant.message` there is the answer the agent
// stops with (1.0.102: {"type":"assistant.message","data":{"content":…}}).
import fs from "node:fs";

const TAIL_BYTES = 512 * 1024;

/** The content of the last assistant.message in a Copilot events.jsonl ("" when none is readable). */
export function lastAssistantMessage(file: string): string {
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
    return "";
  }
  const lines = text.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (!line || !line.includes('"assistant.message"')) continue;
    try {
      const e = JSON.parse(line) as { type?: unknown; data?: { content?: unknown } };
      if (e.type === "assistant.message" && typeof e.data?.content === "string") return e.data.content;
    } catch {
      // The first line of the tail may be cut: skip it.
    }
  }
  return "";
}
