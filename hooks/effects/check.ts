// The git hooks' question, answered by the core's own decide(): the commit or
// push git is about to make, as the shell call that would make it (`git commit`,
// `git push --force <remote> <ref>`), for the session and agent of the ticket,
// with that session's state. A refusal is the PreToolUse gate's own text.
import path from "node:path";
import { decide } from "../core/decide.js";
import type { Event } from "../core/types.js";
import { StateStore, isSafeSessionId } from "../io/state-store.js";
import { shQuote } from "../io/hook-install.js";
import type { Ticket } from "../io/tickets.js";
import { loadContext } from "../runner/context.js";
import { shellFactsBeforeTable } from "../runner/call-facts.js";
import { evidenceWhere, withEvidence } from "../runner/hook.js";
import { hostNamed } from "./hosts.js";
import type { PushFacts } from "./refs.js";

export type Verdict = { refused: false } | { refused: true; message: string; rows: string[] };

/** The shell command that has this push's effect, for the table's push rows. */
export function pushCommand(remote: string, p: PushFacts, lease: boolean): string {
  const flag = p.force ? (lease && !p.deletion ? " --force-with-lease" : " --force") : "";
  // A HEAD-named source is pushed as HEAD: the push-HEAD rows see it whatever the spelling (HEAD~0, @, HEAD@{0}).
  const dst = p.remoteRef.replace(/^refs\/heads\//, "");
  const spec = p.deletion ? `:${dst}` : p.fromHead ? "HEAD" : `${p.localRef.replace(/^refs\/heads\//, "")}:${dst}`;
  return `git push${flag} ${shQuote(remote)} ${shQuote(spec)}`;
}

/** decide() on the synthesized shell call, for one ticket's session and agent. */
export async function check(t: Ticket, stateDir: string, command: string): Promise<Verdict> {
  const env: NodeJS.ProcessEnv = { ...t.env, SKILLGATE_STATE: stateDir, SKILLGATE_PREFILTER: "off" };
  const host = hostNamed(t.host, t.cwd);
  const ctx = await loadContext(
    { env, packageRoot: t.packageRoot, host },
    { ...(t.tableFile ? { tableFile: t.tableFile } : {}), globs: false, realPaths: false, checkSkills: false, protect: false },
  );
  if (!ctx.ok) {
    // The table the PreToolUse uses is unusable: the same fail mode as there.
    return ctx.failMode === "closed" ? { refused: true, message: `skillgate: trigger table unusable, refusing: ${ctx.error}`, rows: [] } : { refused: false };
  }
  const event: Event = {
    kind: "tool-call",
    sessionId: t.sessionId,
    ...(t.agentId !== undefined ? { agentId: t.agentId } : {}),
    cwd: t.cwd,
    tool: { kind: "shell", name: t.tool, command },
    toolUseId: t.toolUseId,
    input: { command },
  };
  // The same facts the PreToolUse decides with: the shell analysis, and the freshness of any evidence a gate requires.
  const shell = (await shellFactsBeforeTable(event, env)).facts;
  const facts = (await withEvidence(event, ctx.table, shell, evidenceWhere(event, stateDir, host.environment(env).projectDir))).facts;
  const state = isSafeSessionId(t.sessionId) ? new StateStore(path.resolve(stateDir)).peek(t.sessionId) : undefined;
  if (!state) return { refused: true, message: `skillgate: session id ${JSON.stringify(t.sessionId.slice(0, 40))} is not a safe file name`, rows: [] };
  const d = decide(event, ctx.table, state, facts).decision;
  return d.verdict === "deny" ? { refused: true, message: d.message, rows: d.rows } : { refused: false };
}
