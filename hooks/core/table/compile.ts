// A validated table → matchers ready to run (regexes built, globs compiled).
// Cheap enough to do on every hook start; the expensive part (zod) is not here.
import type { Row, Table, TextTrigger } from "../types.js";
import { foldPattern, foldText, foldWithMap } from "./fold.js";
import type { DisabledRow } from "./schema.js";

/** Finds a trigger in a text; returns the matched words or undefined. */
export type TextMatcher = (text: string) => string | undefined;
/** Makes one matcher for a list of globs (any matches): picomatch, or the regexes kept with a cached table (glob-regex.ts). */
export type GlobEngine = (globs: string[], opts: { dot: boolean }) => (path: string) => boolean;

export interface CompiledRow {
  row: Row;
  prompt?: TextMatcher;
  final?: TextMatcher;
  writes?: (path: string) => boolean;
  subagent?: Set<string>;
}

/** `<program> <subcommand> <one of removes> …skillgate…`: the client removing or disabling skillgate's plugin. */
export interface PluginCommand {
  program: string;
  subcommand: string;
  removes: readonly string[];
}

/** A path the agent may not write (policies/self-protection.ts); `what` says why, to the model. */
export interface ProtectedPath {
  path: string;
  dir: boolean;
  what: string;
  /** false: removing or renaming a folder above it is not refused (the output folder lives in the shared temp folder). */
  parents?: boolean;
}

export interface CompiledTable {
  table: Table;
  /** Absolute folder of skills (for "Read <path>/SKILL.md" in reasons). */
  skillsDir: string;
  rows: CompiledRow[];
  /** Plugin name when the skills are a plugin's: the Skill tool then knows them as `<plugin>:<skill>`. */
  pluginNamespace?: string;
  /** Folders whose `<skill>/SKILL.md`, read whole, loads the skill (skillsDir; the hook adds ~/.claude/skills and the project's). */
  skillRoots: string[];
  /** What the agent may not write: filled from the environment by the runner (runner/context.ts); empty in pure use. */
  protect: ProtectedPath[];
  /** The home folder the hook runs with: a written path `~/x` is `<home>/x` (filled by the runner). */
  home?: string;
  /** The host gives subagents the skill tool: gate rows then apply in subagents too, each with its own loads. */
  subagentsLoadSkills: boolean;
  /** How the host's model loads a skill, in its tool names (Host.howToLoad, folded in by the runner); absent: host-neutral words. */
  loadWording?: (skill: string, skillFile: string) => string;
  /** The client's own command that removes or disables a plugin (Host.pluginCommand, folded in by the runner). */
  pluginCommand?: PluginCommand;
  /** Skills rows name that exist in no trusted root (the client cannot load them): refusals say so. */
  missingSkills: string[];
  /** Rows that failed validation and are off (the rest of the table stays in force). */
  disabled: DisabledRow[];
}

/**
 * Is this character part of a word? Letters of any cased script (Latin,
 * Cyrillic, Greek...), digits, underscore, combining marks. Checked in code
 * rather than with \p{L} in a regex: V8 needs ~4 ms to build each \p{L}
 * class, paid on every hook start.
 */
export function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined || ch === "") return false;
  const c = ch.charCodeAt(0);
  if ((c >= 48 && c <= 57) || c === 95) return true;
  if (c >= 0x300 && c <= 0x36f) return true;
  return ch.toLowerCase() !== ch.toUpperCase();
}

/**
 * Whole words that work for Cyrillic: JavaScript's \b only knows ASCII
 * letters, so «лог» would match inside «логин». Each match is accepted only
 * when the characters around it are not word characters.
 */
export function wordsMatcher(words: string[]): TextMatcher {
  // One regex per word: with a single alternation, «стенд» would win at a
  // position and hide «стенда» after the boundary check rejected it.
  const res = words.map((w) => new RegExp(foldPattern(w), "giu"));
  return (given) => {
    const text = foldText(given);
    for (const re of res) {
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const end = m.index + m[0].length;
        if (m[0] !== "" && !isWordChar(text[m.index - 1]) && !isWordChar(text[end])) return quoted(given, text, m.index, end);
        re.lastIndex = m.index + 1;
      }
    }
    return undefined;
  };
}

function textMatcher(t: TextTrigger): TextMatcher {
  const byWords = t.words ? wordsMatcher(t.words) : undefined;
  const byPattern = t.pattern ? new RegExp(foldPattern(t.pattern), "iu") : undefined;
  return (text) => byWords?.(text) ?? patternMatch(byPattern, text);
}

function patternMatch(re: RegExp | undefined, given: string): string | undefined {
  if (!re) return undefined;
  const folded = foldText(given);
  const m = re.exec(folded);
  return m ? quoted(given, folded, m.index, m.index + m[0].length) : undefined;
}

/**
 * The match as the user wrote it. Folding usually keeps every index (one
 * character for one); only when it did not is the character map built, and
 * only up to the match.
 */
function quoted(given: string, folded: string, start: number, end: number): string {
  if (folded.length === given.length) return given.slice(start, end);
  const { from } = foldWithMap(given.slice(0, Math.min(given.length, end * 2 + 64)));
  return given.slice(from[start] ?? 0, from[end] ?? given.length);
}

/**
 * A glob without "/" matches the file name anywhere (`*_RU.md`); one with "/"
 * matches the path relative to the project (`db/migrations/*.sql`). picomatch's
 * own basename option breaks the second kind, so the two are split here.
 */
function globMatcher(picomatch: GlobEngine, globs: string[]): (p: string) => boolean {
  const names = globs.filter((g) => !g.includes("/"));
  const paths = globs.filter((g) => g.includes("/"));
  const byName = names.length ? picomatch(names, { dot: true }) : undefined;
  const byPath = paths.length ? picomatch(paths, { dot: true }) : undefined;
  return (given) => {
    // Paths as users write them: `C:\repo\db\migrations\001.sql` is matched like `C:/repo/db/migrations/001.sql`.
    const p = given.includes("\\") ? given.replace(/\\/g, "/") : given;
    return (byName?.(p.slice(p.lastIndexOf("/") + 1)) ?? false) || (byPath?.(p) ?? false);
  };
}

const globsNotLoaded = (): boolean => {
  throw new Error("write globs were not compiled: pass the glob engine to compileTable");
};

/**
 * Throws an Error naming the row and field when a regex or glob is invalid.
 * `glob` (picomatch) is optional so that the hook loads it only for events
 * that write paths; without it, write matchers throw if ever called.
 * `lazy` (a table validated before, read from the cache): a prompt or answer
 * matcher is built on its first use, so a tool call never folds and compiles
 * the words of every hint row.
 */
export function compileTable(table: Table, skillsDir: string, glob?: GlobEngine, opts: { lazy?: boolean } = {}): CompiledTable {
  const rows = table.rows.map((row): CompiledRow => {
    const field = <T>(name: string, build: () => T): T => {
      try {
        return build();
      } catch (e) {
        throw new Error(`row "${row.id}", field when.${name}: ${(e as Error).message}`);
      }
    };
    const { prompt, final, writes, subagent } = row.when;
    const compiled: CompiledRow = { row };
    const text = (name: string, t: TextTrigger): TextMatcher => {
      if (!opts.lazy) return field(name, () => textMatcher(t));
      let m: TextMatcher | undefined;
      return (given) => (m ??= field(name, () => textMatcher(t)))(given);
    };
    if (prompt) compiled.prompt = text("prompt", prompt);
    if (final) compiled.final = text("final", final);
    if (writes) compiled.writes = glob ? field("writes", () => globMatcher(glob, writes)) : globsNotLoaded;
    if (subagent) compiled.subagent = new Set(subagent);
    return compiled;
  });
  return { table, skillsDir, rows, skillRoots: [skillsDir], protect: [], subagentsLoadSkills: false, missingSkills: [], disabled: [] };
}
