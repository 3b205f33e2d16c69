// Age-based housekeeping shared by the state folder and the capped-output folder.
import fs from "node:fs";
import path from "node:path";

/** Delete the files of dir that `wanted` selects and that were not modified for maxAgeDays. */
export function removeOlderThan(dir: string, maxAgeDays: number, wanted: (name: string) => boolean = () => true, now = Date.now()): number {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!wanted(name)) continue;
    const file = path.join(dir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > maxAgeDays * 86_400_000) {
        fs.rmSync(file, { force: true });
        removed++;
      }
    } catch {
      /* another hook cleaned it first */
    }
  }
  return removed;
}
