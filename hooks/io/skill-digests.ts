// The digests of skills' SKILL.md files, for the session's record and for a
// load (core/skill-digests.ts says which files, core/skills.ts compares).
// Read only when an event records or loads: a few small files, never on the
// ordinary tool call. A link is followed (a skills folder in the user's
// dotfiles); a FIFO never blocks; a file too large for a skill is unreadable.
import fs from "node:fs";
import { readRegularFile } from "./state-store.js";
import { sha256hex } from "./sha256.js";
import type { Event, SessionState, SkillFiles } from "../core/types.js";
import type { CompiledTable } from "../core/table/compile.js";
import { skillFilesToRead } from "../core/skill-digests.js";

const MAX_SKILL_BYTES = 1024 * 1024;

/** Digest of a skill's text: line endings and a byte-order mark do not make another skill. */
export function textDigest(text: string): string {
  return sha256hex(text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n")).slice(0, 32);
}

/** path → digest, "" for a file not there, "?" for one that could not be read. */
export function readSkillFiles(files: string[], all: boolean): SkillFiles {
  const digests: Record<string, string> = {};
  for (const f of files) {
    // Most roots hold no copy: a stat that does not throw costs far less than a failed open.
    const there = exists(f);
    if (there !== true) {
      digests[f] = there === false ? "" : "?";
      continue;
    }
    const r = readRegularFile(f, MAX_SKILL_BYTES, { follow: true });
    digests[f] = r.ok ? textDigest(r.text) : r.missing ? "" : "?";
  }
  return { digests, all };
}

/** true, false (not there: no such file, or a parent that is no folder), or "unknown" (not allowed to look). */
function exists(f: string): boolean | "unknown" {
  try {
    return fs.statSync(f, { throwIfNoEntry: false }) !== undefined;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOTDIR" ? false : "unknown";
  }
}

/** The event with the digests it records or loads with (docs/loads.md): unchanged for most events. */
export function withSkillFiles(event: Event, table: CompiledTable, state: SessionState): Event {
  const plan = skillFilesToRead(event, table, state);
  if (!plan) return event;
  const read = event.kind === "tool-result" && event.readText !== undefined ? { readDigest: textDigest(event.readText) } : {};
  return { ...event, ...read, skillFiles: readSkillFiles(plan.files, plan.all) };
}
