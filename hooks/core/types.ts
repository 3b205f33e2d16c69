// The engine's vocabulary, host-neutral. A host adapter (hooks/hosts/<host>/)
// translates its payloads into an Event and a Decision back into its output;
// no host's event names, tool names or field names appear in hooks/core.
import type { ProfileName } from "./summaries/profiles.js";

// ─── Events ──────────────────────────────────────────────────────────────

/** What a tool does, whatever the host calls it. Rows and policies speak kinds, not tool names. */
export type ToolKind = "shell" | "write" | "edit" | "read" | "fetch" | "skill" | "subagent" | "other";

/** A tool call as the core sees it: one variant per kind, carrying only what policies use. */
export type ToolCall =
  /** `background`: the host runs it detached (the call returns before the command ends, so its result is no exit status). */
  | { kind: "shell"; name: string; command: string; background?: true }
  | { kind: "write" | "edit"; name: string; paths: string[] }
  /** `whole`: the file is read entirely (a slice of a SKILL.md is not the skill). */
  | { kind: "read"; name: string; path?: string; whole: boolean }
  | { kind: "subagent"; name: string; subagentType: string; prompt?: string }
  | { kind: "skill"; name: string; skill?: string }
  | { kind: "fetch" | "other"; name: string };

interface EventBase {
  sessionId: string;
  /** Set when the event comes from inside a subagent. */
  agentId?: string;
  /** Directory the session runs in; relative paths are resolved against it. */
  cwd: string;
  /** The user prompt this event belongs to (one turn). */
  promptId?: string;
  /** Guarded files a shell command changed unseen, and what the restore did (read and done at the edge, before deciding). */
  restored?: RestoreFinding[];
  /** Digests of the SKILL.md files this event records or loads, read at the edge (skill-digests.ts says which). */
  skillFiles?: SkillFiles;
}

/**
 * What the edge read of the skills' SKILL.md files for one event: path → digest of the text
 * ("" for a file that is not there). `all`: every file the table's skills have in every trusted
 * root was read (only then may the session's record be made from it).
 */
export interface SkillFiles {
  digests: Record<string, string>;
  /** A present file's stat stamp (size, times, inode), when not too recent to trust: a later equal stamp means the same text. */
  stamps?: Record<string, string>;
  all: boolean;
}

/** How a session (re)started: a compaction or a clear empties the context. */
export type SessionSource = "startup" | "resume" | "clear" | "compact" | "fork";

export type Event =
  /** `input`: the tool's input as the host gave it (a rewritten call keeps every field it does not change). */
  | (EventBase & { kind: "tool-call"; tool: ToolCall; toolUseId?: string; input?: Record<string, unknown> })
  | (EventBase & {
      kind: "tool-result";
      tool: ToolCall;
      toolUseId?: string;
      /** Skills this result put into the context (a skill tool's success, in the host's exact success shape). */
      loads: string[];
      /** The text a whole read put into the context, when the host gives it (compared with the skill as installed). */
      readText?: string;
      /** Its digest, computed at the edge (the core hashes nothing). */
      readDigest?: string;
      /** The output, when the host lets a hook replace it. */
      output?: ToolOutput;
      /** Prompt size of the next request in tokens (from the event, or folded in at the edge from the transcript). */
      contextTokens?: number;
      /** Gated effects the call had that the static analysis did not refuse (effects audit, read at the edge). */
      audit?: AuditFinding[];
      /** How long the tool ran, as the host measured it. */
      durationMs?: number;
      /** The host says the tool did not run to its end: interrupted, or moved to the background. */
      unfinished?: "interrupted" | "background";
    })
  /** `error`: the failure text the host reports (a shell: "Exit code N\n..." and the output). */
  | (EventBase & { kind: "tool-failure"; tool: ToolCall; toolUseId?: string; error?: string; durationMs?: number; audit?: AuditFinding[] })
  /** `prompt` undefined: a prompt that is not the user's words (a background task's notification). */
  | (EventBase & { kind: "prompt"; prompt?: string; contextTokens?: number })
  /** A slash command (or the host's equivalent) that expands a skill into the context. */
  | (EventBase & { kind: "prompt-expansion"; loads: string[] })
  /** The agent (main thread, or the subagent named by agentId) wants to stop with this final answer. */
  | (EventBase & { kind: "stop"; finalMessage: string; continuing: boolean })
  /** `guardedSettings`: settings files that register skillgate now (read at the edge, for config-change). */
  | (EventBase & { kind: "session-start"; source: SessionSource; guardedSettings?: string[] })
  /**
   * A settings file changed; `removesSkillgate`: it registered skillgate's hook at session start and no longer does,
   * `weakenings`: what the change weakens of the registration, in words (both read at the edge).
   */
  | (EventBase & { kind: "config-change"; source: string; file?: string; removesSkillgate: boolean; weakenings?: string[] })
  /** A subagent (agentId) starts; what the host can add to its context goes in first. */
  | (EventBase & { kind: "subagent-start"; agentId: string; agentType: string; task?: string })
  | (EventBase & { kind: "compaction"; phase: "before" | "after" });

export type EventKind = Event["kind"];

/** One of the events a compaction sends: PreCompact (before), PostCompact (after), the session start it causes (start). */
export type CompactionSignal = "before" | "after" | "start";
export type EventOf<K extends EventKind> = Extract<Event, { kind: K }>;

/** What the effects audit saw happen during a shell call: a new commit, a moved remote-tracking ref, a changed file. */
export type AuditFinding =
  | {
      kind: "commit";
      ref: string;
      message: string;
      /** The branch before and after the call (its reflog), when known. */
      from?: string;
      to?: string;
      /** The runner moved the branch back (git's hooks did not stop the commit), or says why it could not. */
      takenBack?: { done: true } | { done: false; why: string };
    }
  | { kind: "push"; ref: string }
  | { kind: "write"; path: string };

/**
 * A guarded file that changed during a shell call the analysis could not
 * prove read-only (or during work it left running), and what the restore did.
 */
export interface RestoreFinding {
  /** Absolute path. */
  path: string;
  change: "changed" | "created" | "deleted";
  /** Rows whose write globs guard it (gate, block, risk), in table order. */
  rows: string[];
  /** A file skillgate protects whatever is loaded (a table, settings, a skill, its state): what it is. */
  protects?: string;
  /** `left`: not put back (a risk row's file only). */
  outcome: "restored" | "removed" | "recreated" | "left" | "failed";
  why?: string;
  /** Where the version the command left was copied before the file was put back. */
  keptAt?: string;
  /** Found at a later event: work that outlived its call (a background job). */
  late?: boolean;
}

/** A tool result we may cap: the text fields in the tool's own result shape (rendered back by the host). */
export interface ToolOutput {
  /** The tool's result object as the host gave it, less the host's own note of a saved copy (persistedPath). */
  response: Record<string, unknown>;
  /** Names of its string fields that hold the output text, in order (a shell: stdout, stderr). */
  fields: string[];
  /** Total characters across those fields. */
  chars: number;
  /** The host already saved the whole output here, in its own folder (the fields then hold only its head). */
  persistedPath?: string;
}

// ─── Table ───────────────────────────────────────────────────────────────

export type Scope = "main" | "subagent" | "all";

export interface Trigger {
  /** Shell sub-command: program name, optional git-style subcommand, literal args (any of). */
  command?: { name: string; sub?: string[]; args?: string[] };
  /** Globs of paths written (tools and shell). Patterns without "/" match the basename. */
  writes?: string[];
  /** Subagent types of a subagent call. */
  subagent?: string[];
  /** User prompt: whole words (Unicode-aware) or a raw regex. */
  prompt?: TextTrigger;
  /** Final answer at a stop: whole words or a raw regex. */
  final?: TextTrigger;
  /** cap rows: outputs of these tools longer than maxChars go to a private file; the model gets the head. */
  output?: { tools: string[]; maxChars?: number; headChars?: number };
  /** budget rows: one reminder each time the prompt size crosses a level upwards. */
  context?: { levels: number[] };
  /** hint rows: remind once when the session has been compacted `max` times (0 = never). */
  compactions?: { max: number };
}

export interface TextTrigger {
  words?: string[];
  pattern?: string;
}

interface RowBase {
  id: string;
  scope?: Scope;
  when: Trigger;
  /** Extra sentence appended to the refusal or hint. */
  why?: string;
}

/** A gate's other condition: a passing run of an evidence row's check on the current tree. */
export interface Requirement {
  evidence: string;
}

/**
 * One row of triggers.json after validation: one variant per kind, so a skill
 * row always names its skill. A gate names a skill, evidence it requires, or both.
 */
export type Row =
  | (RowBase & { kind: "gate"; skill: string; require?: Requirement })
  | (RowBase & { kind: "gate"; skill?: undefined; require: Requirement })
  | (RowBase & { kind: "hint" | "judgment"; skill: string })
  | (RowBase & { kind: "block"; skill?: string })
  | (RowBase & { kind: "cap" | "budget" | "risk"; skill?: undefined })
  /**
   * A check whose passing run is recorded as evidence. `paths` (the issue's
   * "scope"; rows already use `scope` for main/subagent) are the
   * workspace-relative roots its result depends on.
   */
  | (RowBase & { kind: "evidence"; skill?: undefined; paths: string[]; full?: string[]; reuse?: boolean })
  /** The user's words switch the session's budget profile. */
  | (RowBase & { kind: "mode"; skill?: undefined; profile: ProfileName });

export type RowKind = Row["kind"];
export type SkillRow = Extract<Row, { kind: "hint" | "judgment" }> | Extract<Row, { kind: "gate"; skill: string }>;
export type EvidenceRow = Extract<Row, { kind: "evidence" }>;
export type ModeRow = Extract<Row, { kind: "mode" }>;

export interface Table {
  version: 1;
  /** "default": these rows were added to skillgate's default table (same id replaces). */
  extends?: "default";
  /** Folder of skills, relative to the table file. */
  skillsDir: string;
  /** What the hook does when it cannot decide (bad table, internal error). */
  failMode: "open" | "closed";
  /** The budget profile a session starts in (default balanced); `mode` rows switch it, `risk` rows raise it to audit. */
  budgetProfile?: ProfileName;
  /** Folder for capped tool outputs; default: private folder under the temp dir. */
  outputDir?: string;
  outputMaxAgeDays: number;
  stateMaxAgeDays: number;
  rows: Row[];
}

// ─── State ───────────────────────────────────────────────────────────────

/** Per-session memory. Loaded skills and shown hints die with the context (compaction, clear). */
export interface SessionState {
  version: 1;
  loaded: string[];
  hintsShown: string[];
  /** Row id → refusals given so far (for stats). */
  denials: Record<string, number>;
  compactions: number;
  /** Reminders that must not repeat even after compaction (the handoff reminder). */
  remindersShown: string[];
  /** The turn (prompt id) in which we last refused a stop: the loop guard lets that turn's next stop pass. */
  stopBlockedPrompt?: string;
  /** Index of the highest budget level the prompt size is at (0 = below all). */
  budgetLevel: number;
  /** SKILL.md files a tool call of this session wrote (or tried to): reading them back loads nothing. */
  skillFilesWritten?: string[];
  /**
   * The skills as installed when the session started: SKILL.md path → digest of its text, for each
   * skill the table names in each trusted root (a file not there then is not listed). A load counts
   * only while its file still has this text (skill-digests.ts).
   */
  skillDigests?: Record<string, string>;
  /** The recorded files' stat stamps (io/skill-digests.ts): a load whose file still has its stamp needs no hashing. */
  skillStamps?: Record<string, string>;
  /** The compaction signals seen of the latest compaction (before, after, start): a signal not yet seen belongs to the same one. */
  compactionSignals?: CompactionSignal[];
  /** Settings files that registered skillgate's hook when the session started: removing it from them is refused. */
  guardedSettings?: string[];
  /** Subagent calls of the main thread not yet started (type and task), for the subagent's hints. */
  pendingSubagents?: { type: string; prompt: string }[];
  /** Each subagent's own context (agent id → its loads, hints, stop loop guard), when subagents load skills. */
  agents?: Record<string, AgentContext>;
  /** The budget profile a `mode` row chose for this session (absent: the table's default). */
  profile?: ProfileName;
  /** The `risk` row that made this session audit; cleared when a `mode` row fires. */
  riskRow?: string;
  stats: SessionStats;
}

/** A subagent's context starts empty: the main thread's loads do not pass into it, and its loads stay in it. */
export interface AgentContext {
  loaded: string[];
  hintsShown: string[];
  stopBlockedPrompt?: string;
  skillFilesWritten?: string[];
}

export interface SessionStats {
  toolCalls: Record<string, number>;
  capped: Record<string, number>;
  charsSaved: number;
  capFailures: number;
  /** Highest prompt size seen, in tokens. */
  maxContextTokens: number;
  /** Gated effects found after the fact (effects audit) that the static analysis let through. */
  missedByAnalysis?: number;
  /** Outputs replaced by a typed summary, per budget profile. */
  summarized?: Record<string, number>;
  /** Long outputs passed untouched, per reason (write, unknown, risk, audit, short). */
  rawPasses?: Record<string, number>;
}

export const emptyState = (): SessionState => ({
  version: 1,
  loaded: [],
  hintsShown: [],
  denials: {},
  compactions: 0,
  remindersShown: [],
  budgetLevel: 0,
  stats: { toolCalls: {}, capped: {}, charsSaved: 0, capFailures: 0, maxContextTokens: 0 },
});

// ─── Decisions ───────────────────────────────────────────────────────────

/** Why a row fired. */
export interface Hit {
  row: Row;
  /** The part of the event that matched, for the reason text and `explain`. */
  detail: string;
  /** The shell command could not be seen through: refuse and ask for a literal command. */
  opaque?: boolean;
}

/** What the engine wants; the host renders it. Effects (a file written, an output replaced) are not here. */
export type Decision =
  | { verdict: "allow"; rows: string[]; notice?: string }
  /** deny: a tool call refused; block: a stop refused (the agent goes on). */
  | { verdict: "deny" | "block"; rows: string[]; message: string; notice?: string }
  | { verdict: "hint"; rows: string[]; message: string; notice?: string }
  /** Keep the first headChars of the output; the rest goes to a file (done at the edge). */
  | { verdict: "cap"; rows: string[]; message?: string; cap: CapOrder; notice?: string };

/** What the edge does with a long output: summarize it under `profile` (the raw text saved first). */
export interface CapOrder {
  row: string;
  headChars: number;
  profile: ProfileName;
}

export type Verdict = Decision["verdict"];

/** What the edge did for a decision, handed to the host's renderer. */
export interface Effects {
  /** The tool output the model sees instead, in the tool's own shape. */
  updatedOutput?: Record<string, unknown>;
  /** The tool call runs with this input instead (the whole input, in the tool's own shape). */
  updatedInput?: Record<string, unknown>;
}
