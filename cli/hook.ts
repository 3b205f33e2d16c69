// `skillgate hook [--host HOST]`: one hook event on stdin, the answer on stdout,
// read as the named host's entry reads it (hooks/entries/<host>.ts).
import { EXIT, parseArgs } from "./args.js";
import { hookMain } from "../hooks/runner/process.js";
import { claudeCode } from "../hooks/hosts/claude-code/adapter.js";
import type { HostProcess } from "../hooks/core/host.js";

export async function hookVerb(argv: string[]): Promise<number> {
  const f = parseArgs("hook", argv);
  const host = f.get("host") ?? "claude-code";
  let options: HostProcess = { host: claudeCode };
  if (host === "codex") options = (await import("../hooks/entries/codex.js")).hookOptions();
  else if (host === "gemini") options = (await import("../hooks/entries/gemini.js")).hookOptions();
  else if (host === "cursor") options = (await import("../hooks/entries/cursor.js")).hookOptions();
  else if (host === "copilot") options = (await import("../hooks/entries/copilot.js")).hookOptions([f.get("event") ?? ""]);
  await hookMain(options);
  return EXIT.ok;
}
