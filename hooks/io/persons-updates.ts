// A person's ref updates, as the git hooks saw them (hooks/effects/git-hook.ts): a commit or push that the
// git hook let through as a person's (no agent marker, not below an agent's client) while an agent's shell
// call was running. The effects audit compares a call's refs before and after it (io/effects-audit.ts) and
// cannot tell whose commit moved a branch; without this record, a person's commit typed in another terminal
// during the agent's call was counted as the agent's and taken back. One small file per new object id,
// <state>/persons-updates/<oid>, checksummed with the state folder's key like a ticket: a file that fails the
// check vouches for nothing. Kept a day.
import fs from "node:fs";
import path from "node:path";
import { removeOlderThan } from "./clean.js";
import { makeDir } from "./make-dir.js";
import { checksumVerified, checksummed, stateKey } from "./state-key.js";
import { readRegularFile } from "./state-store.js";

const DIR = "persons-updates";
const OID = /^[0-9a-f]{40,64}$/;

/** The git hook let these updates through as a person's: note them where the agent's hook will look. */
export function notePersonsUpdates(stateDir: string, updates: { ref: string; oid: string }[]): void {
  const fresh = updates.filter((u) => OID.test(u.oid) && !/^0+$/.test(u.oid));
  if (fresh.length === 0) return;
  const dir = path.join(stateDir, DIR);
  makeDir(dir, 0o700);
  const key = stateKey(stateDir);
  // The ref is for a person reading the folder; the record's age is its file's (cleanPersonsUpdates).
  for (const u of fresh) fs.writeFileSync(path.join(dir, u.oid), checksummed(key, JSON.stringify({ ref: u.ref, oid: u.oid })), { mode: 0o600 });
}

/** Did the git hook let a ref move to `oid` as a person's update (a record it wrote, intact)? */
export function isPersonsUpdate(stateDir: string, oid: string): boolean {
  if (!OID.test(oid)) return false;
  const r = readRegularFile(path.join(stateDir, DIR, oid), 4096);
  const body = r.ok ? checksumVerified(stateKey(stateDir), r.text) : undefined;
  if (body === undefined) return false;
  try {
    return (JSON.parse(body) as { oid?: unknown }).oid === oid;
  } catch {
    return false;
  }
}

/** Records older than a day are gone (the audit compares within one shell call). */
export function cleanPersonsUpdates(stateDir: string): void {
  removeOlderThan(path.join(stateDir, DIR), 1);
}
