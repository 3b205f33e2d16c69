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
