// Content fingerprints. The expected values below were computed by hand from
// the procedure with coreutils, not with skillgate:
//   h() { sha256sum | cut -d' ' -f1; }
//   stream() { printf 'wealth-ledger-input-v1\0'; while IFS='|' read -r p k m d; do printf '%s\0%s\0%s\0%s\0' "$p" "$k" "$m" "$d"; done; }
//   printf '%s\n' "a.txt|file|100644|$(printf 'hello\n' | h)" ... | stream | h
// with entries ordered by `LC_ALL=C sort` (UTF-8 bytes). Each vector lists its entries.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import { fingerprint, FingerprintError, linkDigest, MAX_LINKED_FOLDER_ENTRIES, normalizeTasks } from "../hooks/io/fingerprint.ts";
import { StatCache, isRacy } from "../hooks/io/stat-cache.ts";
import { byUtf8 } from "../hooks/core/evidence.ts";
import { cliRun, root } from "./helpers.ts";

const tmp = (p = "sg-fp-") => fs.mkdtempSync(path.join(os.tmpdir(), p));
const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", "-c", "init.defaultBranch=main", ...args], { cwd, encoding: "utf8" });
  assert.equal(r.status, 0, `git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
};
const write = (dir: string, rel: string, text: string | Buffer, mode = 0o644) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text, { mode });
  fs.chmodSync(path.join(dir, rel), mode);
};

// Hand-computed payload digests (printf ... | sha256sum).
const D = {
  gitignore: "ce39427f3da8d48656229713bbc8803448c95881aebd33e06bd967a0cda737d1", // 'ign*\n'
  a: "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03", // 'hello\n'
  run: "299001868fb8c02fd431c336c6d058f5558c5dff5b5af5e6fe04b870a6a9cbba", // '#!/bin/sh\necho hi\n'
  // 'link\0a.txt\0file\0' + the digest of a.txt: a symlink is hashed by its text and what it points to
  link: "87a8946a2d6e80505c70860525dc26db9e8867c9bf72463a36de35ab5afaec31",
  ignored: "2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b", // 'secret'
  e: "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881", // 'x'
  f: "252f10c83610ebca1a059c0bae8255eba2f95be4d1d7bcfa89d7248a82d9f111", // 'f'
  s: "043a718774c572bd8a25adbeb1bfcd5c0256ae11cecf9f9c3f925d0e52beaf89", // 's'
};

/**
 * V1: tracked a.txt and executable run.sh; untracked .gitignore, a symlink,
 * three non-ASCII names whose UTF-8 order differs from UTF-16 order
 * (ｆ U+FF46 = EF BD 86 sorts before 😀 U+1F600 = F0 9F 98 80), an ignored file.
 */
function treeV1(): string {
  const d = tmp();
  git(d, "init", "-q", ".");
  write(d, ".gitignore", "ign*\n");
  write(d, "a.txt", "hello\n");
  write(d, "run.sh", "#!/bin/sh\necho hi\n", 0o755);
  fs.symlinkSync("a.txt", path.join(d, "link"));
  write(d, "ignored.txt", "secret");
  write(d, "ignored2.txt", "never named");
  write(d, "dir/é.txt", "x");
  write(d, "dir/ｆ.txt", "f");
  write(d, "dir/😀.txt", "s");
  git(d, "add", "a.txt", "run.sh");
  return d;
}

test("V1: executable, symlink, non-ASCII paths, an ignored file named explicitly", () => {
  const d = treeV1();
  const inv = fingerprint({ cwd: d, roots: [".", "ignored.txt"] });
  assert.deepEqual(
    inv.entries.map((e) => `${e.path}|${e.kind}|${e.mode}|${e.digest}`),
    [
      `.gitignore|file|100644|${D.gitignore}`,
      `a.txt|file|100644|${D.a}`,
      `dir/é.txt|file|100644|${D.e}`,
      `dir/ｆ.txt|file|100644|${D.f}`,
      `dir/😀.txt|file|100644|${D.s}`,
      `ignored.txt|file|100644|${D.ignored}`,
      `link|symlink|120000|${D.link}`,
      `run.sh|file|100755|${D.run}`,
    ],
  );
  assert.equal(inv.fingerprint, "sha256:9216a4ee03635bed62483bb1572d11be6f5edeb5908ff36f984da77d38d6050b");
  assert.deepEqual(inv.roots, [".", "ignored.txt"]);
  assert.equal(inv.cwd, d);
});

test("V1: the ignored file is out unless named; a folder root takes only its files", () => {
  const d = treeV1();
  // entries: .gitignore a.txt dir/é dir/ｆ dir/😀 link run.sh
  assert.equal(fingerprint({ cwd: d, roots: ["."] }).fingerprint, "sha256:e1369a3a42037b7649af9fccbbc422b12cfeda7aff8165ed5067e5936feb0be1");
  // entries: dir/é dir/ｆ dir/😀 — same result for "dir", "dir/", "./dir"
  for (const r of ["dir", "dir/", "./dir"])
    assert.equal(fingerprint({ cwd: d, roots: [r] }).fingerprint, "sha256:35a2012d777ca0336316823fe00351ce33c083352ba6ccfd9911ab7ac28696c7", r);
});

test("V1: staging, committing and git's own state do not change the fingerprint; mode, content and membership do", () => {
  const d = treeV1();
  const before = fingerprint({ cwd: d, roots: [".", "ignored.txt"] }).fingerprint;
  git(d, "add", "-A");
  git(d, "commit", "-q", "-m", "x");
  assert.equal(fingerprint({ cwd: d, roots: [".", "ignored.txt"] }).fingerprint, before);
  fs.chmodSync(path.join(d, "a.txt"), 0o744);
  assert.notEqual(fingerprint({ cwd: d, roots: [".", "ignored.txt"] }).fingerprint, before, "an executable bit changes the mode");
  fs.chmodSync(path.join(d, "a.txt"), 0o645);
  assert.equal(fingerprint({ cwd: d, roots: ["a.txt"] }).entries[0]?.mode, "100755", "any executable bit, even only for others");
  fs.chmodSync(path.join(d, "a.txt"), 0o644);
  assert.equal(fingerprint({ cwd: d, roots: [".", "ignored.txt"] }).fingerprint, before);
  fs.renameSync(path.join(d, "a.txt"), path.join(d, "b.txt"));
  assert.notEqual(fingerprint({ cwd: d, roots: [".", "ignored.txt"] }).fingerprint, before, "a move changes membership");
});

test("V2: a previous path that vanished is a missing entry; a tracked file deleted but not previous is no input", () => {
  const d = tmp();
  git(d, "init", "-q", ".");
  write(d, "a.txt", "hello\n");
  write(d, "b.txt", "tracked, then deleted in the work tree");
  git(d, "add", "a.txt", "b.txt");
  fs.rmSync(path.join(d, "b.txt"));
  const inv = fingerprint({ cwd: d, roots: ["."], previous: ["a.txt", "gone.txt"] });
  assert.deepEqual(inv.entries, [
    { path: "a.txt", kind: "file", mode: "100644", digest: D.a },
    { path: "gone.txt", kind: "missing", mode: "-", digest: "-" },
  ]);
  // entries: a.txt|file|100644|<a>, gone.txt|missing|-|-
  assert.equal(inv.fingerprint, "sha256:667e0f44a428755eedeef1ad761f4f0002269be951d002638f17b44a93573602");
  // The unstaged deletion of b.txt fingerprints like the staged one (git rm): staging does not change the binding.
  git(d, "rm", "-q", "--cached", "b.txt");
  assert.equal(fingerprint({ cwd: d, roots: ["."], previous: ["a.txt", "gone.txt"] }).fingerprint, inv.fingerprint);
});

test("V0: no entries at all is the bare prefix", () => {
  const d = tmp();
  git(d, "init", "-q", ".");
  // printf 'wealth-ledger-input-v1\0' | sha256sum
  assert.equal(fingerprint({ cwd: d, roots: ["src"] }).fingerprint, "sha256:8a18fdb2a6e200deb5edc4025b5b0e99becb62f3e387dc915ec196d04f65fe99");
});

const TASKS =
  "# Tasks\n- [x] 1.1 [core] Do a\n- [x] 1.2 Do b\n  - [x] 2.3 [ui] nested\n- [X] 3.1 [api] upper\n- [ ] 4.1 [api] open\n- [x] 10.20 [a b] done\r\n- [x]  5.1 [two spaces]\n- [x] 6.1 [] empty\n";

test("V3: a task file — checkbox progress is hashed as unchecked only with --tasks-approval", () => {
  const d = tmp();
  git(d, "init", "-q", ".");
  write(d, "tasks.md", TASKS);
  // Only "1.1 [core]" and "10.20 [a b]" lines change: the others lack an area, are indented, use [X], or have no task id right after the prefix.
  const norm = "e6ead06819699236205ccc5bbad7814c67605695f1b2613700abb0747ad4fb2d";
  const raw = "453b37048b1ad95617f3a0374dcdfc5cdf8b5f8d31296120545562a669bdee44";
  const approval = fingerprint({ cwd: d, roots: ["tasks.md"], tasksApproval: ["tasks.md"] });
  assert.deepEqual(approval.entries, [{ path: "tasks.md", kind: "file", mode: "100644", digest: norm }]);
  assert.equal(approval.fingerprint, "sha256:d865de725be7644da1d676a0b7c877221aaccd792f5d40fbacf8b0fba6924843");
  const plain = fingerprint({ cwd: d, roots: ["tasks.md"] });
  assert.deepEqual(plain.entries, [{ path: "tasks.md", kind: "file", mode: "100644", digest: raw }]);
  assert.equal(plain.fingerprint, "sha256:3500c88900a4d8b289c7912306bf4cbe6075fc482b6d09eb41c061cffa393995");
  // Ticking a box keeps the approval fingerprint and changes the plain one.
  write(d, "tasks.md", TASKS.replace("- [ ] 4.1", "- [x] 4.1"));
  assert.equal(fingerprint({ cwd: d, roots: ["tasks.md"], tasksApproval: ["tasks.md"] }).fingerprint, approval.fingerprint);
  assert.notEqual(fingerprint({ cwd: d, roots: ["tasks.md"] }).fingerprint, plain.fingerprint);
});

test("normalizeTasks changes nothing but the prefix and works on bytes", () => {
  const latin = Buffer.from([0x2d, 0x20, 0x5b, 0x78, 0x5d, 0x20, 0x31, 0x2e, 0x32, 0x20, 0x5b, 0x61, 0x5d, 0x20, 0xff, 0x0a]); // "- [x] 1.2 [a] \xff\n"
  assert.deepEqual([...normalizeTasks(latin)], [0x2d, 0x20, 0x5b, 0x20, 0x5d, 0x20, 0x31, 0x2e, 0x32, 0x20, 0x5b, 0x61, 0x5d, 0x20, 0xff, 0x0a]);
  const untouched = Buffer.from("x- [x] 1.2 [a]\n");
  assert.equal(normalizeTasks(untouched), untouched);
});

test("byUtf8 orders by UTF-8 bytes, not UTF-16 units", () => {
  const paths = ["dir/😀", "dir/ｆ", "dir/é", "dir/z", "dir", "dir/"];
  const bytes = [...paths].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  assert.deepEqual([...paths].sort(byUtf8), bytes);
  assert.notDeepEqual([...paths].sort(), bytes, "the plain JS sort would differ here");
  // Random strings across ASCII, BMP below and above the surrogates, and astral planes.
  const pick = [0x41, 0x7a, 0xe9, 0x4e2d, 0xd7ff, 0xe000, 0xff46, 0xfffd, 0x1f600, 0x10000, 0x10ffff];
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const strs = Array.from({ length: 300 }, () =>
    String.fromCodePoint(...Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => pick[Math.floor(rnd() * pick.length)] ?? 0x41)),
  );
  assert.deepEqual(
    [...strs].sort(byUtf8),
    [...strs].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
  );
});

test("a submodule-like nested repository is listed inside it; an untracked file in a nested repo under the root is an entry", () => {
  const d = tmp();
  git(d, "init", "-q", ".");
  write(d, "top.txt", "hello\n");
  write(d, "nested/f.txt", "x");
  git(path.join(d, "nested"), "init", "-q", ".");
  const inv = fingerprint({ cwd: d, roots: ["."] });
  assert.deepEqual(
    inv.entries.map((e) => e.path),
    ["nested/f.txt", "top.txt"],
  );
  assert.equal(fingerprint({ cwd: d, roots: ["nested"] }).entries[0]?.digest, D.e);
});

test("a submodule is listed inside it, from a root above it or a root inside it", () => {
  const base = tmp();
  const lib = path.join(base, "lib");
  const top = path.join(base, "top");
  fs.mkdirSync(lib);
  fs.mkdirSync(top);
  git(lib, "init", "-q", ".");
  write(lib, "f.txt", "x");
  git(lib, "add", ".");
  git(lib, "commit", "-q", "-m", "lib");
  git(top, "init", "-q", ".");
  git(top, "-c", "protocol.file.allow=always", "submodule", "add", "-q", "../lib", "lib");
  assert.deepEqual(
    fingerprint({ cwd: top, roots: ["."] }).entries.map((e) => e.path),
    [".gitmodules", "lib/f.txt"],
  );
  assert.deepEqual(fingerprint({ cwd: top, roots: ["lib/f.txt"] }).entries, [{ path: "lib/f.txt", kind: "file", mode: "100644", digest: D.e }]);
  write(lib, "../top/lib/new.txt", "x");
  assert.deepEqual(
    fingerprint({ cwd: top, roots: ["lib"] }).entries.map((e) => e.path),
    ["lib/f.txt", "lib/new.txt"],
    "untracked files inside the submodule count too",
  );
});

// ---- errors: exit 3 naming the path ---------------------------------------------

function fails(fn: () => unknown, where: RegExp, problem: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof FingerprintError && where.test(e.where) && problem.test(e.problem));
}

test("errors: conflict, special file, non-UTF-8 path, climbing roots, a folder outside Git", () => {
  // An unresolved merge conflict.
  const c = tmp();
  git(c, "init", "-q", ".");
  write(c, "x.txt", "base\n");
  git(c, "add", ".");
  git(c, "commit", "-q", "-m", "base");
  git(c, "checkout", "-q", "-b", "other");
  write(c, "x.txt", "other\n");
  git(c, "commit", "-q", "-am", "other");
  git(c, "checkout", "-q", "main");
  write(c, "x.txt", "main\n");
  git(c, "commit", "-q", "-am", "main");
  spawnSync("git", ["merge", "other"], { cwd: c });
  fails(() => fingerprint({ cwd: c, roots: ["."] }), /^x\.txt$/, /unresolved merge conflict/);
  fails(() => fingerprint({ cwd: c, roots: ["x.txt"] }), /^x\.txt$/, /unresolved merge conflict/);
  fails(() => fingerprint({ cwd: c, roots: ["elsewhere"], previous: ["x.txt"] }), /^x\.txt$/, /unresolved merge conflict/);
  // A FIFO.
  const f = tmp();
  git(f, "init", "-q", ".");
  assert.equal(spawnSync("mkfifo", [path.join(f, "pipe")]).status, 0);
  fails(() => fingerprint({ cwd: f, roots: ["pipe"] }), /^pipe$/, /special file \(FIFO\)/);
  // Git does not list special files, so under a folder root a FIFO is simply not a candidate.
  assert.deepEqual(fingerprint({ cwd: f, roots: ["."] }).entries, []);
  // A path that is not UTF-8.
  const u = tmp();
  git(u, "init", "-q", ".");
  fs.writeFileSync(Buffer.concat([Buffer.from(u + "/bad-"), Buffer.from([0xff, 0xfe]), Buffer.from(".txt")]), "x");
  fails(() => fingerprint({ cwd: u, roots: ["."] }), /^bad-/, /not valid UTF-8/);
  // Roots that leave the workspace.
  fails(() => fingerprint({ cwd: u, roots: ["../x"] }), /^\.\.\/x$/, /'\.\.'/);
  fails(() => fingerprint({ cwd: u, roots: ["/etc"] }), /^\/etc$/, /absolute/);
  // A folder outside Git cannot be expanded by the procedure.
  const n = tmp();
  write(n, "src/a.txt", "hello\n");
  fails(() => fingerprint({ cwd: n, roots: ["src"] }), /^src$/, /outside Git/);
  // ...but its files can be named.
  assert.deepEqual(fingerprint({ cwd: n, roots: ["src/a.txt"] }).entries, [{ path: "src/a.txt", kind: "file", mode: "100644", digest: D.a }]);
});

test("a path through a symlinked folder is not in the work tree", () => {
  const d = tmp();
  git(d, "init", "-q", ".");
  const outside = tmp();
  write(outside, "secret.txt", "secret");
  fs.symlinkSync(outside, path.join(d, "out"));
  const inv = fingerprint({ cwd: d, roots: ["out/secret.txt", "out"] });
  assert.deepEqual(inv.entries, [{ path: "out", kind: "symlink", mode: "120000", digest: inv.entries[0]?.digest ?? "" }]);
});

// ---- the stat cache --------------------------------------------------------------

test("stat cache: a warm run reads only changed files; a racy file is not cached; an edited cache is ignored", () => {
  const d = treeV1();
  const state = tmp("sg-fp-state-");
  // Age every file past the racy window so the cache may keep them.
  const old = new Date(Date.now() - 60_000);
  for (const p of [".gitignore", "a.txt", "run.sh", "ignored.txt", "dir/é.txt", "dir/ｆ.txt", "dir/😀.txt"]) fs.utimesSync(path.join(d, p), old, old);
  const cold = StatCache.load(state, d);
  const inv1 = fingerprint({ cwd: d, roots: [".", "ignored.txt"], cache: cold });
  cold.save();
  // ctime is now (utimes sets it), so nothing is cached yet by the racy rule.
  const body = () => fs.readFileSync(cold.file, "utf8");
  assert.equal(fs.existsSync(cold.file), false, "files whose ctime is within the racy window are not cached (nothing to save)");
  assert.equal(isRacy({ mtimeMs: 0, ctimeMs: Date.now() } as fs.Stats, Date.now()), true);
  assert.equal(isRacy({ mtimeMs: 0, ctimeMs: Date.now() - 10_000 } as fs.Stats, Date.now()), false);

  // Simulate an old tree: a cache entry whose digest is deliberately wrong shows the cache is used when the stat matches.
  const st = fs.lstatSync(path.join(d, "a.txt"));
  const warm = StatCache.load(state, d);
  warm.set("a.txt", st, "0".repeat(64), Date.now() + 60_000);
  warm.save();
  const again = StatCache.load(state, d);
  assert.equal(again.warning, undefined);
  assert.equal(fingerprint({ cwd: d, roots: ["a.txt"], cache: again }).entries[0]?.digest, "0".repeat(64), "a matching stat is answered from the cache");
  // Any change of the stat (here: size) makes it re-read.
  write(d, "a.txt", "hello!\n");
  assert.notEqual(fingerprint({ cwd: d, roots: ["a.txt"], cache: StatCache.load(state, d) }).entries[0]?.digest, "0".repeat(64));
  // An edited cache file fails its MAC and is ignored (and says so).
  fs.writeFileSync(cold.file, body().replace(/0{64}/, "1".repeat(64)));
  const tampered = StatCache.load(state, d);
  assert.match(tampered.warning ?? "", /failed its check/);
  // printf 'hello!\n' | sha256sum
  assert.equal(
    fingerprint({ cwd: d, roots: ["a.txt"], cache: tampered }).entries[0]?.digest,
    "c8a31cb076b21999bd2cdcfa5f446a7a6644de88037087112fa18bd90cc13984",
  );
  assert.notEqual(inv1.fingerprint, fingerprint({ cwd: d, roots: [".", "ignored.txt"] }).fingerprint, "a.txt changed above");
  assert.equal(fs.statSync(cold.file).mode & 0o777, 0o600);
  // A cache written for another workspace is not used for this one.
  const other = tmp();
  fs.copyFileSync(cold.file, StatCache.load(state, other).file);
  assert.match(StatCache.load(state, other).warning ?? "", /failed its check/);
});

// ---- the CLI ------------------------------------------------------------------------

/** The verb in-process (its own main, as `skillgate fingerprint` runs it), with a fresh state folder. */
const cli = (args: string[]) => cliRun(["fingerprint", ...args], { cwd: root, env: { ...process.env, SKILLGATE_STATE: tmp("sg-fp-state-") } });

test("CLI: prints the fingerprint, --json the inventory, --previous brings back vanished paths", async () => {
  const d = treeV1();
  const plain = await cli(["--cwd", d, ".", "ignored.txt"]);
  assert.equal(plain.code, 0, plain.err);
  assert.equal(plain.out, "sha256:9216a4ee03635bed62483bb1572d11be6f5edeb5908ff36f984da77d38d6050b\n");
  const j = await cli(["--cwd", d, "--json", "ignored.txt", "."]);
  const inv = JSON.parse(j.out) as { fingerprint: string; entries: unknown[]; roots: string[]; cwd: string };
  assert.deepEqual(Object.keys(inv), ["fingerprint", "entries", "roots", "cwd"]);
  assert.equal(inv.fingerprint, "sha256:9216a4ee03635bed62483bb1572d11be6f5edeb5908ff36f984da77d38d6050b");
  assert.equal(inv.cwd, d);
  const prev = path.join(tmp(), "prev.json");
  fs.writeFileSync(prev, j.out);
  fs.rmSync(path.join(d, "ignored.txt"));
  const again = await cli(["--cwd", d, "--json", "--previous", prev]);
  assert.equal(again.code, 0, again.err);
  const after = JSON.parse(again.out) as { entries: { path: string; kind: string }[] };
  assert.deepEqual(
    after.entries.find((e) => e.path === "ignored.txt"),
    { path: "ignored.txt", kind: "missing", mode: "-", digest: "-" },
    "no ROOT: the previous roots are used",
  );
});

test("CLI: exit 3 names the path; exit 2 for usage", async () => {
  const d = tmp();
  git(d, "init", "-q", ".");
  spawnSync("mkfifo", [path.join(d, "pipe")]);
  const bad = await cli(["--cwd", d, "pipe"]);
  assert.equal(bad.code, 3);
  assert.match(bad.err, /pipe: is a special file \(FIFO\)/);
  assert.equal(bad.out, "", "no approximate fingerprint is printed");
  assert.equal((await cli(["--cwd", d])).code, 2);
  assert.equal((await cli(["--cwd", d, "--bogus", "."])).code, 2);
  assert.equal((await cli(["--cwd", d, "--previous"])).code, 2);
  const p = path.join(d, "prev.json");
  fs.writeFileSync(p, "{}");
  const badPrev = await cli(["--cwd", d, "--previous", p, "x"]);
  assert.equal(badPrev.code, 3);
  assert.match(badPrev.err, /prev\.json: --previous is not the output of fingerprint --json/);
});

test("CLI flags: repeatable --tasks-approval, `--` ends options, values are required", async () => {
  const { parseFingerprintArgs } = await import("../cli/fingerprint.ts");
  assert.deepEqual(
    parseFingerprintArgs(["--cwd", "/w", "--tasks-approval", "a/tasks.md", "--tasks-approval", "b/tasks.md", "--json", "src", "--", "--odd-root"]),
    {
      cwd: "/w",
      tasksApproval: ["a/tasks.md", "b/tasks.md"],
      json: true,
      cache: true,
      roots: ["src", "--odd-root"],
    },
  );
  assert.equal(parseFingerprintArgs(["--tasks-approval"]), "--tasks-approval needs a value");
  assert.equal(parseFingerprintArgs(["--cwd", "--json"]), "--cwd needs a value");
  assert.equal(parseFingerprintArgs(["-x"]), "unknown option -x", "a root starting with - goes after --");
});

test("generated trees agree with an independent bash + coreutils reading of the procedure", () => {
  const oracle = path.join(root, "test", "fixtures", "fingerprint-oracle.sh");
  let seed = 20261203;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)] as T;
  const names = ["a", "b.txt", "é", "ｆ", "😀", "z z", "run.sh", "x-1", "Ω.md", "ign.log", "-dash"];
  let compared = 0;
  for (let t = 0; t < 8; t++) {
    const d = tmp("sg-fp-gen-");
    git(d, "init", "-q", ".");
    write(d, ".gitignore", "*.log\nbuild/\n");
    const files: string[] = [];
    for (let i = 0; i < 20; i++) {
      const dir = pick(["", "src/", "src/sub/", "build/", "doc/é/"]);
      const p = dir + pick(names) + (rnd() < 0.3 ? String(i) : "");
      fs.mkdirSync(path.join(d, dir), { recursive: true });
      if (files.includes(p)) continue;
      if (rnd() < 0.15) fs.symlinkSync(pick(["a", "../x", "src", "nowhere", "é"]), path.join(d, p));
      else write(d, p, `c${i}${pick(["", "\n", "é"])}`, rnd() < 0.3 ? pick([0o750, 0o641, 0o654]) : 0o640); // any one x bit makes 100755
      files.push(p);
    }
    const tracked = files.filter(() => rnd() < 0.5);
    if (tracked.length) git(d, "add", "-f", "--", ...tracked);
    const previous = files.filter(() => rnd() < 0.3).concat(["gone/x", "src/never"]);
    for (const p of files) if (rnd() < 0.1) fs.rmSync(path.join(d, p), { force: true });
    const prevFile = path.join(tmp(), "prev");
    for (let k = 0; k < 3; k++) {
      const roots = [...new Set(Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick([".", "src", "src/sub", "build", "doc", ...files])))];
      const prev = rnd() < 0.5 ? previous : [];
      fs.writeFileSync(prevFile, prev.map((p) => p + "\0").join(""));
      const want = spawnSync("bash", [oracle, d, prevFile, ...roots], { encoding: "utf8" });
      assert.equal(want.status, 0, want.stderr);
      assert.equal(
        fingerprint({ cwd: d, roots, previous: prev }).fingerprint,
        want.stdout.trim(),
        `tree ${d}, roots ${JSON.stringify(roots)}, previous ${JSON.stringify(prev)}`,
      );
      compared++;
    }
  }
  assert.equal(compared, 24);
});

test("a symlink is hashed by what it points to: the target's content, a folder's files, dangling, a loop", () => {
  const d = tmp();
  git(d, "init", "-q", ".");
  write(d, "data/cases.json", "[1]\n");
  write(d, "fix/one.txt", "1");
  fs.mkdirSync(path.join(d, "test"));
  fs.symlinkSync("../data/cases.json", path.join(d, "test/cases.json"));
  fs.symlinkSync("../fix", path.join(d, "test/fix"));
  fs.symlinkSync("nowhere", path.join(d, "test/dangling"));
  fs.symlinkSync("loop-b", path.join(d, "test/loop-a"));
  fs.symlinkSync("loop-a", path.join(d, "test/loop-b"));
  const digests = () => Object.fromEntries(fingerprint({ cwd: d, roots: ["test"] }).entries.map((e) => [e.path, e.digest]));
  const before = digests();
  assert.deepEqual(Object.keys(before), ["test/cases.json", "test/dangling", "test/fix", "test/loop-a", "test/loop-b"]);
  // The same link text with a changed target is a changed entry; the scope never named data/ or fix/.
  write(d, "data/cases.json", "[]\n");
  write(d, "fix/one.txt", "2");
  const after = digests();
  assert.notEqual(after["test/cases.json"], before["test/cases.json"]);
  assert.notEqual(after["test/fix"], before["test/fix"]);
  assert.equal(after["test/dangling"], before["test/dangling"]);
  write(d, "fix/two.txt", "new");
  assert.notEqual(digests()["test/fix"], after["test/fix"], "a file added to a linked folder");
  // Dangling and a loop hash as such, and differently from each other and from a resolved target.
  assert.equal(before["test/dangling"], createHash("sha256").update("link\0nowhere\0dangling").digest("hex"));
  assert.equal(before["test/loop-a"], createHash("sha256").update("link\0loop-b\0loop").digest("hex"));
  write(d, "test/nowhere", "now here");
  assert.notEqual(linkDigest(path.join(d, "test/dangling"), "test/dangling"), before["test/dangling"], "the link stops dangling");
});

test("a link to a huge folder is refused with the path named, not walked without end", () => {
  const d = tmp();
  git(d, "init", "-q", ".");
  fs.mkdirSync(path.join(d, "big"));
  // Hard links to one empty file: 10,001 new files cost seconds of the suite on this disk, links do not.
  fs.writeFileSync(path.join(d, "big", "0"), "");
  for (let i = 1; i <= MAX_LINKED_FOLDER_ENTRIES; i++) fs.linkSync(path.join(d, "big", "0"), path.join(d, "big", String(i)));
  fs.symlinkSync("big", path.join(d, "all"));
  assert.throws(
    () => fingerprint({ cwd: d, roots: ["all"] }),
    (e: Error) => e instanceof FingerprintError && /^all: links to a folder of more than 10000 entries/.test(e.message),
  );
});
