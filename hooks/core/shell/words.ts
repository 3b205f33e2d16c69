// Static evaluation of one shell word. A word is "dynamic" when its value is
// only known at run time (a variable, a command substitution, arithmetic):
// decided from the word's parts as parsed, never from how its text looks.
import type { Word, WordPart, DoubleQuotedChild } from "unbash";

export interface WordValue {
  /** The value when static; the source text of the dynamic parts otherwise. */
  text: string;
  dynamic: boolean;
  /** Holds a glob or brace expansion: one word as written, any number of names once expanded. */
  pattern?: boolean;
}

export function evalWord(word: Word): WordValue {
  if (!word.parts) return { text: word.value, dynamic: false };
  let text = "";
  let dynamic = false;
  let pattern = false;
  for (const part of word.parts) {
    const v = evalPart(part);
    text += v.text;
    dynamic ||= v.dynamic;
    pattern ||= part.type === "Glob" || part.type === "BraceExpansion" || part.type === "ExtendedGlob";
  }
  return pattern ? { text, dynamic, pattern } : { text, dynamic };
}

function evalPart(part: WordPart | DoubleQuotedChild): WordValue {
  switch (part.type) {
    case "Literal":
    case "SingleQuoted":
    case "AnsiCQuoted":
      return { text: part.value, dynamic: false };
    case "DoubleQuoted":
    case "LocaleString": {
      let text = "";
      let dynamic = false;
      for (const child of part.parts) {
        const v = evalPart(child);
        text += v.text;
        dynamic ||= v.dynamic;
      }
      return { text, dynamic };
    }
    // Globs and braces expand to names we cannot list, but their text is
    // still what the user wrote: good enough to match a path pattern.
    case "Glob":
    case "BraceExpansion":
    case "ExtendedGlob":
      return { text: part.text, dynamic: false };
    default:
      return { text: part.text, dynamic: true };
  }
}
