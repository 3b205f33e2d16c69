// Runs the real Codex CLI (pinned in e2e-codex/package.json) headless with
// `codex exec --json` against the scripted Responses server, in a temp git
// repo with its own CODEX_HOME, HOME and skillgate state folder. skillgate is
// installed the way a user would: hooks in <repo>/.codex/hooks.json, trusted
// through [hooks.state] in $CODEX_HOME/config.toml (no bypass flag).
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { installCodex } from '../hooks/hosts/codex/install.ts';
import { startMockResponses, type RecordedRequest, type Turn } from './mock-responses.ts';

export * from './mock-responses.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '..');

/** The native binary from the platform package; CODEX_BIN overrides it. */
export const CODEX_BIN: string =
  process.env['CODEX_BIN'] ?? join(HERE, 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex');

/** The hook bundle (what scripts/build.mjs makes as dist/hook-codex.mjs), built once per run beside the checkout. */
export const HOOK = join(HERE, '.build', 'hook-codex.mjs');
let built: Promise<void> | undefined;
export function buildHook(): Promise<void> {
  built ??= build({
    entryPoints: [join(ROOT, 'hooks/hosts/codex/hook.ts')],
    outfile: HOOK,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  }).then(() => undefined);
  return built;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `skillgate-e2e-codex-${prefix}-`));
}

export interface Project {
  repo: string;
  codexHome: string;
  home: string;
  state: string;
}

/** A git repo with skillgate installed for Codex (hooks trusted) and the given skills in .agents/skills. */
export async function project(skills: string[] = [], opts: { trust?: boolean } = {}): Promise<Project> {
  await buildHook();
  const repo = tempDir('repo');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'E2E Test');
  git('config', 'user.email', 'e2e@example.invalid');
  git('config', 'commit.gpgsign', 'false');
  writeFileSync(join(repo, 'README.md'), 'old\n');
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  const home = tempDir('home');
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  // The project's .codex layer loads only for a trusted project.
  writeFileSync(join(codexHome, 'config.toml'), `[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n`);
  installCodex({ project: repo, runtime: process.execPath, hookPath: HOOK, trust: opts.trust ?? true, env: { CODEX_HOME: codexHome, HOME: home } });
  for (const s of skills) cpSync(join(ROOT, 'skills', s), join(repo, '.agents', 'skills', s), { recursive: true });
  return { repo, codexHome, home, state: tempDir('state') };
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
  const config = join(p.codexHome, 'config.toml');
  appendFileSync(config, '');
  const args = [
    'exec', '--json', '--dangerously-bypass-approvals-and-sandbox',
    '-c', 'model="gpt-5.5"', '-c', 'model_provider="mock"',
    '-c', `model_providers.mock={ name = "mock", base_url = ${JSON.stringify(mock.baseUrl)}, wire_api = "responses" }`,
    ...(o.extraArgs ?? []),
  ];
  try {
    return await new Promise<RunResult>((resolveRun) => {
      const child = spawn(CODEX_BIN, args, {
        cwd: p.repo,
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: p.home, CODEX_HOME: p.codexHome, SKILLGATE_STATE: p.state, LANG: 'C.UTF-8' },
      });
      let stdout = '';
      let stderr = '';
      let timedOut = false;
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdin.end(o.prompt);
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, o.timeoutMs ?? 90_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        const events = stdout
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        resolveRun({ requests: mock.requests, main: mock.mainRequests(), events, exitCode: code, stdout, stderr, timedOut });
      });
    });
  } finally {
    await mock.close();
  }
}

export { existsSync };
