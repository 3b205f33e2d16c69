// Cheap looks at a raw JSONL line (bytes) before deciding to decode and parse it.
// Every answer here is either exact or "don't know" (then the caller parses):
// a line is never thrown away on a guess.

const TYPE_KEY = Buffer.from('"type"');
const SIDECHAIN_KEY = Buffer.from('"isSidechain"');
const TOOL_RESULT = Buffer.from('"tool_result"');
const TOOL_USE_ID_KEY = Buffer.from('"tool_use_id"');
const LBRACE = 0x7b,
  LBRACKET = 0x5b,
  QUOTE = 0x22,
  COLON = 0x3a,
  BACKSLASH = 0x5c;

const isSpace = (b: number | undefined) => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;

/** Index of the first non-space byte at or after i (end if none). */
function skipSpace(buf: Buffer, i: number, end: number): number {
  while (i < end && isSpace(buf[i])) i++;
  return i;
}

/**
 * The line's top-level `type`, when it can be read without parsing: the first
 * `"type":` key with no `{` or `[` before it (so it sits at depth 1; inside a
 * string a quote would be escaped, so `"type"` followed by `:` is a real key).
 * undefined: not sure (a nested "type" comes first, or none) — parse the line.
 */
export function peekType(line: Buffer): string | undefined {
  const end = line.length;
  const k = line.indexOf(TYPE_KEY);
  if (k < 0) return undefined;
  const before = line.subarray(1, k);
  if (before.indexOf(LBRACE) >= 0 || before.indexOf(LBRACKET) >= 0) return undefined;
  let i = skipSpace(line, k + TYPE_KEY.length, end);
  if (line[i] !== COLON) return undefined;
  i = skipSpace(line, i + 1, end);
  if (line[i] !== QUOTE) return undefined;
  const close = line.indexOf(QUOTE, i + 1);
  if (close < 0 || close - i > 64) return undefined;
  for (let j = i + 1; j < close; j++) if (line[j] === BACKSLASH) return undefined;
  return line.toString("latin1", i + 1, close);
}

/**
 * `isSidechain: true` in the envelope. Only looks at the first 1 KB and only
 * trusts a key with no `{`/`[` before it; false means "not known to be".
 */
export function peekSidechain(line: Buffer): boolean {
  const head = line.length > 1024 ? line.subarray(0, 1024) : line;
  const k = head.indexOf(SIDECHAIN_KEY);
  if (k < 0) return false;
  const before = head.subarray(1, k);
  if (before.indexOf(LBRACE) >= 0 || before.indexOf(LBRACKET) >= 0) return false;
  let i = skipSpace(head, k + SIDECHAIN_KEY.length, head.length);
  if (head[i] !== COLON) return false;
  i = skipSpace(head, i + 1, head.length);
  return head[i] === 0x74 && head[i + 1] === 0x72 && head[i + 2] === 0x75 && head[i + 3] === 0x65; // true
}

/** The line carries at least one tool_result block: a `"tool_result"` value (after a colon, not the tail of some text). */
export function hasToolResult(line: Buffer): boolean {
  for (let k = line.indexOf(TOOL_RESULT); k >= 0; k = line.indexOf(TOOL_RESULT, k + 1)) {
    let i = k - 1;
    while (i > 0 && isSpace(line[i])) i--;
    if (line[i] === COLON) return true;
  }
  return false;
}

/**
 * Every `"tool_use_id": "<id>"` value in the line, or undefined when one of
 * them cannot be read plainly (then parse the line).
 */
export function peekToolUseIds(line: Buffer): string[] | undefined {
  const ids: string[] = [];
  let k = line.indexOf(TOOL_USE_ID_KEY);
  while (k >= 0) {
    let i = skipSpace(line, k + TOOL_USE_ID_KEY.length, line.length);
    if (line[i] !== COLON) return undefined;
    i = skipSpace(line, i + 1, line.length);
    if (line[i] !== QUOTE) return undefined;
    const close = line.indexOf(QUOTE, i + 1);
    if (close < 0 || close - i > 200) return undefined;
    for (let j = i + 1; j < close; j++) if (line[j] === BACKSLASH) return undefined;
    ids.push(line.toString("latin1", i + 1, close));
    k = line.indexOf(TOOL_USE_ID_KEY, close);
  }
  return ids;
}

/**
 * Some JSON string in the line is longer than `min` bytes (raw, escapes
 * included). A string of more than `min` characters needs at least that many
 * bytes, so false proves no value in the line is that long. Unsure (the line
 * does not scan as JSON strings) → true.
 */
export function hasLongString(line: Buffer, min: number): boolean {
  if (line.length <= min) return false;
  let open = line.indexOf(QUOTE);
  while (open >= 0) {
    let close = open + 1;
    for (;;) {
      close = line.indexOf(QUOTE, close);
      if (close < 0) return true;
      let bs = 0;
      for (let k = close - 1; line[k] === BACKSLASH; k--) bs++;
      if (bs % 2 === 0) break;
      close++;
    }
    if (close - open - 1 > min) return true;
    open = line.indexOf(QUOTE, close + 1);
  }
  return false;
}

/** A line of only spaces. */
export function isBlank(line: Buffer): boolean {
  return skipSpace(line, 0, line.length) === line.length;
}
