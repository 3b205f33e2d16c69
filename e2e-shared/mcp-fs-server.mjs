// A minimal MCP stdio server with the reference filesystem server's write_file
// ({path, content}) and read_file ({path}), for the MCP-write scenario: newline-
// delimited JSON-RPC on stdin/stdout (the MCP stdio transport).
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";

const tools = [
  {
    name: "write_file",
    description: "Create or overwrite a file",
    inputSchema: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] },
  },
  { name: "read_file", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
];

const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...msg }) + "\n");

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return;
  }
  if (req.id === undefined) return; // notifications
  if (req.method === "initialize") {
    send({
      id: req.id,
      result: { protocolVersion: req.params?.protocolVersion ?? "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "fs", version: "0.0.1" } },
    });
  } else if (req.method === "tools/list") {
    send({ id: req.id, result: { tools } });
  } else if (req.method === "tools/call") {
    const { name, arguments: args = {} } = req.params ?? {};
    const file = path.resolve(String(args.path ?? ""));
    try {
      if (name === "write_file") {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, String(args.content ?? ""));
        send({ id: req.id, result: { content: [{ type: "text", text: `wrote ${file}` }] } });
      } else if (name === "read_file") {
        send({ id: req.id, result: { content: [{ type: "text", text: fs.readFileSync(file, "utf8") }] } });
      } else send({ id: req.id, error: { code: -32601, message: `no tool ${name}` } });
    } catch (e) {
      send({ id: req.id, result: { isError: true, content: [{ type: "text", text: String(e.message) }] } });
    }
  } else {
    send({ id: req.id, result: {} });
  }
});
