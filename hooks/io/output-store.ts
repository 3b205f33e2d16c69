// Where capped tool outputs go: a private folder, random name per
// installation, 0700, files 0600 created exclusively. Never inside the work
// tree unless the table's outputDir points there. Loaded only on the cap path.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ToolOutput } from "../core/types.js";
import { removeOlderThan } from "./clean.js";
import { makeDir } from "./make-dir.js";

export type Root = { ok: true; dir: string } | { ok: false; error: string };

/**
 * The configured folder, or the one this installation made (its name
 * remembered in the state folder). With create false (cleaning), nothing is
 * made: no folder appears until an output is actually capped.
 */
export function outputRoot(configured: string | undefined, stateDir: string, create = true): Root {
  let dir = configured;
  if (!dir) {
    const memo = path.join(stateDir, ".output-root");
    try {
      dir = fs.readFileSync(memo, "utf8").trim();
    } catch {
      if (!create) return { ok: false, error: "no output folder yet" };
      // Web Crypto is a global: no node:crypto module to load on the hook's path.
      dir = path.join(os.tmpdir(), `skillgate-out-${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(9))).toString("hex")}`);
      makeDir(stateDir, 0o700);
      fs.writeFileSync(memo, dir, { mode: 0o600 });
    }
  }
  if (!create && !fs.existsSync(dir)) return { ok: false, error: "no output folder yet" };
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") return { ok: false, error: `cannot create output folder ${dir}: ${(e as Error).message}` };
  }
  // A folder someone else owns, or that others can read, could leak or swap our outputs.
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || st.isSymbolicLink()) return { ok: false, error: `output folder ${dir} is not a plain directory` };
  if (typeof process.getuid === "function" && st.uid !== process.getuid())
    return { ok: false, error: `output folder ${dir} is owned by uid ${st.uid}, not by this user` };
  if ((st.mode & 0o077) !== 0) return { ok: false, error: `output folder ${dir} is open to group or others (mode ${(st.mode & 0o777).toString(8)})` };
  return { ok: true, dir };
}

/** Save the whole output to a new private file (the host's own full copy when the response holds only its head). */
export function saveRaw(dir: string, name: string, output: ToolOutput, retries = 20): string {
  const base = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 120);
  // Files are created exclusively (never overwriting one the model may be reading); a repeated id gets a suffix.
  for (let n = 0; ; n++) {
    const file = path.join(dir, `${base}${n ? `-${n}` : ""}.txt`);
    try {
      if (output.persistedPath && isRegularFile(output.persistedPath)) {
        // The response holds only the head: copy the host's full copy (streamed by the kernel, not read into memory).
        fs.copyFileSync(output.persistedPath, file, fs.constants.COPYFILE_EXCL);
        fs.chmodSync(file, 0o600);
      } else {
        fs.writeFileSync(file, wholeText(output), { mode: 0o600, flag: "wx" });
      }
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || n >= retries) throw e;
    }
  }
}

/** The output's text fields as one text (named when more than one is filled). */
export function wholeText(output: ToolOutput): string {
  const filled = output.fields.filter((f) => (output.response[f] as string).length > 0);
  return filled.map((f) => (filled.length > 1 ? `--- ${f} ---\n` : "") + (output.response[f] as string)).join("\n");
}

/** Summaries read at most this much of a saved output (past it the summary says it saw the head only). */
export const MAX_SUMMARIZED_BYTES = 16 * 1024 * 1024;

/** The saved raw text, for summarizing (bounded: a huge file is read up to MAX_SUMMARIZED_BYTES). */
export function readSaved(file: string): { text: string; truncated: boolean } {
  const fd = fs.openSync(file, "r");
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(size, MAX_SUMMARIZED_BYTES));
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return { text: buf.subarray(0, n).toString("utf8"), truncated: size > n };
  } finally {
    fs.closeSync(fd);
  }
}

/** The tool result the model sees instead of a long output: the summary in the first field, the others emptied. */
export function withSummary(output: ToolOutput, summary: string): Record<string, unknown> {
  const updated: Record<string, unknown> = { ...output.response };
  output.fields.forEach((f, i) => (updated[f] = i === 0 ? summary : ""));
  return updated;
}

/** Save the whole output; return the tool result the model sees instead (same shape, head + pointer). */
export function saveCapped(
  dir: string,
  name: string,
  output: ToolOutput,
  headChars: number,
  rowId: string,
): { file: string; updated: Record<string, unknown>; charsSaved: number } {
  const file = saveRaw(dir, name, output, 0);
  const updated: Record<string, unknown> = { ...output.response };
  let budget = headChars;
  for (const f of output.fields) {
    const text = output.response[f] as string;
    updated[f] = text.slice(0, budget);
    budget = Math.max(0, budget - text.length);
  }
  const shown = Math.min(headChars, output.chars);
  const note = `\n[skillgate[${rowId}]: output capped: showing the first ${shown.toLocaleString("en-US")} of ${output.chars.toLocaleString("en-US")} characters; the full output is in ${file} — read or grep it there, in slices]`;
  const first = output.fields[0] ?? "stdout";
  updated[first] = `${String(updated[first] ?? "")}${note}`;
  return { file, updated, charsSaved: output.chars - shown };
}

/** The host's saved copy (the adapter names only its own folder's files) is copied only when it is a regular file. */
function isRegularFile(p: string): boolean {
  if (!path.isAbsolute(p)) return false;
  try {
    return fs.lstatSync(p).isFile();
  } catch {
    return false;
  }
}

/** Delete capped outputs older than maxAgeDays (run at session start). */
export function cleanOldOutputs(dir: string, maxAgeDays: number, now = Date.now()): number {
  return removeOlderThan(dir, maxAgeDays, undefined, now);
}
