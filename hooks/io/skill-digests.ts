// The digests of skills' SKILL.md files, for the session's record and for a
// load (core/skill-digests.ts says which files, core/skills.ts compares).
// Read only when an event records or loads: a few small files, never on the
// ordinary tool call. The record keeps each file's stat stamp beside its
// digest, the way io/stat-cache.ts does: a load whose file still has the
// stamp reads and hashes nothing (node:crypto costs Node milliseconds to
// load). A write changes the ctime, which no user can set back. A link is
// followed (a skills folder in the user's dotfiles); a FIFO never blocks; a
// file too large for a skill is unreadable.
import fs from "node:fs";
import path from "node:path";
import { readRegularFile } from "./state-store.js";
import { sha256hex } from "./sha256.js";
import { RACY_MS } from "./stat-cache.js";
import type { Event, SessionState, SkillFiles } from "../core/types.js";
import type { CompiledTable } from "../core/table/compile.js";
import { skillFilesToRead } from "../core/skill-digests.js";

const MAX_SKILL_BYTES = 1024 * 1024;

/** A skill's text as compared: line endings and a byte-order mark do not make another skill. */
const normalized = (text: string): string => text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");

export function textDigest(text: string): string {
  return sha256hex(normalized(text)).slice(0, 32);
}

/**
 * path → digest, "" for a file not there, "?" for one that could not be read;
 * and the stamps of present files. With `known` (the session's record), a file
 * whose stamp is the recorded one keeps its recorded digest unread.
 */
export function readSkillFiles(files: string[], all: boolean, known?: Pick<SessionState, "skillDigests" | "skillStamps">, now = Date.now()): SkillFiles {
  const digests: Record<string, string> = {};
  const stamps: Record<string, string> = {};
  for (const f of files) {
    const st = statOf(f);
    if (st === undefined || st === "unknown") {
      digests[f] = st === undefined ? "" : "?";
      continue;
    }
    const stamp = stampOf(st);
    const recorded = known?.skillDigests && Object.hasOwn(known.skillDigests, f) ? known.skillDigests[f] : undefined;
    const same = recorded !== undefined && known?.skillStamps && Object.hasOwn(known.skillStamps, f) && known.skillStamps[f] === stamp;
    if (same) {
      digests[f] = recorded;
      stamps[f] = stamp;
      continue;
    }
    const r = readRegularFile(f, MAX_SKILL_BYTES, { follow: true });
    digests[f] = r.ok ? textDigest(r.text) : r.missing ? "" : "?";
    // Changed too recently to trust the stamp alone (git's racy rule): no stamp, so a load hashes it.
    if (r.ok && Math.max(st.mtimeMs, st.ctimeMs) < now - RACY_MS) stamps[f] = stamp;
  }
  return { digests, stamps, all };
}

const stampOf = (st: fs.Stats): string => `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}:${st.dev}`;

/** The file's stat (links followed); undefined when it is not there (or a parent is no folder); "unknown" when not allowed to look. */
function statOf(f: string): fs.Stats | undefined | "unknown" {
  try {
    return fs.statSync(f, { throwIfNoEntry: false });
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOTDIR" ? undefined : "unknown";
  }
}

/** The event with the digests it records or loads with (docs/loads.md): unchanged for most events. */
export function withSkillFiles(event: Event, table: CompiledTable, state: SessionState): Event {
  const plan = skillFilesToRead(event, table, state);
  if (!plan) return event;
  const skillFiles = readSkillFiles(plan.files, plan.all, plan.all ? undefined : state);
  return { ...event, ...readDigestOf(event, skillFiles), skillFiles };
}

/**
 * The digest of the text a whole read returned: when it is the file's text
 * now, the file's digest (no hashing); else its own.
 */
function readDigestOf(event: Event, seen: SkillFiles): { readDigest?: string } {
  if (event.kind !== "tool-result" || event.readText === undefined || event.tool.kind !== "read" || !event.tool.path) return {};
  const file = path.resolve(event.cwd || "/", event.tool.path);
  const digest = Object.hasOwn(seen.digests, file) ? seen.digests[file] : undefined;
  const stamp = seen.stamps && Object.hasOwn(seen.stamps, file) ? seen.stamps[file] : undefined;
  if (digest && digest !== "?" && stamp) {
    const now = readRegularFile(file, MAX_SKILL_BYTES, { follow: true });
    // The same stamp after the read: nothing wrote the file since its digest was taken.
    const after = statOf(file);
    const same = typeof after === "object" && stampOf(after) === stamp;
    if (now.ok && same && normalized(now.text) === normalized(event.readText)) return { readDigest: digest };
  }
  return { readDigest: textDigest(event.readText) };
}
