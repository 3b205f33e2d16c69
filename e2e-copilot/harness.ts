// Runs the real GitHub Copilot CLI (pinned in e2e-copilot/package.json)
// headless with `copilot -p` against the scripted Responses server, offline:
// COPILOT_OFFLINE=true and a BYOK provider on 127.0.0.1 (COPILOT_PROVIDER_BASE_URL,
// wire API "responses") — no GitHub sign-in, no network. Each project is a temp
// git repo with skillgate installed the way a user would
// (.github/hooks/skillgate.json) and its own HOME and skillgate state folder.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { installCopilot } from '../hooks/hosts/copilot/install.ts';
import { startMockResponses, type RecordedRequest, type Turn } from './mock-responses.ts';

export * from './mock-responses.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(HERE, '..');

/** The native binary from the platform package; COPILOT_BIN overrides it. */
export const COPILOT_BIN: string = process.env['COPILOT_BIN'] ?? join(HERE, 'node_modules/@github/copilot-linux-x64/copilot');

/** The hook bundle (what scripts/build.mjs makes as dist/hook-copilot.mjs), built once per run. */
export const HOOK = join(HERE, '.build', 'hook-copilot.mjs');
let built: Promise<void> | undefined;
export function buildHook(): Promise<void> {
  built ??= build({
    entryPoints: [join(ROOT, 'hooks/hosts/copilot/hook.ts')],
    outfile: HOOK,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  }).then(() => undefined);
  return built;
}

const temps: string[] = [];
process.on('exit', () => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
export function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), `skillgate-e2e-copilot-${prefix}-`));
  temps.push(d);
  return d;
}

// One HOME for the whole run: Copilot unpacks its ~150 MB runtime into ~/.cache on first start.
let sharedHome: string | undefined;
function home(): string {
  sharedHome ??= tempDir('home');
  return sharedHome;
}

export interface Project {
  repo: string;
  state: string;
}

/** A git repo with skillgate installed for Copilot (unless `install: false`) and the given skills in .github/skills. */
export async function project(skills: string[] = [], opts: { install?: boolean } = {}): Promise<Project> {
  await buildHook();
  const repo = tempDir('repo');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'E2E Test');
  git('config', 'user.email', 'e2e@example.invalid');
  git('config', 'commit.gpgsign', 'false');
  cpSync(join(ROOT, 'README.md'), join(repo, 'README.md'));
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  if (opts.install ?? true) installCopilot({ project: repo, runtime: process.execPath, hookPath: HOOK });
  for (const s of skills) cpSync(join(ROOT, 'skills', s), join(repo, '.github', 'skills', s), { recursive: true });
  mkdirSync(join(repo, '.github'), { recursive: true });
  return { repo, state: tempDir('state') };
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
  const args = ['-p', o.prompt, '--allow-all-tools', '--trust-folder', '--no-auto-update', '--model', 'gpt-5.5', '--disable-client-telemetry'];
  try {
    return await new Promise<RunResult>((resolveRun) => {
      const child = spawn(COPILOT_BIN, args, {
        cwd: p.repo,
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          HOME: home(),
          LANG: 'C.UTF-8',
          SKILLGATE_STATE: p.state,
          COPILOT_OFFLINE: 'true',
          COPILOT_PROVIDER_BASE_URL: mock.baseUrl,
          COPILOT_PROVIDER_WIRE_API: 'responses',
          COPILOT_PROVIDER_API_KEY: 'e2e',
          ...o.env,
        },
      });
      let stdout = '';
      let stderr = '';
      let timedOut = false;
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdin.end();
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, o.timeoutMs ?? 90_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolveRun({ requests: mock.requests, main: mock.mainRequests(), exitCode: code, stdout, stderr, timedOut });
      });
    });
  } finally {
    await mock.close();
  }
}
