// What a case needs of a host: how an engine event becomes that host's real
// payload (encode), and how the host's answer is read back (answer). Every
// step of a case is first an engine event (the host-neutral words of the
// case, played as Claude Code's payload and read by Claude Code's adapter);
// each host's encoder then writes it the way that host would send it, and the
// step runs through runHook with that host's adapter.
//
// An event a host has no payload for (Codex has no read tool, Cursor's stop
// carries no final answer) is `unplayable`, with the reason: the case is
// skipped on that host and the report names the reason.
import fs from "node:fs";
import type { Host } from "../../../hooks/core/host.js";
import type { Event } from "../../../hooks/core/types.js";
import { skillName } from "../../../hooks/core/match.js";
import type { Verdict } from "../events.js";

export type Encoded = { payload: Record<string, unknown>; host: Host } | { unplayable: string };

export interface EncodeContext {
  /** The table's skills folder: where a host that loads a skill by reading its SKILL.md reads it. */
  skillsDir: string;
}

/** A host's answer, read back: the verdicts it can mean (a hint and a notice can share one channel), the model's text, the user's. */
export interface Answer {
  verdicts: Verdict[];
  message: string;
  /** Undefined: this answer has no user-only channel (a notice cannot be checked). */
  notice?: string;
  eventName?: string;
}

export interface CaseHost {
  name: string;
  /** The host's adapter as the hook process uses it (Copilot and opencode: made per event, by encode). */
  adapter: Host;
  /** Plays the step's Claude Code payload itself (no encoding). */
  native?: true;
  encode(e: Event, ctx: EncodeContext): Encoded;
  /** `e`: the event the answer is for (undefined for a host that plays the step's own payload). */
  answer(stdout: string, e?: Event): Answer;
  /**
   * Where this host's events name their transcript, and one line of it that reports a prompt size of `tokens`
   * (as the host's Host.promptSize reads it): budget cases run on the host with their size in its own format.
   */
  transcript?: { field: string; line(tokens: number): string };
  /** What a step expects that this host cannot do (undefined: it can do all of it). */
  cannot?(verdict: Verdict, e: Event): string | undefined;
}

export function parsed(stdout: string): Record<string, unknown> {
  const v = stdout ? (JSON.parse(stdout) as unknown) : {};
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export const text = (v: unknown): string => (typeof v === "string" ? v : "");

/** The one path a write or edit names (the engine's event has a list). */
export const firstPath = (paths: string[]): string => paths[0] ?? "";

/** A tool the engine knows only by name (kind other): sent under the same name, unless it is Claude Code's MCP spelling. */
export function plainTool(t: { kind: string; name: string }): string | undefined {
  return t.kind === "other" && !t.name.startsWith("mcp__") ? t.name : undefined;
}

/** The SKILL.md a host that has no skill tool reads to load `skill`. */
export const skillFile = (ctx: EncodeContext, skill: string): string => `${ctx.skillsDir.replace(/[/\\]+$/, "")}/${skillName(skill)}/SKILL.md`;

/**
 * A stop that goes on after a refusal (\`continuing\`) is told apart from another hook's refusal by its turn
 * (promptId); a host whose stop names no turn lets every such stop pass, so a block expected there cannot come.
 */
export function cannotTellTurns(hostName: string, verdict: Verdict, e: Event | undefined): string | undefined {
  return verdict === "block" && e?.kind === "stop" && e.continuing
    ? `${hostName}'s stop names no turn, so a stop that goes on after any refusal passes`
    : undefined;
}

/** What a SKILL.md read whole prints (the engine checks where the file is, not what it says). */
/** What a whole read prints: the file's text when it is there (a SKILL.md's is compared with the skill as installed), else `fallback`. */
export function printedText(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return fallback;
  }
}

export const skillText = (skill: string): string => `---\nname: ${skill}\ndescription: the ${skill} skill\n---\n# ${skill}\n`;
