// One transcript file → small records of what measure needs, line by line.
// Everything that only needs this file lives here (cheap looks at the bytes,
// JSON parsing, which tool calls wait for a result); the records are replayed
// in file order by sessions.ts, where sessions, uuid de-duplication and the
// engine live. (Worker threads reading files in parallel were tried: on the
// 2-core machine, shared, they cost more CPU and memory than they saved.)
//
// Every record names its agent: none for the main thread; a subagent file's
// lines belong to its agent (the line's agentId, else the file's name); inline
// `isSidechain: true` lines of a main file (before 2.0.28) belong to the agent
// whose chain they continue (agentId if written, else the sidechain's first
// line, found through parentUuid; each Task call starts its own chain).
//
// Left out here, and counted: `progress` lines (their agent_progress payload
// repeats a subagent's own messages, which its own file has), malformed lines,
// unknown line types, `summary` lines (titles, not compactions), and line types
// with no bearing (attachments, snapshots, queue operations).
import path from "node:path";
import { readLines, type FileRead } from "./lines.js";
import { BIG_RESULT_CHARS, type SizedTool } from "./metrics.js";
import { hasLongString, hasToolResult, isBlank, peekSidechain, peekToolUseIds, peekType } from "./peek.js";
import { pointersIn } from "./budget.js";
import type { ProfileName } from "../../hooks/core/summaries/profiles.js";

type Json = Record<string, unknown>;

export interface ToolUse {
  name: string;
  input: Json;
}

/** A Bash/WebFetch result's size; over the cap threshold also its call and tool response (for cap rows). */
export interface Sized {
  tool: SizedTool;
  chars: number;
  input?: Json;
  response?: unknown;
}

export interface LoadResult {
  /** Session and agent of the call (the result line may be a copy in another session's file). */
  s: string;
  ag: string | undefined;
  tool: string;
  input: Json;
  failed: boolean;
  response?: unknown;
}

/**
 * One session line (main thread or a subagent's), reduced to what measure needs. One flat shape for all
 * kinds (created by rec(), every field present): cheap to make by the million.
 * - "a" assistant: message id, prompt size (-1: no usage), tool calls, text, stop_reason;
 * - "u" user: a prompt, a slash command, or neither (meta lines, local command output…);
 * - "r" tool results that matter: skill loads (or failures), Bash/WebFetch output sizes;
 * - "c" compact_boundary (trigger); "e" the answer is over (turn_duration, stop_hook_summary);
 * - "o" a main-session line with nothing else to say.
 */
export interface Rec {
  t: "a" | "u" | "r" | "c" | "e" | "o";
  /** The line's uuid as a hash (0: none). */
  h: number;
  s: string;
  /** The subagent the line belongs to; undefined: the main thread. */
  ag: string | undefined;
  cwd: string | undefined;
  mid: string;
  size: number;
  tools: ToolUse[] | undefined;
  text: string;
  stop: string | undefined;
  prompt: string | undefined;
  slash: { name: string; args: string } | undefined;
  loads: LoadResult[] | undefined;
  sized: Sized[] | undefined;
  /** Raw-file pointers (skillgate summaries and caps) in the tool results the model saw: [path, profile named]. */
  ptrs: [string, ProfileName | undefined][] | undefined;
  trigger: string | undefined;
  /** An assistant line's usage: input, output, cache read, cache write tokens (undefined: none). */
  usage: [number, number, number, number] | undefined;
  /** A stop_hook_summary line: each hook's durationMs (the only hook timing Claude Code writes). */
  hookMs: number[] | undefined;
}

function rec(t: Rec["t"], h: number, s: string, ag: string | undefined, cwd: string | undefined): Rec {
  return {
    t,
    h,
    s,
    ag,
    cwd,
    mid: "",
    size: -1,
    tools: undefined,
    text: "",
    stop: undefined,
    prompt: undefined,
    slash: undefined,
    loads: undefined,
    sized: undefined,
    ptrs: undefined,
    trigger: undefined,
    usage: undefined,
    hookMs: undefined,
  };
}

export interface LineCounts {
  /** Lines read (non-empty). */
  read: number;
  /** Tool results of calls nobody waited for (no load pending, output small): skipped unparsed. */
  results: number;
  /** Inline `isSidechain: true` lines of main files (read as their subagents' sessions). */
  sidechain: number;
  progress: number;
  /** Not JSON, or JSON but not an object. */
  malformed: number;
  /** A user/assistant line without a message object. */
  invalid: number;
  unknownType: number;
  /** `summary` lines: session titles, not compactions. */
  summary: number;
  /** Attachments, snapshots, queue operations and other types with no bearing. */
  notNeeded: number;
  blank: number;
  oversized: number;
}

export const zeroCounts = (): LineCounts => ({
  read: 0,
  results: 0,
  sidechain: 0,
  progress: 0,
  malformed: 0,
  invalid: 0,
  unknownType: 0,
  summary: 0,
  notNeeded: 0,
  blank: 0,
  oversized: 0,
});

export interface FileDone {
  counts: LineCounts;
  unknownTypes: Record<string, number>;
  bytes: number;
  truncated: boolean;
  notJsonl: boolean;
  error?: string;
}

/** Line types that carry nothing measure needs (titles, snapshots, queue, UI state...). */
const NOT_NEEDED = new Set([
  "file-history-snapshot",
  "attachment",
  "queue-operation",
  "last-prompt",
  "atis-latch",
  "tools-used",
  "custom-title",
  "ai-title",
  "tag",
  "mode",
  "relocated",
  "pr-link",
  "agent-name",
  "permission-mode",
  "worktree-state",
  "agent-setting",
  "content-replacement",
]);
/** User lines that look like prompts but are not what the user typed. */
const NOT_A_PROMPT = [
  "<local-command-",
  "<bash-input>",
  "<bash-stdout>",
  "<bash-stderr>",
  "<task-notification>",
  "[Request interrupted",
  "Caveat: The messages below were generated",
  "<user-memory-input>",
];

const obj = (v: unknown): Json | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** cyrb53: a fast 53-bit string hash; uuids are remembered as numbers, not strings. */
export function hash53(s: string): number {
  let h1 = 0xdeadbeef,
    h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0) || 1;
}

/** Characters of a tool_result's content (string, or text blocks). */
function contentChars(content: unknown): number {
  if (typeof content === "string") return content.length;
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const b of content) {
    const t = obj(b)?.text;
    if (typeof t === "string") n += t.length;
  }
  return n;
}

/** Text of a tool_result's content (string, or text blocks). */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => str(obj(b)?.text) ?? "").join("\n");
}

/** What skillgate's summaries and caps write into a tool result (cheap byte test before parsing). */
const POINTER_MARK = "[skillgate";

/** A call whose result may load a skill: Skill, or a Read of a SKILL.md (the adapter decides, from the result). */
export function isLoadCall(name: string, input: Json): boolean {
  return name === "Skill" || (name === "Read" && !!str(input.file_path)?.endsWith("SKILL.md"));
}

/** `<command-name>/x</command-name>` (older files drop the slash) → { name, args }. */
export function slashCommand(text: string): { name: string; args: string } | undefined {
  if (!text.startsWith("<command-")) return undefined;
  const m = /<command-name>\/?([^<\s]+)<\/command-name>/.exec(text);
  if (!m) return undefined;
  const a = /<command-args>([\s\S]*?)<\/command-args>/.exec(text);
  return { name: m[1]!, args: a?.[1]?.trim() ?? "" };
}

interface Watch {
  s: string;
  ag: string | undefined;
  tool: string;
  input: Json;
  load: boolean;
}

export class FileExtractor {
  readonly counts = zeroCounts();
  readonly unknownTypes: Record<string, number> = {};
  /** Records not yet handed over. */
  recs: Rec[] = [];
  /** tool_use id → what its result decides (a load, or a Bash/WebFetch output size). */
  private readonly watch = new Map<string, Watch>();
  /** Inline sidechain line uuid → its agent (main files only). */
  private readonly chains = new Map<string, string>();
  private ok = 0;
  private malformed = 0;
  private lastMalformed = false;

  /**
   * `capChars`: outputs longer than this are replayed as PostToolUse (for cap rows); ≤ the metric's 20,000.
   * `agent`: the file is this subagent's transcript (undefined: a main session file).
   */
  constructor(
    private readonly fallbackId: string,
    private readonly capChars = BIG_RESULT_CHARS,
    private readonly agent?: string,
  ) {}

  line(line: Buffer, unterminated: boolean): void {
    const c = this.counts;
    c.read++;
    this.lastMalformed = false;
    // A last line without a newline may be cut mid-write: always parse it.
    const t = unterminated ? undefined : peekType(line);
    if (t !== undefined) {
      if (t === "progress") return void (c.progress++, this.ok++);
      // An inline sidechain's lines are parsed, whatever their type: each one links the chain to its agent.
      const side = this.agent === undefined && peekSidechain(line);
      if (NOT_NEEDED.has(t) && !side) return void (c.notNeeded++, this.ok++);
      if (t === "summary") return void (c.summary++, this.ok++);
      // Unknown types are rare: they are parsed, so a broken one counts as malformed.
      // A result that shows skillgate's pointer to a raw file is read (for raw_fallback).
      if (t === "user" && !side && hasToolResult(line) && !line.includes(POINTER_MARK) && this.resultsNotNeeded(line)) return void (c.results++, this.ok++);
    } else if (isBlank(line)) {
      c.read--;
      c.blank++;
      return;
    }
    let rec: unknown;
    try {
      rec = JSON.parse(line.toString("utf8"));
    } catch {
      c.malformed++;
      this.malformed++;
      this.lastMalformed = true;
      return;
    }
    this.record(rec);
  }

  finish(read: FileRead | undefined, error?: string): FileDone {
    this.counts.oversized += read?.oversized ?? 0;
    return {
      counts: this.counts,
      unknownTypes: this.unknownTypes,
      bytes: read?.bytes ?? 0,
      truncated: !!read?.unterminated && this.lastMalformed,
      notJsonl: this.ok === 0 && this.malformed > 0,
      ...(error ? { error } : {}),
    };
  }

  /**
   * A tool-result line can be skipped unparsed when none of its results is
   * awaited for a load, and no string in it is long enough to be a Bash or
   * WebFetch output over the threshold (a string needs at least as many bytes
   * as it has characters, so the raw lengths settle it).
   */
  private resultsNotNeeded(line: Buffer): boolean {
    if (this.watch.size === 0) return true;
    const ids = peekToolUseIds(line);
    if (!ids || ids.length === 0) return false;
    let long: boolean | undefined;
    for (const id of ids) {
      const w = this.watch.get(id);
      if (!w) continue;
      if (w.load) return false;
      long ??= hasLongString(line, this.capChars);
      if (long) return false;
    }
    for (const id of ids) this.watch.delete(id);
    return true;
  }

  private unknown(type: string): void {
    this.counts.unknownType++;
    this.unknownTypes[type] = (this.unknownTypes[type] ?? 0) + 1;
  }

  private record(v: unknown): void {
    const c = this.counts;
    const r = obj(v);
    if (!r) {
      c.malformed++;
      this.malformed++;
      this.lastMalformed = true;
      return;
    }
    this.ok++;
    const type = str(r.type);
    let ag = this.agent === undefined ? undefined : (str(r.agentId) ?? this.agent);
    if (this.agent === undefined && r.isSidechain === true) {
      ag = this.sidechainAgent(r);
      // Counted as before (any type but progress), though no longer left out.
      if (type !== "progress" && !(type !== undefined && NOT_NEEDED.has(type))) c.sidechain++;
    }
    if (type === undefined) return this.unknown("(no type)");
    if (type === "progress") return void c.progress++;
    if (type === "summary") return void c.summary++;
    if (type !== "user" && type !== "assistant" && type !== "system") return NOT_NEEDED.has(type) ? void c.notNeeded++ : this.unknown(type);
    const msg = obj(r.message);
    if (type !== "system" && !msg) return void c.invalid++;
    const uuid = str(r.uuid);
    const h = uuid === undefined ? 0 : hash53(uuid);
    const sid = str(r.sessionId) ?? this.fallbackId;
    const cwd = str(r.cwd) || undefined;
    if (type === "assistant") this.assistant(rec("a", h, sid, ag, cwd), msg!);
    else if (type === "user") this.user(rec("u", h, sid, ag, cwd), r, msg!);
    else this.system(h, sid, ag, cwd, r);
  }

  /** The agent of an inline sidechain line: its own agentId, its parent's agent, or a new chain starting here. */
  private sidechainAgent(r: Json): string {
    const uuid = str(r.uuid),
      parent = str(r.parentUuid);
    const ag = str(r.agentId) ?? (parent === undefined ? undefined : this.chains.get(parent)) ?? `sidechain-${uuid ?? this.counts.read}`;
    if (uuid !== undefined) this.chains.set(uuid, ag);
    return ag;
  }

  private assistant(a: Rec, msg: Json): void {
    // API errors Claude Code writes itself: no request, no answer.
    if (msg.model === "<synthetic>") {
      a.t = "o";
      return void this.recs.push(a);
    }
    const u = obj(msg.usage);
    const tools: ToolUse[] = [];
    let text = "";
    const content = Array.isArray(msg.content) ? msg.content : typeof msg.content === "string" ? [{ type: "text", text: msg.content }] : [];
    for (const raw of content) {
      const b = obj(raw);
      if (!b) continue;
      if (b.type === "tool_use") {
        const name = str(b.name);
        if (!name) continue;
        const input = obj(b.input) ?? {};
        tools.push({ name, input });
        const id = str(b.id);
        if (!id) continue;
        if (isLoadCall(name, input)) this.watch.set(id, { s: a.s, ag: a.ag, tool: name, input, load: true });
        else if (name === "Bash" || name === "WebFetch") this.watch.set(id, { s: a.s, ag: a.ag, tool: name, input, load: false });
      } else if (b.type === "text") {
        const t = str(b.text);
        if (t) text = text ? `${text}\n${t}` : t;
      }
    }
    a.mid = str(msg.id) ?? "";
    a.tools = tools;
    a.text = text;
    if (u) {
      a.size = num(u.input_tokens) + num(u.cache_read_input_tokens) + num(u.cache_creation_input_tokens);
      a.usage = [num(u.input_tokens), num(u.output_tokens), num(u.cache_read_input_tokens), num(u.cache_creation_input_tokens)];
    }
    a.stop = str(msg.stop_reason) || undefined;
    this.recs.push(a);
  }

  private user(u: Rec, r: Json, msg: Json): void {
    this.recs.push(u);
    const content = msg.content;
    let text: string;
    if (Array.isArray(content)) {
      const results = content.filter((b) => obj(b)?.type === "tool_result") as Json[];
      if (results.length) return this.results(u, r, results);
      text = content
        .map((b) => str(obj(b)?.text) ?? "")
        .filter(Boolean)
        .join("\n");
    } else if (typeof content === "string") text = content;
    else return;
    if (r.isMeta === true || r.isCompactSummary === true || r.isVisibleInTranscriptOnly === true) return;
    u.slash = slashCommand(text);
    if (!u.slash && !NOT_A_PROMPT.some((p) => text.startsWith(p))) u.prompt = text;
  }

  private results(u: Rec, r: Json, results: Json[]): void {
    u.t = "r";
    const loads: LoadResult[] = [];
    const sized: Sized[] = [];
    u.loads = loads;
    u.sized = sized;
    for (const b of results) {
      const id = str(b.tool_use_id);
      const text = typeof b.content === "string" ? b.content : Array.isArray(b.content) ? contentText(b.content) : "";
      if (text.includes(POINTER_MARK)) {
        const found = pointersIn(text);
        if (found.length) u.ptrs = [...(u.ptrs ?? []), ...found];
      }
      const w = id === undefined ? undefined : this.watch.get(id);
      if (!w) continue;
      this.watch.delete(id!);
      if (w.load) {
        const load: LoadResult = { s: w.s, ag: w.ag, tool: w.tool, input: w.input, failed: b.is_error === true };
        // toolUseResult belongs to the line; with several results in one line it is ambiguous.
        if (results.length === 1 && r.toolUseResult !== undefined) load.response = r.toolUseResult;
        loads.push(load);
      } else {
        const z: Sized = { tool: w.tool as SizedTool, chars: contentChars(b.content) };
        if (z.chars > this.capChars) {
          z.input = w.input;
          if (results.length === 1 && r.toolUseResult !== undefined) z.response = r.toolUseResult;
        }
        sized.push(z);
      }
    }
  }

  private system(h: number, sid: string, ag: string | undefined, cwd: string | undefined, r: Json): void {
    const sub = r.subtype;
    const x = rec(sub === "compact_boundary" ? "c" : sub === "turn_duration" || sub === "stop_hook_summary" ? "e" : "o", h, sid, ag, cwd);
    if (x.t === "c") x.trigger = str(obj(r.compactMetadata)?.trigger);
    if (sub === "stop_hook_summary" && Array.isArray(r.hookInfos)) {
      const ms = r.hookInfos.map((i) => obj(i)?.durationMs).filter((d): d is number => typeof d === "number" && Number.isFinite(d) && d >= 0);
      if (ms.length) x.hookMs = ms;
    }
    this.recs.push(x);
  }
}

/**
 * Reads one file; `onBatch` gets its records in order (a few at a time: parsed
 * objects then die young, which the garbage collector likes), with the bytes
 * read since the last batch.
 */
export async function extractFile(
  file: string,
  onBatch: (recs: Rec[], bytes: number) => void,
  capChars = BIG_RESULT_CHARS,
  agent?: string,
  batch = 16,
): Promise<FileDone> {
  const x = new FileExtractor(path.basename(file, ".jsonl"), capChars, agent);
  let bytes = 0;
  try {
    const read = await readLines(
      file,
      (line, unterminated) => {
        x.line(line, unterminated);
        if (x.recs.length >= batch) {
          onBatch(x.recs, bytes);
          x.recs = [];
          bytes = 0;
        }
      },
      (n) => (bytes += n),
    );
    onBatch(x.recs, bytes);
    x.recs = [];
    return x.finish(read);
  } catch (e) {
    onBatch(x.recs, bytes);
    x.recs = [];
    return x.finish(undefined, `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
