// A case's events as the opencode 1.18.33 plugin hooks receive them
// (test/fixtures/opencode/, captured from the real binary: one hook call is
// {hook, input, output}), and the plugin's rendering read back. The plugin
// runs in-process; here each call goes through runHook with opencode's
// adapter, the same normalize and render the plugin uses. A stop is the
// plugin's own record of a session going idle; a compaction is the
// session.compacted event (a session start of source compact). What the
// plugin alone knows is left out: a subagent is a session of its own,
// attributed to its parent from session.created, so a subagent's events are
// not played; tool.execute.after fires only on success (no failure events).
import path from "node:path";
import { opencodeHost } from "../../../hooks/hosts/opencode/adapter.js";
import type { Event } from "../../../hooks/core/types.js";
import { firstPath, parsed, plainTool, text, type CaseHost, type Encoded } from "./host.js";

const ok = (e: Event, payload: Record<string, unknown>): Encoded => ({ payload, host: opencodeHost(e.cwd || path.sep) });

function argsOf(e: Extract<Event, { kind: "tool-call" | "tool-result" }>): { tool: string; args: Record<string, unknown> } | { unplayable: string } {
  const t = e.tool;
  switch (t.kind) {
    case "shell":
      return { tool: "bash", args: { command: t.command, description: "run" } };
    case "write":
      return { tool: "write", args: { filePath: firstPath(t.paths), content: "x" } };
    case "edit":
      return { tool: "edit", args: { filePath: firstPath(t.paths), oldString: "a", newString: "b" } };
    case "read":
      return { tool: "read", args: { filePath: t.path ?? "", ...(t.whole ? {} : { offset: 1, limit: 5 }) } };
    case "skill":
      return { tool: "skill", args: { name: t.skill ?? "" } };
    case "subagent":
      return { tool: "task", args: { description: "task", prompt: t.prompt ?? "do it", subagent_type: t.subagentType } };
    case "fetch":
      return { tool: "webfetch", args: { url: "https://example.com" } };
    default: {
      const name = plainTool(t);
      return name !== undefined ? { tool: name, args: {} } : { unplayable: `an MCP tool call is named per host (${t.name})` };
    }
  }
}

export const opencodeCases: CaseHost = {
  name: "opencode",
  adapter: opencodeHost(path.sep),
  encode(e) {
    if (e.agentId !== undefined)
      return { unplayable: "an opencode subagent is a session of its own, attributed to its parent by the plugin (session.created), not by the adapter" };
    const input = { sessionID: e.sessionId };
    switch (e.kind) {
      case "tool-call": {
        const a = argsOf(e);
        return "unplayable" in a ? a : ok(e, { hook: "tool.execute.before", input: { ...input, tool: a.tool, callID: "call_1" }, output: { args: a.args } });
      }
      case "tool-result": {
        const a = argsOf(e);
        if ("unplayable" in a) return a;
        const t = e.tool;
        if (t.kind === "skill" && !e.loads.length) return { unplayable: "a failed opencode skill call throws: tool.execute.after never sees it" };
        const output =
          t.kind === "skill"
            ? `<skill_content name="${t.skill}">\n# ${t.skill}\n</skill_content>`
            : t.kind === "shell"
              ? text(e.output?.response.stdout)
              : "x\n";
        return ok(e, {
          hook: "tool.execute.after",
          input: { ...input, tool: a.tool, callID: "call_1", args: a.args },
          output: { title: a.tool, output, metadata: t.kind === "shell" ? { exit: 0 } : {} },
        });
      }
      case "tool-failure":
        return { unplayable: "opencode sends no event for a failed tool call" };
      case "prompt":
        return ok(e, {
          hook: "chat.message",
          input,
          output: {
            message: { id: "msg_1", role: "user", sessionID: e.sessionId },
            parts: [{ id: "prt_1", type: "text", text: e.prompt ?? "", messageID: "msg_1", sessionID: e.sessionId }],
          },
        });
      case "prompt-expansion":
        return { unplayable: "opencode sends no event for a slash command's expansion" };
      case "stop":
        return ok(e, {
          hook: "stop",
          input: { ...input, finalMessage: e.finalMessage, continuing: e.continuing, ...(e.promptId ? { promptId: e.promptId } : {}) },
        });
      case "session-start":
        if (e.source !== "compact") return { unplayable: `the opencode plugin receives no ${e.source} session start` };
        return ok(e, { hook: "event", input: { event: { type: "session.compacted", properties: { sessionID: e.sessionId } } } });
      case "compaction":
        return { unplayable: "opencode says only that a session was compacted (a compact session start), not before or after" };
      default:
        return { unplayable: `opencode has no ${e.kind} event` };
    }
  },
  answer(stdout, e) {
    const out = parsed(stdout);
    const notice = text(out.notice);
    // The plugin throws `refuse` for a tool call, and sends it as a follow-up prompt for a stop.
    if (out.refuse !== undefined) return { verdicts: [e?.kind === "stop" ? "block" : "deny"], message: text(out.refuse), notice };
    // A replaced output reads as Claude Code's does (the new output as JSON), and as the text itself.
    if (out.output !== undefined)
      return { verdicts: ["cap"], message: `${JSON.stringify({ output: out.output })}\n${text(out.output)}\n${text(out.context)}`, notice };
    if (out.context) return { verdicts: ["hint"], message: text(out.context), notice };
    // A compaction's reminder waits in the plugin for the next tool result or prompt: no context here.
    return { verdicts: e?.kind === "session-start" ? ["allow", "hint"] : ["allow"], message: "", notice };
  },
};
