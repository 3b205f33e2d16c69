// Is the skillgate that runs an install the project's own dependency, and by
// which path inside the project? Only then can a file the team commits name
// the hook by a path every clone has (a portable install); otherwise it names
// this machine's absolute paths.
import fs from "node:fs";
import path from "node:path";
import { parse } from "shell-quote";

const real = (p: string): string => {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};

/**
 * The package folder as a path relative to projectDir, with `/` separators:
 * "node_modules/skillgate" (or "../node_modules/skillgate" when the dependency
 * sits in a parent, as in a workspace), "." when the project is skillgate
 * itself; undefined when skillgate is not this project's dependency.
 */
export function packageDirInProject(projectDir: string, packageRoot: string): string | undefined {
  if (real(projectDir) === real(packageRoot)) return ".";
  for (let dir = path.resolve(projectDir); ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "node_modules", "skillgate");
    if (fs.existsSync(pkg)) return real(pkg) === real(packageRoot) ? path.relative(path.resolve(projectDir), pkg).split(path.sep).join("/") : undefined;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** An absolute path as a word of a command: POSIX or a Windows drive path; words that start with a variable are not. */
export const isAbsoluteWord = (w: string): boolean => !w.startsWith("$") && (path.isAbsolute(w) || /^[A-Za-z]:[\\/]/.test(w));

/** The absolute paths in a shell command line (the words that break on a teammate's clone). */
export function absolutePathsInCommand(command: string): string[] {
  // Variables stay as written ($GEMINI_PROJECT_DIR/…), so a path built on one is not absolute here.
  const words = parse(command, (name) => `$${name}`).filter((w): w is string => typeof w === "string");
  return words.filter(isAbsoluteWord);
}

/** What doctor says about a committed file whose hook commands name absolute paths. */
export function absolutePathsProblem(file: string, paths: string[], host: string): string {
  return `${file} is committed with the project but its skillgate hooks name absolute paths (${paths.join(", ")}): they break on a teammate's clone; npm install --save-dev skillgate, then run npx skillgate install --host ${host} again`;
}
