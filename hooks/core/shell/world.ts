// What the analysis may look at besides the command: files (git config with
// includes, package.json, Makefile, scripts run by path, patch files), symlinks
// and the environment. The core stays pure: the hook passes a real world from
// hooks/io/shell-files.ts; tests pass a fake one; the default sees nothing,
// which is never worse than not looking (unknown stays unknown or opaque).

export interface ShellWorld {
  /** Directory relative paths are resolved against (the session's cwd). */
  cwd: string;
  /** The environment the command would run with (HOME, XDG_CONFIG_HOME, GIT_*, PATH, TMPDIR). */
  env: Readonly<Record<string, string | undefined>>;
  /** Text of a file, or undefined when missing, unreadable, not a regular file or larger than maxBytes. */
  readFile(path: string, maxBytes: number): string | undefined;
  /** The path with every symlink resolved, or undefined when it does not exist. */
  realpath(path: string): string | undefined;
  /** What is at the path without following a final symlink. */
  kind(path: string): "file" | "dir" | "link" | "other" | undefined;
}

/** Sees nothing: no files, no environment. */
export const NO_WORLD: ShellWorld = {
  cwd: "",
  env: {},
  readFile: () => undefined,
  realpath: () => undefined,
  kind: () => undefined,
};

/** Bytes read from any one file (config, package.json, Makefile, script, patch). */
export const MAX_FILE_BYTES = 262_144;
/** Files read per analysed command: includes, scripts calling scripts, … */
export const MAX_FILES_READ = 32;

/**
 * A world held in memory: `files` maps absolute paths (or paths relative to `cwd`)
 * to their text; a value `{ link: target }` is a symlink; a trailing `/` key is a folder.
 * For tests and the corpus's `files` fixtures.
 */
export function memoryWorld(cwd: string, files: Record<string, string | { link: string }>, env: Record<string, string> = {}): ShellWorld {
  const abs = (p: string): string => (p.startsWith("/") ? normalizePath(p) : normalizePath(`${cwd}/${p}`));
  const table = new Map<string, string | { link: string }>();
  for (const [k, v] of Object.entries(files)) table.set(abs(k.replace(/\/$/, "")) + (k.endsWith("/") ? "/" : ""), v);
  const dirs = new Set<string>();
  for (const k of table.keys()) {
    const parts = k.split("/");
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join("/") || "/");
    if (k.endsWith("/")) dirs.add(k.slice(0, -1));
  }
  const resolve = (p: string, depth = 0): string | undefined => {
    const a = abs(p);
    const v = table.get(a);
    if (typeof v === "object")
      return depth > 16 ? undefined : resolve(v.link.startsWith("/") ? v.link : `${a.slice(0, a.lastIndexOf("/"))}/${v.link}`, depth + 1);
    return v !== undefined || dirs.has(a) ? a : undefined;
  };
  return {
    cwd,
    env,
    readFile(p, maxBytes) {
      const r = resolve(p);
      const v = r === undefined ? undefined : table.get(r);
      return typeof v === "string" && v.length <= maxBytes ? v : undefined;
    },
    realpath: (p) => resolve(p),
    kind(p) {
      const a = abs(p);
      const v = table.get(a);
      if (typeof v === "object") return "link";
      if (typeof v === "string") return "file";
      return dirs.has(a) ? "dir" : undefined;
    },
  };
}

function normalizePath(p: string): string {
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return `/${out.join("/")}`;
}
