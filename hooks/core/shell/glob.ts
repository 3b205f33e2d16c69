// Shell-style globs as sets of strings: does a glob match a string, and can
// two globs match a common string? Used to match a row's `args`/`writes`
// patterns against words whose value is only partly known (`"$TMPDIR"/copy`
// is `*/copy`; `for f in *_RU.md` makes `$f` `*_RU.md`). `*` and `**` match
// any run of characters, `?` one, `[…]` one of a set (`[!…]`/`[^…]` negated).
import { nth } from "./nth.js";

/** A star: `**` crosses `/`, `*` does not (as in picomatch and bash). */
type Token = { kind: "star"; slash: boolean } | { kind: "char"; test: (c: string) => boolean; only?: string };

export const isGlob = (s: string): boolean => /[*?[]/.test(s);

export function tokenize(glob: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = nth(glob, i);
    if (c === "\\" && i + 1 < glob.length) {
      const l = nth(glob, ++i);
      out.push({ kind: "char", test: (x) => x === l, only: l });
      continue;
    }
    if (c === "*") {
      const slash = glob[i + 1] === "*";
      while (glob[i + 1] === "*") i++;
      const prev = out[out.length - 1];
      if (prev?.kind === "star") prev.slash ||= slash;
      else out.push({ kind: "star", slash });
      continue;
    }
    if (c === "?") {
      out.push({ kind: "char", test: () => true });
      continue;
    }
    if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end > 0) {
        let body = glob.slice(i + 1, end);
        const negate = body.startsWith("!") || body.startsWith("^");
        if (negate) body = body.slice(1);
        const ranges: [string, string][] = [];
        for (let j = 0; j < body.length; j++) {
          if (body[j + 1] === "-" && j + 2 < body.length) {
            ranges.push([nth(body, j), nth(body, j + 2)]);
            j += 2;
          } else {
            const one = nth(body, j);
            ranges.push([one, one]);
          }
        }
        const inSet = (x: string) => ranges.some(([a, b]) => x >= a && x <= b);
        out.push({ kind: "char", test: negate ? (x) => !inSet(x) : inSet });
        i = end;
        continue;
      }
    }
    out.push({ kind: "char", test: (x) => x === c, only: c });
  }
  return out;
}

export function globMatch(glob: string, s: string): boolean {
  return intersects(
    tokenize(glob),
    [...s].map((c) => ({ kind: "char" as const, test: (x: string) => x === c, only: c })),
  );
}

/** Can some string match both globs? */
export function globsIntersect(a: string, b: string): boolean {
  return intersects(tokenize(a), tokenize(b));
}

/** Characters tried when two sets meet (printable ASCII and a few others). */
const ALPHABET = [...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)), "é", "я", "\t"];

function meet(x: Token & { kind: "char" }, y: Token & { kind: "char" }): boolean {
  if (x.only !== undefined) return y.test(x.only);
  if (y.only !== undefined) return x.test(y.only);
  return ALPHABET.some((c) => x.test(c) && y.test(c));
}

/** Can this star take this character (`*` stops at `/`)? */
function eats(star: Token & { kind: "star" }, c: Token & { kind: "char" }): boolean {
  return star.slash || (c.only !== undefined ? c.only !== "/" : ALPHABET.some((x) => x !== "/" && c.test(x)));
}

function intersects(a: Token[], b: Token[]): boolean {
  // patterns here are short (a path, a word); the table is n × m
  if (a.length * b.length > 250_000) return true;
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * (b.length + 1) + j;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    memo.set(key, false);
    let r: boolean;
    const x = a[i];
    const y = b[j];
    if (!x && !y) r = true;
    else if (x?.kind === "star") r = go(i + 1, j) || (y !== undefined && (y.kind === "star" || eats(x, y)) && go(i, j + 1));
    else if (y?.kind === "star") r = go(i, j + 1) || (x !== undefined && eats(y, x) && go(i + 1, j));
    else if (!x || !y) r = false;
    else r = meet(x, y) && go(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return go(0, 0);
}

/**
 * Every string a glob without stars or `?` can match (`comm[i]t` → commit; `[ab]x` → ax, bx), or undefined when
 * it can match endlessly many, uses a negated set, or more than `max` strings.
 */
export function finiteMatches(glob: string, max = 64): string[] | undefined {
  let out = [""];
  for (let i = 0; i < glob.length; i++) {
    const c = nth(glob, i);
    let alts: string[];
    if (c === "\\" && i + 1 < glob.length) alts = [nth(glob, ++i)];
    else if (c === "*" || c === "?") return undefined;
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) alts = [c];
      else {
        const body = glob.slice(i + 1, end);
        if (body.startsWith("!") || body.startsWith("^") || body.includes("[") || body.includes("\\")) return undefined;
        alts = [];
        for (let j = 0; j < body.length; j++) {
          const from = nth(body, j);
          const to = body[j + 1] === "-" && j + 2 < body.length ? nth(body, (j += 2)) : from;
          for (let k = from.charCodeAt(0); k <= to.charCodeAt(0); k++) if (!alts.includes(String.fromCharCode(k))) alts.push(String.fromCharCode(k));
          if (alts.length > max) return undefined;
        }
        i = end;
      }
    } else alts = [c];
    out = out.flatMap((s) => alts.map((a) => s + a));
    if (out.length > max) return undefined;
  }
  return out;
}
