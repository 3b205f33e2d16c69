// The loopback HTTP server under every scripted model (e2e/, e2e-codex/, e2e-copilot/):
// each request's body is collected and handed to `handle`; a throw answers 500
// with the error in the body shape that client expects.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export function bodyServer(handle: (req: IncomingMessage, res: ServerResponse, raw: string) => void, errorBody: (message: string) => unknown): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString("utf8"));
      } catch (err) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify(errorBody(String(err))));
      }
    });
  });
}
