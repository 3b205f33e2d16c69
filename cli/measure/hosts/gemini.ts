// Gemini CLI's session files: ~/.gemini/tmp/<project>/chats/session-*.jsonl
// (0.61: test/fixtures/gemini/session-commit-before-after-load.jsonl, from the
// real binary; older versions wrote one session-*.json object with the same
// `messages`). JSON lines: the session's head {sessionId}, `$set` updates
// (left out: the set-up context), and messages {id, type: user|gemini, …}; a
// gemini message is written again as it grows (same id: the last one counts),
// its toolCalls carry each call's args and result (functionResponse.response
// .output, or .error). A user message of functionResponses is those results,
// not a prompt. A later `$set` of the messages is a compression rewriting the
// history (what the model saw before is gone). The project folder is the
// session context's first workspace directory.
import { normalize } from "../../../hooks/hosts/gemini/adapter.js";
import { add, jsonLines, newSession, num, obj, str, type HostSession, type Json } from "./session.js";

const REFUSED = "Tool execution blocked:";
/** Where the history was rewritten by a compression (a later `$set` of the messages). */
const COMPRESSED = "skillgate:compressed";

export function readGemini(text: string): { sessions: HostSession[]; malformed: number } {
  let head: Json = {};
  let messages: Json[] = [];
  let malformed = 0;
  let cwd = "";
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") && !trimmed.includes("\n{")) {
    // One JSON object (before JSON lines).
    try {
      head = obj(JSON.parse(text));
      messages = Array.isArray(head.messages) ? head.messages.map(obj) : [];
    } catch {
      malformed++;
    }
  } else {
    const r = jsonLines(text);
    malformed = r.malformed;
    const byId = new Map<string, Json>();
    const order: (string | typeof COMPRESSED)[] = [];
    let sets = 0;
    for (const line of r.lines) {
      if (typeof line.sessionId === "string" && line.type === undefined) head = line;
      const set = obj(line.$set);
      if (Array.isArray(set.messages)) {
        // The first sets up the chat; a later one is the history rewritten by a compression.
        if (sets++ === 0) cwd ||= workspaceOf(set.messages.map(obj));
        else order.push(COMPRESSED);
      }
      if (typeof line.id === "string" && typeof line.type === "string") {
        if (!byId.has(line.id)) order.push(line.id);
        byId.set(line.id, line); // a later copy of a message replaces it, in its place
      }
    }
    messages = order.map((x) => (x === COMPRESSED ? { type: COMPRESSED } : (byId.get(x) ?? {})));
  }
  cwd ||= str(head.cwd) ?? workspaceOf(messages);
  const id = str(head.sessionId);
  if (!id) return { sessions: [], malformed };
  const s = newSession(id, cwd);
  const emit = (p: Json) => add(s, normalize({ session_id: s.id, cwd: s.cwd, ...p }));
  for (const m of messages) {
    const parts = Array.isArray(m.content) ? m.content.map(obj) : [];
    if (m.type === "user") {
      const prompt = parts
        .filter((c) => typeof c.text === "string")
        .map((c) => c.text as string)
        .join("\n");
      if (prompt && !prompt.startsWith("<session_context>")) emit({ hook_event_name: "BeforeAgent", prompt });
    } else if (m.type === "gemini") {
      s.requests++;
      const tokens = obj(m.tokens);
      if (Object.keys(tokens).length) s.promptSizes.push(num(tokens.input) + num(tokens.cached));
      const calls = Array.isArray(m.toolCalls) ? m.toolCalls.map(obj) : [];
      for (const c of calls) {
        s.toolCalls++;
        const call = { tool_name: str(c.name) ?? "", tool_input: obj(c.args) };
        emit({ hook_event_name: "BeforeTool", ...call });
        const response = obj(obj(obj(Array.isArray(c.result) ? c.result[0] : undefined).functionResponse).response);
        // A call the hook refused never ran; a failed one answers with `error` (the adapter loads nothing from it).
        if (Object.keys(response).length && !String(response.error ?? "").startsWith(REFUSED))
          emit({
            hook_event_name: "AfterTool",
            ...call,
            tool_response: { llmContent: str(response.output) ?? "", ...(response.error !== undefined ? { error: response.error } : {}) },
          });
      }
      const answer = typeof m.content === "string" ? m.content : "";
      if (!calls.length && answer) emit({ hook_event_name: "AfterAgent", prompt_response: answer, stop_hook_active: false });
    } else if (m.type === COMPRESSED) {
      s.compactions++;
      emit({ hook_event_name: "PreCompress", trigger: "manual" });
    }
  }
  return { sessions: [s], malformed };
}

/** The first "Workspace Directories" entry of the session context Gemini writes first. */
function workspaceOf(messages: Json[]): string {
  for (const m of messages) {
    for (const c of Array.isArray(m.content) ? m.content.map(obj) : []) {
      const t = str(c.text);
      const w = t && /Workspace Directories:\*\*\s*\n\s*-\s*(\S.*)/.exec(t);
      if (w?.[1]) return w[1].trim();
    }
  }
  return "";
}
