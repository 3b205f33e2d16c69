// The effects audit's I/O around one shell call: a snapshot before the call
// (only when a gate on commits or pushes is not lifted), compared after it.
// The snapshot waits in the state folder under the call's id, 0600, and is
// read once. Files are the restore's (runner/restore.ts): it notes them in the
// same place, for the same calls, and puts them back rather than reporting.
// A command the shell pre-filter vouches for as read-only gets neither.
import fs from "node:fs";
import path from "node:path";
import type { AuditFinding, Event, SessionState } from "../core/types.js";
import type { CompiledTable } from "../core/table/compile.js";
import { contextOf, ownAgent } from "../core/agent-context.js";
import { isLoaded } from "../core/skills.js";
import { isSafeSessionId } from "../io/state-store.js";
import { removeOlderThan } from "../io/clean.js";
import { makeDir } from "../io/make-dir.js";
import { writeAtomic } from "../io/state-store.js";
import { checksummed, stateKey } from "../io/state-key.js";
import { isPersonsUpdate } from "../io/persons-updates.js";
import type { RestoreInput } from "./restore.js";

/**
 * Called for a shell call that will run. Writes the snapshot when something gated could happen unseen; `vouched`:
 * the pre-filter vouched for the command as read-only (runner/call-facts.ts), so nothing is noted.
 */
export async function beforeShellCall(
  event: Event,
  vouched: boolean,
  table: CompiledTable,
  state: SessionState,
  stateDir: string,
  restore?: Omit<RestoreInput, "table">,
): Promise<void> {
  if (event.kind !== "tool-call" || event.tool.kind !== "shell" || !event.toolUseId || vouched) return;
  const file = snapshotFile(stateDir, event.sessionId, event.toolUseId);
  if (!file) return;
  const agent = ownAgent(event, table);
  const context = contextOf(state, agent);
  if (restore) (await import("./restore.js")).holdForCall(event, event.toolUseId, state, agent, { ...restore, table });
  // Gates only: a block's effect (a push of HEAD, a forced push) cannot be told from a plain push after the fact.
  const gitGated = table.rows.some(
    ({ row }) =>
      row.kind === "gate" &&
      row.skill !== undefined &&
      !isLoaded(context, row.skill) &&
      row.when.command?.name === "git" &&
      (row.when.command.sub ?? []).some((s) => s === "commit" || s === "push"),
  );
  if (!gitGated) return;
  const { snapshot } = await import("../io/effects-audit.js");
  const snap = snapshot(event.cwd || "/");
  makeDir(path.dirname(file), 0o700);
  fs.writeFileSync(file, JSON.stringify({ cwd: event.cwd, snap }), { mode: 0o600 });
}

/** Called for the result of a shell call: what happened that was gated, from the snapshot taken before it. */
export async function afterShellCall(event: Event, stateDir: string): Promise<Event> {
  if ((event.kind !== "tool-result" && event.kind !== "tool-failure") || event.tool.kind !== "shell" || !event.toolUseId) return event;
  const file = snapshotFile(stateDir, event.sessionId, event.toolUseId);
  if (!file || !fs.existsSync(file)) return event;
  let saved: { cwd: string; snap: import("../io/effects-audit.js").EffectsSnapshot };
  try {
    saved = JSON.parse(fs.readFileSync(file, "utf8"));
  } finally {
    fs.rmSync(file, { force: true });
  }
  const { compare } = await import("../io/effects-audit.js");
  // A person's commit or push while the call ran (the git hooks noted it) is not the call's.
  const audit: AuditFinding[] = compare(saved.snap, saved.cwd || "/", undefined, (oid) => isPersonsUpdate(stateDir, oid)).map((f) =>
    f.kind === "push" ? { kind: "push", ref: f.ref } : f,
  );
  return audit.length ? { ...event, audit } : event;
}

/**
 * A commit the audit found that the table does not allow (git's hooks did not stop it: the host switches them
 * off in its shell, as Gemini CLI does, or a program wrote the ref itself) is taken back: the branch moves back
 * to where it was before the call, only if it still points where the call left it (`git update-ref <ref> <new>
 * <old>`). Nothing is lost: the commit stays in the reflog, its changes stay in the index and work tree.
 */
export async function takeBackCommits(event: Event, table: CompiledTable, state: SessionState): Promise<Event> {
  if ((event.kind !== "tool-result" && event.kind !== "tool-failure") || !event.audit?.some((f) => f.kind === "commit")) return event;
  const { unallowedRow } = await import("../core/policies/effects-audit.js");
  const { spawnSync } = await import("node:child_process");
  const done = new Map<string, NonNullable<Extract<AuditFinding, { kind: "commit" }>["takenBack"]>>();
  const audit = event.audit.map((f): AuditFinding => {
    if (f.kind !== "commit" || !f.from || !f.to || /^0+$/.test(f.from) || !unallowedRow(f, event, table, state)) return f;
    let back = done.get(f.ref);
    if (!back) {
      back = moveBack(spawnSync, event.cwd || "/", f.ref, f.from, f.to);
      done.set(f.ref, back);
    }
    return { ...f, takenBack: back };
  });
  return { ...event, audit };
}

function moveBack(
  spawnSync: typeof import("node:child_process").spawnSync,
  cwd: string,
  ref: string,
  from: string,
  to: string,
): { done: true } | { done: false; why: string } {
  const r = spawnSync("git", ["update-ref", "-m", "skillgate: a commit the trigger table does not allow, taken back", ref, from, to], {
    cwd,
    encoding: "utf8",
    timeout: 5_000,
    env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
  });
  if (r.status === 0) return { done: true };
  return { done: false, why: (r.stderr || r.error?.message || `git update-ref exited ${r.status}`).trim().split("\n")[0] ?? "git update-ref failed" };
}

function snapshotFile(stateDir: string, sessionId: string, toolUseId: string): string | undefined {
  if (!isSafeSessionId(sessionId) || !/^[A-Za-z0-9_-]{1,128}$/.test(toolUseId)) return undefined;
  return path.join(stateDir, "audit", `${sessionId}-${toolUseId}.json`);
}

/** Snapshots of calls whose result never came (refused by another hook, interrupted) are dropped after a day. */
export async function cleanAuditSnapshots(stateDir: string): Promise<void> {
  try {
    removeOlderThan(path.join(stateDir, "audit"), 1);
    if (fs.existsSync(path.join(stateDir, "restore"))) (await import("./restore.js")).cleanRestore(stateDir);
  } catch {
    /* housekeeping only */
  }
}

/** The session's restore has something pending (one lstat: the hot path when nothing is). */
export function restorePending(stateDir: string, sessionId: string): boolean {
  if (!isSafeSessionId(sessionId)) return false;
  return fs.lstatSync(path.join(stateDir, "restore", sessionId), { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * The hook wrote the session state (called inside the state lock): while a
 * restore is pending, these bytes are what the state is compared with
 * (runner/restore.ts, the witness), so the hook's own writes are never undone.
 */
export function noteStateWrite(stateDir: string, sessionId: string, text: string): void {
  if (!restorePending(stateDir, sessionId)) return;
  try {
    writeAtomic(path.join(stateDir, "restore", sessionId, "state.witness"), checksummed(stateKey(stateDir), `present\n${text}`));
  } catch {
    /* the folder went away meanwhile: nothing pending */
  }
}
