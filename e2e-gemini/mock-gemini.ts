// A scripted stand-in for the Gemini API (generateContent / streamGenerateContent),
// for driving the real Gemini CLI headless through GOOGLE_GEMINI_BASE_URL on
// 127.0.0.1. It plays the model: each request that carries the agent's tools
// takes the next turn of `script`; any other request (a summary for compression,
// a side check) gets `sideText`. Every request is recorded so tests can read what
// the CLI fed back to the model (tool results, hook context, retry prompts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Call {
  name: string;
  args: Record<string, unknown>;
}

/** One model answer: a final text, or function calls; `promptTokens` is the usage it reports (default 100). */
export type Turn = ({ text: string } | { calls: Call | Call[] }) & { promptTokens?: number };

export interface Part {
  text?: string;
  functionCall?: { name: string; args?: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response?: Record<string, unknown>; id?: string };
  [k: string]: unknown;
}

export interface Content {
  role?: string;
  parts?: Part[];
}

export interface GenerateBody {
  contents?: Content[];
  systemInstruction?: Content;
  tools?: { functionDeclarations?: { name: string }[] }[];
  [k: string]: unknown;
}

export interface RecordedRequest {
  seq: number;
  method: string;
  path: string;
  main: boolean;
  answeredWith?: Turn;
  body?: GenerateBody;
}

export interface MockGemini {
  /** What GOOGLE_GEMINI_BASE_URL is set to. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Requests that took a turn of the script. */
  mainRequests(): RecordedRequest[];
  close(): Promise<void>;
}

/** Text of all parts of the request's contents of one role, joined. */
export function textsOf(body: GenerateBody | undefined, role: string): string[] {
  return (body?.contents ?? []).filter((c) => c.role === role).map((c) => (c.parts ?? []).map((p) => p.text ?? "").join(""));
}

/** The function responses the model got back in this request, in order. */
export function functionResponses(body: GenerateBody | undefined): { name: string; response: string }[] {
  const out: { name: string; response: string }[] = [];
  for (const c of body?.contents ?? [])
    for (const p of c.parts ?? [])
      if (p.functionResponse) out.push({ name: p.functionResponse.name, response: JSON.stringify(p.functionResponse.response ?? {}) });
  return out;
}

function candidate(turn: Turn): Record<string, unknown> {
  const parts =
    "text" in turn
      ? [{ text: turn.text }]
      : (Array.isArray(turn.calls) ? turn.calls : [turn.calls]).map((c) => ({ functionCall: { name: c.name, args: c.args } }));
  return {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: turn.promptTokens ?? 100, candidatesTokenCount: 10, totalTokenCount: (turn.promptTokens ?? 100) + 10 },
    modelVersion: "gemini-2.5-flash",
  };
}

export async function startMockGemini(opts: { script: Turn[]; sideText?: string }): Promise<MockGemini> {
  const requests: RecordedRequest[] = [];
  let next = 0;
  let seq = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: GenerateBody | undefined;
      try {
        body = raw ? (JSON.parse(raw) as GenerateBody) : undefined;
      } catch {
        body = undefined;
      }
      const path = req.url ?? "";
      const rec: RecordedRequest = { seq: seq++, method: req.method ?? "", path, main: false, ...(body ? { body } : {}) };
      requests.push(rec);
      if (path.includes(":countTokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ totalTokens: 100 }));
        return;
      }
      if (!path.includes("generateContent") && !path.includes("GenerateContent")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: 404, message: `mock: no route ${path}`, status: "NOT_FOUND" } }));
        return;
      }
      // The agent's own requests carry its tool declarations; side calls (compression summary, checks) do not.
      const main = (body?.tools ?? []).some((t) => (t.functionDeclarations ?? []).some((d) => d.name === "run_shell_command"));
      let turn: Turn;
      if (main) {
        rec.main = true;
        turn = opts.script[next++] ?? { text: "Done (mock script exhausted)." };
      } else {
        turn = { text: opts.sideText ?? "Summary: nothing of note." };
      }
      rec.answeredWith = turn;
      const payload = candidate(turn);
      if (path.includes("streamGenerateContent")) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`data: ${JSON.stringify(payload)}\r\n\r\n`);
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(payload));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    mainRequests: () => requests.filter((r) => r.main),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
