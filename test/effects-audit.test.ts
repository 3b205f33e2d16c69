// The effects audit (hooks/io/effects-audit.ts) on a real repository: a
// commit, a push and a write made behind the analysis's back are found from
// reflog sizes, remote-tracking refs and file stamps; a checkout, a fetch of
// nothing and an untouched file are not. git runs here only to set the scene.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { snapshot, compare, watchedFiles } from "../hooks/io/effects-audit.ts";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    stdio: "pipe",
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: "1",
      HOME: cwd,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  }).toString();

function repo(): { dir: string; work: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-audit-"));
  const work = path.join(dir, "work");
  fs.mkdirSync(work);
  git(work, "init", "-q", "-b", "main");
  fs.mkdirSync(path.join(work, "docs"));
  fs.writeFileSync(path.join(work, "docs/a_RU.md"), "a\n");
  git(work, "add", "-A");
  git(work, "commit", "-qm", "first");
  git(dir, "init", "-q", "--bare", "remote.git");
  git(work, "remote", "add", "origin", path.join(dir, "remote.git"));
  return { dir, work };
}

test("a commit made behind the analysis's back is found; a checkout is not", () => {
  const { dir, work } = repo();
  try {
    const before = snapshot(work);
    git(work, "checkout", "-qb", "feature");
    assert.deepEqual(compare(before, work), [], "a new branch is no commit");
    const mid = snapshot(work);
    const from = git(work, "rev-parse", "HEAD").trim();
    git(work, "commit", "-q", "--allow-empty", "-m", "sneaky");
    const to = git(work, "rev-parse", "HEAD").trim();
    const found = compare(mid, work);
    assert.equal(found.length, 1);
    assert.equal(found[0]!.kind, "commit");
    // Where the branch was before and after: what the runner needs to take the commit back.
    assert.deepEqual(found[0], { kind: "commit", ref: "refs/heads/feature", message: "commit: sneaky", from, to });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a push moves a remote-tracking ref", () => {
  const { dir, work } = repo();
  try {
    const before = snapshot(work);
    git(work, "push", "-q", "origin", "main");
    const found = compare(before, work);
    assert.equal(found.filter((f) => f.kind === "push").length, 1);
    assert.equal(found[0]!.kind === "push" && found[0]!.ref, "refs/remotes/origin/main");
    assert.deepEqual(compare(snapshot(work), work), [], "nothing more happened");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a watched file that changed was written; others were not", () => {
  const { dir, work } = repo();
  try {
    fs.writeFileSync(path.join(work, "docs/b_EN.md"), "b\n");
    const watch = watchedFiles(work, (rel) => /_(RU|EN)\.md$/.test(rel)).sort();
    assert.deepEqual(watch, ["docs/a_RU.md", "docs/b_EN.md"]);
    const before = snapshot(work, watch);
    fs.appendFileSync(path.join(work, "docs/a_RU.md"), "more\n");
    const found = compare(before, work);
    assert.deepEqual(found, [{ kind: "write", path: path.join(work, "docs/a_RU.md") }]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("outside a repository: only watched files, no error", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-audit-"));
  try {
    const s = snapshot(dir, ["x_RU.md"]);
    assert.equal(s.gitDir, undefined);
    fs.writeFileSync(path.join(dir, "x_RU.md"), "new");
    assert.deepEqual(compare(s, dir), [{ kind: "write", path: path.join(dir, "x_RU.md") }], "a file that appeared was written");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("cost: a snapshot of this checkout takes well under a few ms", () => {
  snapshot(process.cwd());
  const t = performance.now();
  for (let i = 0; i < 20; i++) snapshot(process.cwd());
  const ms = (performance.now() - t) / 20;
  console.log(`effects snapshot of this checkout: ${ms.toFixed(2)} ms`);
  assert.ok(ms < 50, `${ms} ms`);
});
