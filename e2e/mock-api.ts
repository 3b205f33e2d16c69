// A scripted stand-in for the Anthropic Messages API, for driving the real
// Claude Code binary headless. It plays the model: each main-thread request
// takes the next turn of `script`; each request of a subagent takes the next
// turn of that subagent's own script. Every request is recorded so tests can
// read what Claude Code fed back to the model (tool_result text, hook
// additionalContext, Stop block reasons, ...).
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { bodyServer } from "../e2e-shared/body-server.ts";

export interface ToolUse {
  name: string;
  input: Record<string, unknown>;
  /** tool_use id; default `toolu_e2e_<n>` (n counts over the whole run). */
  id?: string;
}

/** Token counts the mock reports for a turn (message_start, and output_tokens again in message_delta). */
export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/**
 * One model answer: a final text (stop_reason end_turn) or tool calls (stop_reason tool_use).
 * `usage` overrides the default counts (input 100, output 20, no cache): Claude Code
 * writes them into the transcript with the assistant message.
 */
export type Turn = ({ text: string } | { toolUse: ToolUse | ToolUse[] }) & { usage?: Usage };

/** Subagent scripts keyed by a marker string that occurs in the Agent call's prompt. */
export type SubagentScripts = Record<string, Turn[]>;

export type RequestKind =
  | "main" // main thread, consumed `script`
  | "subagent" // a subagent launched by one of our Agent tool calls
  | "compact" // a compaction summary request (it carries tools like a main request)
  | "side" // no tools: title, summary, ...
  | "other"; // count_tokens, probes, anything not POST /v1/messages

export interface ContentBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | ContentBlock[];
  is_error?: boolean;
  [k: string]: unknown;
}

export interface Message {
  role: "user" | "assistant";
  content: string | ContentBlock[];
}

export interface MessagesBody {
  model?: string;
  stream?: boolean;
  system?: string | ContentBlock[];
  messages?: Message[];
  tools?: { name: string; [k: string]: unknown }[];
  [k: string]: unknown;
}

export interface RecordedRequest {
  /** Order of arrival, from 0. */
  seq: number;
  method: string;
  path: string;
  kind: RequestKind;
  /** For kind 'subagent': the marker key of subagentScripts that matched, or '' when none did. */
  subagent?: string;
  /** The turn this request was answered with (undefined for side/other, or when the script ran out). */
  answeredWith?: Turn;
  /** Parsed JSON body (undefined when the body was empty or not JSON). */
  body?: MessagesBody;
}

export interface MockApi {
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface MockApiOptions {
  script: Turn[];
  subagentScripts?: SubagentScripts;
  /** Text for side requests (no tools). */
  sideText?: string;
  /** Summary text answered to compaction requests. */
  compactSummary?: string;
}

// The compaction prompt Claude Code 2.1.328 appends as the last user message.
const COMPACT_PROMPT = "create a detailed summary of the conversation";

/** Plain text of a message's content (text blocks joined; tool_result contents included). */
export function contentText(content: string | ContentBlock[] | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((b) => (b.type === "text" ? (b.text ?? "") : b.type === "tool_result" ? contentText(b.content) : "")).join("\n");
}

/** Text of the first user message of a request: for a subagent, this holds the Agent call's prompt. */
export function firstUserText(body: MessagesBody | undefined): string {
  const first = body?.messages?.find((m) => m.role === "user");
  return contentText(first?.content);
}

/** All tool_result blocks anywhere in the request's messages. */
export function toolResults(body: MessagesBody | undefined): ContentBlock[] {
  const out: ContentBlock[] = [];
  for (const m of body?.messages ?? []) {
    if (typeof m.content === "string") continue;
    for (const b of m.content) if (b.type === "tool_result") out.push(b);
  }
  return out;
}

/** Whole body as a string, for "does X appear anywhere in what the model saw" checks. */
export function bodyText(req: RecordedRequest): string {
  return JSON.stringify(req.body ?? {});
}

export async function startMockApi(opts: MockApiOptions): Promise<MockApi> {
  const requests: RecordedRequest[] = [];
  const mainQueue = [...opts.script];
  const subQueues = new Map<string, Turn[]>(Object.entries(opts.subagentScripts ?? {}).map(([k, v]) => [k, [...v]]));
  // Prompts of every Agent/Task call we emitted: a request whose first user
  // message contains one of them belongs to that subagent (the subagent's
  // conversation starts with the prompt). This keeps an unscripted subagent
  // from eating main-thread turns.
  const agentPrompts: string[] = [];
  let toolCounter = 0;
  let msgCounter = 0;

  const server: Server = bodyServer(handle, (message) => ({ type: "error", error: { type: "api_error", message } }));

  function handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    let body: MessagesBody | undefined;
    try {
      body = raw ? (JSON.parse(raw) as MessagesBody) : undefined;
    } catch {
      body = undefined;
    }
    const rec: RecordedRequest = { seq: requests.length, method: req.method ?? "", path, kind: "other", body };
    requests.push(rec);

    if (req.method !== "POST" || !/\/v1\/messages\/?$/.test(path)) {
      // count_tokens, HEAD/GET probes and anything else: a harmless answer.
      res.writeHead(200, { "content-type": "application/json" });
      res.end(req.method === "HEAD" ? undefined : JSON.stringify(path.includes("count_tokens") ? { input_tokens: 100 } : {}));
      return;
    }

    let turn: Turn | undefined;
    const last = body?.messages?.filter((m) => m.role === "user").at(-1);
    if (!body?.tools || body.tools.length === 0) {
      rec.kind = "side";
      turn = { text: opts.sideText ?? "Side answer." };
    } else if (contentText(last?.content).includes(COMPACT_PROMPT)) {
      // Compaction sends the whole conversation plus its prompt, with the
      // session's tools: it must not eat a main-thread turn.
      rec.kind = "compact";
      turn = { text: `<analysis>e2e</analysis>\n<summary>${opts.compactSummary ?? "COMPACT-SUMMARY"}</summary>` };
    } else {
      const first = firstUserText(body);
      const prompt = agentPrompts.find((p) => first.includes(p));
      if (prompt !== undefined) {
        rec.kind = "subagent";
        const key = [...subQueues.keys()].find((k) => prompt.includes(k)) ?? "";
        rec.subagent = key;
        turn = subQueues.get(key)?.shift();
      } else {
        rec.kind = "main";
        turn = mainQueue.shift();
      }
      rec.answeredWith = turn;
      turn ??= { text: "done" };
    }

    const message = buildMessage(turn, body?.model ?? "claude-e2e");
    if (body?.stream) sendSse(res, message);
    else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(message));
    }
  }

  function buildMessage(turn: Turn, model: string) {
    const content: ContentBlock[] = [];
    if ("text" in turn) content.push({ type: "text", text: turn.text });
    else {
      for (const t of Array.isArray(turn.toolUse) ? turn.toolUse : [turn.toolUse]) {
        const id = t.id ?? `toolu_e2e_${++toolCounter}`;
        // 'task' is opencode's subagent tool (same prompt field).
        if ((t.name === "Agent" || t.name === "Task" || t.name === "task") && typeof t.input["prompt"] === "string") {
          agentPrompts.push(t.input["prompt"]);
        }
        content.push({ type: "tool_use", id, name: t.name, input: t.input });
      }
    }
    return {
      id: `msg_e2e_${++msgCounter}`,
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: "text" in turn ? "end_turn" : "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...turn.usage },
    };
  }

  function sendSse(res: ServerResponse, message: ReturnType<typeof buildMessage>): void {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const ev = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    ev("message_start", {
      message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
    });
    message.content.forEach((block, index) => {
      if (block.type === "text") {
        ev("content_block_start", { index, content_block: { type: "text", text: "" } });
        ev("content_block_delta", { index, delta: { type: "text_delta", text: block.text ?? "" } });
      } else {
        ev("content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
        ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
      }
      ev("content_block_stop", { index });
    });
    ev("message_delta", {
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: message.usage.output_tokens },
    });
    ev("message_stop", {});
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
