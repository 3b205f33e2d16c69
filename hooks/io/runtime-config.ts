// Files the runtime running the hook reads before the hook's own code: under Bun, a bunfig.toml in the folder the
// hook starts in (the project) can preload any module into every later hook process (and into the hook server
// those processes start). Node reads no such file. So when the hook runs under Bun, the project's bunfig.toml is
// protected like skillgate's own files: a write to it is refused, and one made by a program the shell analysis
// did not see is put back (runner/restore.ts).
import path from "node:path";

/** The project's runtime configuration the hook depends on now: [path, why] (none under Node). */
export function runtimeConfigFiles(projectDir: string | undefined): [string, string][] {
  if (!process.versions.bun || !projectDir) return [];
  return [[path.join(path.resolve(projectDir), "bunfig.toml"), "the project's bunfig.toml (Bun, which runs skillgate's hook, preloads the modules it names)"]];
}
