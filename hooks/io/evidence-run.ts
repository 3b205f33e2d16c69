// The I/O steps of evidence, one function per hook moment; the policy
// pipeline calls them and turns the pure results (core/evidence.ts) into
// decisions:
//   PreToolUse of a check's command  → reuseOrBegin (answer from a record, or note what the run starts on)
//   PostToolUse / PostToolUseFailure → finishCheck  (record, then pointer)
//   a gate that requires evidence    → currentFreshness
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import {
  buildRecord,
  freshness,
  isFullRun,
  normalizeRel,
  reuseDecision,
  underRoot,
  type EnvFacts,
  type EvidenceRecord,
  type Freshness,
  type Inventory,
  type PendingRun,
  type ReuseDecision,
  type CheckCommand,
} from "../core/evidence.js";
import { runCounts } from "../core/evidence-observed.js";
import { definitionFiles } from "../core/evidence-definition.js";
import { fingerprint, FingerprintError } from "./fingerprint.js";
import { StatCache } from "./stat-cache.js";
import { EvidenceStore, type Published } from "./evidence-store.js";

/** An evidence row, as far as the I/O needs it. */
export interface CheckSpec {
  id: string;
  /** Workspace-relative roots (the row's `scope`). */
  scope: string[];
  /** Exact command lines that are a full run; absent = every matching command. */
  full?: string[];
  reuse?: boolean;
  /** The program the check runs (the row's `when.command.name`): its real path is an environment prerequisite. */
  program?: string;
  /** The row's `when.command`: a run counts only when the line's last command is it (core/evidence-observed.ts). */
  command?: CheckCommand;
}

export interface Where {
  stateDir: string;
  /** The folder the scope is relative to (absolute). */
  workspace: string;
}

/** Lockfiles whose digest is an environment prerequisite when present at the workspace's top. */
export const LOCKFILES = [
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lock",
  "bun.lockb",
  "Cargo.lock",
  "go.sum",
  "poetry.lock",
  "uv.lock",
  "Pipfile.lock",
  "Gemfile.lock",
  "composer.lock",
];

/**
 * Environment prerequisites without spawning anything: the real paths of
 * `node` and the command's program on PATH (a version manager's path names
 * the version) and the digests of the lockfiles present.
 */
export function envFacts(workspace: string, program: string | undefined, env: NodeJS.ProcessEnv = process.env): EnvFacts {
  const runtimes: Record<string, string> = {};
  for (const p of new Set(["node", ...(program && /^[A-Za-z0-9._+-]+$/.test(program) ? [program] : [])])) runtimes[p] = whichReal(p, env.PATH ?? "") ?? "-";
  const lockfiles: Record<string, string> = {};
  for (const l of LOCKFILES) {
    try {
      lockfiles[l] = crypto
        .createHash("sha256")
        .update(fs.readFileSync(path.join(workspace, l)))
        .digest("hex");
    } catch {
      /* absent: not a prerequisite of this workspace */
    }
  }
  return { runtimes, lockfiles };
}

function whichReal(program: string, PATH: string): string | undefined {
  for (const dir of PATH.split(path.delimiter)) {
    if (!dir) continue;
    const f = path.join(dir, program);
    try {
      fs.accessSync(f, fs.constants.X_OK);
      if (fs.statSync(f).isFile()) return fs.realpathSync(f);
    } catch {
      /* next */
    }
  }
  return undefined;
}

/** The row's paths plus the files that define its check (core/evidence-definition.ts), normalized, each once. */
export function scopeOf(spec: CheckSpec, w: Where): string[] {
  const declared = spec.scope.map((s) => {
    const n = normalizeRel(s);
    if (!n.ok) throw new FingerprintError(s, `scope ${n.error}`);
    return n.path;
  });
  let top: string[] = [];
  try {
    top = fs.readdirSync(w.workspace);
  } catch {
    /* no listing: the fixed names still count */
  }
  const defining = definitionFiles(spec.program, top).filter((f) => !declared.some((d) => underRoot(f, d)));
  return [...new Set([...declared, ...defining])];
}

function inventory(w: Where, roots: string[], previous?: readonly string[]): Inventory {
  const cache = StatCache.load(w.stateDir, w.workspace);
  const inv = fingerprint({ cwd: w.workspace, roots, previous, cache });
  try {
    cache.save();
  } catch {
    /* the cache is an optimization */
  }
  return inv;
}

/** Freshness of a check's latest record for the tree as it is now (for gates and `skillgate evidence`). */
export function currentFreshness(spec: CheckSpec, w: Where, env: EnvFacts = envFacts(w.workspace, spec.program)): Freshness {
  const store = new EvidenceStore(w.stateDir, w.workspace);
  const l = store.latest(spec.id);
  let scope: string[];
  try {
    scope = scopeOf(spec, w);
  } catch (e) {
    return { status: "missing", note: `the check's scope is not usable (${(e as Error).message})` };
  }
  let current: Inventory | undefined;
  if (l.record && l.record.outcome === "passed") {
    try {
      current = inventory(
        w,
        scope,
        l.record.entries.map((e) => e.path),
      );
    } catch (e) {
      if (!(e instanceof FingerprintError)) throw e;
      return { status: "missing", note: `the current tree cannot be fingerprinted (${e.message})` };
    }
  }
  return freshness({ record: l.record, conflict: l.conflict, unreadable: l.unreadable, scope, current, env });
}

export interface CallInfo {
  sessionId: string;
  toolUseId: string;
  /** The Bash command line. */
  command: string;
  /** The directory it runs in. */
  cwd: string;
  /** The host runs it detached: its result will not carry the command's exit status. */
  background?: boolean;
  now?: Date;
}

export type BeginResult =
  | { kind: "reuse"; decision: Extract<ReuseDecision, { reuse: true }> }
  | { kind: "started"; pending: PendingRun }
  | { kind: "not-recorded"; why: string };

/**
 * PreToolUse of a command an evidence row matches. With `reuse` on and a
 * fresh record of the same command, the decision to answer from the record;
 * otherwise fingerprint the scope now (the tree the check runs on) and keep it
 * for PostToolUse.
 */
export function reuseOrBegin(spec: CheckSpec, w: Where, call: CallInfo): BeginResult {
  const observed = observable(spec, w, call);
  if (observed) return { kind: "not-recorded", why: `this run will not count as evidence: ${observed}` };
  const env = envFacts(w.workspace, spec.program);
  if (spec.reuse) {
    const d = reuseDecision(currentFreshness(spec, w, env), { command: call.command, cwd: call.cwd, check: spec.id });
    if (d.reuse) return { kind: "reuse", decision: d };
  }
  const store = new EvidenceStore(w.stateDir, w.workspace);
  let inv: Inventory;
  try {
    inv = inventory(w, scopeOf(spec, w));
  } catch (e) {
    if (!(e instanceof FingerprintError)) throw e;
    return { kind: "not-recorded", why: `the scope of check "${spec.id}" cannot be fingerprinted (${e.message}); this run will not count as evidence` };
  }
  const pending: PendingRun = {
    version: 1,
    check: spec.id,
    command: call.command,
    cwd: call.cwd,
    workspace: w.workspace,
    scope: inv.roots,
    startedAt: (call.now ?? new Date()).toISOString(),
    inventory: inv,
    env,
    partial: !isFullRun(call.command, spec.full),
    sessionId: call.sessionId,
    toolUseId: call.toolUseId,
    pointerSeq: store.seq(spec.id),
  };
  store.savePending(pending);
  return { kind: "started", pending };
}

/** Why the host's result for this call cannot be the check's exit status; "" when it can. */
function observable(spec: CheckSpec, w: Where, call: CallInfo): string {
  if (call.background) return "it runs in the background, so its result is not the check's exit status";
  if (!spec.command) return "";
  const r = runCounts({ command: call.command, cwd: call.cwd, workspace: w.workspace, check: spec.command });
  return r.counts ? "" : r.why;
}

export interface FinishInfo {
  toolUseId: string;
  /** PostToolUseFailure. */
  failed: boolean;
  /** stdout + stderr, or the failure's error text. */
  output: string;
  durationMs?: number;
  /** The host says the call did not run to its end (interrupted, or moved to the background): nothing is recorded. */
  unfinished?: "interrupted" | "background";
  now?: Date;
}

export type FinishResult =
  | { kind: "none" }
  | { kind: "unfinished"; check: string; why: string }
  | { kind: "unreadable"; why: string }
  | { kind: "recorded"; record: EvidenceRecord; published: Published };

/** PostToolUse / PostToolUseFailure: the record (immutable), then the pointer (compare-and-swap). */
export function finishCheck(w: Where, f: FinishInfo): FinishResult {
  const store = new EvidenceStore(w.stateDir, w.workspace);
  const t = store.takePending(f.toolUseId);
  if (t.unreadable) return { kind: "unreadable", why: t.unreadable };
  const p = t.pending;
  if (!p) return { kind: "none" };
  // What did not finish proves neither a pass nor a failure: the run is dropped, the latest record stays.
  if (f.unfinished) return { kind: "unfinished", check: p.check, why: f.unfinished === "interrupted" ? "it was interrupted" : "it went to the background" };
  let after: Inventory | undefined;
  try {
    after = inventory(
      w,
      p.scope,
      p.inventory.entries.map((e) => e.path),
    );
  } catch (e) {
    if (!(e instanceof FingerprintError)) throw e;
  }
  const finishedAt = (f.now ?? new Date()).toISOString();
  const record = store.writeRecord(buildRecord(p, { failed: f.failed, output: f.output, durationMs: f.durationMs, finishedAt, after }), f.now);
  const published = store.publish(p.check, record.id, p.pointerSeq);
  return { kind: "recorded", record, published };
}
