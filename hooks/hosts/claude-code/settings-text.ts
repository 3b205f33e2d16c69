// Minimal textual edits of a JSON file: append a member or element, replace a
// value, remove one, leaving every other byte as the user wrote it. Removal
// inverts an append exactly, so install + uninstall gives the original bytes
// back even when the file was never ours to reformat.

export type Node =
  | { kind: "object"; start: number; end: number; members: Member[] }
  | { kind: "array"; start: number; end: number; elements: Node[] }
  | { kind: "scalar"; start: number; end: number };

/** An object member: the range covers `"key": value`. */
export interface Member {
  key: string;
  start: number;
  end: number;
  value: Node;
}

export class JsonTextError extends Error {}

/** Parse with positions. Strict JSON (what Claude Code's settings loader accepts). */
export function parseJsonText(text: string): Node {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i] as string)) i++;
  };
  const fail = (what: string): never => {
    throw new JsonTextError(`${what} at offset ${i}`);
  };
  const str = (): number => {
    const s = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    if (i >= text.length) fail("unterminated string");
    i++;
    return s;
  };
  const value = (): Node => {
    ws();
    const start = i;
    const c = text[i];
    if (c === "{") {
      i++;
      const members: Member[] = [];
      ws();
      if (text[i] === "}") return (i++, { kind: "object", start, end: i, members });
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a key");
        const ks = str();
        const key = JSON.parse(text.slice(ks, i)) as string;
        ws();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        const v = value();
        members.push({ key, start: ks, end: v.end, value: v });
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") return (i++, { kind: "object", start, end: i, members });
        else fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const elements: Node[] = [];
      ws();
      if (text[i] === "]") return (i++, { kind: "array", start, end: i, elements });
      for (;;) {
        elements.push(value());
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") return (i++, { kind: "array", start, end: i, elements });
        else fail("expected ',' or ']'");
      }
    }
    if (c === '"') return (str(), { kind: "scalar", start, end: i });
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
    if (!m) return fail("unexpected character");
    i += m[0].length;
    return { kind: "scalar", start, end: i };
  };
  const root = value();
  ws();
  if (i !== text.length) fail("trailing text");
  return root;
}

/** The file's indentation unit (two spaces when nothing is indented). */
export function indentUnit(text: string): string {
  return /^[ \t]+(?=["{[\]}])/m.exec(text)?.[0] ?? "  ";
}

/** Leading whitespace of the line holding `pos`. */
function lineIndent(text: string, pos: number): string {
  const lineStart = text.lastIndexOf("\n", pos - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? "";
}

function splice(text: string, from: number, to: number, insert: string): string {
  return text.slice(0, from) + insert + text.slice(to);
}

function render(value: unknown, baseIndent: string, unit: string, multiline: boolean, eol: string): string {
  return multiline ? JSON.stringify(value, null, unit).replace(/\n/g, `${eol}${baseIndent}`) : JSON.stringify(value);
}

/** The file's line ending: CRLF files stay CRLF. */
const eolOf = (text: string): string => (text.includes("\r\n") ? "\r\n" : "\n");

type Item = { start: number; end: number };
const itemsOf = (c: Node): Item[] => (c.kind === "object" ? c.members : c.kind === "array" ? c.elements : []);

/**
 * Append to an object (`key` given) or an array, copying the layout of the
 * items already there: the separator before the last item, or a new indented
 * line when the container is empty.
 */
export function appendItem(text: string, container: Node, value: unknown, key?: string): string {
  const unit = indentUnit(text);
  const items = itemsOf(container);
  const colon = /"\s*:(\s*)/.exec(text)?.[1] === "" ? ":" : ": ";
  const last = items.at(-1);
  if (!last) {
    const outer = lineIndent(text, container.start);
    const inner = outer + unit;
    const eol = eolOf(text);
    const body = (key !== undefined ? JSON.stringify(key) + colon : "") + render(value, inner, unit, true, eol);
    return splice(text, container.start + 1, container.end - 1, `${eol}${inner}${body}${eol}${outer}`);
  }
  // The separator the file already uses between items (or after the opening bracket).
  const prev = items.at(-2);
  const sepFrom = prev ? text.indexOf(",", prev.end) + 1 : container.start + 1;
  const sep = text.slice(sepFrom, last.start);
  const multiline = sep.includes("\n");
  const indent = multiline ? sep.slice(sep.lastIndexOf("\n") + 1) : "";
  const body = (key !== undefined ? JSON.stringify(key) + colon : "") + render(value, indent, unit, multiline, eolOf(text));
  return splice(text, last.end, last.end, `,${sep}${body}`);
}

/** Remove item `index` of a container: the exact inverse of appendItem for the last one. */
export function removeItem(text: string, container: Node, index: number): string {
  const items = itemsOf(container);
  const it = items[index];
  if (!it) return text;
  if (items.length === 1) return splice(text, container.start + 1, container.end - 1, "");
  const prev = items[index - 1];
  if (index === items.length - 1 && prev) return splice(text, prev.end, it.end, "");
  const next = items[index + 1];
  return next ? splice(text, it.start, next.start, "") : text;
}

/** Replace a value in place, keeping its position; multi-line when the old one was. */
export function replaceValue(text: string, node: Node, value: unknown): string {
  const multiline = text.slice(node.start, node.end).includes("\n");
  return splice(text, node.start, node.end, render(value, lineIndent(text, node.start), indentUnit(text), multiline, eolOf(text)));
}

export const memberOf = (o: Node | undefined, key: string): Member | undefined => (o?.kind === "object" ? o.members.find((m) => m.key === key) : undefined);
