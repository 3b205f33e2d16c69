// The effects audit's I/O around one shell call: a snapshot before the call
// (only when a gate on commits or pushes is not lifted, or the command names
// files a write gate protects), compared after it. The snapshot waits in the
// state folder under the call's id, 0600, and is read once.
import fs from "node:fs";
import path from "node:path";
import type { AuditFinding, Event, SessionState } from "../core/types.js";
import type { CompiledTable } from "../core/table/compile.js";
import type { Facts } from "../core/facts.js";
import { contextOf, ownAgent } from "../core/agent-context.js";
import { isLoaded } from "../core/skills.js";
import { isSafeSessionId } from "../io/state-store.js";
import { removeOlderThan } from "../io/clean.js";
import { makeDir } from "../io/make-dir.js";

/** Called for a shell call that will run. Writes the snapshot when something gated could happen unseen. */
export async function beforeShellCall(event: Event, facts: Facts | undefined, table: CompiledTable, state: SessionState, stateDir: string): Promise<void> {
  if (event.kind !== "tool-call" || event.tool.kind !== "shell" || !event.toolUseId) return;
  const file = snapshotFile(stateDir, event.sessionId, event.toolUseId);
  if (!file) return;
  const context = contextOf(state, ownAgent(event, table));
  // Gates only: a block's effect (a push of HEAD, a forced push) cannot be told from a plain push after the fact.
  const gitGated = table.rows.some(({ row }) => row.kind === "gate" && row.skill !== undefined && !isLoaded(context, row.skill) && row.when.command?.name === "git" && (row.when.command.sub ?? []).some((s) => s === "commit" || s === "push"));
  const watch = (facts?.mentions ?? []).filter((m) => table.rows.some((cr) => cr.row.kind === "gate" && cr.row.skill !== undefined && !isLoaded(context, cr.row.skill) && cr.writes?.(m))).slice(0, 50);
  if (!gitGated && watch.length === 0) return;
  const { snapshot } = await import("../io/effects-audit.js");
  const snap = snapshot(event.cwd || "/", watch);
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
  const audit: AuditFinding[] = compare(saved.snap, saved.cwd || "/").map((f) => (f.kind === "push" ? { kind: "push", ref: f.ref } : f));
  return audit.length ? { ...event, audit } : event;
}

function snapshotFile(stateDir: string, sessionId: string, toolUseId: string): string | undefined {
  if (!isSafeSessionId(sessionId) || !/^[A-Za-z0-9_-]{1,128}$/.test(toolUseId)) return undefined;
  return path.join(stateDir, "audit", `${sessionId}-${toolUseId}.json`);
}

/** Snapshots of calls whose result never came (refused by another hook, interrupted) are dropped after a day. */
export function cleanAuditSnapshots(stateDir: string): void {
  try {
    removeOlderThan(path.join(stateDir, "audit"), 1);
  } catch {
    /* housekeeping only */
  }
}
