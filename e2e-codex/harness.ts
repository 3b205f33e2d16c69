// Runs the real Codex CLI (pinned in e2e-codex/package.json) headless with
// `codex exec --json` against the scripted Responses server, in a temp git
// repo with its own CODEX_HOME, HOME and skillgate state folder. skillgate is
// installed the way a user would: hooks in <repo>/.codex/hooks.json, trusted
// through [hooks.state] in $CODEX_HOME/config.toml (no bypass flag).
import { cpSync, existsSync, mkdirSync, writeFileSync, appendFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { builtHook, initRepo, runCli, tempDirIn } from "../e2e-shared/harness.ts";
import { installCodex } from "../hooks/hosts/codex/install.ts";
import { startMockResponses, type RecordedRequest, type Turn } from "./mock-responses.ts";

export * from "./mock-responses.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, "..");

/** The native binary from the platform package; CODEX_BIN overrides it. */
export const CODEX_BIN: string = process.env["CODEX_BIN"] ?? join(HERE, "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex");

/** The hook as install writes it (dist/hook-codex.cjs, the Node route); `npm run test:e2e-codex` builds it first. */
export const HOOK = join(ROOT, "dist", "hook-codex.cjs");
export const buildHook = async (): Promise<void> => void builtHook(ROOT, "codex");

/** Kept after the run (as before the shared harness): a failed Codex run is read from its folders. */
export const tempDir = (prefix: string): string => tempDirIn("codex", prefix, { keep: true });

export interface Project {
  repo: string;
  codexHome: string;
  home: string;
  state: string;
}

/** A git repo with skillgate installed for Codex (hooks trusted) and the given skills in .agents/skills. */
export async function project(skills: string[] = [], opts: { trust?: boolean } = {}): Promise<Project> {
  await buildHook();
  const repo = tempDir("repo");
  initRepo(repo, { "README.md": "old\n" });
  const home = tempDir("home");
  const codexHome = join(home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  // The project's .codex layer loads only for a trusted project.
  writeFileSync(join(codexHome, "config.toml"), `[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n`);
  installCodex({ project: repo, runtime: process.execPath, hookPath: HOOK, trust: opts.trust ?? true, env: { CODEX_HOME: codexHome, HOME: home } });
  for (const s of skills) cpSync(join(ROOT, "skills", s), join(repo, ".agents", "skills", s), { recursive: true });
  return { repo, codexHome, home, state: tempDir("state") };
}

export interface RunResult {
  requests: RecordedRequest[];
  main: RecordedRequest[];
  events: Record<string, unknown>[];
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface RunOptions {
  prompt: string;
  script: Turn[];
  compactSummary?: string;
  extraArgs?: string[];
  timeoutMs?: number;
}

export async function run(p: Project, o: RunOptions): Promise<RunResult> {
  const mock = await startMockResponses({ script: o.script, ...(o.compactSummary ? { compactSummary: o.compactSummary } : {}) });
  // The model provider lives in the user config: a loopback Responses endpoint, no key, no network.
  const config = join(p.codexHome, "config.toml");
  appendFileSync(config, "");
  const args = [
    "exec",
    "--json",
    "--dangerously-bypass-approvals-and-sandbox",
    "-c",
    'model="gpt-5.5"',
    "-c",
    'model_provider="mock"',
    "-c",
    `model_providers.mock={ name = "mock", base_url = ${JSON.stringify(mock.baseUrl)}, wire_api = "responses" }`,
    ...(o.extraArgs ?? []),
  ];
  try {
    const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: p.home, CODEX_HOME: p.codexHome, SKILLGATE_STATE: p.state, LANG: "C.UTF-8" };
    const r = await runCli(CODEX_BIN, args, { cwd: p.repo, env, stdin: o.prompt, timeoutMs: o.timeoutMs ?? 90_000 });
    const events = r.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { requests: mock.requests, main: mock.mainRequests(), events, ...r };
  } finally {
    await mock.close();
  }
}

export { existsSync };
