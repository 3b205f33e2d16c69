// Every host a case runs on, in the order the report lists them.
import { claudeCodeCases } from "./claude-code.js";
import { codexCases } from "./codex.js";
import { copilotCases } from "./copilot.js";
import { cursorCases } from "./cursor.js";
import { geminiCases } from "./gemini.js";
import { opencodeCases } from "./opencode.js";
import type { CaseHost } from "./host.js";

export const CASE_HOSTS: readonly CaseHost[] = [claudeCodeCases, codexCases, geminiCases, copilotCases, opencodeCases, cursorCases];

// The case format names the same hosts (format.ts HOST_NAMES; test/cases.test.ts checks they agree).
export function caseHost(name: string): CaseHost | undefined {
  return CASE_HOSTS.find((h) => h.name === name);
}
