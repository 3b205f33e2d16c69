// Records of session lines (extract.ts), in file order → sessions → the
// hook's events, in order, through the hook's own adapter and engine.
//
// A subagent's transcript is a session of its own kind, keyed by (session,
// agent), replayed from an empty state as the hook sees a subagent: every
// payload carries its agent_id (so the core reads and changes that agent's own
// context: it starts empty, its own Skill calls load for it), its task (first
// prompt) goes in as SubagentStart, its end as SubagentStop; it has no
// UserPromptSubmit or slash commands. Subagent sessions add to their own
// per-row counts and metrics, never to the main ones.
//
// What the hook would have seen, rebuilt from what Claude Code wrote:
// - PreToolUse for every tool_use block of an assistant line
//   (Bash command, Write/Edit/MultiEdit/NotebookEdit path, Agent/Task type);
// - PostToolUse with the skill loaded, for a Skill call or a whole Read of a
//   SKILL.md whose tool_result is not an error (an error is PostToolUseFailure);
// - UserPromptSubmit for a real prompt of the main thread (not a tool result,
//   meta line, compact summary, local command output, task notification);
//   SubagentStart (with the task) at a subagent's first line;
// - UserPromptExpansion for a `<command-name>/x</command-name>` line whose x is
//   a skill (built-in commands like /compact are not loads);
// - Stop (a subagent's: SubagentStop) with the last answer: on a final stop_reason, or, when stop_reason is
//   null (2.1.38–2.1.39 write null everywhere), at the next real prompt, a
//   turn_duration/stop_hook_summary line, a compaction or the end of the file;
// - SessionStart {source: "compact"} at a compact_boundary line, so loaded
//   skills are forgotten exactly as in the hook;
// - PostToolUse after the tool calls of a line (one is enough to carry the
//   context size), and with the tool's response for a Bash/WebFetch output
//   longer than the table's output cap (so cap rows can fire); the latest
//   request's prompt size goes as context_tokens on prompts and PostToolUse
//   (so budget rows can fire).
// Each payload goes through normalize() (hooks/hosts/claude-code), so the
// transcript and the live hook share one definition of tool, path and load.
// A line seen before under the same uuid (resume, copies between files) is
// counted once.
import { normalize } from "../../hooks/hosts/claude-code/adapter.js";
import { skillName } from "../../hooks/core/match.js";
import type { Event } from "../../hooks/core/types.js";
import { isLoadCall, type FileDone, type LineCounts, type Rec, type ToolUse } from "./extract.js";
import { MetricsAcc } from "./metrics.js";
import type { Replay, SessionKind, SessionReplay, SessionRowOutcome } from "./replay.js";
import { HashSet53 } from "./seen.js";
import type { BudgetResult, ProfileBudget } from "./budget.js";
import type { ProfileName } from "../../hooks/core/summaries/profiles.js";

const RECENT_MESSAGES = 16;

interface Turn {
  id: string;
  text: string;
  hasToolUse: boolean;
  stopped: boolean;
}

interface Session {
  id: string;
  /** The subagent (undefined: the main thread). */
  agent: string | undefined;
  cwd: string;
  replay: SessionReplay;
  metrics: MetricsAcc;
  /** A subagent's SubagentStart was replayed. */
  started: boolean;
  compactions: number;
  /** This session's own request/tool/output counters (the report's per-week budget figures). */
  own: MetricsAcc;
  /** Day (UTC, YYYY-MM-DD) of the transcript file the session was first read from (its last change). */
  day: string;
  /** Prompt size of the latest request: the context size the hook would see next. */
  contextTokens?: number;
  /** Recent message ids → metrics handle (one response can span lines, interleaved with its tool results). */
  recent: { id: string; handle: number; own: number; usage?: Usage }[];
  last?: Turn;
  /** Token usage summed over messages (undefined: no assistant line carried usage). */
  tokens?: Usage;
  /** Hook durations the transcript recorded (stop_hook_summary), ms. */
  hookMs: number[];
}

/** Input, output, cache read, cache write tokens. */
type Usage = [number, number, number, number];

/** Hook events a session record keeps: its slowest few (the report lists the slowest across sessions). */
export const HOOKS_KEPT = 10;

type Json = Record<string, unknown>;

export interface HistoryCounts extends LineCounts {
  /** Session lines (main or subagent) that went into the replay or the metrics. */
  used: number;
  duplicate: number;
}

export class History {
  readonly counts: HistoryCounts = {
    read: 0,
    used: 0,
    results: 0,
    sidechain: 0,
    progress: 0,
    malformed: 0,
    invalid: 0,
    unknownType: 0,
    duplicate: 0,
    summary: 0,
    notNeeded: 0,
    blank: 0,
    oversized: 0,
  };
  readonly unknownTypes = new Map<string, number>();
  /** read/bytes: main session files; subagentRead/subagentBytes: subagent transcripts. */
  readonly files = { read: 0, bytes: 0, subagentRead: 0, subagentBytes: 0, notJsonl: 0, truncated: 0, unreadable: 0 };
  readonly warnings: string[] = [];
  private readonly sessions = new Map<string, Session>();
  private readonly kinds: Record<SessionKind, number> = { main: 0, subagent: 0 };
  private readonly seen = new HashSet53();
  /** Sessions with lines in the file being read. */
  private touched = new Set<Session>();
  private done = false;
  /** Set by the reader before each file: its modification time. */
  fileTime = 0;
  /** Filled by finish() when asked for (the report's input). */
  readonly records: SessionRecord[] = [];

  /** `skills`: names that are skills (slash commands with these names load them). `subagentMetrics`: subagent sessions' own. */
  constructor(
    private readonly replay: Replay,
    private readonly metrics: MetricsAcc,
    private readonly skills: Set<string>,
    readonly subagentMetrics = new MetricsAcc(),
    private readonly keepRecords = false,
  ) {}

  /** Main sessions. */
  get sessionCount(): number {
    return this.kinds.main;
  }

  get subagentSessionCount(): number {
    return this.kinds.subagent;
  }

  /** Records of the file being read, in order. */
  apply(recs: Rec[]): void {
    for (const r of recs) this.record(r);
  }

  /** The file is over: its counts, and the end of any answer still open. `subagent`: it was a subagent's transcript. */
  endFile(d: FileDone, subagent = false): void {
    const c = this.counts;
    for (const k of Object.keys(d.counts) as (keyof LineCounts)[]) c[k] += d.counts[k];
    for (const [k, v] of Object.entries(d.unknownTypes)) this.unknownTypes.set(k, (this.unknownTypes.get(k) ?? 0) + v);
    if (d.error) {
      this.files.unreadable++;
      this.warnings.push(d.error);
    } else if (subagent) this.files.subagentRead++;
    else this.files.read++;
    if (subagent) this.files.subagentBytes += d.bytes;
    else this.files.bytes += d.bytes;
    if (d.truncated) this.files.truncated++;
    if (d.notJsonl) this.files.notJsonl++;
    for (const s of this.touched) {
      this.endTurn(s);
      s.last = undefined;
    }
    this.touched = new Set();
  }

  /** All files read: every session is complete. */
  finish(): void {
    if (this.done) return;
    this.done = true;
    for (const s of this.sessions.values()) {
      this.replay.finish(s.replay);
      s.metrics.sessionDone(s.compactions);
      if (this.keepRecords) this.records.push(recordOf(s, this.replay));
    }
  }

  private record(r: Rec): void {
    if (r.h && !this.seen.add(r.h)) return void this.counts.duplicate++;
    this.counts.used++;
    const s = this.session(r.s, r.ag, r.cwd);
    if (s.agent !== undefined && !s.started) this.start(s, r);
    switch (r.t) {
      case "a":
        return this.assistant(s, r);
      case "u":
        return this.user(s, r);
      case "r":
        for (const l of r.loads!) {
          const target = l.s === s.id && l.ag === s.agent ? s : this.session(l.s, l.ag, undefined);
          this.emit(target, {
            hook_event_name: l.failed ? "PostToolUseFailure" : "PostToolUse",
            tool_name: l.tool,
            tool_input: l.input,
            ...(l.response !== undefined ? { tool_response: l.response } : {}),
            ...this.context(target),
          });
        }
        for (const z of r.sized!) {
          s.metrics.toolResult(z.tool, z.chars);
          s.own.toolResult(z.tool, z.chars);
          // An output a cap row may cut: the hook's PostToolUse, with the tool's response.
          if (z.input)
            this.emit(s, {
              hook_event_name: "PostToolUse",
              tool_name: z.tool,
              tool_input: z.input,
              ...(z.response !== undefined ? { tool_response: z.response } : {}),
              ...this.context(s),
            });
          if (z.input && z.response === undefined) this.replay.noResponse(s.replay);
        }
        if (r.ptrs) this.replay.pointers(s.replay, r.ptrs);
        return;
      case "c":
        this.endTurn(s);
        s.compactions++;
        s.metrics.compaction(r.trigger);
        return this.emit(s, { hook_event_name: "SessionStart", source: "compact" });
      case "e":
        if (r.hookMs) s.hookMs.push(...r.hookMs);
        return this.endTurn(s);
      case "o":
        return;
    }
  }

  private session(id: string, agent: string | undefined, cwd: string | undefined): Session {
    // A session id never holds a NUL: main and agent keys cannot collide.
    const key = agent === undefined ? id : `${id}\0${agent}`;
    let s = this.sessions.get(key);
    if (!s) {
      const kind: SessionKind = agent === undefined ? "main" : "subagent";
      s = {
        id,
        agent,
        cwd: "",
        replay: this.replay.session(kind),
        metrics: kind === "main" ? this.metrics : this.subagentMetrics,
        started: false,
        compactions: 0,
        own: new MetricsAcc(),
        day: new Date(this.fileTime || Date.now()).toISOString().slice(0, 10),
        recent: [],
        hookMs: [],
      };
      this.sessions.set(key, s);
      this.kinds[kind]++;
    }
    if (cwd) s.cwd = cwd;
    this.touched.add(s);
    return s;
  }

  private context(s: Session): Json {
    return s.contextTokens === undefined ? {} : { context_tokens: s.contextTokens };
  }

  private emit(s: Session, payload: Json, task?: string): void {
    payload.session_id = s.id;
    payload.cwd = s.cwd;
    if (s.agent !== undefined) payload.agent_id = s.agent;
    const n = normalize(payload);
    if (!n.ok) return;
    // The hook takes a starting subagent's task from the main thread's Agent call; a replayed
    // subagent has its own state, so its task (its first prompt, the same words) is set here.
    const event = task !== undefined && n.event.kind === "subagent-start" ? { ...n.event, task } : n.event;
    this.replay.feed(s.replay, event as Event);
  }

  /** A subagent's first line: its SubagentStart, with the task when the line is the prompt that started it. */
  private start(s: Session, r: Rec): void {
    s.started = true;
    this.emit(s, { hook_event_name: "SubagentStart" }, r.t === "u" ? r.prompt : undefined);
  }

  private assistant(s: Session, r: Rec): void {
    const id = r.mid;
    let seen = s.recent.find((m) => m.id === id);
    if (!seen) {
      seen = { id, handle: s.metrics.request(r.size < 0 ? undefined : r.size), own: s.own.request(r.size < 0 ? undefined : r.size) };
      s.recent.push(seen);
      if (s.recent.length > RECENT_MESSAGES) s.recent.shift();
      s.last = { id, text: "", hasToolUse: false, stopped: false };
    } else if (r.size >= 0) {
      seen.handle = s.metrics.requestUsage(seen.handle, r.size);
      seen.own = s.own.requestUsage(seen.own, r.size);
    }
    if (r.size >= 0) s.contextTokens = r.size;
    if (r.usage) addUsage(s, seen, r.usage);
    const turn = s.last?.id === id ? s.last : undefined;
    let post: ToolUse | undefined;
    for (const t of r.tools!) {
      s.metrics.toolCall(t.name);
      s.own.toolCall(t.name);
      this.replay.toolUse(s.replay, t.input);
      if (turn) turn.hasToolUse = true;
      this.emit(s, { hook_event_name: "PreToolUse", tool_name: t.name, tool_input: t.input });
      if (!isLoadCall(t.name, t.input)) post = t;
    }
    // A PostToolUse with the context size, for budget rows: one per line is enough (the size is
    // the request's). Loads wait for their real result; outputs over the cap come again with
    // their response when the result line is read.
    if (post) this.emit(s, { hook_event_name: "PostToolUse", tool_name: post.name, tool_input: post.input, ...this.context(s) });
    if (turn && r.text) turn.text = turn.text ? `${turn.text}\n${r.text}` : r.text;
    if (r.stop && r.stop !== "tool_use" && r.stop !== "pause_turn" && turn) this.endTurn(s);
  }

  private user(s: Session, r: Rec): void {
    // A subagent gets no UserPromptSubmit (its task went in as SubagentStart); a later prompt (a resumed agent) ends its answer.
    if (s.agent !== undefined) {
      if (r.prompt !== undefined) this.endTurn(s);
      return;
    }
    if (r.slash) {
      this.endTurn(s);
      const { name, args } = r.slash;
      if (this.skills.has(skillName(name))) this.emit(s, { hook_event_name: "UserPromptExpansion", expansion_type: "slash_command", command_name: name });
      this.emit(s, { hook_event_name: "UserPromptSubmit", prompt: `/${name}${args ? ` ${args}` : ""}`, ...this.context(s) });
    } else if (r.prompt !== undefined) {
      this.endTurn(s);
      this.emit(s, { hook_event_name: "UserPromptSubmit", prompt: r.prompt, ...this.context(s) });
    }
  }

  /** The answer is over: the hook's Stop, with the last message's text. */
  private endTurn(s: Session): void {
    const t = s.last;
    if (!t || t.stopped) return;
    t.stopped = true;
    if (!t.hasToolUse && t.text)
      this.emit(s, { hook_event_name: s.agent === undefined ? "Stop" : "SubagentStop", stop_hook_active: false, last_assistant_message: t.text });
    t.text = "";
  }
}

/** A message's usage, once per message id: later lines of the same message add only what grew (streaming lines repeat it). */
function addUsage(s: Session, m: Session["recent"][number], u: Usage): void {
  const had = m.usage ?? [0, 0, 0, 0];
  const t = (s.tokens ??= [0, 0, 0, 0]);
  const now: Usage = [0, 0, 0, 0];
  for (let i = 0; i < 4; i++) {
    now[i] = Math.max(had[i]!, u[i]!);
    t[i]! += now[i]! - had[i]!;
  }
  m.usage = now;
}

/**
 * What a session leaves for the team's report: ids, counts and a day, no
 * paths, no prompt text (docs/report.md says so; a team may commit these).
 */
export interface SessionRecord {
  id: string;
  agent?: string;
  kind: SessionKind;
  host: string;
  day: string;
  rows: Record<string, SessionRowOutcome>;
  requests: number;
  toolCalls: number;
  promptMedian: number | null;
  promptMax: number | null;
  compactions: number;
  /** Shell and fetch outputs, and how many were over the size a cap row cuts. */
  outputs: number;
  outputsOver: number;
  /** Tokens summed from the assistant messages' usage; absent: the host's files carry none. */
  tokens?: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** Per budget profile with any: long outputs summarized and capped, characters kept out, raw-file pointers and reads back (cli/measure/budget.ts). */
  budget?: Partial<Record<ProfileName, ProfileRecord>>;
  /** The session's slowest hook events (up to HOOKS_KEPT), as the transcript timed them; absent: the host records none. */
  hooks?: { event: string; tool?: string; ms: number }[];
}

export type ProfileRecord = Pick<ProfileBudget, "summarized" | "capped" | "charsSaved" | "pointers" | "rawFallback">;

/** The profiles a session's budget figures touch, without the all-zero ones. */
export function budgetRecord(b: BudgetResult): Partial<Record<ProfileName, ProfileRecord>> {
  const out: Partial<Record<ProfileName, ProfileRecord>> = {};
  for (const [name, p] of Object.entries(b.profiles) as [ProfileName, ProfileBudget][]) {
    const r = { summarized: p.summarized, capped: p.capped, charsSaved: p.charsSaved, pointers: p.pointers, rawFallback: p.rawFallback };
    if (Object.values(r).some((v) => v > 0)) out[name] = r;
  }
  return out;
}

function recordOf(s: Session, replay: Replay): SessionRecord {
  const m = s.own.result();
  const b = m.bigResults.byTool;
  return {
    id: s.id,
    ...(s.agent !== undefined ? { agent: s.agent } : {}),
    kind: s.agent === undefined ? "main" : "subagent",
    host: "claude-code",
    day: s.day,
    rows: replay.outcomes(s.replay),
    requests: m.requests,
    toolCalls: m.toolCalls,
    promptMedian: m.promptTokens.median,
    promptMax: m.promptTokens.max,
    compactions: s.compactions,
    outputs: b.Bash.calls + b.WebFetch.calls,
    outputsOver: b.Bash.over + b.WebFetch.over,
    ...(s.tokens ? { tokens: { input: s.tokens[0], output: s.tokens[1], cacheRead: s.tokens[2], cacheWrite: s.tokens[3] } } : {}),
    budget: budgetRecord(s.replay.budgetResult),
    hooks: s.hookMs
      .sort((x, y) => y - x)
      .slice(0, HOOKS_KEPT)
      .map((ms) => ({ event: s.agent === undefined ? "Stop" : "SubagentStop", ms })),
  };
}
