// The Claude Code hook executable and the in-process hook run that tools use
// (the case runner, fuzz, bench, tests): Claude Code's Host through the runner.
// dist/hook.cjs runs `main` (exported as the bundle's `hookMain`); hooks/skillgate.ts
// and `skillgate hook` run it too.
import type { Host, HostProcess } from "../core/host.js";
import { claudeCode } from "../hosts/claude-code/adapter.js";
import { hookMain, type HookMainOptions } from "../runner/process.js";
import { runHook as runWith, type HookResult } from "../runner/hook.js";
import type { HookEnv } from "../runner/context.js";

export function main(o: Omit<HookMainOptions, keyof HostProcess> = {}): Promise<void> {
  return hookMain({ ...hookOptions(), ...o });
}

/** How Claude Code's hook process reads its event (the hook server answers for one with it). */
export function hookOptions(): HostProcess {
  return { host: claudeCode };
}

/** One hook event's text through the runner, as Claude Code's (or the given host's) hook process decides it. */
export function runHook(input: string, h: Omit<HookEnv, "host"> & { host?: Host }): Promise<HookResult> {
  return runWith(input, { ...h, host: h.host ?? claudeCode });
}
