// Budget profiles in measure: per profile a session was in,
// what the hook would do with each long tool output, re-decided from the
// transcript, and how often the model read a raw output file afterwards.
//
// The profile is the engine's own: the replay runs decide() on every prompt
// (mode rows switch the profile) and tool call (risk rows raise it to audit),
// so sessionProfile() of the replayed state is the profile the hook would have
// had. A long output's fate is decided as the hook's edge does it
// (hooks/runner/hook.ts capOutput), with the same pure core: the cap policy
// (risk, audit), the shell analysis (opaque → unknown, writes → write, an
// unknown program → plain head cap), then summarize() (short: not worth it).
// What it cannot re-decide: outputs whose tool response the transcript does
// not hold (counted as `noResponse`), and the rest of an output Claude Code
// saved to its own file (only the head it kept in the transcript is summarized).
// A subagent session is replayed from its own empty state (replay.ts), so it
// starts at the table's default; the live hook shares the main thread's profile.
//
// raw_fallback is not re-decided but observed: a tool result that reached the
// model with a skillgate summary or cap pointer (`raw_evidence PATH`, "the
// full output is in PATH") is remembered with the profile it names; a later
// Read of that path, or a shell command naming it, is a raw fallback.
import { sessionProfile } from "../../hooks/core/policies/budget-profile.js";
import { plainCommands } from "../../hooks/core/shell-prefilter.js";
import { analyzeCommand, type ShellAnalysis } from "../../hooks/core/shell/analyze.js";
import { summarize, readOnlyCommands, commandHint } from "../../hooks/core/summaries/index.js";
import { DEFAULT_PROFILE, PROFILE_NAMES, PROFILES, isProfileName, type ProfileName } from "../../hooks/core/summaries/profiles.js";
import type { CompiledTable } from "../../hooks/core/table/compile.js";
import type { Decision, Event, SessionState } from "../../hooks/core/types.js";
import { wholeText } from "../../hooks/io/output-store.js";

/** Why a long output would pass to the model untouched (the names `stats` documents). */
export const RAW_REASONS = ["write", "risk", "audit", "unknown", "short"] as const;
export type RawReason = (typeof RAW_REASONS)[number];

export interface ProfileBudget {
  /** Sessions that were in this profile at some point (the table's default at the start, then mode/risk switches). */
  sessions: number;
  /** Long outputs the hook would replace by a typed summary. */
  summarized: number;
  /** Long outputs of a program it knows nothing of: head + the raw file's path (the plain cap). */
  capped: number;
  /** Long outputs that would pass untouched, by reason. */
  raw: Record<RawReason, number>;
  /** Characters the summaries and caps would keep out of the context. */
  charsSaved: number;
  /** Summaries or caps seen in the transcripts (skillgate ran), by the profile they name. */
  pointers: number;
  /** Of those: the model read the raw file afterwards (a Read of the path, or a shell command naming it). */
  rawFallback: number;
}

export interface BudgetResult {
  /** The profile sessions start in (the table's budgetProfile, else balanced). */
  defaultProfile: ProfileName;
  profiles: Record<ProfileName, ProfileBudget>;
  /** Long outputs a cap row matched whose tool response the transcript does not hold: not re-decided. */
  noResponse: number;
}

const zero = (): ProfileBudget => ({
  sessions: 0,
  summarized: 0,
  capped: 0,
  raw: { write: 0, risk: 0, audit: 0, unknown: 0, short: 0 },
  charsSaved: 0,
  pointers: 0,
  rawFallback: 0,
});

export function emptyBudget(table: CompiledTable): BudgetResult {
  return {
    defaultProfile: table.table.budgetProfile ?? DEFAULT_PROFILE,
    profiles: Object.fromEntries(PROFILE_NAMES.map((p) => [p, zero()])) as Record<ProfileName, ProfileBudget>,
    noResponse: 0,
  };
}

/** One session's share: the profiles it was in, and the raw-file pointers it was shown. */
export interface SessionBudget {
  profiles: Set<ProfileName>;
  /** Raw file path → the profile its summary named (a plain cap: the session's profile then), read yet. */
  pointers: Map<string, { profile: ProfileName; read: boolean }>;
}

export const newSessionBudget = (table: CompiledTable): SessionBudget => ({
  profiles: new Set([table.table.budgetProfile ?? DEFAULT_PROFILE]),
  pointers: new Map(),
});

/** The shell analysis the hook's edge caps an output by: the pre-filter's when it takes the command, else the parser's. */
export function capAnalysis(command: string, analyze: (command: string) => ShellAnalysis = analyzeCommand): ShellAnalysis {
  const plain = plainCommands(command);
  return plain.skip ? plain.analysis : analyze(command);
}

/**
 * After decide(): note the profile, and re-decide a long output the way the hook's edge would.
 * `analysisOf` gives capAnalysis() of a command; the replay passes one that reuses what it already analysed.
 */
export function afterDecide(
  b: BudgetResult,
  sb: SessionBudget,
  event: Event,
  table: CompiledTable,
  before: SessionState,
  after: SessionState,
  decision: Decision,
  analysisOf: (command: string) => ShellAnalysis = capAnalysis,
): void {
  sb.profiles.add(sessionProfile(after, table.table).profile);
  if (event.kind !== "tool-result") return;
  // Risk and audit passes are the cap policy's own (kept in the state's counters, as `stats` shows them).
  for (const reason of ["risk", "audit"] as const) {
    if ((after.stats.rawPasses?.[reason] ?? 0) > (before.stats.rawPasses?.[reason] ?? 0)) b.profiles.audit.raw[reason]++;
  }
  const output = event.output;
  if (decision.verdict !== "cap" || !output) return;
  const p = b.profiles[decision.cap.profile];
  let hint: ReturnType<typeof commandHint>;
  if (event.tool.kind === "shell") {
    const a = analysisOf(event.tool.command);
    if (a.opaque.length > 0) return void p.raw.unknown++;
    if (a.writes.length > 0) return void p.raw.write++;
    const v = readOnlyCommands(a.commands);
    if (v.kind === "write") return void p.raw.write++;
    if (!v.readOnly) {
      p.capped++;
      p.charsSaved += output.chars - Math.min(decision.cap.headChars, output.chars);
      return;
    }
    hint = commandHint(a.commands);
  }
  const s = summarize(wholeText(output), { profile: decision.cap.profile, rawPath: "raw", ...(hint ? { command: hint } : {}) });
  if (s.raw) return void p.raw[s.raw]++;
  p.summarized++;
  p.charsSaved += Math.max(0, output.chars - s.keptChars);
}

const SUMMARY = /\[skillgate summary: [^\n]*?budget_profile (\w+)[^\n]*?raw_evidence (\S+) \(/g;
const CAPPED = /output capped: [^\n]*?the full output is in (\S+) — read or grep it there/g;

/** Raw-file pointers in the text a tool result showed the model: [path, the profile it names (undefined: a plain cap)]. */
export function pointersIn(text: string): [string, ProfileName | undefined][] {
  const out: [string, ProfileName | undefined][] = [];
  for (const m of text.matchAll(SUMMARY)) out.push([m[2] ?? "", m[1] !== undefined && isProfileName(m[1]) ? m[1] : undefined]);
  for (const m of text.matchAll(CAPPED)) out.push([m[1] ?? "", undefined]);
  return out.filter(([p]) => p !== "");
}

export function notePointers(b: BudgetResult, sb: SessionBudget, found: [string, ProfileName | undefined][], now: ProfileName): void {
  for (const [file, named] of found) {
    if (sb.pointers.has(file)) continue;
    const profile = named ?? now;
    sb.pointers.set(file, { profile, read: false });
    b.profiles[profile].pointers++;
  }
}

/** A tool call (Read's file_path, Grep's path, a shell command): a Read of a pointed-to raw file, or a shell command naming one, is a raw fallback (once per file). */
export function noteToolUse(b: BudgetResult, sb: SessionBudget, input: Record<string, unknown>): void {
  if (sb.pointers.size === 0) return;
  const fileArg = typeof input.file_path === "string" ? input.file_path : typeof input.path === "string" ? input.path : undefined;
  const command = typeof input.command === "string" ? input.command : undefined;
  for (const [file, ptr] of sb.pointers) {
    if (ptr.read) continue;
    if (fileArg !== file && !(command !== undefined && command.includes(file))) continue;
    ptr.read = true;
    b.profiles[ptr.profile].rawFallback++;
  }
}

export function sessionDone(b: BudgetResult, sb: SessionBudget): void {
  for (const p of sb.profiles) b.profiles[p].sessions++;
}

/** Add one session's figures (its own BudgetResult) into a tally. */
export function addBudget(into: BudgetResult, from: BudgetResult): void {
  into.noResponse += from.noResponse;
  for (const name of PROFILE_NAMES) {
    const a = into.profiles[name],
      b = from.profiles[name];
    a.sessions += b.sessions;
    a.summarized += b.summarized;
    a.capped += b.capped;
    a.charsSaved += b.charsSaved;
    a.pointers += b.pointers;
    a.rawFallback += b.rawFallback;
    for (const r of RAW_REASONS) a.raw[r] += b.raw[r];
  }
}

/**
 * The shortest output any reachable profile summarizes, for the transcript
 * reader (outputs over it are replayed with their response): the cap row's
 * maxChars is balanced's threshold; fast and precision bring their own; the
 * profiles reachable are the table's default and those its mode rows name.
 */
export function shortestThreshold(table: CompiledTable, rowMax: number): number {
  const reachable = new Set<ProfileName>([table.table.budgetProfile ?? DEFAULT_PROFILE]);
  for (const { row } of table.rows) if (row.kind === "mode") reachable.add(row.profile);
  let n = rowMax;
  for (const p of reachable) if (p !== "balanced" && PROFILES[p].strategy !== "raw") n = Math.min(n, PROFILES[p].thresholdChars);
  return n;
}
