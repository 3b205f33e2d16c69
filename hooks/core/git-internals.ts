// git's own files that switch its hooks off or move its refs without them:
// `.git/hooks/*`, `.git/config`, `.git/refs/*`, `.git/packed-refs`. The shell
// analysis refuses a write to them by anything but git (a door to git's hooks);
// self-protection refuses a file tool's write to them.
import path from "node:path";

const GIT_INTERNALS = /(^|\/)\.git\/(hooks(\/|$)|config$|refs(\/|$)|packed-refs$)/;

/** Is this path (as written, relative or absolute) one of git's own files above? */
export function isGitInternal(p: string): boolean {
  return GIT_INTERNALS.test(path.posix.normalize(p.split("\\").join("/")));
}
