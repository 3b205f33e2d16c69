// Evidence: "the check passed on *this* tree". PURE — no fs, no clock, no
// crypto: the io side (hooks/io/fingerprint.ts, evidence-store.ts,
// evidence-run.ts) takes inventories and stores records; this module decides
// what a record proves about the current inventory and says it in words.

/** One input of a fingerprint. */
export interface Entry {
  /** Workspace-relative, `/`-separated, no `./`, `..` or duplicates. */
  path: string;
  kind: "file" | "symlink" | "missing";
  /** 100644 | 100755 (file), 120000 (symlink), - (missing). */
  mode: "100644" | "100755" | "120000" | "-";
  /** Lowercase hex SHA-256 of the payload, or - for a missing entry. */
  digest: string;
}

/** What `skillgate fingerprint --json` prints. */
export interface Inventory {
  fingerprint: string;
  entries: Entry[];
  roots: string[];
  cwd: string;
}

/** Environment prerequisites a result depends on besides its scope (seed: "relevant environment prerequisites"). */
export interface EnvFacts {
  /** Runtime identities, e.g. {"node": "v20.20.2", "npm": "/usr/lib/node_modules/npm/bin/npm-cli.js"}. */
  runtimes: Record<string, string>;
  /** Lockfile path → SHA-256 hex of its bytes, or "-" when absent. */
  lockfiles: Record<string, string>;
}

/** One immutable observation of a check run (an evidence record file). */
export interface EvidenceRecord {
  version: 1;
  /** The evidence row's id. */
  check: string;
  /** Unique name of this record (its file name without .json). */
  id: string;
  /** The exact command line that ran. */
  command: string;
  /** The directory it ran in (absolute). */
  cwd: string;
  /** The workspace the scope is relative to (absolute). */
  workspace: string;
  /** The row's scope, normalized (what was fingerprinted). */
  scope: string[];
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Exit status; null when the host did not report one (a failure without "Exit code N"). */
  exit: number | null;
  outcome: "passed" | "failed";
  /** Fingerprint and inventory of the scope taken when the check started (the tree it ran on). */
  fingerprint: string;
  entries: Entry[];
  /** Paths whose entries differ between the start and the end of the run (the run saw a moving tree). */
  changedDuringRun: string[];
  env: EnvFacts;
  /** Last lines of the output (stdout then stderr, or the failure text). */
  outputTail: string[];
  /** The command matched the row but is not one of its full-run commands (a filtered run proves nothing about the whole scope). */
  partial: boolean;
  sessionId: string;
  toolUseId: string;
}

/** A change between the recorded inventory and the current one. */
export interface ChangedPath {
  path: string;
  how: "added" | "removed" | "modified" | "mode" | "kind";
}

export type Freshness =
  | { status: "fresh"; record: EvidenceRecord }
  | {
      status: "stale";
      record: EvidenceRecord;
      changed: ChangedPath[];
      envChanged: string[];
      scopeChanged: boolean;
      changedDuringRun: string[];
      conflict?: string;
    }
  | { status: "failed"; record: EvidenceRecord }
  | { status: "missing"; note?: string };

/**
 * Compare two inventories entry by entry. `before` is the recorded one,
 * `after` the current one taken with `--previous` = before (so a vanished
 * file shows as a `missing` entry).
 */
export function diffEntries(before: readonly Entry[], after: readonly Entry[]): ChangedPath[] {
  const old = new Map(before.map((e) => [e.path, e]));
  const out: ChangedPath[] = [];
  const seen = new Set<string>();
  for (const e of after) {
    seen.add(e.path);
    const o = old.get(e.path);
    if (!o || o.kind === "missing") {
      if (e.kind !== "missing") out.push({ path: e.path, how: "added" });
      else if (!o) out.push({ path: e.path, how: "removed" });
      continue;
    }
    if (e.kind === "missing") out.push({ path: e.path, how: "removed" });
    else if (e.kind !== o.kind) out.push({ path: e.path, how: "kind" });
    else if (e.digest !== o.digest) out.push({ path: e.path, how: "modified" });
    else if (e.mode !== o.mode) out.push({ path: e.path, how: "mode" });
  }
  // Paths the current inventory no longer names at all (only when `after` was taken without --previous).
  for (const o of before) if (!seen.has(o.path) && o.kind !== "missing") out.push({ path: o.path, how: "removed" });
  return out.sort((a, b) => byUtf8(a.path, b.path));
}

/** Keys whose values differ between two environments (added and removed keys count). */
export function diffEnv(before: EnvFacts, after: EnvFacts): string[] {
  const out: string[] = [];
  for (const group of ["runtimes", "lockfiles"] as const) {
    const a = before[group];
    const b = after[group];
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (a[k] !== b[k]) out.push(`${group === "runtimes" ? "runtime" : "lockfile"} ${k}`);
  }
  return out.sort();
}

export interface FreshnessInput {
  /** The latest published record of the check, if any. */
  record?: EvidenceRecord;
  /** Set when the store shows two runs that overlapped (their pointer update conflicted). */
  conflict?: string;
  /** Set when the latest record could not be trusted (unreadable, wrong shape, bad MAC). */
  unreadable?: string;
  /** The scope the row declares now (normalized). */
  scope: readonly string[];
  /** The current inventory of that scope, taken with --previous = record.entries. */
  current?: Inventory;
  env: EnvFacts;
}

/**
 * What the latest record proves about the current tree. Fresh only when it
 * passed, was a full run, ran on a tree that did not move, and its scope,
 * fingerprint and environment all equal the current ones: an unknown scope
 * or a missing binding does not prove the tree unchanged.
 */
export function freshness(i: FreshnessInput): Freshness {
  if (i.unreadable) return { status: "missing", note: i.unreadable };
  const r = i.record;
  if (!r) return { status: "missing", note: i.conflict };
  if (r.outcome !== "passed" || r.partial) return { status: "failed", record: r };
  const scopeChanged = !sameList(r.scope, i.scope);
  const changed = i.current && !scopeChanged ? (i.current.fingerprint === r.fingerprint ? [] : diffEntries(r.entries, i.current.entries)) : [];
  // Same fingerprint with no entry difference cannot happen; a fingerprint change with none is a bug worth seeing.
  const unexplained = !!i.current && !scopeChanged && i.current.fingerprint !== r.fingerprint && changed.length === 0;
  const envChanged = diffEnv(r.env, i.env);
  if (!i.current || scopeChanged || unexplained || changed.length || envChanged.length || r.changedDuringRun.length || i.conflict) {
    return {
      status: "stale",
      record: r,
      changed,
      envChanged,
      scopeChanged: scopeChanged || !i.current || unexplained,
      changedDuringRun: r.changedDuringRun,
      ...(i.conflict ? { conflict: i.conflict } : {}),
    };
  }
  return { status: "fresh", record: r };
}

/** `npm test` from a row's `when.command` ({name, sub}). */
export function commandText(c: { name: string; sub?: readonly string[] }): string {
  return [c.name, ...(c.sub ?? [])].join(" ");
}

const MAX_LISTED = 10;

function listChanged(changed: readonly ChangedPath[]): string {
  const words: Record<ChangedPath["how"], string> = { added: "new", removed: "removed", modified: "modified", mode: "mode changed", kind: "type changed" };
  const shown = changed.slice(0, MAX_LISTED).map((c) => `${c.path} (${words[c.how]})`);
  const more = changed.length - shown.length;
  return shown.join(", ") + (more > 0 ? ` and ${more} more` : "");
}

function shortFp(fp: string): string {
  return fp.slice(0, "sha256:".length + 12);
}

/**
 * One sentence-block for the model: why `action` is refused (or, for fresh,
 * what allowed it), what changed since the green run, and the command to run.
 */
export function freshnessReason(f: Freshness, o: { check: string; action: string; run: string }): string {
  const needs = `${o.action} needs a passing run of check "${o.check}" on the current tree`;
  switch (f.status) {
    case "fresh":
      return `check "${o.check}" passed on this tree (${f.record.command}, exit 0, ${f.record.finishedAt}, ${shortFp(f.record.fingerprint)}); nothing in its scope changed since.`;
    case "missing":
      return `${needs}; ${f.note ?? "none is recorded"}. Run: ${o.run}`;
    case "failed": {
      const r = f.record;
      const why = r.partial
        ? `the latest run was partial (${r.command}): it does not cover the whole check`
        : `the latest run failed (${r.command}, exit ${r.exit ?? "unknown"}, ${r.finishedAt})`;
      const tail = r.outcome === "failed" && r.outputTail.length ? `\nLast lines:\n${r.outputTail.slice(-5).join("\n")}` : "";
      return `${needs}; ${why}. ${r.partial ? "Run" : "Fix it and run"}: ${o.run}${tail}`;
    }
    case "stale": {
      const r = f.record;
      const parts: string[] = [];
      if (f.conflict) parts.push(f.conflict);
      if (f.changed.length) parts.push(`changed since the green run: ${listChanged(f.changed)}`);
      if (f.changedDuringRun.length)
        parts.push(
          `the tree changed while the check ran: ${f.changedDuringRun.slice(0, MAX_LISTED).join(", ")}${f.changedDuringRun.length > MAX_LISTED ? ` and ${f.changedDuringRun.length - MAX_LISTED} more` : ""}`,
        );
      if (f.envChanged.length) parts.push(`the environment changed: ${f.envChanged.join(", ")}`);
      if (f.scopeChanged) parts.push(`the check's scope is not the one the green run covered`);
      return `${needs}; the last green run (${r.command}, ${r.finishedAt}, ${shortFp(r.fingerprint)}) does not cover it — ${parts.join("; ")}. Run: ${o.run}`;
    }
  }
}

// ---- recording ---------------------------------------------------------------

/** What PreToolUse saw when a check started; kept until its PostToolUse. */
export interface PendingRun {
  version: 1;
  check: string;
  command: string;
  cwd: string;
  workspace: string;
  scope: string[];
  startedAt: string;
  inventory: Inventory;
  env: EnvFacts;
  partial: boolean;
  sessionId: string;
  toolUseId: string;
  /** The pointer sequence number seen at the start (the record's parent; compare-and-swap on publish). */
  pointerSeq: number;
}

/** What PostToolUse / PostToolUseFailure reports about the finished run. */
export interface RunResult {
  failed: boolean;
  /** PostToolUse Bash: stdout and stderr; PostToolUseFailure: the error text ("Exit code N\n..."). */
  output: string;
  durationMs?: number;
  finishedAt: string;
  /** Inventory of the same scope taken at the end, with --previous = the start inventory. */
  after?: Inventory;
}

const TAIL_LINES = 20;
const TAIL_CHARS = 4000;

/** Exit status from a failure text like "Exit code 1\n...". */
export function exitOf(r: Pick<RunResult, "failed" | "output">): number | null {
  if (!r.failed) return 0;
  const m = /^Exit code (\d+)\b/.exec(r.output);
  return m?.[1] !== undefined ? Number(m[1]) : null;
}

/** The last lines of an output, at most TAIL_LINES lines and TAIL_CHARS characters. */
export function tailLines(text: string): string[] {
  const lines = text.replace(/\s+$/, "").split("\n").slice(-TAIL_LINES);
  let total = 0;
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i] ?? "";
    total += l.length + 1;
    if (total > TAIL_CHARS) break;
    out.unshift(l);
  }
  return out.length === 1 && out[0] === "" ? [] : out;
}

/** The record a finished run produces (without its id, which the store assigns). */
export function buildRecord(p: PendingRun, r: RunResult): Omit<EvidenceRecord, "id"> {
  const exit = exitOf(r);
  const changedDuringRun = !r.after
    ? ["(the tree could not be fingerprinted at the end of the run)"]
    : r.after.fingerprint === p.inventory.fingerprint
      ? []
      : diffEntries(p.inventory.entries, r.after.entries).map((c) => c.path);
  const durationMs = r.durationMs ?? Math.max(0, Date.parse(r.finishedAt) - Date.parse(p.startedAt));
  return {
    version: 1,
    check: p.check,
    command: p.command,
    cwd: p.cwd,
    workspace: p.workspace,
    scope: p.scope,
    startedAt: p.startedAt,
    finishedAt: r.finishedAt,
    durationMs,
    exit,
    outcome: exit === 0 ? "passed" : "failed",
    fingerprint: p.inventory.fingerprint,
    entries: p.inventory.entries,
    changedDuringRun,
    env: p.env,
    outputTail: tailLines(r.output),
    partial: p.partial,
    sessionId: p.sessionId,
    toolUseId: p.toolUseId,
  };
}

/**
 * Whether a command is a full run of the check. With `full` (exact command
 * lines) only those count; without it every command the row matches does.
 * Whitespace runs are collapsed before comparing.
 */
export function isFullRun(command: string, full: readonly string[] | undefined): boolean {
  if (!full || full.length === 0) return true;
  const norm = (s: string) => s.trim().replace(/\s+/g, " ");
  const c = norm(command).replace(RERUN_PREFIX, "");
  return full.some((f) => norm(f) === c);
}

/** What the reuse answer tells the model to prefix to force a real run (a different command line, so never reused). */
export const RERUN_PREFIX = /^SKILLGATE_RERUN=1 /;

// ---- reuse ---------------------------------------------------------------------

export type ReuseDecision = { reuse: false; why: string } | { reuse: true; text: string; command: string };

/**
 * Answer a re-run from the record instead of running it: only for the same
 * command line in the same directory, when the record is fresh for the
 * current tree and environment (same scope, fingerprint and
 * prerequisites). `command` is a Bash line printing `text` (for updatedInput).
 */
export function reuseDecision(f: Freshness, o: { command: string; cwd: string; check: string }): ReuseDecision {
  if (f.status !== "fresh") return { reuse: false, why: `latest record is ${f.status}` };
  const r = f.record;
  const norm = (s: string) => s.trim().replace(/\s+/g, " ");
  if (norm(r.command) !== norm(o.command)) return { reuse: false, why: `the recorded run was "${r.command}", not this command` };
  if (r.cwd !== o.cwd) return { reuse: false, why: `the recorded run ran in ${r.cwd}` };
  const text = [
    `skillgate: not re-running — check "${o.check}" already passed on this exact tree.`,
    `command: ${r.command} (in ${r.cwd})`,
    `exit 0 at ${r.finishedAt}, took ${(r.durationMs / 1000).toFixed(1)} s`,
    `fingerprint: ${r.fingerprint} over ${r.scope.slice(0, MAX_LISTED).join(", ")}${r.scope.length > MAX_LISTED ? ` and ${r.scope.length - MAX_LISTED} more` : ""}; nothing in its scope changed since.`,
    ...(r.outputTail.length ? ["last lines of that run:", ...r.outputTail] : []),
    `(to run it anyway: SKILLGATE_RERUN=1 ${r.command})`,
  ].join("\n");
  return { reuse: true, text, command: `printf '%s\\n' ${shellQuote(text)}` };
}

/** Single-quote for POSIX shells: ' becomes '\''. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

// ---- small helpers ---------------------------------------------------------------

/**
 * Order by the UTF-8 bytes of the strings. That is code-point order; JS `<`
 * compares UTF-16 units, which differs only between surrogates (code points
 * above U+FFFF) and U+E000–U+FFFF, so those two ranges are swapped back.
 */
export function byUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}

/**
 * Normalize a workspace-relative path or root: `/`-separated, no `.` or empty
 * segments, no trailing `/`. "." (or "", "./") is the whole workspace.
 * Absolute paths and `..` are refused: a scope never climbs out of its workspace.
 */
export function normalizeRel(p: string): { ok: true; path: string } | { ok: false; error: string } {
  if (p.includes("\0")) return { ok: false, error: "contains a NUL byte" };
  if (p.startsWith("/")) return { ok: false, error: "is absolute; roots and paths are workspace-relative" };
  const segs = p.split("/").filter((s) => s !== "" && s !== ".");
  if (segs.includes("..")) return { ok: false, error: "contains '..'; roots and paths stay inside the workspace" };
  return { ok: true, path: segs.length ? segs.join("/") : "." };
}

/** Whether a normalized path lies under a normalized root. */
export function underRoot(p: string, root: string): boolean {
  return root === "." || p === root || p.startsWith(root + "/");
}

// ---- shapes read back from disk ------------------------------------------------------

const HEX64 = /^[0-9a-f]{64}$/;
const FP = /^sha256:[0-9a-f]{64}$/;

export function isEntry(x: unknown): x is Entry {
  if (!x || typeof x !== "object") return false;
  const e = x as Record<string, unknown>;
  if (typeof e.path !== "string" || e.path === "" || normalizeRel(e.path).ok !== true || (normalizeRel(e.path) as { path: string }).path !== e.path)
    return false;
  if (e.kind === "missing") return e.mode === "-" && e.digest === "-";
  if (e.kind === "symlink") return e.mode === "120000" && typeof e.digest === "string" && HEX64.test(e.digest);
  return e.kind === "file" && (e.mode === "100644" || e.mode === "100755") && typeof e.digest === "string" && HEX64.test(e.digest);
}

const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((v) => typeof v === "string");
const stringMap = (x: unknown): x is Record<string, string> =>
  !!x && typeof x === "object" && !Array.isArray(x) && Object.values(x).every((v) => typeof v === "string");

export function isInventory(x: unknown): x is Inventory {
  const i = x as Partial<Inventory> | null;
  return (
    !!i &&
    typeof i.fingerprint === "string" &&
    FP.test(i.fingerprint) &&
    Array.isArray(i.entries) &&
    i.entries.every(isEntry) &&
    strings(i.roots) &&
    typeof i.cwd === "string"
  );
}

export function isEnvFacts(x: unknown): x is EnvFacts {
  const e = x as Partial<EnvFacts> | null;
  return !!e && stringMap(e.runtimes) && stringMap(e.lockfiles);
}

/** A record as read from its file: every field of the current shape, or undefined (never half-trusted). */
export function parseRecord(x: unknown): EvidenceRecord | undefined {
  const r = x as Partial<EvidenceRecord> | null;
  const ok =
    !!r &&
    r.version === 1 &&
    typeof r.check === "string" &&
    typeof r.id === "string" &&
    typeof r.command === "string" &&
    typeof r.cwd === "string" &&
    typeof r.workspace === "string" &&
    strings(r.scope) &&
    typeof r.startedAt === "string" &&
    typeof r.finishedAt === "string" &&
    typeof r.durationMs === "number" &&
    Number.isFinite(r.durationMs) &&
    (r.exit === null || (typeof r.exit === "number" && Number.isInteger(r.exit))) &&
    (r.outcome === "passed" || r.outcome === "failed") &&
    (r.outcome === "passed") === (r.exit === 0) &&
    typeof r.fingerprint === "string" &&
    FP.test(r.fingerprint) &&
    Array.isArray(r.entries) &&
    r.entries.every(isEntry) &&
    strings(r.changedDuringRun) &&
    isEnvFacts(r.env) &&
    strings(r.outputTail) &&
    typeof r.partial === "boolean" &&
    typeof r.sessionId === "string" &&
    typeof r.toolUseId === "string";
  return ok ? (r as EvidenceRecord) : undefined;
}

export function parsePending(x: unknown): PendingRun | undefined {
  const p = x as Partial<PendingRun> | null;
  const ok =
    !!p &&
    p.version === 1 &&
    typeof p.check === "string" &&
    typeof p.command === "string" &&
    typeof p.cwd === "string" &&
    typeof p.workspace === "string" &&
    strings(p.scope) &&
    typeof p.startedAt === "string" &&
    isInventory(p.inventory) &&
    isEnvFacts(p.env) &&
    typeof p.partial === "boolean" &&
    typeof p.sessionId === "string" &&
    typeof p.toolUseId === "string" &&
    typeof p.pointerSeq === "number" &&
    Number.isInteger(p.pointerSeq) &&
    p.pointerSeq >= 0;
  return ok ? (p as PendingRun) : undefined;
}

// ---- glue for the policy pipeline ------------------------------------------------------

/** The part of an evidence row (`kind: "evidence"`) that evidence needs. */
export interface EvidenceRowLike {
  id: string;
  when: { command?: { name: string; sub?: readonly string[]; args?: readonly string[] } };
  /** Workspace-relative roots the check's result depends on. */
  scope: readonly string[];
  /** Exact command lines that are a full run (others the row matches are partial). */
  full?: readonly string[];
  reuse?: boolean;
}

/** An evidence row as a check: what to fingerprint, and the command to tell the model to run. */
export function checkOfRow(row: EvidenceRowLike): {
  id: string;
  scope: string[];
  full?: string[];
  reuse: boolean;
  program?: string;
  command?: CheckCommand;
  run: string;
} {
  const run = row.full?.[0] ?? (row.when.command ? commandText(row.when.command) : row.id);
  const c = row.when.command;
  const command = c ? { name: c.name, ...(c.sub ? { sub: [...c.sub] } : {}), ...(c.args ? { args: [...c.args] } : {}) } : undefined;
  return {
    id: row.id,
    scope: [...row.scope],
    ...(row.full ? { full: [...row.full] } : {}),
    reuse: row.reuse === true,
    ...(c ? { program: c.name, command } : {}),
    run,
  };
}

/** The command an evidence row runs (its `when.command`): what the last command of a counted line must be. */
export interface CheckCommand {
  name: string;
  sub?: string[];
  args?: string[];
}

/**
 * The refusal line of a gate row that requires evidence, or undefined when
 * the check is fresh. `f` undefined = the runner could not compute freshness
 * (refuse: a missing binding proves nothing).
 */
export function evidenceRefusal(gateRowId: string, check: { id: string; run: string }, f: Freshness | undefined, action: string): string | undefined {
  if (f?.status === "fresh") return undefined;
  const reason = freshnessReason(f ?? { status: "missing", note: "its freshness could not be computed" }, { check: check.id, action, run: check.run });
  return `skillgate[${gateRowId}]: ${reason}`;
}
