// Text as people see it, for matching the user's words and the final answer:
// NFKC, lower case, invisible characters removed, and Latin letters that look
// like Cyrillic ones written as the Cyrillic letter — on both sides (the text
// and the row's words), so «Гoтoвo» with Latin o is «Готово», and "lоgs" with
// a Cyrillic о is "logs".

/** Soft hyphen, zero-width space/joiners, word joiner, BOM, combining grapheme joiner, Mongolian vowel separator. */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each listed code point is matched alone on purpose (U+034F is a combining mark).
const INVISIBLE = /[\u00AD\u200B-\u200F\u2060-\u2064\uFEFF\u034F\u180E]/g;

/** Latin lookalike → the Cyrillic letter (lower case; the text is lower-cased first). */
const LOOKALIKE: Record<string, string> = { a: "а", c: "с", e: "е", o: "о", p: "р", x: "х", y: "у", i: "і", j: "ј", s: "ѕ" };
const LOOKALIKE_RE = /[acopxyeijs]/g;

/** foldText without the memo (what the memo must agree with). */
export function foldTextUncached(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(INVISIBLE, "")
    .replace(LOOKALIKE_RE, (ch) => LOOKALIKE[ch] ?? ch);
}

/**
 * Every row's words fold the same prompt or final answer again, once per row and
 * per event: the last few texts are remembered. Folding is a pure function of the
 * text, so the memo changes no result; it is bounded, oldest dropped first.
 */
const MEMO_ENTRIES = 64;
const memo = new Map<string, string>();

export function foldText(text: string): string {
  const hit = memo.get(text);
  if (hit !== undefined) return hit;
  const folded = foldTextUncached(text);
  if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as string);
  memo.set(text, folded);
  return folded;
}

/**
 * foldText character by character, with where each folded character came
 * from, so a match in the folded text is quoted back as the user wrote it.
 */
export function foldWithMap(text: string): { folded: string; from: number[] } {
  let folded = "";
  const from: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    const f = foldTextUncached(ch);
    for (let k = 0; k < f.length; k++) from.push(i);
    folded += f;
    i += ch.length;
  }
  from.push(text.length);
  return { folded, from };
}

/**
 * The same folding for a row's word or pattern source, leaving regex escapes
 * alone (`\s`, `\d`, `\p{L}`, `\x41`, `\u0041` keep their meaning).
 */
export function foldPattern(source: string): string {
  let out = "";
  const src = source.normalize("NFKC");
  for (let i = 0; i < src.length; i++) {
    const ch = src[i] ?? "";
    if (ch === "\\") {
      const next = src[i + 1] ?? "";
      // \p{...} / \P{...}, \u{...}: copy through the closing brace; \xHH, \uHHHH: copy the digits.
      const braced = (next === "p" || next === "P" || next === "u") && src[i + 2] === "{" ? src.indexOf("}", i + 3) : -1;
      const end = braced >= 0 ? braced + 1 : next === "x" ? i + 4 : next === "u" ? i + 6 : i + 2;
      out += src.slice(i, end);
      i = end - 1;
      continue;
    }
    out += foldTextUncached(ch);
  }
  return out;
}
