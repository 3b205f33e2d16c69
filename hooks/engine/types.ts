// The engine's vocabulary. Host-specific field names never appear here:
// adapters (hooks/engine/adapter/*) translate a host's payload into an Event
// and a Decision back into the host's output.

/** What happened, in host-neutral terms. One hook payload → one Event. */
export interface Event {
  kind: EventKind;
  sessionId: string;
  /** Set when the event comes from inside a subagent (it cannot load skills). */
  agentId?: string;
  /** Directory the session runs in; relative paths are resolved against it. */
  cwd: string;
  tool?: string;
  /** Bash: the command line as written. */
  command?: string;
  /** Paths a non-Bash tool writes (Write, Edit, MultiEdit, NotebookEdit). */
  writes?: string[];
  /** Agent/Task: the requested subagent type. */
  subagentType?: string;
  /** UserPromptSubmit: what the user typed. */
  prompt?: string;
  /** Stop/SubagentStop: the final answer. */
  finalMessage?: string;
  /** Stop/SubagentStop: Claude Code is already continuing because of a block. */
  stopHookActive?: boolean;
  /** SessionStart: startup | resume | clear | compact | fork. */
  source?: string;
  /** Skills this event proves loaded (successful Skill call, slash command, whole SKILL.md read). */
  loads?: string[];
}

export type EventKind =
  | "PreToolUse"
  | "PostToolUse"
  | "PostToolUseFailure"
  | "UserPromptSubmit"
  | "UserPromptExpansion"
  | "SessionStart"
  | "PreCompact"
  | "PostCompact"
  | "Stop"
  | "SubagentStop";

export type RowKind = "gate" | "block" | "hint" | "judgment";
export type Scope = "main" | "subagent" | "all";

/** One row of triggers.json after validation (see table/schema.ts for the documented shape). */
export interface Row {
  id: string;
  kind: RowKind;
  skill?: string;
  scope?: Scope;
  when: Trigger;
  /** Extra sentence appended to the refusal or hint. */
  why?: string;
}

export interface Trigger {
  /** Bash sub-command: program name, optional git-style subcommand, literal args (any of). */
  command?: { name: string; sub?: string[]; args?: string[] };
  /** Globs of paths written (tools and Bash). Patterns without "/" match the basename. */
  writes?: string[];
  /** Agent/Task subagent types. */
  subagent?: string[];
  /** User prompt: whole words (Unicode-aware) or a raw regex. */
  prompt?: TextTrigger;
  /** Final answer on Stop: whole words or a raw regex. */
  final?: TextTrigger;
}

export interface TextTrigger {
  words?: string[];
  pattern?: string;
}

export interface Table {
  version: 1;
  /** Folder of skills, relative to the table file. */
  skillsDir: string;
  /** What the hook does when it cannot decide (bad table, internal error). */
  failMode: "open" | "closed";
  rows: Row[];
}

/** Per-session memory. Loaded skills and shown hints die with the context (compaction, /clear). */
export interface SessionState {
  version: 1;
  loaded: string[];
  hintsShown: string[];
  /** Row id → refusals given so far (for stats and the Stop loop guard). */
  denials: Record<string, number>;
  compactions: number;
}

/** Why a row fired. */
export interface Hit {
  row: Row;
  /** The part of the event that matched, for the reason text and `explain`. */
  detail: string;
  /** The shell command could not be seen through: refuse and ask for a literal command. */
  opaque?: boolean;
}

/** What the engine wants to say. Adapters turn it into host output. */
export type Verdict = "allow" | "deny" | "block" | "hint";

export interface Decision {
  verdict: Verdict;
  /** Rows that decided, in table order. Empty for a plain allow. */
  rows: string[];
  /** Text for the model (deny/block reason, or hint context). */
  message?: string;
  /** Text for the user only (warnings such as an invalid table). */
  notice?: string;
}

export const emptyState = (): SessionState => ({
  version: 1,
  loaded: [],
  hintsShown: [],
  denials: {},
  compactions: 0,
});
