import { test } from "node:test";
import assert from "node:assert/strict";
import { foldPattern, foldText, foldTextUncached, foldWithMap } from "../hooks/core/table/fold.ts";

const SAMPLES = [
  "Гoтoвo", // Latin o inside Cyrillic
  "lоgs", // Cyrillic о inside Latin
  "ＤＥＰＬＯＹ to prod", // full-width: NFKC
  "soft\u00ADhy\u200Bphen\uFEFF",
  "ﬁle", // ligature
  "",
  "PLAIN ascii text",
  "ß and İ", // lower-casing that changes length
  "😀 emoji x",
];

test("foldText (memoized) gives what the uncached fold gives, first call and repeated", () => {
  for (const s of SAMPLES) assert.equal(foldText(s), foldTextUncached(s), JSON.stringify(s));
  for (const s of SAMPLES) assert.equal(foldText(s), foldTextUncached(s), `again: ${JSON.stringify(s)}`);
});

test("foldText stays right past the memo's size: many distinct texts, then the early ones again", () => {
  const texts = Array.from({ length: 500 }, (_, i) => `${SAMPLES[i % SAMPLES.length]} ${i} Xo${"а".repeat(i % 7)}`);
  for (const t of texts) assert.equal(foldText(t), foldTextUncached(t));
  // Interleaved: a text met again after others pushed it out, and texts of equal length but other content.
  for (let i = texts.length - 1; i >= 0; i -= 3) assert.equal(foldText(texts[i]!), foldTextUncached(texts[i]!));
  assert.equal(foldText("ab"), foldTextUncached("ab"));
  assert.equal(foldText("ba"), foldTextUncached("ba"));
  assert.notEqual(foldText("ab"), foldText("ba"));
});

test("foldWithMap and foldPattern fold as foldText does", () => {
  for (const s of SAMPLES) assert.equal(foldWithMap(s).folded, foldTextUncached(s));
  assert.equal(foldPattern("Гoтoвo\\s+lоgs"), `${foldTextUncached("Гoтoвo")}\\s+${foldTextUncached("lоgs")}`);
});
