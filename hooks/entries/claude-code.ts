// The Claude Code hook executable and the in-process hook run that tools use
// (the case runner, fuzz, bench, tests): Claude Code's Host through the runner.
// dist/hook.cjs runs `main` (exported as the bundle's `hookMain`); hooks/skillgate.ts
// and `skillgate hook` run it too.
import type { Host } from "../core/host.js";
import { claudeCode } from "../hosts/claude-code/adapter.js";
import { hookMain } from "../runner/process.js";
import { runHook as runWith, type HookResult } from "../runner/hook.js";
import type { HookEnv } from "../runner/context.js";

export function main(o: { loadStartedAt?: number } = {}): Promise<void> {
  return hookMain({ host: claudeCode, ...o });
}

/** One hook event's text through the runner, as Claude Code's (or the given host's) hook process decides it. */
export function runHook(input: string, h: Omit<HookEnv, "host"> & { host?: Host }): Promise<HookResult> {
  return runWith(input, { ...h, host: h.host ?? claudeCode });
}
