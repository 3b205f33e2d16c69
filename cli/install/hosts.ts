// Every host `install --host` knows, and which of them a project uses
// (`--host all`): a config folder the project already has, or the host's
// command on PATH.
import fs from "node:fs";
import path from "node:path";
import type { HostInstaller } from "../../hooks/io/hook-install.js";
import { codexInstaller } from "../../hooks/hosts/codex/install.js";
import { copilotInstaller } from "../../hooks/hosts/copilot/install.js";
import { cursorInstaller } from "../../hooks/hosts/cursor/install.js";
import { geminiInstaller } from "../../hooks/hosts/gemini/install.js";
import { opencodeInstaller } from "../../hooks/hosts/opencode/install.js";
import { claudePlan } from "./claude-code.js";

/** Claude Code's doctor is its own (cli/install/claude-code.ts claudeDoctorMain): it reads more than one settings file. */
export const claudeInstaller: HostInstaller = {
  id: "claude-code",
  label: "Claude Code",
  binary: "claude",
  markers: [".claude"],
  skillsHelp: "claude-code: .claude/skills (~/.claude/skills with --user)",
  plan: claudePlan,
};

export const HOSTS: readonly HostInstaller[] = [claudeInstaller, codexInstaller, geminiInstaller, copilotInstaller, opencodeInstaller, cursorInstaller];

export function hostById(id: string): HostInstaller | undefined {
  return HOSTS.find((h) => h.id === id);
}

/** The command's path on PATH, or undefined. */
export function onPath(command: string, env: NodeJS.ProcessEnv): string | undefined {
  const exts = process.platform === "win32" ? (env.PATHEXT ?? ".EXE;.CMD").split(";") : [""];
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const file = path.join(dir, command + ext);
      try {
        fs.accessSync(file, fs.constants.X_OK);
        if (fs.statSync(file).isFile()) return file;
      } catch {
        /* not here */
      }
    }
  }
  return undefined;
}

export interface Detected {
  host: HostInstaller;
  /** Why this host was picked, in words. */
  why: string;
}

/** The hosts `--host all` sets up in `base` (the project folder, or HOME for --user), each with the reason. */
export function detectHosts(base: string, env: NodeJS.ProcessEnv): Detected[] {
  const found: Detected[] = [];
  for (const host of HOSTS) {
    const marker = host.markers.find((m) => fs.existsSync(path.join(base, m)));
    const bin = onPath(host.binary, env);
    const reasons = [...(marker ? [`${path.join(base, marker)} exists`] : []), ...(bin ? [`${host.binary} is on PATH (${bin})`] : [])];
    if (reasons.length) found.push({ host, why: reasons.join(", and ") });
  }
  return found;
}
