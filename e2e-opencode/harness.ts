// Runs the real opencode binary (pinned in e2e-opencode/package.json) headless
// (`opencode run --format json`) against the scripted Anthropic Messages mock
// of the Claude Code suite, in an isolated HOME and a temp git repo.
// opencode talks to the mock through a custom provider: npm "@ai-sdk/anthropic"
// (bundled in the binary) with options.baseURL on loopback.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { initRepo, tempDirIn } from "../e2e-shared/harness.ts";
import { startMockApi, type RecordedRequest, type SubagentScripts, type Turn } from "../e2e/mock-api.ts";

export * from "../e2e/mock-api.ts";

const DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(DIR, "..");
/** The version e2e-opencode/package.json pins: opencode installs @opencode-ai/plugin of its own version into config dirs. */
export const OPENCODE_VERSION = "1.18.33";

/** The native binary from the platform package; OPENCODE_BIN overrides it. */
export const OPENCODE_BIN: string = process.env["OPENCODE_BIN"] ?? join(DIR, "node_modules/opencode-linux-x64/bin/opencode");

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MODEL = "claude-e2e";

/** One line of `opencode run --format json`. */
export interface RunEvent {
  type: string;
  sessionID?: string;
  part?: Record<string, unknown> & { type?: string; tool?: string; state?: Record<string, unknown> };
  [k: string]: unknown;
}

export interface RunOptions {
  prompt: string;
  cwd: string;
  script: Turn[];
  subagentScripts?: SubagentScripts;
  home?: string;
  env?: Record<string, string>;
  /** Model limits written into opencode.json (a small context makes opencode compact on its own). */
  limit?: { context: number; output: number };
  timeoutMs?: number;
  extraArgs?: string[];
}

export interface RunResult {
  events: RunEvent[];
  requests: RecordedRequest[];
  sessionId: string | undefined;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  home: string;
  durationMs: number;
}

/** Kept after the run (as before the shared harness). */
export const tempDir = (prefix: string): string => tempDirIn("oc", prefix, { keep: true });

/** A fresh git repo with a local identity and one commit. */
export function makeTempRepo(): string {
  const dir = tempDir("repo");
  initRepo(dir, { "README.md": "# e2e\n", ".gitignore": ".opencode/\n" });
  return dir;
}

/**
 * opencode installs @opencode-ai/plugin into every config dir (.opencode/,
 * ~/.config/opencode/) with npm and waits for it before loading plugins. It
 * skips the install when node_modules exists and package-lock.json already
 * lists every dependency (Npm.install, 1.18.33): make the dir look installed,
 * so a run needs no registry.
 */
export function markDepsInstalled(configDir: string): void {
  mkdirSync(join(configDir, "node_modules"), { recursive: true });
  const deps = { "@opencode-ai/plugin": OPENCODE_VERSION };
  writeFileSync(join(configDir, "package.json"), JSON.stringify({ dependencies: deps }, null, 2));
  writeFileSync(join(configDir, "package-lock.json"), JSON.stringify({ lockfileVersion: 3, packages: { "": { dependencies: deps } } }, null, 2));
}

/** Writes <repo>/.claude/skills/<name>/SKILL.md (opencode discovers .claude/skills). */
export function writeSkill(repo: string, name: string, description: string, body: string): string {
  const file = join(repo, ".claude", "skills", name, "SKILL.md");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
  return file;
}

function writeConfig(cwd: string, url: string, limit: { context: number; output: number }): void {
  const config = {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    model: `mock/${MODEL}`,
    small_model: `mock/${MODEL}`,
    provider: {
      mock: {
        npm: "@ai-sdk/anthropic",
        name: "Mock",
        options: { baseURL: `${url}/v1`, apiKey: "test-key" },
        models: { [MODEL]: { name: MODEL, limit } },
      },
    },
  };
  writeFileSync(join(cwd, "opencode.json"), JSON.stringify(config, null, 2) + "\n");
}

export async function runOpencode(opts: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const home = opts.home ?? tempDir("home");
  markDepsInstalled(join(home, ".config", "opencode"));
  markDepsInstalled(join(opts.cwd, ".opencode"));
  const api = await startMockApi({ script: opts.script, subagentScripts: opts.subagentScripts });
  writeConfig(opts.cwd, api.url, opts.limit ?? { context: 200_000, output: 8_000 });

  const env: NodeJS.ProcessEnv = {
    PATH: process.env["PATH"],
    LANG: "C.UTF-8",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_SHARE: "1",
    ...opts.env,
  };
  const args = ["run", "--format", "json", "--print-logs", "--log-level", "INFO", ...(opts.extraArgs ?? []), opts.prompt];
  const child = spawn(OPENCODE_BIN, args, { cwd: opts.cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-(child.pid ?? 0), "SIGKILL");
    } catch {
      /* already gone */
    }
  }, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve(code));
  }).finally(() => clearTimeout(timer));
  await api.close();

  const events: RunEvent[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line) as RunEvent);
    } catch {
      /* non-JSON noise stays visible in stdout */
    }
  }
  const sessionId = events.find((e) => typeof e.sessionID === "string")?.sessionID;
  return { events, requests: api.requests, sessionId, exitCode, stdout, stderr, timedOut, home, durationMs: Date.now() - started };
}

/** Main-thread requests only (what "the model" saw in the session's own turns). */
export function mainRequests(r: RunResult): RecordedRequest[] {
  return r.requests.filter((q) => q.kind === "main");
}

/** The tool parts of the run's JSON stream (one per finished tool call). */
export function toolParts(r: RunResult): NonNullable<RunEvent["part"]>[] {
  return r.events.filter((e) => e.type === "tool_use" && e.part).map((e) => e.part as NonNullable<RunEvent["part"]>);
}
