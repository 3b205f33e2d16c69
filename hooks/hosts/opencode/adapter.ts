// The only file that knows opencode's hook shapes and tool ids. Pure: payload
// → Event, Decision → what to do to the hook's output. Shapes checked against
// payloads captured from the real opencode 1.18.33 (test/fixtures/opencode/).
//
// opencode calls plugin hooks in-process as (input, output): a hook refuses a
// tool call by throwing (the message becomes the tool's error, which the model
// reads), and changes what the model sees by mutating `output`. A payload here
// is one hook call as captured: { hook, input, output }.
import path from "node:path";
import type { Decision, Effects, Event, ToolCall, ToolKind, ToolOutput } from "../../core/types.js";
import type { Env, Host, HostEnvironment, Normalized } from "../../core/host.js";
import { str, obj, own, optional, type Json } from "../../io/payload.js";
import { mcpToolCall, mcpToolPart } from "../../core/mcp-tools.js";

/** opencode 1.18.33's tool ids → kinds (apply_patch: GPT-family models edit through it instead of edit/write). */
const TOOL_KINDS: Record<string, ToolKind> = {
  bash: "shell",
  write: "write",
  edit: "edit",
  multiedit: "edit",
  apply_patch: "edit",
  read: "read",
  webfetch: "fetch",
  skill: "skill",
  task: "subagent",
};

/** First line of the follow-up prompt a refused final answer becomes (how the plugin knows its own message). */
export const STOP_MARK = "[skillgate: final answer refused]";

export interface ChatPart {
  type?: string;
  text?: string;
  synthetic?: boolean;
  id?: string;
  [k: string]: unknown;
}

/**
 * One hook call → an Event. `sessionId` is opencode's sessionID as given; the
 * plugin maps a subagent's session to its parent (agentId) afterwards, since
 * only the event stream says which session is whose.
 */
export function normalize(payload: unknown, cwd = ""): Normalized {
  const p = obj(payload);
  const hook = str(p.hook);
  const input = obj(p.input);
  const output = obj(p.output);
  switch (hook) {
    case "tool.execute.before":
    case "tool.execute.after": {
      const sessionId = str(input.sessionID);
      if (!sessionId) return { ok: false, ignored: false, error: `${hook} without a sessionID` };
      const name = str(input.tool) ?? "";
      const base = { sessionId, cwd, ...optional("toolUseId", str(input.callID)) };
      if (hook === "tool.execute.before") return { ok: true, event: { ...base, kind: "tool-call", tool: toolOf(name, obj(output.args)) } };
      // Fires only on success (anomalyco/opencode#27900): no tool-failure events from opencode.
      const tool = toolOf(name, obj(input.args));
      const text = str(output.output);
      return { ok: true, event: { ...base, kind: "tool-result", tool, loads: skillLoads(tool, text), ...optional("output", outputOf(text)) } };
    }
    case "chat.message": {
      const sessionId = str(input.sessionID);
      if (!sessionId) return { ok: false, ignored: false, error: "chat.message without a sessionID" };
      const parts = Array.isArray(output.parts) ? (output.parts as ChatPart[]) : [];
      // The user's own words: synthetic parts (ours, opencode's) are not.
      const prompt = parts
        .filter((x) => x?.type === "text" && !x.synthetic && typeof x.text === "string")
        .map((x) => x.text)
        .join("\n");
      return { ok: true, event: { sessionId, cwd, kind: "prompt", prompt, ...optional("promptId", str(obj(output.message).id)) } };
    }
    case "event": {
      const event = obj(input.event);
      const props = obj(event.properties);
      const sessionId = str(props.sessionID);
      // opencode has summarised the session: the skill texts loaded before are gone from the context.
      if (event.type === "session.compacted" && sessionId) return { ok: true, event: { sessionId, cwd, kind: "session-start", source: "compact" } };
      return { ok: false, ignored: true };
    }
    case "stop": {
      // Not an opencode hook: the plugin's own record of a session going idle (its last answer and turn).
      const sessionId = str(input.sessionID);
      if (!sessionId) return { ok: false, ignored: false, error: "stop without a sessionID" };
      return {
        ok: true,
        event: {
          sessionId,
          cwd,
          kind: "stop",
          finalMessage: str(input.finalMessage) ?? "",
          continuing: input.continuing === true,
          ...optional("promptId", str(input.promptId)),
        },
      };
    }
    default:
      return { ok: false, ignored: true };
  }
}

function toolOf(name: string, args: Json): ToolCall {
  const kind = own(TOOL_KINDS, name) ?? "other";
  if (kind === "other") {
    // Any other tool with a `_` is an MCP tool, `<server>_<tool>` (1.18.33: both parts with [^a-zA-Z0-9_-] → `_`).
    const tool = mcpToolPart(name, "_");
    if (tool !== undefined) return mcpToolCall(name, tool, args);
  }
  switch (kind) {
    case "shell":
      return { kind, name, command: str(args.command) ?? "" };
    case "write":
    case "edit": {
      if (name === "apply_patch") return { kind, name, paths: patchPaths(str(args.patchText) ?? "") };
      const file = str(args.filePath);
      return { kind, name, paths: file ? [file] : [] };
    }
    case "read":
      // A slice (offset/limit) of a SKILL.md is not the skill.
      return { kind, name, ...optional("path", str(args.filePath)), whole: args.offset === undefined && args.limit === undefined };
    case "subagent":
      return { kind, name, subagentType: str(args.subagent_type) ?? "general" };
    case "skill":
      return { kind, name, ...optional("skill", str(args.name)) };
    default:
      return { kind, name };
  }
}

/** Paths an apply_patch envelope adds, updates, deletes or moves to (`*** Add File: p`, `*** Move to: p`, ...). */
export function patchPaths(patch: string): string[] {
  const out: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+?)\s*$/gm)) {
    if (m[1] && !out.includes(m[1])) out.push(m[1]);
  }
  return out;
}

/**
 * A finished bash call as a check's run. opencode reports a command that exits
 * non-zero as a successful tool call (1.18.33: tool.execute.after, `metadata.exit`),
 * so evidence would record a red run as green; here it is the failure it is,
 * in the words a shell failure has elsewhere ("Exit code N", then the output).
 */
export function checkRunOf(event: Extract<Event, { kind: "tool-result" }>, payload: unknown): Extract<Event, { kind: "tool-result" | "tool-failure" }> {
  if (event.tool.kind !== "shell") return event;
  const exit = obj(obj(obj(payload).output).metadata).exit;
  if (typeof exit !== "number" || exit === 0) return event;
  const text = typeof event.output?.response.output === "string" ? event.output.response.output : "";
  return {
    sessionId: event.sessionId,
    cwd: event.cwd,
    kind: "tool-failure",
    tool: event.tool,
    ...optional("toolUseId", event.toolUseId),
    ...optional("agentId", event.agentId),
    error: `Exit code ${exit}\n${text}`,
  };
}

/** The skill tool's success opens with <skill_content name="X"> (1.18.33); a failed load throws and never reaches tool.execute.after. */
function skillLoads(tool: ToolCall, text: string | undefined): string[] {
  if (tool.kind !== "skill" || !tool.skill || text === undefined) return [];
  return text.startsWith(`<skill_content name="${tool.skill}">`) ? [tool.skill] : [];
}

function outputOf(text: string | undefined): ToolOutput | undefined {
  return text === undefined ? undefined : { response: { output: text }, fields: ["output"], chars: text.length };
}

/**
 * What the plugin does for a decision:
 *   refuse — throw an Error with this message (tool call) or send it as a follow-up prompt (stop);
 *   output — the tool output the model reads instead;
 *   context — text for the model: a synthetic part of the user's message (prompt) or appended to the tool output.
 */
export interface Rendered {
  refuse?: string;
  output?: string;
  context?: string;
  notice?: string;
}

export function render(_event: Event, d: Decision, effects: Effects): Rendered | undefined {
  const out: Rendered = {};
  if (d.verdict === "deny" || d.verdict === "block") out.refuse = d.message;
  else {
    if (d.verdict === "cap" && typeof effects.updatedOutput?.output === "string") out.output = effects.updatedOutput.output;
    // A prompt carries it as a synthetic part, a tool result appended; other events' reminders (a compaction's) wait in the plugin for the next of those.
    if ((d.verdict === "hint" || d.verdict === "cap") && d.message) out.context = d.message;
  }
  if (d.notice) out.notice = d.notice;
  return Object.keys(out).length ? out : undefined;
}

export function renderFailure(message: string, refuseToolCall: boolean): Rendered {
  return refuseToolCall ? { refuse: message, notice: message } : { notice: message };
}

/** Where opencode 1.18.33 finds `<skill>/SKILL.md` skills for a project directory: reading one whole loads it. */
export function skillRootsOf(env: Env, directory: string | undefined): string[] {
  const home = env.HOME;
  const config = env.XDG_CONFIG_HOME ?? (home ? path.join(home, ".config") : undefined);
  return [
    ...(directory ? [".opencode/skills", ".opencode/skill", ".claude/skills", ".agents/skills"].map((d) => path.join(directory, d)) : []),
    ...(config ? [path.join(config, "opencode", "skills"), path.join(config, "opencode", "skill")] : []),
    ...(home ? [path.join(home, ".claude", "skills"), path.join(home, ".agents", "skills")] : []),
  ];
}

/** Where `skillgate install --host opencode` puts the plugin file (project and user). */
export function pluginFilesOf(env: Env, directory: string): string[] {
  const config = env.XDG_CONFIG_HOME ?? (env.HOME ? path.join(env.HOME, ".config") : undefined);
  return [path.join(directory, ".opencode", "plugins", "skillgate.js"), ...(config ? [path.join(config, "opencode", "plugins", "skillgate.js")] : [])];
}

/** opencode as a Host: the plugin knows its project directory, so the host is made per plugin instance. */
export function opencodeHost(directory: string): Host {
  return {
    name: "opencode",
    // 1.18.33: the general subagent has the skill tool (e2e: a subagent's skill call succeeds). A bash call's exit
    // status is in its result's metadata.exit (the plugin passes it as the check's run); args cannot be rewritten
    // with proof that the rewritten call is what runs, so no evidence reuse.
    capabilities: { subagentsLoadSkills: true, reportsExitStatus: true },
    // 1.18.33's tools: `skill` ({name}; install --with-skills puts the skills in .opencode/skills); `read`
    // ({filePath}, offset/limit for a slice), which asks before reading outside the project: that route is named
    // only for a file in a skills folder of opencode's.
    howToLoad: (skill, file) =>
      `call the skill tool with name "${skill}"${/[/\\](\.opencode|\.claude|\.agents|opencode)[/\\]skills?[/\\]/.test(file) ? ` (or read ${file} whole with the read tool, no offset/limit)` : ""}`,
    normalize: (payload) => normalize(payload, directory),
    render: (event, d, effects) => render(event, d, effects) as Record<string, unknown> | undefined,
    renderFailure: (message, refuse) => renderFailure(message, refuse) as Record<string, unknown>,
    looksLikeToolCall: (raw) => /"hook"\s*:\s*"tool\.execute\.before"/.test(raw.slice(0, 65_536)),
    environment: (env): HostEnvironment => ({
      skillRoots: skillRootsOf(env, directory),
      // The plugin files that load skillgate (install.ts writes them): deleting one turns the gates off.
      settingsFiles: pluginFilesOf(env, directory),
      projectTable: path.join(directory, ".opencode", "triggers.json"),
      projectDir: directory,
      // opencode reads Claude Code's project folder too (.claude/skills): its table as well (paths.ts).
      alsoTables: [path.join(directory, ".claude", "triggers.json")],
    }),
  };
}

/** Apply a rendering to the hook's mutable output: the tool output (tool.execute.after) or the message parts (chat.message). */
export function applyToToolOutput(r: Rendered | undefined, output: { output?: unknown }, extra: string[] = []): void {
  if (r?.output !== undefined) output.output = r.output;
  const notes = [r?.context, ...extra].filter((m): m is string => !!m);
  if (notes.length && typeof output.output === "string") output.output = `${output.output}\n\n${notes.join("\n")}`;
}

/**
 * A hint becomes a synthetic text part of the user's message (the model reads
 * it with the prompt; opencode saves and shows it as synthetic). `newId` makes
 * a part id that sorts after the message's own parts (opencode orders parts by id).
 */
export function applyToChatMessage(
  r: Rendered | undefined,
  output: { message?: { id?: string; sessionID?: string }; parts?: ChatPart[] },
  newId: (after: string | undefined) => string,
  extra: string[] = [],
): void {
  const notes = [r?.context, ...extra].filter((m): m is string => !!m);
  if (!notes.length || !Array.isArray(output.parts)) return;
  const last = output.parts.at(-1);
  output.parts.push({
    id: newId(last?.id),
    messageID: output.message?.id ?? str(last?.messageID),
    sessionID: output.message?.sessionID ?? str(last?.sessionID),
    type: "text",
    synthetic: true,
    text: notes.join("\n"),
  });
}
