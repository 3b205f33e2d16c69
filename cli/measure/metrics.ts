// Session metrics, over main sessions:
// - prompt size per request: input + cache_read + cache_creation tokens of an
//   assistant message's usage, once per message id (median, p90);
// - compactions per session (compact_boundary lines);
// - tool calls per request ("toolsPerTurn" = tool calls / requests);
// - share of Bash and WebFetch results longer than 20,000 characters.

export const BIG_RESULT_CHARS = 20_000;
export const SIZED_TOOLS = ["Bash", "WebFetch"] as const;
export type SizedTool = (typeof SIZED_TOOLS)[number];

export interface Metrics {
  requests: number;
  promptTokens: { median: number | null; p90: number | null; max: number | null };
  compactions: { total: number; perSession: number | null; max: number; sessionsWithCompaction: number; byTrigger: Record<string, number> };
  toolCalls: number;
  toolsPerTurn: number | null;
  bigResults: { thresholdChars: number; byTool: Record<SizedTool, { calls: number; over: number }>; share: number | null };
}

/** A growable list of unsigned 32-bit numbers (4 bytes each, not a JS array of boxes). */
class U32List {
  private a = new Uint32Array(1024);
  length = 0;
  push(v: number): number {
    if (this.length === this.a.length) {
      const b = new Uint32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.length] = Math.min(v, 0xffffffff);
    return this.length++;
  }
  raise(i: number, v: number): void {
    if (v > this.a[i]!) this.a[i] = Math.min(v, 0xffffffff);
  }
  sorted(): Uint32Array {
    return this.a.slice(0, this.length).sort();
  }
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Median as the mean of the two middle values for an even count. */
export function median(sorted: ArrayLike<number>): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  return n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}

export class MetricsAcc {
  private prompts = new U32List();
  requests = 0;
  toolCalls = 0;
  private compactionsBySession: number[] = [];
  private triggers: Record<string, number> = {};
  private sized: Record<SizedTool, { calls: number; over: number }> = { Bash: { calls: 0, over: 0 }, WebFetch: { calls: 0, over: 0 } };

  /** A new request (message id seen for the first time); returns a handle for later lines of the same message. */
  request(promptTokens: number | undefined): number {
    this.requests++;
    return promptTokens === undefined ? -1 : this.prompts.push(promptTokens);
  }

  /** A later line of the same message carried usage (keep the largest: streaming lines can carry partial usage). */
  requestUsage(handle: number, promptTokens: number): number {
    if (handle < 0) return this.prompts.push(promptTokens);
    this.prompts.raise(handle, promptTokens);
    return handle;
  }

  toolCall(name: string): void {
    this.toolCalls++;
    if (name === "Bash" || name === "WebFetch") this.sized[name].calls++;
  }

  toolResult(name: SizedTool, chars: number): void {
    if (chars > BIG_RESULT_CHARS) this.sized[name].over++;
  }

  /** A compact_boundary line; trigger "auto" or "manual" (older lines may have none). */
  compaction(trigger: string | undefined): void {
    const t = trigger ?? "unknown";
    this.triggers[t] = (this.triggers[t] ?? 0) + 1;
  }

  sessionDone(compactions: number): void {
    this.compactionsBySession.push(compactions);
  }

  result(): Metrics {
    const s = this.prompts.sorted();
    const c = this.compactionsBySession;
    const total = c.reduce((a, b) => a + b, 0);
    const calls = this.sized.Bash.calls + this.sized.WebFetch.calls;
    const over = this.sized.Bash.over + this.sized.WebFetch.over;
    return {
      requests: this.requests,
      promptTokens: { median: median(s), p90: percentile(s, 90), max: s.length ? s[s.length - 1]! : null },
      compactions: {
        total,
        perSession: c.length ? round(total / c.length, 3) : null,
        max: c.reduce((a, b) => Math.max(a, b), 0),
        sessionsWithCompaction: c.filter((x) => x > 0).length,
        byTrigger: { ...this.triggers },
      },
      toolCalls: this.toolCalls,
      toolsPerTurn: this.requests ? round(this.toolCalls / this.requests, 3) : null,
      bigResults: { thresholdChars: BIG_RESULT_CHARS, byTool: structuredClone(this.sized), share: calls ? round(over / calls, 4) : null },
    };
  }
}

export const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
