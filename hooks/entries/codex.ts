// The Codex hook executable: the host's process options (hooks/hosts/codex/hook.ts)
// through the runner's process edge. `main` is what dist/hook-codex.cjs runs
// (hooks/node-loader.cjs, from the Node bundle every host shares).
import { hookMain, type HookMainOptions } from "../runner/process.js";
import type { HostProcess } from "../core/host.js";
import { hookOptions } from "../hosts/codex/hook.js";

export { hookOptions };

export function main(o: Omit<HookMainOptions, keyof HostProcess> = {}): Promise<void> {
  return hookMain({ ...hookOptions(), ...o });
}
