import { test } from "node:test";
import assert from "node:assert/strict";
import { entry, nth } from "../hooks/core/shell/nth.ts";

test("nth returns the element of an array, a string and a regex match", () => {
  assert.equal(nth(["a", "b"], 1), "b");
  assert.equal(nth("xy", 0), "x");
  const m = /^(\w+)=(\w*)$/.exec("k=v");
  assert.ok(m);
  assert.equal(nth(m, 2), "v");
});

test("nth keeps falsy elements (empty string, 0, false): only undefined is out of range", () => {
  assert.equal(nth(["", "b"], 0), "");
  assert.equal(nth([0], 0), 0);
  assert.equal(nth([false], 0), false);
});

test("nth names an out-of-range index instead of returning undefined", () => {
  assert.throws(() => nth(["a"], 1), /internal error: index 1 is out of range \(length 1\)/);
  assert.throws(() => nth([], -1), /index -1/);
  const m = /^(a)|(b)$/.exec("a");
  assert.ok(m);
  assert.throws(() => nth(m, 2), /index 2/); // a group the pattern left unset
});

test("entry returns a table's value and names a missing key", () => {
  const t: Record<string, number> = { awk: 1 };
  assert.equal(entry(t, "awk"), 1);
  assert.throws(() => entry(t, "gawk"), /no entry "gawk"/);
});
