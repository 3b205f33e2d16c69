// Command rows and write rows: what a tool call runs and writes, from the
// shell analysis (facts). Owned with the shell analysis: a new bypass class
// usually changes both.
import { nth } from "./shell/nth.js";
import type { Hit } from "./types.js";
import type { CompiledRow } from "./table/compile.js";
import type { Facts } from "./facts.js";
import type { ShellCommand } from "./shell/analyze.js";
import type { ValueShape } from "./shell/model.js";
import { globMatch, globsIntersect, isGlob } from "./shell/glob.js";
import { clip } from "./clip.js";

export function matchCommand(cr: CompiledRow, facts: Facts): Hit | undefined {
  const want = cr.row.when.command;
  const a = facts.analysis;
  if (!want || !a) return undefined;
  for (const c of a.commands) {
    if (c.name !== want.name || c.inert) continue;
    if (want.sub) {
      if (c.verb < 0) continue;
      if (c.dynamic[c.verb]) return opaqueHit(cr, `the ${want.name} subcommand ${clip(c.argv[c.verb] ?? "", 60)} is computed at run time`);
      // `git send-pack` pushes, `git fast-import` commits: what it does counts as much as its name
      if (!want.sub.includes(c.argv[c.verb] ?? "") && !c.acts?.some((s) => want.sub?.includes(s))) continue;
    }
    if (want.args) {
      const found = argMatch(c, want.args);
      if (found === "yes") return { row: cr.row, detail: `runs ${clip(c.argv.join(" "))}` };
      if (found === "maybe") return opaqueHit(cr, `arguments of ${want.name} are computed at run time`);
      continue;
    }
    return { row: cr.row, detail: `runs ${clip(c.argv.slice(0, 4).join(" "))}` };
  }
  // A part we could not see through may be exactly this command.
  const o = a.opaque[0];
  if (o) return opaqueHit(cr, clip(o.reason));
  return undefined;
}

/**
 * Does the command carry one of the row's args? "yes" for a literal (or implied)
 * one, "maybe" when a run-time or pattern word could be one, "no" otherwise.
 * Row args may be globs (`+*`).
 */
function argMatch(c: ShellCommand, wants: string[]): "yes" | "no" | "maybe" {
  const words = cancelled(c.argv.slice(1));
  for (const i of c.notArgs ?? []) words[i - 1] = undefined;
  const literal = [...words.filter((w, i) => w !== undefined && !c.dynamic[i + 1] && !isPatternWord(c, i + 1)).map((w) => w as string), ...(c.implied ?? [])];
  if (wants.some((w) => hasArg(literal, w))) return "yes";
  for (let i = 1; i < c.argv.length; i++) {
    if ((!c.dynamic[i] && !isPatternWord(c, i)) || c.notArgs?.includes(i)) continue;
    const shape: ValueShape = c.words?.[i]?.shape ?? { kind: "any" };
    if (wants.some((w) => couldBe(shape, w))) return "maybe";
  }
  return "no";
}

/** `--force … --no-force`: the later negation wins (git's options); a cancelled word is left out. */
function cancelled(args: string[]): (string | undefined)[] {
  const out: (string | undefined)[] = [...args];
  for (let i = 0; i < args.length; i++) {
    const m = /^--no-([a-z][a-z-]*)$/.exec(nth(args, i));
    if (!m) continue;
    const name = nth(m, 1);
    for (let j = 0; j < i; j++) {
      const w = nth(args, j);
      if (w === `--${name}` || (name === "force" && (w === "-f" || /^-[a-zA-Z]*f[a-zA-Z]*$/.test(w)))) out[j] = undefined;
    }
  }
  return out;
}

const isPatternWord = (c: ShellCommand, i: number): boolean => c.words?.[i]?.shape.kind === "glob" && !c.dynamic[i];

/** Could a word of this shape be `want` (a literal or a glob)? */
function couldBe(shape: ValueShape, want: string): boolean {
  switch (shape.kind) {
    case "exact":
      return isGlob(want) ? globMatch(want, shape.text) : shape.text === want;
    // a cluster (`-uf`) is letters only: a glob with other literal characters cannot be one
    case "glob":
      return isGlob(want)
        ? globsIntersect(shape.glob, want)
        : globMatch(shape.glob, want) || (shortOption(want) && /^[-*?a-zA-Z[\]!^]*$/.test(shape.glob) && globsIntersect(shape.glob, `-*${want[1]}*`));
    // a branch name is never HEAD, an option or a forced refspec
    case "branch":
      return !/^(HEAD|@)$/.test(want) && !/^[-+]/.test(want) && (!isGlob(want) || globsIntersect(want, "[!-+]*"));
    case "any":
      return true;
  }
}

const shortOption = (w: string): boolean => /^-[A-Za-z]$/.test(w);

/** A literal argument (or a glob over them); a one-letter option (`-f`) also inside a cluster (`-uf`). */
function hasArg(args: string[], want: string): boolean {
  if (isGlob(want)) return args.some((a) => globMatch(want, a));
  if (args.includes(want)) return true;
  return shortOption(want) && args.some((a) => /^-[A-Za-z]{2,}$/.test(a) && a.includes(nth(want, 1)));
}

function opaqueHit(cr: CompiledRow, reason: string): Hit {
  return { row: cr.row, detail: reason, opaque: true };
}

export function matchWrites(cr: CompiledRow, facts: Facts): Hit | undefined {
  const test = cr.writes;
  if (!test) return undefined;
  const p = facts.writes.find((w) => test(w));
  if (p !== undefined) return { row: cr.row, detail: `writes ${clip(p)}` };
  // A write whose name is partly known: can it be a name this row protects?
  const globs = cr.row.when.writes ?? [];
  for (const pattern of facts.writePatterns ?? []) {
    const tail = pattern.slice(pattern.lastIndexOf("/") + 1);
    const hit = globs.find((g) => (g.includes("/") ? pathCouldMatch(g, pattern) : globsIntersect(g, tail)));
    if (hit) return opaqueHit(cr, `it writes ${clip(pattern, 80)}, a name known only at run time that can match ${hit}`);
  }
  // A write whose target is only known at run time, in a command that names paths this row protects.
  const named = facts.mentions?.find((w) => test(w));
  return named !== undefined ? opaqueHit(cr, `it writes paths known only at run time and names ${clip(named, 80)}`) : undefined;
}

/**
 * A path glob (`**\/migrations/**`) against a partly known path: only the
 * literal directory part can tell; an unknown directory (`$TMPDIR/x`) is not
 * taken to be inside a protected folder unless the command names one (mentions).
 */
function pathCouldMatch(rowGlob: string, pattern: string): boolean {
  const dir = pattern.slice(0, pattern.lastIndexOf("/") + 1);
  if (dir.includes("**")) return false;
  // a protected folder (`migrations`) must be named: a run-time part is not taken to be it
  const named = rowGlob.split("/").filter((seg) => seg && !/[*?[]/.test(seg));
  if (!named.every((seg) => pattern.includes(seg))) return false;
  // `**/` also matches no folder at all
  return globsIntersect(rowGlob, pattern) || (rowGlob.startsWith("**/") && globsIntersect(rowGlob.slice(3), pattern));
}
