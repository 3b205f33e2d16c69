// The host a ticket names, for the wording of a refusal (how its model loads a skill).
import type { Host } from "../core/host.js";
import { claudeCode } from "../hosts/claude-code/adapter.js";
import { codex } from "../hosts/codex/adapter.js";
import { copilotHost } from "../hosts/copilot/adapter.js";
import { cursor } from "../hosts/cursor/adapter.js";
import { gemini } from "../hosts/gemini/adapter.js";
import { opencodeHost } from "../hosts/opencode/adapter.js";

export function hostNamed(name: string, cwd: string): Host {
  switch (name) {
    case "codex":
      return codex;
    case "copilot":
      return copilotHost("preToolUse");
    case "cursor":
      return cursor;
    case "gemini":
      return gemini;
    case "opencode":
      return opencodeHost(cwd);
    default:
      return claudeCode;
  }
}
