// What a tool call does, in the terms rows match on: the programs a Bash
// command runs and the paths the call writes. The shell analysis lives in
// shell-facts.ts so that events without a Bash command never load the parser.
import path from "node:path";
import type { Event } from "./types.js";
import type { ShellAnalysis } from "./shell/analyze.js";
import type { Freshness } from "./evidence.js";
import type { ShellWorld } from "./shell/world.js";

export interface Facts {
  analysis?: ShellAnalysis;
  /** Written paths, relative to cwd when inside it. */
  writes: string[];
  /**
   * Writes whose name is only partly known: globs of what they can be
   * (`"$TMPDIR"/copy` → `*\/copy`, `for f in *_RU.md; do sed -i … "$f"` → `*_RU.md`).
   */
  writePatterns?: string[];
  /**
   * When the command writes paths known only at run time with nothing known of their name
   * (`xargs rm`, `find -delete`, an opaque part): the words it mentions, so a write row whose
   * glob matches one of them can refuse instead of letting an unknown write through.
   */
  mentions?: string[];
  /**
   * Evidence check id → what its latest record proves about the tree now.
   * Filled by the runner (it fingerprints) only when a gate that requires
   * the check matched; a gate finding no entry refuses.
   */
  evidence?: Record<string, Freshness>;
}

/**
 * Facts of an event; for a shell call pass its shell analysis (shell-facts.ts).
 * With a world, a Write/Edit to a symlink also writes the link's target.
 */
export function toolFacts(event: Event, analysis?: ShellAnalysis, world?: ShellWorld): Facts {
  const command = shellCommandOf(event);
  if (command !== undefined && !analysis) {
    throw new Error("a shell call needs its shell analysis: use factsOf() from shell-facts.ts");
  }
  const toolWrites = event.kind === "tool-call" && (event.tool.kind === "write" || event.tool.kind === "edit") ? event.tool.paths : [];
  const shellWrites = analysis?.writes.filter((w) => !w.dynamic).map((w) => w.path) ?? [];
  const raw = [...toolWrites, ...shellWrites];
  // A write through a symlink (or into a symlinked folder) writes the target: both are written paths.
  if (world) for (const p of [...toolWrites, ...shellWrites.slice(0, 64)]) raw.push(...linkTarget(world, event.cwd, p));
  const facts: Facts = { analysis, writes: [...new Set(raw.map((p) => relativeTo(event.cwd, p)))] };
  const patterns: string[] = [];
  let unknown = false;
  for (const w of analysis?.writes ?? []) {
    if (w.pattern !== undefined && informative(w.pattern)) patterns.push(w.pattern);
    else if (w.dynamic) unknown = true;
  }
  if (patterns.length) facts.writePatterns = [...new Set(patterns)].slice(0, 1000);
  if (unknown && command !== undefined) facts.mentions = mentionsOf(command);
  return facts;
}

/** The command of a shell call about to run (the only event the shell analysis is for). */
export function shellCommandOf(event: Event): string | undefined {
  return event.kind === "tool-call" && event.tool.kind === "shell" ? event.tool.command : undefined;
}

/** A pattern says something about the name when its last segment is more than `*`. */
function informative(pattern: string): boolean {
  const tail = pattern.slice(pattern.lastIndexOf("/") + 1);
  return tail.replace(/\*/g, "") !== "";
}

function linkTarget(world: ShellWorld, cwd: string, p: string): string[] {
  if (p.length > MAX_PATH) return [];
  const abs = path.resolve(cwd || "/", p);
  // A new file: its folder's real path (the nearest existing parent) plus the rest.
  let rest = "";
  for (let dir = abs, i = 0; i < 64; i++) {
    const real = world.realpath(dir);
    if (real !== undefined) {
      const target = rest ? path.join(real, rest) : real;
      return target !== abs ? [target] : [];
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    rest = rest ? path.join(path.basename(dir), rest) : path.basename(dir);
    dir = up;
  }
  return [];
}

/** Path-like words of a command line (split on shell punctuation; capped, the command may be huge). */
function mentionsOf(command: string): string[] {
  const words = command.slice(0, 65_536).split(/[\s;|&()<>'"`={}]+/);
  return [...new Set(words.filter((w) => /[./*]/.test(w) && w.length <= MAX_PATH))].slice(0, 2_000);
}

/** Longer paths cannot be written (PATH_MAX) and are not worth resolving. */
const MAX_PATH = 4096;

function relativeTo(cwd: string, p: string): string {
  if (!cwd || p.length > MAX_PATH || cwd.length > MAX_PATH) return p;
  const abs = path.resolve(cwd, p);
  const rel = path.relative(cwd, abs);
  return rel.startsWith("..") || path.isAbsolute(rel) ? abs : rel;
}
