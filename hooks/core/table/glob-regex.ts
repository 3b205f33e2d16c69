// Write globs without the glob engine at run time: when a table is validated,
// each glob's regex (picomatch's own, `dot: true`) is kept with the validated
// table in the cache; a later start builds matchers from those sources and
// never loads picomatch (≈ 3 ms of a Write event on Node, `npm run bench`).
// Matching is picomatch's: an empty path never matches, a path equal to the
// glob does, else the regex decides (test/table.test.ts compares the two).
import type { GlobEngine } from "./compile.js";

/** A glob's regex as picomatch.makeRe(glob, { dot: true }) made it. */
export interface GlobRegex {
  source: string;
  flags: string;
}

/** The regexes of these globs, from an engine that can make them (picomatch, at validation). */
export function globRegexes(makeRe: (glob: string, opts: { dot: boolean }) => RegExp, globs: readonly string[]): Record<string, GlobRegex> {
  const out: Record<string, GlobRegex> = {};
  for (const g of globs) {
    const re = makeRe(g, { dot: true });
    out[g] = { source: re.source, flags: re.flags };
  }
  return out;
}

/** A glob engine over kept regexes; undefined when a glob has none kept (then the caller loads picomatch). */
export function keptGlobEngine(kept: Readonly<Record<string, GlobRegex>>, globs: readonly string[]): GlobEngine | undefined {
  if (!globs.every((g) => Object.hasOwn(kept, g))) return undefined;
  return (list) => {
    const tests = list.map((g) => {
      const k = kept[g];
      if (!k) throw new Error(`no kept regex for the glob ${JSON.stringify(g)}`);
      const re = new RegExp(k.source, k.flags);
      return (p: string) => p !== "" && (p === g || re.test(p));
    });
    return (p) => tests.some((t) => t(p));
  };
}
