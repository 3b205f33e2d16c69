// Static evaluation of one shell word. A word is "dynamic" when its value is
// only known at run time (a variable we could not follow, a command
// substitution, arithmetic): decided from the word's parts as parsed, never
// from how its text looks. Brace expansion is performed here exactly as bash
// does it (`git {commit,} -m x` is `git commit -m x`).
import { nth } from "./nth.js";
import type { Word, WordPart, DoubleQuotedChild } from "unbash";
import type { Provenance, Span, ValueShape } from "./model.js";

export interface WordValue {
  /** The value when static; the source text of the dynamic parts otherwise. */
  text: string;
  dynamic: boolean;
  /** Holds a glob (or an unexpandable brace): one word as written, any number of names once expanded. */
  pattern?: boolean;
  provenance?: Provenance;
  span?: Span;
  /** What the value can be (set for every evaluated word). */
  shape?: ValueShape;
}

/** Variables whose value we know: from an assignment earlier in the same command, a `for` list, or the environment. */
export interface WordContext {
  lookup(name: string): WordValue | undefined;
  /** The words of "$@" where they are known (a function body analysed at its call). */
  positional?: readonly WordValue[];
  /** The words of an array assigned earlier (`a=(…)`), where they are known. */
  array?(name: string): readonly WordValue[] | undefined;
  /** A function or alias of this name was defined earlier: `$(date +%s)` may print anything. */
  shadowed?(name: string): boolean;
}

const NO_VARS: WordContext = { lookup: () => undefined };

/** More words than this from one brace expansion: the word stays a pattern. */
const MAX_BRACE_WORDS = 256;

const RANK: Record<Provenance, number> = { literal: 0, brace: 1, glob: 2, variable: 3, arithmetic: 4, "command-substitution": 5, unknown: 6 };
const worse = (a: Provenance, b: Provenance): Provenance => (RANK[b] > RANK[a] ? b : a);

interface Piece {
  text: string;
  glob: string;
  dynamic: boolean;
  pattern: boolean;
  quoted: boolean;
  provenance: Provenance;
  special?: ValueShape;
}

export function evalWord(word: Word, ctx: WordContext = NO_VARS): WordValue {
  return join(pieces(word, ctx), word);
}

/** The words one shell word becomes after brace expansion (empty unquoted results vanish, as in bash). */
export function expandWord(word: Word, ctx: WordContext = NO_VARS): WordValue[] {
  // `"$@"`: one word per argument, as given (unquoted: the same when no argument splits or matches files)
  const list = allWords(word, ctx);
  if (list) return list.map((a) => ({ ...a, span: { start: word.pos, end: word.end } }));
  // `cmd="git commit"; $cmd -m x`: an unquoted variable with a known value splits into words
  const only = word.parts?.length === 1 ? word.parts[0] : undefined;
  if (
    only &&
    (only.type === "SimpleExpansion" || (only.type === "ParameterExpansion" && !only.prefix && !only.index && !only.operation)) &&
    ctx.lookup("IFS") === undefined
  ) {
    const name = only.type === "SimpleExpansion" ? only.text.replace(/^\$\{?|\}$/g, "") : only.parameter;
    const v = ctx.lookup(name);
    if (v && !v.dynamic && !v.pattern && /\s/.test(v.text)) {
      return v.text
        .split(/[ \t\n]+/)
        .filter(Boolean)
        .map((t) => ({
          text: t,
          dynamic: false,
          provenance: "variable" as Provenance,
          span: { start: word.pos, end: word.end },
          shape: { kind: "exact" as const, text: t },
        }));
    }
  }
  const ps = pieces(word, ctx);
  if (!word.parts?.some((p) => p.type === "BraceExpansion")) return [join(ps, word)];
  let combos: Piece[][] = [[]];
  for (const [i, part] of (word.parts ?? []).entries()) {
    const piece = nth(ps, i);
    const alts = part.type === "BraceExpansion" ? braceAlternatives(part.text) : undefined;
    if (!alts) {
      combos = combos.map((c) => [...c, piece]);
      continue;
    }
    const next: Piece[][] = [];
    for (const c of combos)
      for (const a of alts) next.push([...c, { text: a, glob: globEscape(a), dynamic: false, pattern: false, quoted: false, provenance: "brace" }]);
    if (next.length > MAX_BRACE_WORDS) return [join(ps, word)];
    combos = next;
  }
  const quoted = ps.some((p) => p.quoted);
  return combos.map((c) => join(c, word)).filter((w) => quoted || w.text !== "" || w.dynamic);
}

/**
 * `"$@"`, `"${a[@]}"`: one word per element, as given; unquoted `$@`, `$*`, `${a[*]}`: the same when no element
 * would split or match files. Undefined when the word is not one of those or the elements are not known.
 */
function allWords(word: Word, ctx: WordContext): readonly WordValue[] | undefined {
  const only = word.parts?.length === 1 ? word.parts[0] : undefined;
  const quoted = only?.type === "DoubleQuoted";
  const part = quoted ? (only.parts.length === 1 ? only.parts[0] : undefined) : only;
  const star = (w: Word | undefined) => w?.value === "@" || (!quoted && w?.value === "*");
  let list: readonly WordValue[] | undefined;
  if (part?.type === "SimpleExpansion" && (part.text === "$@" || (!quoted && part.text === "$*"))) list = ctx.positional;
  else if (part?.type === "ParameterExpansion" && !part.prefix && !part.operation)
    list =
      !part.index && (part.parameter === "@" || (!quoted && part.parameter === "*"))
        ? ctx.positional
        : star(part.index)
          ? ctx.array?.(part.parameter)
          : undefined;
  if (!list) return undefined;
  return quoted || list.every((a) => !a.dynamic && !a.pattern && !/[\s*?[]/.test(a.text)) ? list : undefined;
}

function pieces(word: Word, ctx: WordContext): Piece[] {
  if (!word.parts) return [{ text: word.value, glob: globEscape(word.value), dynamic: false, pattern: false, quoted: false, provenance: "literal" }];
  return word.parts.map((p) => evalPart(p, ctx));
}

function join(ps: Piece[], word: Word): WordValue {
  let text = "";
  let glob = "";
  let dynamic = false;
  let pattern = false;
  let provenance: Provenance = "literal";
  for (const p of ps) {
    text += p.text;
    glob += p.glob;
    dynamic ||= p.dynamic;
    pattern ||= p.pattern;
    provenance = worse(provenance, p.provenance);
  }
  const only = ps.length === 1 ? nth(ps, 0).special : undefined;
  const shape: ValueShape =
    only ?? (!dynamic && !pattern ? { kind: "exact", text } : glob.replace(/\*+/g, "*") === "*" ? { kind: "any" } : { kind: "glob", glob });
  const out: WordValue = { text, dynamic, provenance, span: { start: word.pos, end: word.end }, shape };
  if (pattern) out.pattern = true;
  return out;
}

const lit = (value: string, quoted: boolean, provenance: Provenance = "literal"): Piece => ({
  text: value,
  glob: globEscape(value),
  dynamic: false,
  pattern: false,
  quoted,
  provenance,
});
const dyn = (text: string, provenance: Provenance, glob = "**", special?: ValueShape): Piece => ({
  text,
  glob,
  dynamic: true,
  pattern: false,
  quoted: false,
  provenance,
  special,
});

function evalPart(part: WordPart | DoubleQuotedChild, ctx: WordContext, quoted = false): Piece {
  switch (part.type) {
    case "Literal":
      return lit(part.value, false);
    case "SingleQuoted":
    case "AnsiCQuoted":
      return lit(part.value, true);
    case "DoubleQuoted":
    case "LocaleString": {
      const kids = part.parts.map((c) => evalPart(c, ctx, true));
      const out = lit("", true);
      for (const k of kids) {
        out.text += k.text;
        out.glob += k.glob;
        out.dynamic ||= k.dynamic;
        out.provenance = worse(out.provenance, k.provenance);
      }
      if (kids.length === 1 && nth(kids, 0).special) out.special = nth(kids, 0).special;
      return out;
    }
    // A glob stays as written: good enough to match a path pattern; bash expands it against files.
    case "Glob":
    case "ExtendedGlob":
      return { text: part.text, glob: part.type === "Glob" ? part.text : "**", dynamic: false, pattern: true, quoted: false, provenance: "glob" };
    case "BraceExpansion": {
      // Reached only when the brace cannot be expanded statically (see expandWord).
      return { text: part.text, glob: "**", dynamic: false, pattern: true, quoted: false, provenance: "brace" };
    }
    case "SimpleExpansion":
    case "ParameterExpansion": {
      const name =
        part.type === "SimpleExpansion" ? part.text.replace(/^\$\{?|\}$/g, "") : part.prefix || part.index || part.operation ? undefined : part.parameter;
      const known = name !== undefined ? ctx.lookup(name) : undefined;
      // unquoted, a value with blanks is split into words (or by a changed IFS): not one known word
      const split = known && !quoted && !known.dynamic && (/[\s]/.test(known.text) || ctx.lookup("IFS") !== undefined);
      if (known && !split) {
        const shape = known.shape;
        const glob = known.dynamic || known.pattern ? (shape?.kind === "glob" ? shape.glob : "**") : globEscape(known.text);
        return {
          text: known.text,
          glob,
          dynamic: known.dynamic,
          pattern: !!known.pattern,
          quoted: false,
          provenance: "variable",
          special: known.dynamic ? shape : undefined,
        };
      }
      // `${a[1]}`, `${#a[@]}` of an array we know
      if (part.type === "ParameterExpansion" && part.index && !part.operation) {
        const list = ctx.array?.(part.parameter);
        const i = part.index.value;
        if (list && part.prefix === "#" && (i === "@" || i === "*")) return lit(String(list.length), quoted, "variable");
        const el = list && !part.prefix && /^\d+$/.test(i) ? (list[Number(i)] ?? { text: "", dynamic: false }) : undefined;
        if (el && !el.dynamic && !el.pattern && !(!quoted && /\s/.test(el.text))) return lit(el.text, quoted, "variable");
      }
      // `${x:1:3}`, `${x,,}`, `${x/X/o}` of a value we know: computed as bash does
      if (part.type === "ParameterExpansion" && part.operation && !part.prefix && !part.index) {
        const v = ctx.lookup(part.parameter);
        const r = v && !v.dynamic && !v.pattern ? operate(v.text, part.operation, ctx) : undefined;
        if (r !== undefined && !(!quoted && /\s/.test(r)))
          return { text: r, glob: globEscape(r), dynamic: false, pattern: false, quoted: false, provenance: "variable" };
      }
      return dyn(part.text, "variable");
    }
    case "CommandExpansion":
      return substitution(part.text, ctx);
    case "ArithmeticExpansion":
      return dyn(part.text, "arithmetic", "[0-9-]*");
    default:
      return dyn(part.text, "unknown");
  }
}

/**
 * A parameter operation on a known, set value; undefined when it is not computed here (a glob pattern,
 * a computed operand, an unset variable — a caller may have set it).
 */
function operate(value: string, op: NonNullable<Extract<WordPart, { type: "ParameterExpansion" }>["operation"]>, ctx: WordContext): string | undefined {
  const lit = (w: Word | undefined): string | undefined => {
    if (!w) return "";
    const v = evalWord(w, ctx);
    return v.dynamic || v.pattern || /[*?[]/.test(v.text) ? undefined : v.text;
  };
  switch (op.type) {
    case "Slice": {
      const off = lit(op.offset);
      const len = op.length ? lit(op.length) : undefined;
      if (off === undefined || !/^\s*-?\d+\s*$/.test(off) || (op.length && (len === undefined || !/^\s*-?\d+\s*$/.test(len)))) return undefined;
      const start = Number(off) < 0 ? Math.max(0, value.length + Number(off)) : Number(off);
      if (len === undefined) return value.slice(start);
      const n = Number(len);
      return n < 0 ? value.slice(start, value.length + n) : value.slice(start, start + n);
    }
    case "CaseModification":
      if (op.operand) return undefined;
      return op.operator === "^^"
        ? value.toUpperCase()
        : op.operator === ",,"
          ? value.toLowerCase()
          : op.operator === "^"
            ? value.slice(0, 1).toUpperCase() + value.slice(1)
            : value.slice(0, 1).toLowerCase() + value.slice(1);
    case "Remove": {
      const pat = lit(op.operand);
      if (pat === undefined) return undefined;
      return op.operator.startsWith("#")
        ? value.startsWith(pat)
          ? value.slice(pat.length)
          : value
        : value.endsWith(pat)
          ? value.slice(0, value.length - pat.length)
          : value;
    }
    case "Replace": {
      const pat = lit(op.pattern);
      const rep = lit(op.replacement);
      if (pat === undefined || rep === undefined || pat === "") return undefined;
      if (op.operator === "//") return value.split(pat).join(rep);
      if (op.operator === "/#") return value.startsWith(pat) ? rep + value.slice(pat.length) : value;
      if (op.operator === "/%") return value.endsWith(pat) ? value.slice(0, value.length - pat.length) + rep : value;
      return value.replace(pat, () => rep);
    }
    case "Default": {
      // the variable is set (we know its value): `-`/`=`/`?` give it; `:`-forms look at emptiness too
      const empty = value === "";
      if (op.operator === "+" || (op.operator === ":+" && !empty)) return lit(op.operand);
      if (op.operator === ":+") return "";
      if (op.operator.startsWith(":") && empty) return op.operator === ":?" ? undefined : lit(op.operand);
      return value;
    }
    default:
      return undefined;
  }
}

/** Substitutions whose output we can describe: a branch name, a fresh temp file. */
function substitution(text: string, ctx: WordContext): Piece {
  const body = text.replace(/^\$\(\s*|\s*\)$|^`\s*|\s*`$/g, "");
  if (ctx.shadowed?.(body.split(/\s/, 1)[0] ?? "")) return dyn(text, "command-substitution");
  // `git branch --show-current` prints a branch name (never HEAD, never an option) or nothing.
  if (/^git\s+branch\s+--show-current$|^git\s+symbolic-ref\s+(--short\s+HEAD|HEAD\s+--short)$|^git\s+rev-parse\s+--abbrev-ref\s+HEAD$/.test(body)) {
    return dyn(text, "command-substitution", "**", { kind: "branch" });
  }
  // `$(echo status)`: a literal word echoed is that word
  const echoed = /^(?:echo|printf\s+%s)\s+([\w./:@+-]+)$/.exec(body);
  if (echoed)
    return { text: nth(echoed, 1), glob: globEscape(nth(echoed, 1)), dynamic: false, pattern: false, quoted: false, provenance: "command-substitution" };
  // `date +%s`, `date -u +%Y%m%d-%H%M%S`: digits, with the format's own letters; never a slash
  const date = /^date\s+(?:(?:-u|--utc)\s+)?\+([-\w:.%]+)$/.exec(body);
  if (date && /^(?:%[sYmdHMSNjyFT]|[-\w:.])+$/.test(nth(date, 1)))
    return dyn(
      text,
      "command-substitution",
      nth(date, 1).replace(/%[sYmdHMSNjyFT]|[^%]/g, (c) => (c.startsWith("%") ? "[0-9]*" : globEscape(c))),
    );
  // mktemp: $TMPDIR/tmp.XXXXXXXXXX, ten letters or digits.
  if (/^mktemp(\s+-[dqtu]+)*$/.test(body)) return dyn(text, "command-substitution", `**/tmp.${"[A-Za-z0-9]".repeat(10)}`);
  return dyn(text, "command-substitution");
}

const GLOB_META = /[*?[\]\\]/;
const GLOB_META_ALL = /[*?[\]\\]/g;

/** Escape glob metacharacters so a literal matches only itself. */
export function globEscape(s: string): string {
  // most words have no metacharacter: no new string then
  return GLOB_META.test(s) ? s.replace(GLOB_META_ALL, "\\$&") : s;
}

/**
 * The words of one `{…}` as bash expands it: `{a,b}`, `{a,{b,c}}`, `{1..3}`,
 * `{a..e}`, `{1..9..2}`. Undefined when it is not a brace expansion bash would
 * perform statically (a variable inside, or no comma and no range).
 */
export function braceAlternatives(text: string): string[] | undefined {
  if (/[$`]/.test(text)) return undefined;
  const out = expandBraces(unquote(text));
  return out.length > 0 && out.length <= MAX_BRACE_WORDS ? out : undefined;
}

/** Remove quotes and backslashes (the brace text is raw source). */
function unquote(s: string): string {
  return s.replace(/\\(.)|'([^']*)'|"([^"]*)"/g, (_m, esc: string | undefined, sq: string | undefined, dq: string | undefined) => esc ?? sq ?? dq ?? "");
}

function expandBraces(s: string): string[] {
  // find the first top-level `{` with a matching `}` that forms a valid expansion
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== "{") continue;
    let depth = 0;
    for (let j = i; j < s.length; j++) {
      if (s[j] === "{") depth++;
      else if (s[j] === "}" && --depth === 0) {
        const alts = alternatives(s.slice(i + 1, j));
        if (!alts) break;
        const pre = s.slice(0, i);
        const post = expandBraces(s.slice(j + 1));
        const out: string[] = [];
        for (const a of alts)
          for (const x of expandBraces(a))
            for (const p of post) {
              out.push(pre + x + p);
              if (out.length > MAX_BRACE_WORDS) return out;
            }
        return out;
      }
    }
  }
  return [s];
}

function alternatives(inner: string): string[] | undefined {
  const range = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(inner);
  if (range) {
    const [, a, b, stepText] = range as unknown as [string, string, string, string | undefined];
    const step = Math.max(1, Math.abs(Number(stepText ?? 1)));
    const num = /\d/.test(a);
    if (num !== /\d/.test(b)) return undefined;
    const from = num ? Number(a) : a.charCodeAt(0);
    const to = num ? Number(b) : b.charCodeAt(0);
    if (Math.abs(to - from) / step > MAX_BRACE_WORDS) return undefined;
    const out: string[] = [];
    for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) out.push(num ? String(v) : String.fromCharCode(v));
    return out;
  }
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === "{") depth++;
    else if (inner[i] === "}") depth--;
    else if (inner[i] === "," && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts.length > 1 ? parts : undefined;
}

/** bash's printf for a format with only %s/%b/%% and C escapes (\xHH, \NNN, \uHHHH); undefined for anything else. */
export function printfText(words: string[]): string | undefined {
  const [format, ...rest] = words;
  if (format === undefined) return undefined;
  const esc = (t: string) =>
    t.replace(/\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|.)/g, (_m, e: string) => {
      if (/^[xuU]/.test(e)) return String.fromCodePoint(parseInt(e.slice(1), 16));
      if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
      return (
        ({ n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", f: "\f", v: "\v", "\\": "\\", '"': '"', "'": "'" } as Record<string, string>)[e] ??
        `\\${e}`
      );
    });
  const directives = format.match(/%[^%]?/g) ?? [];
  if (directives.some((d) => d !== "%s" && d !== "%b" && d !== "%%")) return undefined;
  const n = directives.filter((d) => d !== "%%").length;
  let out = "";
  let i = 0;
  // the format is reused while arguments remain (at least once)
  do {
    out += esc(format).replace(/%([sb%])/g, (_m, d: string) => (d === "%" ? "%" : d === "b" ? esc(rest[i++] ?? "") : (rest[i++] ?? "")));
  } while (n > 0 && i < rest.length);
  return out;
}
