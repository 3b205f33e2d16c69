// Where the opencode plugin finds skillgate's folder and the trigger table.
// Shared by the plugin and `doctor --host opencode` so both use one resolution.
import fs from "node:fs";
import path from "node:path";
import { resolveTableFile } from "../../io/table-load.js";

/** skillgate's own folder: the nearest parent of `from` holding triggers.json and package.json. */
export function packageRootOf(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "triggers.json")) && fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, "..");
  }
}

/** The project's tables opencode's skillgate reads, in order: its own .opencode/triggers.json, then Claude Code's. */
export function projectTablesOf(directory: string): string[] {
  return [path.join(directory, ".opencode", "triggers.json"), path.join(directory, ".claude", "triggers.json")];
}

/** $SKILLGATE_TABLE, else the project's .opencode/triggers.json, else .claude/triggers.json, else skillgate's own. */
export function tableFileOf(env: NodeJS.ProcessEnv, directory: string, packageRoot: string): string {
  return resolveTableFile(env, packageRoot, { files: projectTablesOf(directory) });
}
