// The Gemini CLI hook executable: the host's process options (hooks/hosts/gemini/hook.ts)
// through the runner's process edge. `main` is what dist/hook-gemini.cjs runs
// (hooks/node-loader.cjs, from the Node bundle every host shares).
import { hookMain, type HookMainOptions } from "../runner/process.js";
import type { HostProcess } from "../core/host.js";
import { hookOptions } from "../hosts/gemini/hook.js";

export { hookOptions };

export function main(o: Omit<HookMainOptions, keyof HostProcess> = {}): Promise<void> {
  return hookMain({ ...hookOptions(), ...o });
}
