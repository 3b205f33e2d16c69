// Which `$name` mentions Codex 0.171 will answer by putting the skill's text into
// the turn. The UserPromptSubmit hook runs before Codex records the injected
// `<skill><name>…</name><path>…</path>…</skill>` message (codex-rs core run_turn:
// collect_explicit_skill_mentions, then the hook, then record_conversation_items),
// so the hook cannot see the text itself; it repeats Codex's selection instead:
// a plain `$name` selects the one enabled skill whose SKILL.md front matter says
// `name: <name>` (an ambiguous name selects nothing), and build_skill_injections
// injects it when the file reads. A mention of anything else puts nothing into
// the context, so it loads nothing.
import fs from "node:fs";
import path from "node:path";

/** Set by the entry (hook.ts) on UserPromptSubmit: the skill names Codex injects for this prompt. */
export const INJECTS = "skillgate_codex_injects";

/** Skill folders under one root Codex scans (`<root>/<dir>/SKILL.md`); a root holds only so many. */
const MAX_SKILLS_PER_ROOT = 512;

/** The `name:` of a SKILL.md's front matter, or undefined when it has none (Codex skips such a file). */
export function frontMatterName(text: string): string | undefined {
  const lines = text.split(/\r?\n/, 64);
  if (lines[0]?.trim() !== "---") return undefined;
  for (const line of lines.slice(1)) {
    if (line.trim() === "---") return undefined;
    const m = /^name:\s*(.*?)\s*$/.exec(line);
    if (m) return m[1]?.replace(/^(["'])(.*)\1$/, "$2") || undefined;
  }
  return undefined;
}

/** Skill name → every SKILL.md that declares it, over Codex's roots. */
export function skillsByName(roots: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const root of roots) {
    let dirs: string[];
    try {
      dirs = fs.readdirSync(root).slice(0, MAX_SKILLS_PER_ROOT);
    } catch {
      continue; // no such folder
    }
    for (const dir of dirs) {
      const file = path.join(root, dir, "SKILL.md");
      let text: string;
      try {
        text = fs.readFileSync(file, "utf8");
      } catch {
        continue;
      }
      const name = frontMatterName(text);
      if (name === undefined) continue;
      const real = realOf(file);
      const files = out.get(name) ?? [];
      if (!files.includes(real)) files.push(real);
      out.set(name, files);
    }
  }
  return out;
}

function realOf(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/** Of the mentioned names, those Codex injects: exactly one readable skill declares the name. */
export function injectedSkills(mentioned: string[], roots: string[]): string[] {
  if (!mentioned.length) return [];
  const byName = skillsByName(roots);
  return mentioned.filter((n) => byName.get(n)?.length === 1);
}
