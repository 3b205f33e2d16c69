// `skillgate hook [--host HOST]`: one hook event on stdin, the answer on stdout,
// read as the named host's entry reads it (hooks/hosts/<host>/hook.ts).
import { EXIT, parseArgs } from "./args.js";
import { hookMain, type HookMainOptions } from "../hooks/runner/process.js";

export async function hookVerb(argv: string[]): Promise<number> {
  const f = parseArgs("hook", argv);
  const host = f.get("host") ?? "claude-code";
  let options: HookMainOptions = {};
  if (host === "codex") options = (await import("../hooks/hosts/codex/hook.js")).hookOptions();
  else if (host === "gemini") options = (await import("../hooks/hosts/gemini/hook.js")).hookOptions();
  else if (host === "cursor") options = (await import("../hooks/hosts/cursor/hook.js")).hookOptions();
  else if (host === "copilot") options = (await import("../hooks/hosts/copilot/hook.js")).hookOptions([f.get("event") ?? ""]);
  await hookMain(options);
  return EXIT.ok;
}
