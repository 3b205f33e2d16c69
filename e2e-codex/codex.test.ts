// skillgate under the real Codex CLI: each scenario runs `codex exec` against
// the scripted Responses server and checks what Codex did and what the model
// was told (the next request's input).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOutput, messages, project, run, type RunResult } from './harness.ts';

const sh = (cmd: string, callId: string) => ({ name: 'exec_command', arguments: { cmd }, callId });
const patch = (text: string, callId: string) => ({ name: 'apply_patch', input: text, callId });
const log = (repo: string) => execFileSync('git', ['log', '--format=%s'], { cwd: repo, encoding: 'utf8' }).trim().split('\n');

function ok(r: RunResult): void {
  assert.equal(r.timedOut, false, 'codex timed out');
  assert.equal(r.exitCode, 0, `codex exited ${r.exitCode}: ${r.stderr.slice(-800)}`);
}

/** What the model got back for a call: in the request after the call. */
function outputOf(r: RunResult, callId: string): string {
  for (const q of r.main) {
    const out = callOutput(q.body, callId);
    if (out !== undefined) return out;
  }
  assert.fail(`no output for ${callId} reached the model`);
}

test('commit refused before the skill is loaded; the reason reaches the model', async () => {
  const p = await project(['commit']);
  const r = await run(p, {
    prompt: 'make a commit',
    script: [{ calls: sh('git commit --allow-empty -m "feat: x"', 'c1') }, { text: 'blocked' }],
  });
  ok(r);
  const out = outputOf(r, 'c1');
  assert.match(out, /Command blocked by PreToolUse hook/);
  assert.match(out, /skill "?commit"?/i);
  assert.deepEqual(log(p.repo), ['init'], 'the commit must not have run');
});

test('control: without trust Codex skips the hooks, so the same commit runs (the trust entries are what make them run)', async () => {
  const p = await project(['commit'], { trust: false });
  const r = await run(p, {
    prompt: 'make a commit',
    script: [{ calls: sh('git commit --allow-empty -m "feat: x"', 'c1') }, { text: 'committed' }],
  });
  ok(r);
  assert.doesNotMatch(outputOf(r, 'c1'), /blocked by PreToolUse hook/);
  assert.deepEqual(log(p.repo), ['feat: x', 'init']);
});

test('skill loaded by reading its SKILL.md (Codex\'s route), then the commit is allowed', async () => {
  const p = await project(['commit']);
  const r = await run(p, {
    prompt: 'make a commit',
    script: [
      { calls: sh('cat .agents/skills/commit/SKILL.md', 'c1') },
      { calls: sh('git commit --allow-empty -m "feat: x"', 'c2') },
      { text: 'committed' },
    ],
  });
  ok(r);
  assert.doesNotMatch(outputOf(r, 'c2'), /blocked/);
  assert.deepEqual(log(p.repo), ['feat: x', 'init']);
});

test('a partial read of SKILL.md (head -3) loads nothing: the commit stays refused', async () => {
  const p = await project(['commit']);
  const r = await run(p, {
    prompt: 'make a commit',
    script: [
      { calls: sh('head -3 .agents/skills/commit/SKILL.md', 'c1') },
      { calls: sh('git commit --allow-empty -m "feat: x"', 'c2') },
      { text: 'blocked' },
    ],
  });
  ok(r);
  assert.match(outputOf(r, 'c2'), /Command blocked by PreToolUse hook/);
  assert.deepEqual(log(p.repo), ['init']);
});

test('$commit in the prompt loads the skill (Codex injects it), so the commit is allowed', async () => {
  const p = await project(['commit']);
  const r = await run(p, {
    prompt: '$commit then commit',
    script: [{ calls: sh('git commit --allow-empty -m "feat: y"', 'c1') }, { text: 'committed' }],
  });
  ok(r);
  assert.ok(messages(r.main[0]?.body, 'user').some((m) => m.includes('<skill>') && m.includes('<name>commit</name>')), 'Codex injected the skill');
  assert.deepEqual(log(p.repo), ['feat: y', 'init']);
});

test('apply_patch writing a *_RU.md is refused (paths from the envelope); reading it is allowed', async () => {
  const p = await project(['paired-docs']);
  const r = await run(p, {
    prompt: 'edit the docs',
    script: [
      { calls: patch('*** Begin Patch\n*** Add File: notes.txt\n+ok\n*** Add File: docs/guide_RU.md\n+привет\n*** End Patch\n', 'p1') },
      { calls: sh('cat README.md', 'c2') },
      { text: 'done' },
    ],
  });
  ok(r);
  const out = outputOf(r, 'p1');
  assert.match(out, /blocked by PreToolUse hook/);
  assert.match(out, /paired-docs/);
  assert.equal(existsSync(join(p.repo, 'docs/guide_RU.md')), false);
  assert.equal(existsSync(join(p.repo, 'notes.txt')), false, 'the whole patch is refused');
  assert.match(outputOf(r, 'c2'), /old/);
});

test('apply_patch moving a file onto *_RU.md is refused (*** Move to:)', async () => {
  const p = await project(['paired-docs']);
  const r = await run(p, {
    prompt: 'rename',
    script: [{ calls: patch('*** Begin Patch\n*** Update File: README.md\n*** Move to: README_RU.md\n@@\n-old\n+new\n*** End Patch\n', 'p1') }, { text: 'done' }],
  });
  ok(r);
  assert.match(outputOf(r, 'p1'), /blocked by PreToolUse hook/);
  assert.equal(existsSync(join(p.repo, 'README_RU.md')), false);
});

test('git push HEAD is blocked, with the reason', async () => {
  const p = await project([]);
  const r = await run(p, {
    prompt: 'push it',
    script: [{ calls: sh('git push origin HEAD', 'c1') }, { text: 'blocked' }],
  });
  ok(r);
  const out = outputOf(r, 'c1');
  assert.match(out, /Command blocked by PreToolUse hook/);
  assert.match(out, /bare HEAD/);
});

test('a keyword in the prompt adds the skill hint to the model\'s context', async () => {
  const p = await project(['release']);
  const r = await run(p, { prompt: 'prepare the release notes', script: [{ text: 'ok' }] });
  ok(r);
  const seen = JSON.stringify(r.main[0]?.body?.input ?? []);
  assert.match(seen, /release/);
  assert.match(seen, /skill/i);
  assert.ok(messages(r.main[0]?.body, 'developer').some((m) => m.includes('release')) || seen.includes('hook_context') || /Load the .*release/i.test(seen));
});
