// The shell analysis's typed model (provenance, shapes, spans, redirect
// records, parent commands, opaque codes, parse status), its world (real files
// through hooks/io/shell-files.ts, in-memory for the corpus), glob sets, and
// the matching that uses them (push semantics, glob args, symlinked writes).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { analyzeCommand } from "../hooks/core/shell/analyze.ts";
import { memoryWorld, NO_WORLD } from "../hooks/core/shell/world.ts";
import { shellWorld } from "../hooks/io/shell-files.ts";
import { globMatch, globsIntersect } from "../hooks/core/shell/glob.ts";
import { braceAlternatives } from "../hooks/core/shell/words.ts";
import { factsOf } from "../hooks/core/shell-facts.ts";
import { toolFacts } from "../hooks/core/facts.ts";
import { matchCommand, matchWrites } from "../hooks/core/match-shell.ts";
import type { CompiledRow } from "../hooks/core/table/compile.ts";
import type { Event, Row } from "../hooks/core/types.ts";
import { root } from "./helpers.ts";

const bash = (command: string, cwd = "/work/repo"): Event => ({ kind: "tool-call", sessionId: "t", cwd, tool: { kind: "shell", name: "Bash", command } });

test("words carry provenance, span and what their value can be", () => {
  const src = 'git push -u origin "$(git branch --show-current)" *.md $HOME';
  const a = analyzeCommand(src);
  const push = a.commands[0]!;
  const w = push.words;
  assert.equal(w[1]!.provenance, "literal");
  assert.deepEqual(w[1]!.shape, { kind: "exact", text: "push" });
  assert.equal(w[4]!.provenance, "command-substitution");
  assert.deepEqual(w[4]!.shape, { kind: "branch" });
  assert.equal(src.slice(w[4]!.span.start, w[4]!.span.end), '"$(git branch --show-current)"');
  assert.equal(w[5]!.provenance, "glob");
  assert.equal(w[6]!.provenance, "variable");
  assert.deepEqual(w[6]!.shape, { kind: "any" });
  assert.equal(a.status, "complete");
});

test("nested programs hang off the command that runs them", () => {
  const a = analyzeCommand("sudo -u dev bash -c 'git commit -m x'");
  const names = a.commands.map((c) => c.name);
  assert.deepEqual(names, ["sudo", "bash", "git"]);
  assert.equal(a.commands[0]!.parent, -1);
  assert.equal(a.commands[1]!.parent, 0);
  assert.equal(a.commands[2]!.parent, 1);
  assert.deepEqual(a.commands[2]!.span, { start: 0, end: 37 }, "a nested string carries its holder's span");
});

test("redirections are records; here-docs keep their body", () => {
  const a = analyzeCommand("cat <<'EOF' > out.txt 2>&1\nhello\nEOF");
  const ops = a.redirects.map((r) => `${r.op}${r.target}`);
  assert.deepEqual(ops.sort(), ["<<EOF", ">&1", ">out.txt"].sort());
  const doc = a.redirects.find((r) => r.heredoc);
  assert.equal(doc?.heredoc?.body, "hello\n");
  assert.equal(doc?.heredoc?.quoted, true);
  assert.equal(doc?.command, 0);
});

test("opaque parts are codes with spans; the parse status says why", () => {
  const dyn = analyzeCommand("echo ok; $cmd commit");
  assert.equal(dyn.status, "partial");
  assert.equal(dyn.opaque[0]!.code, "program-dynamic");
  assert.deepEqual(dyn.opaque[0]!.span, { start: 9, end: 20 });
  const bad = analyzeCommand('echo "unterminated');
  assert.equal(bad.status, "invalid");
  assert.equal(bad.opaque[0]!.code, "parse-error");
  const deep = analyzeCommand("echo " + "$(".repeat(3000) + "x" + ")".repeat(3000));
  assert.equal(deep.status, "limited");
  assert.ok(deep.opaque.some((o) => o.code === "reparse-budget" || o.code === "parse-error"));
});

test("brace expansion as bash does it", () => {
  assert.deepEqual(braceAlternatives("{commit,}"), ["commit", ""]);
  assert.deepEqual(braceAlternatives("{a,{b,c}}"), ["a", "b", "c"]);
  assert.deepEqual(braceAlternatives("{1..3}"), ["1", "2", "3"]);
  assert.deepEqual(braceAlternatives("{a..c}"), ["a", "b", "c"]);
  assert.deepEqual(braceAlternatives("{1..9..4}"), ["1", "5", "9"]);
  assert.deepEqual(braceAlternatives("{x}"), ["{x}"], "one item is no expansion: the word stays as written");
  assert.equal(braceAlternatives("{$a,b}"), undefined, "a variable inside: not static");
  assert.deepEqual(analyzeCommand("git {commit,} -m x").commands[0]!.argv, ["git", "commit", "-m", "x"]);
  assert.deepEqual(analyzeCommand("echo a{b,c}d").commands[0]!.argv, ["echo", "abd", "acd"]);
});

test("globs as sets: match and intersect", () => {
  assert.ok(globMatch("*_RU.md", "a_RU.md"));
  assert.ok(!globMatch("*_RU.md", "docs/a_RU.md"), "* stops at /");
  assert.ok(globMatch("**/migrations/**", "db/migrations/1.sql"));
  assert.ok(globsIntersect("*_RU.md", "a_*.md"));
  assert.ok(!globsIntersect("*_RU.md", "tmp.[A-Za-z0-9][A-Za-z0-9]"));
  assert.ok(!globsIntersect("*_RU.md", "copy"));
  assert.ok(globsIntersect("+*", "+**"));
  assert.ok(!globsIntersect("[!-+]*", "-f"));
});

function row(when: Row["when"], kind: Row["kind"] = "block"): CompiledRow {
  return { row: { id: "r", kind, when }, scope: "all" } as unknown as CompiledRow;
}

test("push semantics: +refspec and --mirror force, @ is HEAD, config refspecs count, a branch substitution is neither", () => {
  const force = row({ command: { name: "git", sub: ["push"], args: ["--force", "-f"] } });
  const head = row({ command: { name: "git", sub: ["push"], args: ["HEAD"] } });
  const f = (cmd: string) => factsOf(bash(cmd));
  assert.ok(matchCommand(force, f("git push origin +main")), "+main forces");
  assert.ok(matchCommand(force, f("git push --mirror backup")), "--mirror forces");
  assert.ok(matchCommand(force, f("git -c remote.origin.push=+refs/heads/*:refs/heads/* push origin")), "a forced refspec from -c");
  assert.ok(matchCommand(head, f("git push origin @")), "@ is HEAD");
  assert.ok(matchCommand(head, f("git push origin +HEAD")), "+HEAD is HEAD");
  assert.ok(matchCommand(head, f("git push origin HEAD:refs/heads/x")), "HEAD as the source, whatever the destination");
  assert.ok(matchCommand(head, f("git -c remote.origin.push=HEAD push")), "a push refspec HEAD from config");
  assert.equal(matchCommand(head, f("git push origin main:main")), undefined);
  assert.equal(matchCommand(head, f('git push -u origin "$(git branch --show-current)"')), undefined);
  assert.equal(matchCommand(force, f('git push -u origin "$(git branch --show-current)"')), undefined);
  assert.equal(matchCommand(force, f("git push origin feature/x")), undefined);
  assert.ok(matchCommand(head, f('git push origin "$BRANCH"'))?.opaque, "an unknown word may be HEAD");
});

test("row args may be globs; glob words are matched as patterns", () => {
  const plus = row({ command: { name: "git", sub: ["push"], args: ["+*"] } });
  const head = row({ command: { name: "git", sub: ["push"], args: ["HEAD"] } });
  assert.ok(matchCommand(plus, factsOf(bash("git push origin +main"))));
  assert.equal(matchCommand(plus, factsOf(bash("git push origin main"))), undefined);
  assert.ok(matchCommand(head, factsOf(bash("git push origin HEA?"))), "HEA? can expand to HEAD");
  assert.ok(matchCommand(head, factsOf(bash("git push origin {HEAD,}"))), "a brace expands to HEAD");
});

test("writes whose name is partly known are matched by what they can be", () => {
  const docs = row({ writes: ["*_RU.md"] }, "gate");
  const glob = (p: string) => p.endsWith("_RU.md") && !p.includes("*");
  const rowWith = { ...docs, writes: glob } as CompiledRow;
  const w = (cmd: string) => matchWrites(rowWith, factsOf(bash(cmd)));
  assert.equal(w('cat x_RU.md > "$TMPDIR/copy"'), undefined, "a read copied to a run-time path with another name");
  assert.equal(w('wc -l x_RU.md > "$(mktemp)"'), undefined, "mktemp names never end in _RU.md");
  assert.ok(w('for f in docs/*_RU.md; do echo x >> "$f"; done')?.opaque, "the loop variable is one of *_RU.md");
  assert.ok(w('echo x > "docs/$lang"_RU.md')?.opaque);
  assert.ok(w('echo x > "$OUT"; cat a_RU.md'), "a fully unknown write in a command naming a protected file");
});

test("Write/Edit to a symlink whose target is protected writes the target", () => {
  const world = memoryWorld("/work/repo", { "notes.md": { link: "docs/a_RU.md" }, "docs/a_RU.md": "x" });
  const ev: Event = { kind: "tool-call", sessionId: "t", cwd: "/work/repo", tool: { kind: "write", name: "Write", paths: ["/work/repo/notes.md"] } };
  assert.deepEqual(toolFacts(ev, undefined, world).writes.sort(), ["docs/a_RU.md", "notes.md"]);
  assert.deepEqual(toolFacts(ev).writes, ["notes.md"], "without a world nothing is resolved");
});

test("the real world: bounded reads, no FIFOs, links resolved, git config with includes", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-world-"));
  try {
    fs.mkdirSync(path.join(dir, ".git"));
    fs.writeFileSync(path.join(dir, ".git/config"), "[include]\n\tpath = ../aliases.inc\n");
    fs.writeFileSync(path.join(dir, "aliases.inc"), "[alias]\n\tci = commit\n\tst = status\n");
    fs.writeFileSync(path.join(dir, "big.txt"), "x".repeat(5000));
    fs.symlinkSync("big.txt", path.join(dir, "link.txt"));
    const home = path.join(dir, "home");
    fs.mkdirSync(home);
    const world = shellWorld(dir, { HOME: home, GIT_CONFIG_NOSYSTEM: "1" });
    assert.equal(world.readFile("big.txt", 100), undefined, "over the bound: not read");
    assert.equal(world.readFile("big.txt", 10_000)?.length, 5000);
    assert.equal(world.kind("link.txt"), "link");
    assert.equal(world.realpath("link.txt"), fs.realpathSync(path.join(dir, "big.txt")));
    assert.equal(world.readFile("missing", 100), undefined);
    assert.equal(world.readFile("/dev/zero", 100), undefined, "a device is never read (it could block or never end)");
    const ci = analyzeCommand("git ci -m x", world);
    assert.deepEqual(ci.commands[0]!.argv, ["git", "commit", "-m", "x"]);
    const st = analyzeCommand("git st", world);
    assert.deepEqual(st.commands[0]!.argv, ["git", "status"]);
    assert.equal(st.commands[0]!.dynamic[1], false);
    const typo = analyzeCommand("git comit -m x", world);
    assert.equal(typo.commands[0]!.dynamic[1], false, "all config read, no alias, no autocorrect: only an error");
    const unknown = analyzeCommand("git comit -m x", NO_WORLD);
    assert.equal(unknown.commands[0]!.dynamic[1], true, "without the config an unknown subcommand may be an alias");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("no import cycle between inline.ts and writes.ts", () => {
  const inline = fs.readFileSync(path.join(root, "hooks/core/shell/inline.ts"), "utf8");
  assert.ok(!/from "\.\/writes\.js"/.test(inline), "inline.ts must not import writes.ts");
});

test("core stays pure: no node:fs in hooks/core/shell", () => {
  for (const f of fs.readdirSync(path.join(root, "hooks/core/shell"))) {
    const text = fs.readFileSync(path.join(root, "hooks/core/shell", f), "utf8");
    assert.ok(!/from "(node:)?(fs|child_process)"/.test(text), `${f} imports fs or child_process`);
  }
});

test("acts and inert: what a command does beyond its name", () => {
  const git = (src: string, sub: string) => analyzeCommand(src).commands.find((c) => c.name === "git" && c.argv[c.verb] === sub);
  assert.deepEqual(git("git send-pack --force ../r.git work", "send-pack")?.acts, ["push"], "send-pack pushes");
  assert.deepEqual(git("git fast-import < stream", "fast-import")?.acts, ["commit"], "fast-import writes commits onto branches");
  assert.deepEqual(
    git("git update-ref HEAD $(git commit-tree -p HEAD -m x HEAD^{tree})", "commit-tree")?.acts,
    ["commit"],
    "commit-tree published by update-ref",
  );
  assert.equal(git("git commit-tree -m x HEAD^{tree}", "commit-tree")?.acts, undefined, "a dangling commit object is not a commit");
  assert.equal(git("git push -nf origin work", "push")?.inert, true, "-n in a cluster is a dry run");
  assert.equal(git("git push --dry-run --no-dry-run -f origin work", "push")?.inert, undefined, "the later --no-dry-run wins");
  assert.equal(git("git push -o -n -f origin work", "push")?.inert, undefined, "a push option's value is not a flag");
  assert.equal(git("git push -on -f origin work", "push")?.inert, undefined, "-on is the push option n");
  assert.equal(git("git commit --dry-run", "commit")?.inert, true);
});

test("files planted by the command itself run later in it", () => {
  const w = memoryWorld("/work/repo", { ".git/config": "", "tools/h.sh": "#!/bin/sh\ngit commit -qm h\n" }, { HOME: "/home/agent", PATH: "/usr/bin:/bin" });
  const runs = (src: string) => analyzeCommand(src, w).commands.map((c) => c.argv.join(" "));
  assert.ok(
    runs("printf '#!/bin/sh\\ngit commit -qm h\\n' > .git/hooks/post-checkout; git checkout -q -b y").includes("git commit -qm h"),
    "a hook written in the command",
  );
  assert.ok(
    runs("ln -s ../../tools/h.sh .git/hooks/post-checkout && git checkout -b y").includes("git commit -qm h"),
    "a hook made as a link to a project file",
  );
  assert.ok(
    runs("mkdir -p b && printf 'git commit -m x\\n' > b/git && chmod +x b/git && PATH=$PWD/b:$PATH git status").includes("git commit -m x"),
    "a fake git on the PATH the command sets",
  );
  assert.ok(!runs("printf 'echo hi\\n' > b/ls; ls").includes("echo hi"), "a file outside PATH is not what `ls` runs");
  const cfg = analyzeCommand("printf '[core]\\n\\tfsmonitor = \"git commit -qm f; false\"\\n' >> .git/config; git status", w);
  assert.ok(
    cfg.commands.some((c) => c.argv.join(" ") === "git commit -qm f"),
    "a command-running key written into a config file",
  );
});

test("doors to git's hooks are opaque with their reason; reading git's config is not", () => {
  const door = (c: string) =>
    analyzeCommand(c)
      .opaque.filter((o) => o.code === "git-hooks-door")
      .map((o) => o.reason);
  assert.match(door("git -c core.hooksPath=/dev/null merge side").join(), /core\.hooksPath switches git's hooks off/);
  assert.match(door("git -c CORE.HOOKSPATH=x status").join(), /core\.hooksPath/);
  assert.match(door("git config core.hooksPath /dev/null").join(), /git config core\.hooksPath/);
  assert.match(door("git push --no-verify origin work").join(), /--no-verify skips git's pre-push hook/);
  assert.match(door("GIT_CONFIG_GLOBAL=evil git status").join(), /GIT_CONFIG_GLOBAL set by the command/);
  assert.match(door("HOME=$PWD/fake git diff").join(), /HOME set by the command/);
  assert.match(door("export XDG_CONFIG_HOME=/x; git status").join(), /XDG_CONFIG_HOME/);
  assert.match(door("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=x git status").join(), /GIT_CONFIG_COUNT/);
  assert.match(door("printf x > .git/hooks/pre-push").join(), /one of git's own files/);
  assert.match(door("rm -f .git/hooks/reference-transaction").join(), /one of git's own files/);
  assert.match(door("echo abc > .git/refs/heads/main").join(), /one of git's own files/);
  assert.match(door("cp x .git/packed-refs").join(), /one of git's own files/);
  for (const ok of [
    "git config --get core.hooksPath",
    "cat .git/hooks/pre-push",
    "GIT_CONFIG_GLOBAL=/dev/null git status",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=x git log",
    "git -c color.ui=never status",
    "git push origin work",
    "git config user.name x",
  ]) {
    assert.deepEqual(door(ok), [], ok);
  }
});

test("files named by output options, trace variables and database files are writes", () => {
  const writes = (c: string) =>
    analyzeCommand(c)
      .writes.filter((w) => !w.dynamic)
      .map((w) => w.path);
  assert.deepEqual(writes("sort --outp=a_RU.md b"), ["a_RU.md"]);
  assert.deepEqual(writes("sort --o a_RU.md b"), ["a_RU.md"]);
  assert.deepEqual(writes("curl -sD h.txt -o /dev/null http://x"), ["h.txt"]);
  assert.deepEqual(writes("curl --trace-ascii t.txt http://x"), ["t.txt"]);
  assert.deepEqual(writes("curl --outp o.txt http://x"), [], "ambiguous (--output, --output-dir): an error, nothing written");
  assert.deepEqual(writes("curl --cookie c.txt http://x"), [], "--cookie reads");
  assert.deepEqual(writes("wget --append-out=log.txt http://x"), ["log.txt"]);
  assert.deepEqual(writes("gpg --enarmor -o k.asc f"), ["k.asc"]);
  assert.deepEqual(writes("valgrind --log-file=v.log true"), ["v.log"]);
  assert.deepEqual(writes("valgrind --log-fi=v.log true"), [], "valgrind takes no abbreviations");
  assert.deepEqual(writes("node --redirect-warnings=w.txt app.js"), ["w.txt"]);
  assert.deepEqual(writes("git archive -o a.tar HEAD"), ["a.tar"]);
  assert.deepEqual(writes("sed --in-pl s/a/b/ f.md"), ["f.md"]);
  assert.deepEqual(writes("cmake -E copy a b.md"), ["b.md"]);
  assert.deepEqual(writes("cmake -E rename a.md b.md"), ["a.md", "b.md"]);
  assert.deepEqual(writes("sqlite3 new.db 'select 1'"), ["new.db"]);
  assert.deepEqual(writes("sqlite3 :memory: '.once o.txt' 'select 1'"), ["o.txt"]);
  assert.deepEqual(writes("sqlite3 -readonly app.db 'select 1'"), []);
  assert.deepEqual(writes("GIT_TRACE=/tmp/t.log git status"), ["/tmp/t.log"]);
  assert.deepEqual(writes("GIT_TRACE=1 git status"), []);
  assert.deepEqual(writes("GIT_TRACE2_EVENT=rel.json git status"), [], "a relative value is not a file for git");
});

test("HEAD spelled as itself is pushed HEAD; delete then push is forced; programs that run commands are followed", () => {
  const implied = (c: string) =>
    analyzeCommand(c)
      .commands.filter((x) => x.argv[1] === "push")
      .map((x) => x.implied ?? []);
  for (const src of ["HEAD~0", "HEAD^0", "HEAD@{0}", "@~0", "HEAD^{commit}", "HEAD~0^0"])
    assert.deepEqual(implied(`git push origin '${src}:main'`), [["HEAD"]], src);
  assert.deepEqual(implied("git push origin HEAD~1:main"), [[]]);
  assert.deepEqual(implied("git push origin --delete main && git push origin work:main"), [[], ["--force"]]);
  assert.deepEqual(implied("git push origin :main"), [[]], "a deletion alone is left to the pre-push hook");
  const runs = (c: string) => analyzeCommand(c).commands.map((x) => x.argv.join(" "));
  assert.ok(runs("sqlite3 :memory: '.shell git commit -qm s'").includes("git commit -qm s"));
  assert.ok(runs("cmake -E env FOO=1 git commit -qm c").includes("git commit -qm c"));
  assert.ok(runs("cmake -E chdir docs git commit -qm c").includes("git commit -qm c"));
  assert.ok(runs("python3 -c \"from posix import system; system('git commit -qm p')\"").includes("git commit -qm p"));
  assert.ok(analyzeCommand("tee >(sh) < cmds.txt").opaque.some((o) => o.code === "program-from-pipe"));
  assert.ok(analyzeCommand("cat x > >(bash -s)").opaque.some((o) => o.code === "program-from-pipe"));
  assert.deepEqual(analyzeCommand("tee >(wc -l) < x").opaque, []);
  assert.ok(analyzeCommand("make SHELL=mysh all").opaque.some((o) => o.code === "shell-program"));
  assert.deepEqual(analyzeCommand("make SHELL=/bin/bash all").opaque, []);
});
