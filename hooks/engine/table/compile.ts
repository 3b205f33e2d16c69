// A validated table → matchers ready to run (regexes built, globs compiled).
// Cheap enough to do on every hook start; the expensive part (zod) is not here.
import picomatch from "picomatch";
import type { Row, Scope, Table, TextTrigger } from "../types.js";

export interface CompiledRow {
  row: Row;
  scope: Scope;
  prompt?: RegExp;
  final?: RegExp;
  writes?: (path: string) => boolean;
  subagent?: Set<string>;
}

export interface CompiledTable {
  table: Table;
  /** Absolute folder of skills (for "Read <path>/SKILL.md" in reasons). */
  skillsDir: string;
  rows: CompiledRow[];
}

/** Letters, digits and marks of any script: what a "word" is made of. */
const WORD_CHAR = "[\\p{L}\\p{N}\\p{M}_]";

/**
 * Whole-word regex that works for Cyrillic: JavaScript's \b only knows ASCII
 * letters, so «лог» would match inside «логин». Lookarounds on Unicode
 * classes give real word boundaries.
 */
export function wordsRegex(words: string[]): RegExp {
  return new RegExp(`(?<!${WORD_CHAR})(?:${words.join("|")})(?!${WORD_CHAR})`, "iu");
}

function textRegex(t: TextTrigger): RegExp {
  const parts: string[] = [];
  if (t.words) parts.push(wordsRegex(t.words).source);
  if (t.pattern) parts.push(t.pattern);
  return new RegExp(parts.map((p) => `(?:${p})`).join("|"), "iu");
}

/**
 * A glob without "/" matches the file name anywhere (`*_RU.md`); one with "/"
 * matches the path relative to the project (`db/migrations/*.sql`). picomatch's
 * own basename option breaks the second kind, so the two are split here.
 */
function globMatcher(globs: string[]): (p: string) => boolean {
  const names = globs.filter((g) => !g.includes("/"));
  const paths = globs.filter((g) => g.includes("/"));
  const byName = names.length ? picomatch(names, { dot: true }) : undefined;
  const byPath = paths.length ? picomatch(paths, { dot: true }) : undefined;
  return (p) => (byName?.(p.slice(p.lastIndexOf("/") + 1)) ?? false) || (byPath?.(p) ?? false);
}

export function defaultScope(row: Row): Scope {
  return row.scope ?? (row.kind === "block" ? "all" : "main");
}

/** Throws an Error naming the row and field when a regex or glob is invalid. */
export function compileTable(table: Table, skillsDir: string): CompiledTable {
  const rows = table.rows.map((row): CompiledRow => {
    const field = (name: string, build: () => unknown) => {
      try {
        return build();
      } catch (e) {
        throw new Error(`row "${row.id}", field when.${name}: ${(e as Error).message}`);
      }
    };
    const w = row.when;
    return {
      row,
      scope: defaultScope(row),
      prompt: w.prompt && (field("prompt", () => textRegex(w.prompt!)) as RegExp),
      final: w.final && (field("final", () => textRegex(w.final!)) as RegExp),
      writes: w.writes && (field("writes", () => globMatcher(w.writes!)) as (p: string) => boolean),
      subagent: w.subagent && new Set(w.subagent),
    };
  });
  return { table, skillsDir, rows };
}
