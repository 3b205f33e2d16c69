// A scripted stand-in for the OpenAI Responses API, for driving an agent CLI
// (Codex CLI, Copilot CLI) headless through a custom model provider on
// 127.0.0.1. It plays the model: each sampling request takes the next turn of
// `script`; a compaction request (recognized by the host's own markers) gets a
// summary instead. Every request is recorded so tests can read what the CLI
// fed back to the model (tool outputs, hook context, stop-hook continuations).
// What differs per CLI is a Profile: the compaction markers, and how full the
// SSE stream has to be.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { bodyServer } from "./body-server.ts";

/** A tool call the mock makes: `arguments` for a function tool, `input` for a freeform (custom) tool. */
export type Call = { name: string; arguments: Record<string, unknown>; callId?: string } | { name: string; input: string; callId?: string };

/** One model answer: a final text, or tool calls. `inputTokens` is the usage the mock reports. */
export type Turn = ({ text: string } | { calls: Call | Call[] }) & { inputTokens?: number };

export interface InputItem {
  type?: string;
  role?: string;
  content?: unknown;
  name?: string;
  call_id?: string;
  output?: unknown;
  arguments?: string;
  input?: string;
  [k: string]: unknown;
}

export interface ResponsesBody {
  model?: string;
  instructions?: string;
  input?: InputItem[];
  tools?: { type?: string; name?: string; [k: string]: unknown }[];
  stream?: boolean;
  [k: string]: unknown;
}

export type RequestKind = "main" | "compact" | "other";

export interface RecordedRequest {
  seq: number;
  method: string;
  path: string;
  kind: RequestKind;
  answeredWith?: Turn;
  body?: ResponsesBody;
}

export interface MockResponses {
  /** Base URL to put in `model_providers.<id>.base_url` (ends in /v1). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Requests that sampled the model (took a turn of the script). */
  mainRequests(): RecordedRequest[];
  close(): Promise<void>;
}

export interface MockOptions {
  script: Turn[];
  compactSummary?: string;
}

/** What one CLI needs of the mock. */
export interface Profile {
  /** Texts that open the CLI's compaction request (its last user message, or its instructions). */
  compactMarkers: string[];
  /**
   * The stream as the real API sends it: output_item.added before each .done, statuses and ids on
   * items, and response.completed carrying `output` (Copilot CLI builds its answer from that).
   * Off: only output_item.done and a bare completed (what Codex CLI was verified with).
   */
  fullStream: boolean;
}

/** Text of any content shape (string, or parts with `text`). */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => textOf((p as { text?: unknown })?.text ?? "")).join("\n");
  return "";
}

/** The output the model got back for a tool call (function or custom tool), by call id. */
export function callOutput(body: ResponsesBody | undefined, callId: string): string | undefined {
  const item = body?.input?.find((i) => (i.type === "function_call_output" || i.type === "custom_tool_call_output") && i.call_id === callId);
  if (!item) return undefined;
  return typeof item.output === "string" ? item.output : JSON.stringify(item.output);
}

/** Texts of the messages of one role in the request's input. */
export function messages(body: ResponsesBody | undefined, role: string): string[] {
  return (body?.input ?? []).filter((i) => i.type === "message" && i.role === role).map((i) => textOf(i.content));
}

export function bodyText(req: RecordedRequest): string {
  return JSON.stringify(req.body ?? {});
}

export async function startResponsesMock(opts: MockOptions, profile: Profile): Promise<MockResponses> {
  const requests: RecordedRequest[] = [];
  const queue = [...opts.script];
  let counter = 0;

  const server: Server = bodyServer(handle, (message) => ({ error: { message } }));

  function handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    let body: ResponsesBody | undefined;
    try {
      body = raw ? (JSON.parse(raw) as ResponsesBody) : undefined;
    } catch {
      body = undefined;
    }
    const rec: RecordedRequest = { seq: requests.length, method: req.method ?? "", path, kind: "other", body };
    requests.push(rec);

    if (req.method !== "POST" || !/\/responses\/?$/.test(path)) {
      // Model lists, probes and anything else: a harmless empty answer.
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(path.endsWith("/models") ? { data: [], models: [] } : {}));
      return;
    }
    const lastUser = messages(body, "user").at(-1) ?? "";
    let turn: Turn;
    if (profile.compactMarkers.some((m) => lastUser.includes(m) || (body?.instructions ?? "").startsWith(m))) {
      rec.kind = "compact";
      turn = { text: opts.compactSummary ?? "COMPACT-SUMMARY" };
    } else {
      rec.kind = "main";
      const next = queue.shift();
      rec.answeredWith = next;
      turn = next ?? { text: "done" };
    }
    if (profile.fullStream) sendFullSse(res, turn);
    else sendBareSse(res, turn);
  }

  function sendBareSse(res: ServerResponse, turn: Turn): void {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const id = `resp_e2e_${++counter}`;
    const ev = (data: Record<string, unknown>) => res.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`);
    ev({ type: "response.created", response: { id } });
    if ("text" in turn) {
      ev({
        type: "response.output_item.done",
        item: { type: "message", role: "assistant", id: `msg_${id}`, content: [{ type: "output_text", text: turn.text }] },
      });
    } else {
      for (const c of Array.isArray(turn.calls) ? turn.calls : [turn.calls]) {
        const callId = c.callId ?? `call_e2e_${counter}_${c.name}`;
        ev({
          type: "response.output_item.done",
          item:
            "input" in c
              ? { type: "custom_tool_call", name: c.name, input: c.input, call_id: callId }
              : { type: "function_call", name: c.name, arguments: JSON.stringify(c.arguments), call_id: callId },
        });
      }
    }
    const tokens = turn.inputTokens ?? 100;
    ev({
      type: "response.completed",
      response: { id, usage: { input_tokens: tokens, input_tokens_details: null, output_tokens: 10, output_tokens_details: null, total_tokens: tokens + 10 } },
    });
    res.end();
  }

  function sendFullSse(res: ServerResponse, turn: Turn): void {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const id = `resp_e2e_${++counter}`;
    const ev = (data: Record<string, unknown>) => res.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`);
    ev({ type: "response.created", response: { id, status: "in_progress", output: [] } });
    // Copilot CLI builds the answer from response.completed's `output` (1.0.102 ignores a completed response without it).
    const items: Record<string, unknown>[] = [];
    if ("text" in turn) {
      items.push({
        type: "message",
        role: "assistant",
        id: `msg_${id}`,
        status: "completed",
        content: [{ type: "output_text", text: turn.text, annotations: [] }],
      });
    } else {
      for (const c of Array.isArray(turn.calls) ? turn.calls : [turn.calls]) {
        const callId = c.callId ?? `call_e2e_${counter}_${c.name}`;
        items.push(
          "input" in c
            ? { type: "custom_tool_call", id: `ctc_${callId}`, status: "completed", name: c.name, input: c.input, call_id: callId }
            : { type: "function_call", id: `fc_${callId}`, status: "completed", name: c.name, arguments: JSON.stringify(c.arguments), call_id: callId },
        );
      }
    }
    items.forEach((item, output_index) => {
      ev({ type: "response.output_item.added", output_index, item });
      ev({ type: "response.output_item.done", output_index, item });
    });
    const tokens = turn.inputTokens ?? 100;
    ev({
      type: "response.completed",
      response: {
        id,
        status: "completed",
        output: items,
        usage: {
          input_tokens: tokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 10,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: tokens + 10,
        },
      },
    });
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    mainRequests: () => requests.filter((r) => r.kind === "main"),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
