// The engine's vocabulary. Host-specific field names never appear here:
// adapters (hooks/hosts/<host>/*) translate a host's payload into an Event
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
  /** Stop/SubagentStop: Claude Code is already continuing because of a block (ours or another hook's). */
  stopHookActive?: boolean;
  /** The user prompt this event belongs to (one turn). */
  promptId?: string;
  /** SessionStart: startup | resume | clear | compact | fork. */
  source?: string;
  /** Skills this event names as loaded (a successful inline Skill call, a slash command). */
  loads?: string[];
  /** A whole Read of some `.../<name>/SKILL.md`: a load only if it lies in a known skills folder (decide.ts). */
  skillFileRead?: string;
  /** PostToolUse: the tool's output as text, and the fields it came from (for the output cap). */
  output?: ToolOutput;
  /** Estimated prompt size of the next request, in tokens (from the event or the transcript's tail). */
  contextTokens?: number;
  /** Where Claude Code keeps the session transcript (read only at the edges, for contextTokens). */
  transcriptPath?: string;
  toolUseId?: string;
}

/** A tool result we may cap: the text fields in the tool's own result shape. */
export interface ToolOutput {
  /** The tool_response object as Claude Code gave it. */
  response: Record<string, unknown>;
  /** Names of its string fields that hold the output text, in order (Bash: stdout, stderr). */
  fields: string[];
  /** Total characters across those fields. */
  chars: number;
  /** Claude Code already saved the whole output here (stdout in `response` is then only its first 30,000 chars). */
  persistedPath?: string;
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

export type RowKind = "gate" | "block" | "hint" | "judgment" | "cap" | "budget";
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

export interface Table {
  version: 1;
  /** Folder of skills, relative to the table file. */
  skillsDir: string;
  /** What the hook does when it cannot decide (bad table, internal error). */
  failMode: "open" | "closed";
  /** Folder for capped tool outputs; default: private folder under the temp dir. */
  outputDir?: string;
  outputMaxAgeDays: number;
  stateMaxAgeDays: number;
  rows: Row[];
}

/** Per-session memory. Loaded skills and shown hints die with the context (compaction, /clear). */
export interface SessionState {
  version: 1;
  loaded: string[];
  hintsShown: string[];
  /** Row id → refusals given so far (for stats). */
  denials: Record<string, number>;
  compactions: number;
  /** Reminders that must not repeat even after compaction (the handoff reminder). */
  remindersShown: string[];
  /** The turn (prompt id) in which we last blocked a Stop: the loop guard lets that turn's next Stop pass. */
  stopBlockedPrompt?: string;
  /** Index of the highest budget level the prompt size is at (0 = below all). */
  budgetLevel: number;
  stats: SessionStats;
}

export interface SessionStats {
  toolCalls: Record<string, number>;
  capped: Record<string, number>;
  charsSaved: number;
  capFailures: number;
  /** Highest prompt size seen, in tokens. */
  maxContextTokens: number;
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
export type Verdict = "allow" | "deny" | "block" | "hint" | "cap";

export interface Decision {
  verdict: Verdict;
  /** Rows that decided, in table order. Empty for a plain allow. */
  rows: string[];
  /** Text for the model (deny/block reason, or hint context). */
  message?: string;
  /** Text for the user only (warnings such as an invalid table). */
  notice?: string;
  /** verdict "cap": keep the first headChars of the output, the rest goes to a file (done at the edge). */
  cap?: { row: string; headChars: number };
  /** verdict "cap": the tool output the model sees instead, in the tool's own shape (filled at the edge). */
  updatedOutput?: Record<string, unknown>;
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
