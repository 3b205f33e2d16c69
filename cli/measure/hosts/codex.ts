// Codex CLI's session files: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl
// (0.171: test/fixtures/codex/rollout-commit-before-after-load.jsonl, from the
// real binary). One JSON line per item: `session_meta` (id, cwd),
// `event_msg` (`item_completed` of a UserMessage = the user's prompt,
// `token_count` = a request's usage, `task_complete` = the turn's last answer),
// `response_item` (`function_call` exec_command {cmd}, `custom_tool_call`
// apply_patch, `function_call_output` by call_id), `compacted`.
// A call the hook refused answers "Command blocked by PreToolUse hook": it never ran.
import { normalize } from "../../../hooks/hosts/codex/adapter.js";
import { add, addTokens, jsonLines, newSession, num, obj, str, type HostSession, type Json } from "./session.js";

const REFUSED = "Command blocked by PreToolUse hook";

export function readCodex(text: string): { sessions: HostSession[]; malformed: number } {
  const { lines, malformed } = jsonLines(text);
  let s: HostSession | undefined;
  const calls = new Map<string, { tool: string; input: Json }>();
  const emit = (p: Json) => s && add(s, normalize({ session_id: s.id, cwd: s.cwd, ...p }));
  for (const line of lines) {
    const p = obj(line.payload);
    if (line.type === "session_meta") {
      s ??= newSession(str(p.id) ?? str(p.session_id) ?? "", str(p.cwd) ?? "");
      continue;
    }
    if (!s) continue;
    if (line.type === "compacted") {
      s.compactions++;
      emit({ hook_event_name: "SessionStart", source: "compact" });
      continue;
    }
    const kind = str(p.type);
    if (line.type === "event_msg") {
      if (kind === "item_completed" && obj(p.item).type === "UserMessage") {
        const prompt = (Array.isArray(obj(p.item).content) ? (obj(p.item).content as unknown[]) : []).map((c) => str(obj(c).text) ?? "").join("\n");
        emit({ hook_event_name: "UserPromptSubmit", turn_id: str(p.turn_id), prompt });
      } else if (kind === "token_count") {
        const last = obj(obj(p.info).last_token_usage);
        if (Object.keys(last).length) {
          s.requests++;
          s.promptSizes.push(num(last.input_tokens));
          // OpenAI's input_tokens include the cached ones; the report counts input apart from cache reads, as Claude Code's usage does.
          addTokens(
            s,
            num(last.input_tokens) - num(last.cached_input_tokens),
            num(last.output_tokens),
            num(last.cached_input_tokens),
            num(last.cache_write_input_tokens),
          );
        }
      } else if (kind === "task_complete" && str(p.last_agent_message)) {
        emit({ hook_event_name: "Stop", turn_id: str(p.turn_id), stop_hook_active: false, last_assistant_message: p.last_agent_message });
      }
      continue;
    }
    if (line.type !== "response_item") continue;
    if (kind === "function_call" || kind === "custom_tool_call") {
      const call = toolOf(p);
      if (!call) continue;
      s.toolCalls++;
      calls.set(str(p.call_id) ?? "", call);
      emit({ hook_event_name: "PreToolUse", tool_name: call.tool, tool_input: call.input });
    } else if (kind === "function_call_output" || kind === "custom_tool_call_output") {
      const call = calls.get(str(p.call_id) ?? "");
      const output = str(p.output) ?? str(obj(p.output).content) ?? "";
      if (call && !output.startsWith(REFUSED)) emit({ hook_event_name: "PostToolUse", tool_name: call.tool, tool_input: call.input, tool_response: output });
    }
  }
  return { sessions: s ? [s] : [], malformed };
}

/** exec_command {cmd} (a string, or argv) is the hooks' `Bash`; apply_patch's input is the patch. */
function toolOf(p: Json): { tool: string; input: Json } | undefined {
  const name = str(p.name) ?? "";
  if (name === "apply_patch") return { tool: "apply_patch", input: { command: str(p.input) ?? "" } };
  if (name !== "exec_command" && name !== "shell") return { tool: name, input: {} };
  let args: Json = {};
  try {
    args = obj(JSON.parse(str(p.arguments) ?? "{}"));
  } catch {
    /* unreadable arguments: an empty command */
  }
  const cmd = Array.isArray(args.cmd) ? args.cmd.join(" ") : Array.isArray(args.command) ? args.command.join(" ") : (str(args.cmd) ?? str(args.command) ?? "");
  return { tool: "Bash", input: { command: cmd } };
}
