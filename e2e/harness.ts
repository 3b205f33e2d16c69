// Runs the real Claude Code binary (pinned in e2e/package.json) headless
// against the scripted mock API, in an isolated HOME and a temp git repo.
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockApi, type RecordedRequest, type SubagentScripts, type Turn } from "./mock-api.ts";

export * from "./mock-api.ts";

const E2E_DIR = dirname(fileURLToPath(import.meta.url));

/**
 * The native binary from the platform package. It runs directly (no Node 22
 * needed, no dependence on the wrapper's postinstall). CLAUDE_BIN overrides it,
 * e.g. to run the suite against another version.
 */
export const CLAUDE_BIN: string = process.env["CLAUDE_BIN"] ?? join(E2E_DIR, "node_modules/@anthropic-ai/claude-code-linux-x64/claude");

export const DEFAULT_TIMEOUT_MS = 90_000;

/** One parsed line of `--output-format stream-json --verbose`. */
export interface StreamEvent {
  type: string;
  subtype?: string;
  session_id?: string;
  [k: string]: unknown;
}

export interface RunOptions {
  prompt: string;
  /** Working directory: normally a repo from makeTempRepo(). */
  cwd: string;
  /** Written to <cwd>/.claude/settings.json before the run (overwriting it). */
  settings?: object;
  /** Passed as --plugin-dir. */
  pluginDir?: string;
  /** Session id to pass as --resume (use the same `home` as the first run: transcripts live there). */
  resume?: string;
  /** HOME for the run; default: a fresh temp dir. */
  home?: string;
  script: Turn[];
  subagentScripts?: SubagentScripts;
  /** Summary the mock writes when asked to compact (default COMPACT-SUMMARY). */
  compactSummary?: string;
  extraArgs?: string[];
  /** Extra environment, applied over the harness's own. */
  env?: Record<string, string>;
  /** Tools allowed by name (bypass-permission modes are refused as root). */
  allowedTools?: string;
  timeoutMs?: number;
}

export interface RunResult {
  events: StreamEvent[];
  requests: RecordedRequest[];
  /** From the stream's `system/init` (or any event carrying session_id). */
  sessionId: string | undefined;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  home: string;
  durationMs: number;
}

/** Every temp folder a run made: removed when the process exits (SKILLGATE_E2E_KEEP=1 keeps them to look at). */
const made: string[] = [];
process.on("exit", () => {
  if (process.env.SKILLGATE_E2E_KEEP) return;
  for (const dir of made) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      /* best effort: a folder still in use is left */
    }
  }
});

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `skillgate-e2e-${prefix}-`));
  made.push(dir);
  return dir;
}

/** A fresh git repo with a local identity (so `git commit` works) and one commit. */
export function makeTempRepo(): string {
  const dir = tempDir("repo");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "E2E Test");
  git("config", "user.email", "e2e@example.invalid");
  git("config", "commit.gpgsign", "false");
  writeFileSync(join(dir, "README.md"), "# e2e\n");
  git("add", ".");
  git("commit", "-q", "-m", "init");
  return dir;
}

/** Writes <repo>/.claude/settings.json. */
export function writeSettings(repo: string, settings: object): string {
  const file = join(repo, ".claude", "settings.json");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(settings, null, 2) + "\n");
  return file;
}

/** Writes <repo>/.claude/skills/<name>/SKILL.md. */
export function writeSkill(repo: string, name: string, description: string, body: string): string {
  const file = join(repo, ".claude", "skills", name, "SKILL.md");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
  return file;
}

/** A hook entry in exec form: Claude Code runs it without a shell, args arrive verbatim. */
export function execHook(command: string, args: string[], timeout?: number) {
  return { type: "command", command, args, ...(timeout !== undefined ? { timeout } : {}) };
}

/** Path of a session's transcript under `home` (Claude Code keys project dirs by cwd, '/' and '.' → '-'). */
export function transcriptPath(home: string, cwd: string, sessionId: string): string {
  return join(home, ".claude", "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"), `${sessionId}.jsonl`);
}

export function readJsonl<T = Record<string, unknown>>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as T);
}

/** All descendants of `root`, from /proc (Linux; the pinned binary is linux-x64 anyway). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // stat is "pid (comm) state ppid ...": comm may hold spaces, so parse after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      /* process exited meanwhile */
    }
  }
  const out: number[] = [];
  const todo = [root];
  while (todo.length) for (const c of children.get(todo.pop()!) ?? []) out.push(c), todo.push(c);
  return out;
}

export async function runClaude(opts: RunOptions): Promise<RunResult> {
  const started = Date.now();
  if (opts.settings) writeSettings(opts.cwd, opts.settings);
  const home = opts.home ?? tempDir("home");
  const api = await startMockApi({
    script: opts.script,
    subagentScripts: opts.subagentScripts,
    compactSummary: opts.compactSummary,
  });

  const args = ["-p", opts.prompt, "--output-format", "stream-json", "--verbose", "--allowedTools", opts.allowedTools ?? "Bash Read Write Edit Skill Agent"];
  if (opts.pluginDir) args.push("--plugin-dir", opts.pluginDir);
  if (opts.resume) args.push("--resume", opts.resume);
  args.push(...(opts.extraArgs ?? []));

  const env: NodeJS.ProcessEnv = {
    // Keep PATH (hooks and Bash need git/node); drop everything else from the
    // outer environment so a developer's ANTHROPIC_* / CLAUDE_* cannot leak in.
    PATH: process.env["PATH"],
    LANG: "C.UTF-8",
    HOME: home,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "test",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    ...opts.env,
  };

  // detached: the binary gets its own process group, so a timeout kills it
  // together with the hooks and Bash commands it started.
  const child = spawn(CLAUDE_BIN, args, { cwd: opts.cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    // Claude Code starts hooks in their own process groups, so killing our
    // group is not enough: collect the whole process tree first, then kill it.
    const pids = [child.pid!, ...descendants(child.pid!)];
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* already gone */
    }
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
  }, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);

  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve(code));
  }).finally(() => clearTimeout(timer));
  await api.close();

  const events: StreamEvent[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line) as StreamEvent);
    } catch {
      // non-JSON noise on stdout: keep it visible through `stdout`
    }
  }
  const sessionId =
    events.find((e) => e.type === "system" && e.subtype === "init")?.session_id ?? events.find((e) => typeof e.session_id === "string")?.session_id;

  return { events, requests: api.requests, sessionId, exitCode, stdout, stderr, timedOut, home, durationMs: Date.now() - started };
}

/** `claude -p "/compact" --resume <id>`: compacts a session made by an earlier run (same cwd and home). */
export function compact(prev: RunResult, cwd: string, extra: Partial<RunOptions> = {}): Promise<RunResult> {
  if (!prev.sessionId) throw new Error("compact: the previous run has no session id");
  return runClaude({ prompt: "/compact", cwd, home: prev.home, resume: prev.sessionId, script: [], ...extra });
}

/** Main-thread requests only (what "the model" saw in the session's own turns). */
export function mainRequests(r: RunResult): RecordedRequest[] {
  return r.requests.filter((q) => q.kind === "main");
}
