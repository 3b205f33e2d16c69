// How a host-neutral case event is played on Claude Code (which captured
// payload of cases/fixtures/ it starts from, which fields it sets), and how
// Claude Code's answer is read back. The only place in the harness that knows
// Claude Code's field names; another host is another file beside this one.
import fs from "node:fs";
import { claudeCode } from "../../../hooks/hosts/claude-code/adapter.js";
import type { CaseEvent, Verdict } from "../events.js";
import type { CaseHost } from "./host.js";

/** The project folder of the captured payloads; relative paths in a case are inside it. */
export const PROJECT = "/home/dev/project";
/** A subagent of the captured session (its events carry agent_id/agent_type). */
const SUBAGENT = { agent_id: "ad7d092f2e8146deb", agent_type: "general-purpose" };

export interface Played {
  fixture: string;
  with: Record<string, unknown>;
}

const file = (p: string) => (p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p) ? p : `${PROJECT}/${p}`);

function textOf(f: string): string | null {
  try {
    return fs.readFileSync(f, "utf8");
  } catch {
    return null;
  }
}

export function claudeCodeEvent(e: CaseEvent): Played {
  const sub = "inSubagent" in e && e.inSubagent ? SUBAGENT : {};
  switch (e.kind) {
    case "tool-call":
      switch (e.tool) {
        case "shell":
          return { fixture: "pre-tool-use-bash", with: { ...sub, tool_input: { command: e.command ?? "" } } };
        case "write":
          return { fixture: "pre-tool-use-write", with: { ...sub, tool_input: { file_path: file(e.path ?? ""), content: e.content ?? "" } } };
        case "edit":
          return { fixture: "pre-tool-use-edit", with: { ...sub, tool_input: { file_path: file(e.path ?? "") } } };
        case "read":
          return { fixture: "pre-tool-use-read", with: { ...sub, tool_input: { file_path: file(e.path ?? "") } } };
        case "subagent":
          return { fixture: "pre-tool-use-agent", with: { ...sub, tool_input: { subagent_type: e.subagentType } } };
        case "skill":
          return { fixture: "pre-tool-use-skill", with: { ...sub, tool_input: { skill: e.skill } } };
      }
      break;
    case "tool-result":
      switch (e.tool) {
        case "shell":
          return {
            fixture: "post-tool-use-bash",
            with: { ...sub, tool_input: { command: e.command ?? "" }, tool_response: { stdout: e.output ?? "", stderr: "" } },
          };
        case "read": {
          // A whole read returns the file's text (a SKILL.md's is compared with the skill as installed); a file not there, none.
          const f = file(e.path ?? "");
          return {
            fixture: "post-tool-use-read",
            with: { ...sub, tool_input: { file_path: f }, tool_response: { file: { filePath: f, content: textOf(f) } } },
          };
        }
        case "skill":
          return {
            fixture: "post-tool-use-skill",
            with: { ...sub, tool_input: { skill: e.skill }, tool_response: { success: e.ok !== false, commandName: e.skill } },
          };
      }
      break;
    case "tool-failure":
      return {
        fixture: "post-tool-use-failure-bash",
        with: { ...sub, tool_input: { command: e.command }, ...(e.error !== undefined ? { error: e.error } : {}) },
      };
    case "prompt":
      return { fixture: "user-prompt-submit", with: { prompt: e.text } };
    case "prompt-expansion":
      return { fixture: "user-prompt-expansion", with: { command_name: e.command, prompt: `/${e.command}` } };
    case "stop":
      return e.inSubagent
        ? { fixture: "subagent-stop", with: { last_assistant_message: e.final, stop_hook_active: e.continuing ?? false } }
        : { fixture: "stop", with: { last_assistant_message: e.final, stop_hook_active: e.continuing ?? false } };
    case "session-start":
      return e.source === "resume" || e.source === "compact"
        ? { fixture: `session-start-${e.source}`, with: {} }
        : { fixture: "session-start-startup", with: { source: e.source } };
    case "compaction":
      return { fixture: e.phase === "before" ? "pre-compact" : "post-compact", with: {} };
  }
  throw new Error(`no Claude Code payload for ${JSON.stringify(e)}`);
}

/** The hook's answer as Claude Code reads it: the verdict it expresses, the model's message, the user's notice. */
export function claudeCodeAnswer(stdout: string): { verdict: Verdict; message: string; notice: string; eventName?: string } {
  const out = stdout ? (JSON.parse(stdout) as Record<string, unknown>) : {};
  const hso = (out.hookSpecificOutput && typeof out.hookSpecificOutput === "object" ? out.hookSpecificOutput : {}) as Record<string, unknown>;
  const notice = String(out.systemMessage ?? "");
  const eventName = typeof hso.hookEventName === "string" ? hso.hookEventName : undefined;
  const context = typeof hso.additionalContext === "string" ? hso.additionalContext : "";
  if (hso.permissionDecision === "deny") return { verdict: "deny", message: String(hso.permissionDecisionReason ?? ""), notice, eventName };
  if (out.decision === "block") return { verdict: "block", message: String(out.reason ?? ""), notice, eventName };
  if (hso.updatedToolOutput) return { verdict: "cap", message: `${JSON.stringify(hso.updatedToolOutput)}\n${context}`, notice, eventName };
  if (context) return { verdict: "hint", message: context, notice, eventName };
  return { verdict: "allow", message: "", notice, eventName };
}

/** Claude Code plays a step's own payload (the case's event is written as Claude Code's payload to begin with). */
export const claudeCodeCases: CaseHost = {
  name: "claude-code",
  adapter: claudeCode,
  native: true,
  encode: () => ({ unplayable: "Claude Code plays the step's own payload" }),
  answer(stdout) {
    const a = claudeCodeAnswer(stdout);
    return { verdicts: [a.verdict], message: a.message, notice: a.notice, ...(a.eventName !== undefined ? { eventName: a.eventName } : {}) };
  },
};
