/**
 * Element `i` of a list (array, string, regex match) at an index the caller has already bounds-checked,
 * or a capture group that the pattern always fills. Undefined there is a bug in the analysis, so it throws
 * a named internal error instead of letting `undefined` flow into a decision.
 */
export function nth<T>(xs: ArrayLike<T>, i: number): T {
  const x = xs[i];
  if (x === undefined) throw new Error(`skillgate internal error: index ${i} is out of range (length ${xs.length})`);
  return x;
}

/** The value under `key` in a table the module itself fills (so the key is known to be there). */
export function entry<T>(table: Readonly<Record<string, T>>, key: string): T {
  const x = table[key];
  if (x === undefined) throw new Error(`skillgate internal error: no entry "${key}"`);
  return x;
}
