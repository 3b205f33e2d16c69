// Runs the real Gemini CLI (pinned in e2e-gemini/package.json) headless with
// `gemini -p … --yolo -o json` against the scripted generateContent server
// (GOOGLE_GEMINI_BASE_URL on 127.0.0.1, a dummy GEMINI_API_KEY: no network), in a
// temp git repo with its own HOME and skillgate state folder. skillgate is
// installed the way a user would: hooks in <repo>/.gemini/settings.json; the
// folder is trusted through GEMINI_CLI_TRUST_WORKSPACE=true (headless trust).
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { builtHook, initRepo, runCli, tempDirIn } from "../e2e-shared/harness.ts";
import { installGemini } from "../hooks/hosts/gemini/install.ts";
import { startMockGemini, type RecordedRequest, type Turn } from "./mock-gemini.ts";

export * from "./mock-gemini.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, "..");

/** The CLI's bundled entry; GEMINI_BIN overrides it. */
export const GEMINI_BIN: string = process.env["GEMINI_BIN"] ?? join(HERE, "node_modules/@google/gemini-cli/bundle/gemini.js");

/** The hook as install writes it (dist/hook-gemini.cjs, the Node route); `npm run test:e2e-gemini` builds it first. */
export const HOOK = join(ROOT, "dist", "hook-gemini.cjs");
export const buildHook = async (): Promise<void> => void builtHook(ROOT, "gemini");

export const tempDir = (prefix: string): string => tempDirIn("gemini", prefix);

export interface Project {
  repo: string;
  home: string;
  state: string;
}

/** A git repo with skillgate installed for Gemini CLI and the given skills in .gemini/skills. */
export async function project(skills: string[] = [], opts: { install?: boolean } = {}): Promise<Project> {
  await buildHook();
  const repo = tempDir("repo");
  initRepo(repo, { "README.md": "old\n" });
  const home = tempDir("home");
  mkdirSync(join(home, ".gemini"), { recursive: true });
  // API-key auth (the key is a dummy: every request goes to the loopback server).
  writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }, null, 2));
  if (opts.install ?? true) installGemini({ project: repo, runtime: process.execPath, hookPath: HOOK, env: { HOME: home } });
  for (const s of skills) cpSync(join(ROOT, "skills", s), join(repo, ".gemini", "skills", s), { recursive: true });
  return { repo, home, state: tempDir("state") };
}

export interface RunResult {
  requests: RecordedRequest[];
  main: RecordedRequest[];
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface RunOptions {
  prompt: string;
  script: Turn[];
  sideText?: string;
  timeoutMs?: number;
}

export async function run(p: Project, o: RunOptions): Promise<RunResult> {
  const mock = await startMockGemini({ script: o.script, ...(o.sideText ? { sideText: o.sideText } : {}) });
  const args = [GEMINI_BIN, "-p", o.prompt, "--yolo", "-m", "gemini-2.5-flash", "-o", "json"];
  try {
    const env = {
      PATH: process.env["PATH"] ?? "/usr/bin:/bin",
      HOME: p.home,
      GEMINI_API_KEY: "e2e-dummy-key",
      GOOGLE_GEMINI_BASE_URL: mock.baseUrl,
      GEMINI_CLI_TRUST_WORKSPACE: "true",
      SKILLGATE_STATE: p.state,
      LANG: "C.UTF-8",
    };
    const r = await runCli(process.execPath, args, { cwd: p.repo, env, timeoutMs: o.timeoutMs ?? 120_000 });
    return { requests: mock.requests, main: mock.mainRequests(), ...r };
  } finally {
    await mock.close();
  }
}
