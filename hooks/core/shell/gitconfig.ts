// git configuration as git itself would see it for one command: `-c`,
// `--config-env`, GIT_CONFIG_PARAMETERS / GIT_CONFIG_COUNT, `git config`
// earlier in the same command, and the config files (repository, its
// includes, ~/.gitconfig, XDG, system), read through the ShellWorld — bounded,
// no git process. Keys are normalized like git's: section and name lower-case,
// subsection as written.
import { nth } from "./nth.js";
import { posix as path } from "node:path";
import { MAX_FILE_BYTES, type ShellWorld } from "./world.js";

export type ConfigEntries = [key: string, value: string][];

/** Normalize `Alias.CI` → `alias.ci`, `remote.Origin.PUSH` → `remote.Origin.push`. */
export function normalizeKey(key: string): string {
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  if (first < 0) return key.toLowerCase();
  if (first === last) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}.${key.slice(last + 1).toLowerCase()}`;
}

/** Parse one config file's text. Tolerant: a line it does not understand is skipped. */
export function parseConfig(text: string): ConfigEntries {
  const out: ConfigEntries = [];
  let section = "";
  const lines = text.replace(/\\\r?\n/g, "").split(/\r?\n/);
  for (const raw of lines) {
    let line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    const sec = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    if (sec) {
      section = sec[2] !== undefined ? `${nth(sec, 1).toLowerCase()}.${sec[2].replace(/\\(.)/g, "$1")}` : nth(sec, 1).toLowerCase();
      line = nth(sec, 3).trim();
      if (!line) continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!kv || !section) continue;
    out.push([`${section}.${nth(kv, 1).toLowerCase()}`, kv[2] === undefined ? "true" : configValue(kv[2])]);
  }
  return out;
}

/** A value: quotes removed, escapes applied, trailing comment cut. */
function configValue(v: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = nth(v, i);
    if (c === "\\" && i + 1 < v.length) {
      const n = nth(v, ++i);
      out += n === "n" ? "\n" : n === "t" ? "\t" : n === "b" ? "\b" : n;
    } else if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "#" || c === ";")) break;
    else out += c;
  }
  return out.trim();
}

/** GIT_CONFIG_PARAMETERS: `'key'='value' 'key2'='value2'` (or the older `'key=value'`). */
export function parseConfigParameters(text: string): ConfigEntries | undefined {
  const out: ConfigEntries = [];
  const re = /\s*'((?:[^']|'\\'')*)'(?:='((?:[^']|'\\'')*)')?/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while ((m = re.exec(text)) !== null) {
    at = re.lastIndex;
    const un = (s: string) => s.replace(/'\\''/g, "'");
    if (m[2] !== undefined) out.push([normalizeKey(un(nth(m, 1))), un(m[2])]);
    else {
      const kv = un(nth(m, 1));
      const eq = kv.indexOf("=");
      out.push(eq < 0 ? [normalizeKey(kv), "true"] : [normalizeKey(kv.slice(0, eq)), kv.slice(eq + 1)]);
    }
  }
  return text.slice(at).trim() === "" ? out : undefined;
}

export interface FileConfig {
  entries: ConfigEntries;
  /** Every config file git would read was read (missing ones count as read: they are empty). */
  complete: boolean;
}

/** Config files read per command (includes count). */
const MAX_CONFIG_FILES = 16;

/**
 * The config of the files git would read for a command run in `dir`:
 * system, global (~/.gitconfig and XDG), repository — with includes.
 */
export function fileConfig(world: ShellWorld, dir: string, env: (name: string) => string | undefined): FileConfig {
  const out: FileConfig = { entries: [], complete: true };
  const home = env("HOME");
  let files = 0;
  const read = (file: string, depth: number): void => {
    if (depth > 10 || files >= MAX_CONFIG_FILES) {
      out.complete = false;
      return;
    }
    files++;
    if (world.kind(file) === undefined) return; // missing: nothing to read, nothing unknown
    const text = world.readFile(file, MAX_FILE_BYTES);
    if (text === undefined) {
      out.complete = false;
      return;
    }
    for (const [k, v] of parseConfig(text)) {
      if (k === "include.path" || (k.startsWith("includeif.") && k.endsWith(".path"))) {
        // includeIf conditions are not evaluated: reading more is the safe side.
        const p = v.startsWith("~/") && home ? path.join(home, v.slice(2)) : path.resolve(path.dirname(file), v);
        read(p, depth + 1);
      } else out.entries.push([k, v]);
    }
  };
  if (!env("GIT_CONFIG_NOSYSTEM")) read(env("GIT_CONFIG_SYSTEM") ?? "/etc/gitconfig", 0);
  const global = env("GIT_CONFIG_GLOBAL");
  if (global !== undefined) read(global, 0);
  else {
    const xdg = env("XDG_CONFIG_HOME") ?? (home ? path.join(home, ".config") : undefined);
    if (xdg) read(path.join(xdg, "git", "config"), 0);
    if (home) read(path.join(home, ".gitconfig"), 0);
    else out.complete = false;
  }
  const gitDirVar = env("GIT_DIR");
  const gitDir = gitDirVar !== undefined ? path.resolve(dir, gitDirVar) : findGitDir(world, dir);
  if (gitDir) {
    read(path.join(gitDir, "config"), 0);
    // a linked worktree keeps the shared config in its common dir
    const common = world.readFile(path.join(gitDir, "commondir"), 4096)?.trim();
    if (common) read(path.join(path.resolve(gitDir, common), "config"), 0);
    const configVar = env("GIT_CONFIG");
    if (configVar !== undefined) read(path.resolve(dir, configVar), 0);
  }
  return out;
}

/** The .git folder for a command run in `dir`, walking up; undefined outside a repository (or unknown). */
function findGitDir(world: ShellWorld, dir: string): string | undefined {
  let d = dir;
  for (let i = 0; i < 64 && d; i++) {
    const dotgit = path.join(d, ".git");
    const kind = world.kind(dotgit);
    if (kind === "dir") return dotgit;
    if (kind === "file") {
      const m = /^gitdir:\s*(.+)$/m.exec(world.readFile(dotgit, 4096) ?? "");
      return m ? path.resolve(d, nth(m, 1).trim()) : undefined;
    }
    const up = path.dirname(d);
    if (up === d) break;
    d = up;
  }
  return undefined;
}
