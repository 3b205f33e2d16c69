// What a tool call does, in the terms rows match on: the programs a Bash
// command runs and the paths the call writes. The shell analysis lives in
// shell-facts.ts so that events without a Bash command never load the parser.
import path from "node:path";
import type { Event } from "./types.js";
import type { ShellAnalysis } from "./shell/analyze.js";
import type { Freshness } from "./evidence.js";

export interface Facts {
  analysis?: ShellAnalysis;
  /** Written paths, relative to cwd when inside it. */
  writes: string[];
  /**
   * When the command writes paths only known at run time (`for f in *_RU.md; do sed -i … "$f"`,
   * `find -name '*_RU.md' -delete`): the words it mentions, so a write row whose glob matches
   * one of them can refuse instead of letting an unknown write through.
   */
  mentions?: string[];
  /**
   * Evidence check id → what its latest record proves about the tree now.
   * Filled by the runner (it fingerprints) only when a gate that requires
   * the check matched; a gate finding no entry refuses.
   */
  evidence?: Record<string, Freshness>;
}

/** Facts of an event without a Bash command (Write/Edit paths, or nothing). */
export function toolFacts(event: Event, analysis?: ShellAnalysis): Facts {
  const command = shellCommandOf(event);
  if (command !== undefined && !analysis) {
    throw new Error("a shell call needs its shell analysis: use factsOf() from shell-facts.ts");
  }
  const toolWrites = event.kind === "tool-call" && (event.tool.kind === "write" || event.tool.kind === "edit") ? event.tool.paths : [];
  const raw = [...toolWrites, ...(analysis?.writes.filter((w) => !w.dynamic).map((w) => w.path) ?? [])];
  const facts: Facts = { analysis, writes: raw.map((p) => relativeTo(event.cwd, p)) };
  if (analysis?.writes.some((w) => w.dynamic) && command !== undefined) facts.mentions = mentionsOf(command);
  return facts;
}

/** The command of a shell call about to run (the only event the shell analysis is for). */
export function shellCommandOf(event: Event): string | undefined {
  return event.kind === "tool-call" && event.tool.kind === "shell" ? event.tool.command : undefined;
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
