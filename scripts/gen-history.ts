// A synthetic Claude Code history for `measure`'s benchmark: project folders
// of main session files plus subagent transcripts, built line by line from the
// shapes captured from the real 2.1.328 binary (../shared/claude-code-2.1.328:
// key order, envelope fields, tool_result/toolUseResult pairs, split responses
// sharing message.id, compact_boundary + isCompactSummary, slash commands,
// `<session>/subagents/agent-*.jsonl` + .meta.json). Deterministic for a seed.
// Written in ~1 MB chunks: memory stays flat whatever the size.
//
//   node --import tsx scripts/gen-history.ts --out DIR [--mb 1024] [--seed 1]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface GenOptions {
  /** Folder that plays ~/.claude/projects: project folders are created inside. */
  dir: string;
  mb?: number;
  seed?: number;
  /** "Now" for timestamps and file times (sessions spread over the 6 days before). */
  now?: number;
}

export interface GenResult {
  bytes: number;
  mainFiles: number;
  subagentFiles: number;
  sessions: number;
  lines: number;
}

const VERSION = "2.1.328";
const MODEL = "claude-opus-5-5";
const PROJECTS = [
  "-home-dev-project",
  "-home-dev-api",
  "-home-dev-site",
  "-home-dev-infra",
  "-home-dev-notes",
  "-home-dev-app",
  "-home-dev-lib",
  "-home-dev-tools",
];

// ---------- randomness ----------
/** mulberry32: small, seeded, reproducible (also the pre-filter test's generator). */
export function rngOf(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Dice {
  constructor(readonly r: () => number) {}
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)]!;
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  /** Weighted pick from [weight, value] pairs. */
  weighted<T>(xs: readonly (readonly [number, T])[]): T {
    const total = xs.reduce((s, [w]) => s + w, 0);
    let x = this.r() * total;
    for (const [w, v] of xs) if ((x -= w) < 0) return v;
    return xs[xs.length - 1]![1];
  }
  hex(n: number): string {
    let s = "";
    while (s.length < n)
      s += Math.floor(this.r() * 0x100000000)
        .toString(16)
        .padStart(8, "0");
    return s.slice(0, n);
  }
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
  b36(n: number): string {
    let s = "";
    while (s.length < n) s += Math.floor(this.r() * 2 ** 40).toString(36);
    return s.slice(0, n);
  }
  /** Log-normal around `median`, clamped. */
  lognormal(median: number, sigma: number, lo: number, hi: number): number {
    const u = Math.max(this.r(), 1e-12),
      v = this.r();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.min(hi, Math.max(lo, Math.round(median * Math.exp(sigma * z))));
  }
}

// ---------- text ----------
const WORDS = (
  "the a of to and in is it that for on with as was at by this be from or an are not have has but which you one all were when we there can " +
  "function const return import export value type string number error file path line test build config module data result state table row " +
  "session hook skill event command output input request response token cache context agent tool model prompt commit branch merge"
).split(" ");
/** Russian words appear in the user's prompts and answers, and in *_RU.md files; tool output is mostly ASCII. */
const WORDS_RU = "логи ошибка файл строка таблица сессия навык проверка готово сборка тест модуль запрос ответ контекст".split(" ");

/** A fixed block of pseudo-text; slices of it fill tool results and messages cheaply. */
function corpusOf(d: Dice, size: number): string {
  const parts: string[] = [];
  let n = 0,
    col = 0;
  while (n < size) {
    const w = d.pick(WORDS);
    parts.push(w);
    n += w.length + 1;
    col += w.length + 1;
    if (col > d.int(40, 110)) {
      parts.push(d.chance(0.1) ? "\n\n" : "\n");
      col = 0;
    } else parts.push(" ");
  }
  return parts.join("");
}

// ---------- line shapes (key order as in the 2.1.328 captures) ----------
interface Ctx {
  d: Dice;
  corpus: string;
  sessionId: string;
  cwd: string;
  branch: string;
  slug: string;
  t: number;
  parent: string | null;
  promptId: string;
  agentId?: string;
  cacheRead: number;
}

function envelopeTail(c: Ctx): Record<string, unknown> {
  const tail: Record<string, unknown> = { userType: "external", entrypoint: "cli", cwd: c.cwd, sessionId: c.sessionId, version: VERSION, gitBranch: c.branch };
  if (c.slug) tail.slug = c.slug;
  return tail;
}

function stamp(c: Ctx, ms: number): string {
  c.t += ms;
  return new Date(c.t).toISOString();
}

function text(c: Ctx, n: number): string {
  const max = c.corpus.length - n - 1;
  const at = c.d.int(0, Math.max(0, max));
  return n <= c.corpus.length ? c.corpus.slice(at, at + n) : c.corpus.repeat(Math.ceil(n / c.corpus.length)).slice(0, n);
}

/** Russian prose of about n characters (prompts, answers, *_RU.md files). */
function ruText(c: Ctx, n: number): string {
  const parts: string[] = [];
  for (let len = 0; len < n; ) {
    const w = c.d.pick(WORDS_RU);
    parts.push(w);
    len += w.length + 1;
  }
  return parts.join(" ");
}

function head(c: Ctx): Record<string, unknown> {
  const h: Record<string, unknown> = { parentUuid: c.parent, isSidechain: c.agentId !== undefined };
  return h;
}

function userLine(c: Ctx, content: unknown, extra: Record<string, unknown> = {}, after: Record<string, unknown> = {}): Record<string, unknown> {
  const uuid = c.d.uuid();
  const line: Record<string, unknown> = { ...head(c), promptId: c.promptId };
  if (c.agentId) line.agentId = c.agentId;
  Object.assign(line, { type: "user", message: { role: "user", content }, ...extra, uuid, timestamp: stamp(c, c.d.int(5, 900)), ...after, ...envelopeTail(c) });
  c.parent = uuid;
  return line;
}

function attachmentLine(c: Ctx, attachment: Record<string, unknown>, role?: string): Record<string, unknown> {
  const uuid = c.d.uuid();
  const line: Record<string, unknown> = { ...head(c) };
  if (c.agentId) line.agentId = c.agentId;
  Object.assign(line, { attachment, type: "attachment", uuid, timestamp: stamp(c, c.d.int(0, 30)) });
  if (role) line.renderedRole = role;
  Object.assign(line, envelopeTail(c));
  c.parent = uuid;
  return line;
}

function usage(c: Ctx): Record<string, unknown> {
  const creation = c.d.int(0, 4000);
  c.cacheRead = Math.min(190_000, c.cacheRead + c.d.int(200, 3000));
  return {
    input_tokens: c.d.int(1, 12),
    cache_creation_input_tokens: creation,
    cache_read_input_tokens: c.cacheRead,
    output_tokens: c.d.int(20, 900),
    output_tokens_details: { thinking_tokens: 0 },
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: "standard",
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: creation },
    inference_geo: "",
    iterations: [],
    speed: "standard",
    fallback_credit: null,
  };
}

/** One API response, one line per content block, sharing message.id (as Claude Code writes them). */
function assistantLines(c: Ctx, blocks: Record<string, unknown>[], stop: "tool_use" | "end_turn"): Record<string, unknown>[] {
  const id = `msg_${c.d.b36(12)}`;
  const requestRef = c.d.uuid();
  const u = usage(c);
  return blocks.map((b, i) => {
    const uuid = c.d.uuid();
    const last = i === blocks.length - 1;
    const line: Record<string, unknown> = { ...head(c) };
    if (c.agentId) line.agentId = c.agentId;
    Object.assign(line, {
      message: {
        id,
        type: "message",
        role: "assistant",
        model: MODEL,
        content: [b],
        stop_reason: last ? stop : null,
        stop_sequence: null,
        usage: u,
        stop_details: null,
      },
      ...(b.type === "tool_use" ? { toolInputStreamMs: c.d.int(1, 40) } : {}),
      apiBlockIndex: i,
      requestRef,
      requestedModel: MODEL,
      promptCacheRequested: "5m",
      type: "assistant",
      uuid,
      timestamp: stamp(c, c.d.int(300, 9000)),
      effort: "medium",
      perTurnEffort: "medium",
      madeBy: "model",
      ...envelopeTail(c),
    });
    c.parent = uuid;
    return line;
  });
}

// ---------- tools ----------
type Tool = "Bash" | "Read" | "Edit" | "Write" | "Grep" | "Glob" | "WebFetch" | "Skill" | "Agent" | "TodoWrite";
const TOOL_MIX: [number, Tool][] = [
  [38, "Bash"],
  [24, "Read"],
  [12, "Edit"],
  [5, "Write"],
  [5, "Grep"],
  [3, "Glob"],
  [3, "WebFetch"],
  [2, "Skill"],
  [2, "Agent"],
  [3, "TodoWrite"],
];
const COMMANDS: [number, string][] = [
  [20, "git status --short"],
  [12, "git diff --stat"],
  [12, "npm test"],
  [8, "npm run build"],
  [6, "ls -la src"],
  [6, "grep -rn TODO src | head -50"],
  [5, "git commit -m 'fix: handle empty table'"],
  [3, "git add -A && git commit -m 'feat: measure'"],
  [4, "cat package.json"],
  [3, "git log --oneline -20"],
  [2, "journalctl -u app --since today | tail -200"],
  [1, "kubectl apply -f deploy/stand.yaml"],
  [1, "npm publish --dry-run"],
  [1, "sed -i 's/old/new/' docs/guide_RU.md"],
  [2, "git push origin feature/measure"],
  [3, "node --test test/*.test.ts"],
  [2, "rg -n 'decide\\(' hooks"],
];
const WRITE_PATHS: [number, string][] = [
  [30, "src/index.ts"],
  [20, "src/measure/report.ts"],
  [12, "test/measure.test.ts"],
  [8, "README.md"],
  [3, "docs/guide_RU.md"],
  [3, "docs/guide_EN.md"],
  [4, "package.json"],
  [2, "db/migrations/0042_add_index.sql"],
  [8, "src/engine/decide.ts"],
  [6, "notes_RU.md"],
];
const SKILLS = ["commit", "paired-docs", "delegate", "done-check", "logs", "release", "testing", "review", "stand", "migrations", "dependencies"];
const SUBAGENTS: [number, string][] = [
  [6, "general-purpose"],
  [3, "Explore"],
  [1, "Plan"],
  [1, "executor"],
];

/** Size of a tool's output, in characters, roughly as in public 2.1.x histories. */
function resultSize(c: Ctx, tool: Tool): number {
  const d = c.d;
  switch (tool) {
    case "Bash":
      // Public 2.1.x sessions: median ~300, p90 ~2,600, 0.75% over 20,000 (Claude Code cuts at ~30,000).
      return d.weighted([
        [60, () => d.int(20, 600)],
        [28, () => d.int(600, 3000)],
        [8.5, () => d.int(3000, 15000)],
        [2, () => d.int(15000, 20000)],
        [1.5, () => d.int(20001, 30500)],
      ] as const)();
    case "Read":
      return d.lognormal(1400, 1.4, 100, 120_000);
    case "WebFetch":
      return d.weighted([
        [80, () => d.int(500, 10000)],
        [15, () => d.int(10000, 20000)],
        [5, () => d.int(20001, 60000)],
      ] as const)();
    case "Grep":
    case "Glob":
      return d.int(50, 4000);
    default:
      return d.int(40, 300);
  }
}

interface Call {
  id: string;
  tool: Tool;
  input: Record<string, unknown>;
  agentId?: string;
}

function makeCall(c: Ctx, tool: Tool): Call {
  const d = c.d;
  const id = `toolu_${d.b36(11)}`;
  const abs = (p: string) => path.posix.join(c.cwd, p);
  switch (tool) {
    case "Bash":
      return { id, tool, input: { command: d.weighted(COMMANDS), description: text(c, d.int(8, 40)).replace(/\n/g, " ") } };
    case "Read":
      return d.chance(0.03)
        ? { id, tool, input: { file_path: abs(`.claude/skills/${d.pick(SKILLS)}/SKILL.md`) } }
        : {
            id,
            tool,
            input: d.chance(0.2) ? { file_path: abs(d.weighted(WRITE_PATHS)), offset: d.int(1, 400), limit: 200 } : { file_path: abs(d.weighted(WRITE_PATHS)) },
          };
    case "Edit":
      return {
        id,
        tool,
        input: { replace_all: false, file_path: abs(d.weighted(WRITE_PATHS)), old_string: text(c, d.int(20, 400)), new_string: text(c, d.int(20, 600)) },
      };
    case "Write": {
      const file = d.weighted(WRITE_PATHS);
      return { id, tool, input: { file_path: abs(file), content: file.endsWith("_RU.md") ? ruText(c, d.int(200, 3000)) : text(c, d.int(200, 6000)) } };
    }
    case "Grep":
      return { id, tool, input: { pattern: d.pick(WORDS), path: c.cwd, output_mode: "content" } };
    case "Glob":
      return { id, tool, input: { pattern: "**/*.ts" } };
    case "WebFetch":
      return { id, tool, input: { url: `https://example.com/${d.b36(8)}`, prompt: "Summarize the page" } };
    case "Skill":
      return { id, tool, input: { skill: d.pick(SKILLS) } };
    case "Agent":
      return { id, tool, input: { description: "sub", prompt: text(c, d.int(100, 800)), subagent_type: d.weighted(SUBAGENTS) }, agentId: `a${d.hex(16)}` };
    case "TodoWrite":
      return { id, tool, input: { todos: [{ content: text(c, 40), status: "in_progress", activeForm: "Working" }] } };
  }
}

function resultLines(c: Ctx, call: Call, assistantUuid: string): Record<string, unknown>[] {
  const d = c.d;
  const n = resultSize(c, call.tool);
  const after = {
    sourceToolAssistantUUID: assistantUuid,
    permissionDecision: { decision: "accept", source: "config", reasonType: "rule", ruleSource: "cliArg" },
  };
  switch (call.tool) {
    case "Bash": {
      const failed = d.chance(0.08);
      const out = text(c, n);
      return failed
        ? [
            userLine(
              c,
              [{ type: "tool_result", content: `Exit code 1\n${out}`, is_error: true, tool_use_id: call.id }],
              {},
              { toolUseResult: `Error: Exit code 1\n${out}`, sandboxed: false, ...after },
            ),
          ]
        : [
            userLine(
              c,
              [{ tool_use_id: call.id, type: "tool_result", content: out, is_error: false }],
              {},
              { toolUseResult: { stdout: out, stderr: "", interrupted: false, isImage: false, noOutputExpected: false }, sandboxed: false, ...after },
            ),
          ];
    }
    case "Read": {
      const body = text(c, n);
      const file = String(call.input.file_path);
      const numbered = body
        .split("\n")
        .map((l, i) => `${i + 1}\t${l}`)
        .join("\n");
      return [
        userLine(
          c,
          [{ tool_use_id: call.id, type: "tool_result", content: numbered }],
          {},
          {
            toolUseResult: { type: "text", file: { filePath: file, content: body, numLines: numbered.split("\n").length, startLine: 1, totalLines: 400 } },
            ...after,
          },
        ),
      ];
    }
    case "Skill": {
      const skill = String(call.input.skill);
      if (d.chance(0.1)) {
        const err = `Unknown skill: ${skill}`;
        return [
          userLine(
            c,
            [{ type: "tool_result", content: `<tool_use_error>${err}</tool_use_error>`, is_error: true, tool_use_id: call.id }],
            {},
            { toolUseResult: `Error: ${err}`, ...after },
          ),
        ];
      }
      const r = userLine(
        c,
        [{ type: "tool_result", tool_use_id: call.id, content: `Launching skill: ${skill}` }],
        {},
        { toolUseResult: { success: true, commandName: skill }, ...after },
      );
      const body = userLine(
        c,
        [{ type: "text", text: `Base directory for this skill: ${c.cwd}/.claude/skills/${skill}\n\n# ${skill}\n${text(c, d.int(800, 3000))}` }],
        { isMeta: true, turnCompanion: true },
        { sourceToolUseID: call.id },
      );
      return [r, body];
    }
    case "Agent": {
      const msg = `Async agent launched successfully.\nagentId: ${call.agentId} (internal ID - do not mention to user.)\nThe agent is working in the background. You will be notified automatically when it completes.`;
      return [
        userLine(
          c,
          [{ tool_use_id: call.id, type: "tool_result", content: [{ type: "text", text: msg }] }],
          {},
          {
            toolUseResult: {
              isAsync: true,
              status: "async_launched",
              agentId: call.agentId,
              description: "sub",
              resolvedModel: MODEL,
              prompt: call.input.prompt,
              canReadOutputFile: true,
              canContinueAgent: true,
            },
            ...after,
          },
        ),
      ];
    }
    case "Edit": {
      // As in real files: the result carries the whole original file (often tens of KB).
      const file = String(call.input.file_path);
      const patch = [{ oldStart: 10, oldLines: 3, newStart: 10, newLines: 4, lines: [`-${call.input.old_string}`, `+${call.input.new_string}`] }];
      return [
        userLine(
          c,
          [{ tool_use_id: call.id, type: "tool_result", content: `The file ${file} has been updated successfully.` }],
          {},
          {
            toolUseResult: {
              filePath: file,
              oldString: call.input.old_string,
              newString: call.input.new_string,
              originalFile: text(c, d.lognormal(6000, 1, 300, 80_000)),
              structuredPatch: patch,
              userModified: false,
              replaceAll: false,
            },
            ...after,
          },
        ),
      ];
    }
    case "Write": {
      const file = String(call.input.file_path);
      return [
        userLine(
          c,
          [{ tool_use_id: call.id, type: "tool_result", content: `File created successfully at: ${file}` }],
          {},
          { toolUseResult: { type: "create", filePath: file, content: call.input.content, structuredPatch: [] }, ...after },
        ),
      ];
    }
    default: {
      const out = text(c, n);
      return [userLine(c, [{ tool_use_id: call.id, type: "tool_result", content: out }], {}, { toolUseResult: { result: out.slice(0, 200) }, ...after })];
    }
  }
}

// ---------- sessions ----------
const PROMPTS: [number, string][] = [
  [20, "fix the failing test in the parser"],
  [10, "please check the логи"],
  [8, "add a --json flag to the report"],
  [6, "prepare the release notes"],
  [6, "code review of the last change please"],
  [5, "обнови перевод в docs/guide_RU.md"],
  [5, "deploy to the стенд and check it"],
  [5, "refactor the state store"],
  [4, "write a blog post draft about hooks"],
  [4, "add a migration for the index"],
  [4, "bump the dependencies"],
  [3, "prepare a handoff for the next session"],
  [20, "continue"],
  [10, "why does this fail?"],
];
const FINALS: [number, string][] = [
  [30, "✅ Готово"],
  [25, "Done. The tests pass."],
  [20, "I made the change and ran the tests."],
  [15, "Here is what I found in the logs."],
  [10, "готово, проверил"],
];

class Out {
  private buf: string[] = [];
  private size = 0;
  bytes = 0;
  lines = 0;
  constructor(private readonly fd: number) {}
  push(obj: unknown): void {
    const s = JSON.stringify(obj) + "\n";
    this.buf.push(s);
    this.size += s.length;
    this.lines++;
    if (this.size > 1 << 20) this.flush();
  }
  flush(): void {
    if (!this.buf.length) return;
    const b = Buffer.from(this.buf.join(""), "utf8");
    fs.writeSync(this.fd, b);
    this.bytes += b.length;
    this.buf = [];
    this.size = 0;
  }
  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

function writeSubagent(c: Ctx, dir: string, call: Call, res: GenResult): void {
  const d = c.d;
  const sub = path.join(dir, c.sessionId, "subagents");
  fs.mkdirSync(sub, { recursive: true });
  const file = path.join(sub, `agent-${call.agentId}.jsonl`);
  fs.writeFileSync(
    `${file.slice(0, -6)}.meta.json`,
    JSON.stringify({
      agentType: call.input.subagent_type,
      isBuiltIn: true,
      launchedWithDefaults: true,
      description: "sub",
      toolUseId: call.id,
      spawnDepth: 1,
      requestShape: "background",
      model: MODEL,
      finished: true,
    }),
  );
  const out = new Out(fs.openSync(file, "w"));
  const sc: Ctx = { ...c, agentId: call.agentId, parent: null, cacheRead: 12_000 };
  out.push(userLine(sc, String(call.input.prompt)));
  for (const a of ["deferred_tools_delta", "environment", "model", "skill_listing"]) out.push(attachmentLine(sc, { type: a, elided: true }, "system"));
  const steps = d.int(2, 14);
  for (let i = 0; i < steps; i++) {
    const call2 = makeCall(
      sc,
      d.weighted([
        [5, "Bash"],
        [4, "Read"],
        [1, "Grep"],
      ] as [number, Tool][]),
    );
    const [a] = assistantLines(sc, [{ type: "tool_use", id: call2.id, name: call2.tool, input: call2.input }], "tool_use");
    out.push(a);
    for (const r of resultLines(sc, call2, a!.uuid as string)) out.push(r);
  }
  for (const a of assistantLines(sc, [{ type: "text", text: "sub finished" }], "end_turn")) out.push(a);
  out.close();
  res.subagentFiles++;
  res.bytes += out.bytes;
  res.lines += out.lines;
  c.t = Math.max(c.t, sc.t);
}

function compaction(c: Ctx, out: Out): void {
  const d = c.d;
  out.push({ type: "queue-operation", operation: "enqueue", timestamp: stamp(c, 5), sessionId: c.sessionId, content: "/compact" });
  const boundary = d.uuid();
  const pre = c.cacheRead;
  out.push({
    parentUuid: null,
    logicalParentUuid: c.parent,
    isSidechain: false,
    type: "system",
    subtype: "compact_boundary",
    content: "Conversation compacted",
    isMeta: false,
    timestamp: stamp(c, 40_000),
    uuid: boundary,
    level: "info",
    compactMetadata: { trigger: d.chance(0.7) ? "auto" : "manual", preTokens: pre, durationMs: 41_000, postTokens: 9000 },
    ...envelopeTail(c),
  });
  c.parent = boundary;
  c.promptId = d.uuid();
  out.push(
    userLine(
      c,
      `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n${text(c, d.int(3000, 12000))}`,
      {},
      { isVisibleInTranscriptOnly: true, isCompactSummary: true },
    ),
  );
  c.cacheRead = 9000;
}

function writeSession(d: Dice, corpus: string, dir: string, target: number, now: number, res: GenResult): void {
  const sessionId = d.uuid();
  const start = now - d.int(1, 6 * 86_400_000);
  const c: Ctx = {
    d,
    corpus,
    sessionId,
    cwd: `/home/dev/${path.basename(dir).replace(/^-home-dev-/, "")}`,
    branch: "main",
    slug: "",
    t: start,
    parent: null,
    promptId: d.uuid(),
    cacheRead: 15_000,
  };
  const file = path.join(dir, `${sessionId}.jsonl`);
  const out = new Out(fs.openSync(file, "w"));
  let sinceCompact = 0;
  let first = true;
  while (out.bytes < target) {
    const before = out.bytes;
    c.promptId = d.uuid();
    // The prompt: typed words, or (sometimes, first turn) a slash command that loads a skill.
    let prompt = d.weighted(PROMPTS);
    out.push({ type: "queue-operation", operation: "enqueue", timestamp: stamp(c, d.int(2000, 120_000)), sessionId, content: prompt });
    out.push({ type: "queue-operation", operation: "dequeue", timestamp: stamp(c, 3), sessionId });
    if (first && d.chance(0.06)) {
      const skill = d.pick(SKILLS);
      prompt = `/${skill} please`;
      out.push(userLine(c, `<command-message>${skill}</command-message>\n<command-name>/${skill}</command-name>\n<command-args>please</command-args>`));
      out.push(
        userLine(
          c,
          [{ type: "text", text: `Base directory for this skill: ${c.cwd}/.claude/skills/${skill}\n\n# ${skill}\n${text(c, 1500)}\n\nARGUMENTS: please` }],
          { isMeta: true, turnCompanion: true },
        ),
      );
    } else {
      out.push(userLine(c, prompt, {}, { permissionMode: "default", promptSource: "cli" }));
    }
    if (first) {
      c.slug = "polymorphic-mapping-treasure";
      for (const a of ["environment", "model", "deferred_tools_delta", "agent_listing_delta", "skill_listing"])
        out.push(attachmentLine(c, { type: a, elided: true }, "system"));
      out.push(attachmentLine(c, { type: "session_context", elided: true }, "user"));
      out.push(attachmentLine(c, { type: "date", date: new Date(c.t).toISOString().slice(0, 10) }, "system"));
      first = false;
    }
    out.push(attachmentLine(c, { type: "prompt_snapshot", elided: true }));
    out.push({ type: "last-prompt", lastPrompt: prompt, leafUuid: c.parent, sessionId });
    // Steps: one response (1-3 tool calls, one line each) and its results.
    const steps = d.weighted([
      [30, () => d.int(1, 4)],
      [50, () => d.int(5, 14)],
      [20, () => d.int(15, 40)],
    ] as const)();
    const used = new Set<string>();
    for (let s = 0; s < steps; s++) {
      const calls = Array.from(
        {
          length: d.weighted([
            [70, 1],
            [20, 2],
            [10, 3],
          ] as [number, number][]),
        },
        () => makeCall(c, d.weighted(TOOL_MIX)),
      );
      for (const k of calls) used.add(k.tool);
      if (d.chance(0.5)) out.push({ type: "tools-used", tools: [...used], sessionId });
      if (d.chance(0.3)) out.push({ type: "atis-latch", atis: "", sessionId });
      const blocks: Record<string, unknown>[] = calls.map((k) => ({ type: "tool_use", id: k.id, name: k.tool, input: k.input }));
      if (d.chance(0.25)) blocks.unshift({ type: "text", text: d.chance(0.3) ? ruText(c, d.int(40, 300)) : text(c, d.int(40, 400)) });
      const lines = assistantLines(c, blocks, "tool_use");
      for (const l of lines) out.push(l);
      const aUuid = lines[lines.length - 1]!.uuid as string;
      for (const k of calls) {
        for (const r of resultLines(c, k, aUuid)) out.push(r);
        if (k.tool === "Agent") writeSubagent(c, dir, k, res);
      }
      if (d.chance(0.03)) out.push(attachmentLine(c, { type: "silent_turn_reminder", text: "The user hasn't heard from you in a while." }, "system"));
    }
    // The answer and the Stop hook's summary line.
    for (const l of assistantLines(c, [{ type: "text", text: d.weighted(FINALS) }], "end_turn")) out.push(l);
    const sum = d.uuid();
    out.push({
      parentUuid: c.parent,
      isSidechain: false,
      type: "system",
      subtype: "stop_hook_summary",
      hookCount: 1,
      hookInfos: [{ command: "/home/dev/.claude/hooks/log.sh", durationMs: d.int(5, 60) }],
      hookErrors: [],
      preventedContinuation: false,
      stopReason: "",
      hasOutput: false,
      level: "suggestion",
      timestamp: stamp(c, 50),
      uuid: sum,
      ...envelopeTail(c),
    });
    c.parent = sum;
    out.push({ type: "last-prompt", lastPrompt: prompt, leafUuid: sum, sessionId });
    out.flush();
    sinceCompact += out.bytes - before;
    if (sinceCompact > 2_500_000 && d.chance(0.8)) {
      compaction(c, out);
      sinceCompact = 0;
    }
  }
  out.close();
  const mtime = new Date(Math.min(c.t, now));
  fs.utimesSync(file, mtime, mtime);
  res.mainFiles++;
  res.sessions++;
  res.bytes += out.bytes;
  res.lines += out.lines;
}

export function generateHistory(opts: GenOptions): GenResult {
  const target = Math.round((opts.mb ?? 1024) * 1024 * 1024);
  const d = new Dice(rngOf(opts.seed ?? 1));
  const now = opts.now ?? Date.now();
  const corpus = corpusOf(d, 1 << 20);
  const res: GenResult = { bytes: 0, mainFiles: 0, subagentFiles: 0, sessions: 0, lines: 0 };
  for (const p of PROJECTS) fs.mkdirSync(path.join(opts.dir, p), { recursive: true });
  while (res.bytes < target) {
    const size = Math.min(d.lognormal(500_000, 1.2, 20_000, 60_000_000), Math.max(20_000, target - res.bytes));
    writeSession(d, corpus, path.join(opts.dir, d.pick(PROJECTS)), size, now, res);
  }
  return res;
}

async function main(argv: string[]): Promise<number> {
  const { parseWith } = await import("../cli/args.js");
  const f = parseWith(
    {
      summary: "write a synthetic Claude Code history",
      options: {
        out: { type: "string", value: "DIR", help: "where to write it" },
        mb: { type: "string", value: "MB", help: "how much", default: "1024" },
        seed: { type: "string", value: "N", help: "random seed", default: "1" },
      },
      operand: { name: "DIR", help: "same as --out" },
      examples: ["node --import tsx scripts/gen-history.ts --out /tmp/history --mb 64"],
    },
    argv,
  );
  const dir = f.get("out") ?? f.rest[0];
  if (!dir) {
    console.error("usage: node --import tsx scripts/gen-history.ts --out DIR [--mb 1024] [--seed 1]");
    return 2;
  }
  const t0 = performance.now();
  const r = generateHistory({ dir: path.resolve(dir), mb: Number(f.get("mb")), seed: Number(f.get("seed")) });
  console.log(
    `${(r.bytes / 1048576).toFixed(1)} MB in ${r.mainFiles} session files + ${r.subagentFiles} subagent files, ${r.lines} lines, into ${path.resolve(dir)} (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
