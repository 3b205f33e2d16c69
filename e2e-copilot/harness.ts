// Runs the real GitHub Copilot CLI (pinned in e2e-copilot/package.json)
// headless with `copilot -p` against the scripted Responses server, offline:
// COPILOT_OFFLINE=true and a BYOK provider on 127.0.0.1 (COPILOT_PROVIDER_BASE_URL,
// wire API "responses") — no GitHub sign-in, no network. Each project is a temp
// git repo with skillgate installed the way a user would
// (.github/hooks/skillgate.json) and its own HOME and skillgate state folder.
import { cpSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { builtHook, initRepo, runCli, tempDirIn } from "../e2e-shared/harness.ts";
import { installCopilot } from "../hooks/hosts/copilot/install.ts";
import { startMockResponses, type RecordedRequest, type Turn } from "./mock-responses.ts";

export * from "./mock-responses.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, "..");

/** The native binary from the platform package; COPILOT_BIN overrides it. */
export const COPILOT_BIN: string = process.env["COPILOT_BIN"] ?? join(HERE, "node_modules/@github/copilot-linux-x64/copilot");

/** The hook as install writes it (dist/hook-copilot.cjs, the Node route); `npm run test:e2e-copilot` builds it first. */
export const HOOK = join(ROOT, "dist", "hook-copilot.cjs");
export const buildHook = async (): Promise<void> => void builtHook(ROOT, "copilot");

export const tempDir = (prefix: string): string => tempDirIn("copilot", prefix);

// One HOME for the whole run: Copilot unpacks its ~150 MB runtime into ~/.cache on first start.
let sharedHome: string | undefined;
function home(): string {
  sharedHome ??= tempDir("home");
  return sharedHome;
}

export interface Project {
  repo: string;
  state: string;
}

/** A git repo with skillgate installed for Copilot (unless `install: false`) and the given skills in .github/skills. */
export async function project(skills: string[] = [], opts: { install?: boolean } = {}): Promise<Project> {
  await buildHook();
  const repo = tempDir("repo");
  initRepo(repo, { "README.md": readFileSync(join(ROOT, "README.md"), "utf8") });
  if (opts.install ?? true) installCopilot({ project: repo, runtime: process.execPath, hookPath: HOOK });
  for (const s of skills) cpSync(join(ROOT, "skills", s), join(repo, ".github", "skills", s), { recursive: true });
  mkdirSync(join(repo, ".github"), { recursive: true });
  return { repo, state: tempDir("state") };
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
  env?: Record<string, string>;
  timeoutMs?: number;
}

export async function run(p: Project, o: RunOptions): Promise<RunResult> {
  const mock = await startMockResponses({ script: o.script });
  // --trust-folder: this one session loads the repository's hooks and skills (as a user trusting the folder would).
  const args = ["-p", o.prompt, "--allow-all-tools", "--trust-folder", "--no-auto-update", "--model", "gpt-5.5", "--disable-client-telemetry"];
  try {
    const env = {
      PATH: process.env["PATH"] ?? "/usr/bin:/bin",
      HOME: home(),
      LANG: "C.UTF-8",
      SKILLGATE_STATE: p.state,
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: mock.baseUrl,
      COPILOT_PROVIDER_WIRE_API: "responses",
      COPILOT_PROVIDER_API_KEY: "e2e",
      ...o.env,
    };
    const r = await runCli(COPILOT_BIN, args, { cwd: p.repo, env, timeoutMs: o.timeoutMs ?? 90_000 });
    return { requests: mock.requests, main: mock.mainRequests(), ...r };
  } finally {
    await mock.close();
  }
}
