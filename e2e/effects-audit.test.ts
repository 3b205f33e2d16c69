// The effects audit with the real client: a commit made through a
// route the static analysis cannot see — a program that assembles the git
// command itself — is reported to the model in the next request, and to the user.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentText, mainRequests } from "./harness.ts";
import { installed, play } from "./project.ts";

const bash = (command: string, id: string) => ({ toolUse: { name: "Bash", input: { command, description: "e2e" }, id } });

test("a commit neither the analysis nor git's hooks saw is taken back after the call and reported to the model in the next request", async () => {
  const p = installed(["commit"]);
  // git's own hooks would abort this commit (e2e/git-hooks.test.ts); without them — a program that writes refs
  // through libgit2 skips them — the audit after the call is what is left.
  rmSync(join(p.repo, ".git", "hooks", "reference-transaction"));
  mkdirSync(join(p.repo, "tools"));
  // Not a script skillgate reads: the program builds "git commit" from pieces at run time.
  writeFileSync(
    join(p.repo, "tools", "release.js"),
    "const v = ['com', 'mit'].join('');\nrequire('child_process').execFileSync('git', [v, '--allow-empty', '-m', 'chore: via tool']);\nconsole.log('released');\n",
  );
  const head = () => execFileSync("git", ["rev-parse", "HEAD"], { cwd: p.repo, encoding: "utf8" }).trim();
  const before = head();
  const r = await play(p, { prompt: "release it", script: [bash("node tools/release.js", "toolu_rel"), { text: "ok" }] });
  const reflog = execFileSync("git", ["reflog", "--format=%gs", "main"], { cwd: p.repo, encoding: "utf8" });
  assert.match(reflog, /commit: chore: via tool/, "the program did commit (the analysis let it run)");
  assert.equal(head(), before, "the audit took the commit back: main is where it was before the call");
  const next = JSON.stringify(mainRequests(r)[1]?.body ?? {});
  assert.match(next, /skillgate\[effects-audit\]: a commit \(main: \\?"commit: chore: via tool\\?"\)/);
  assert.match(next, /skillgate moved main back to [0-9a-f]{12}/);
  assert.match(next, /Load skill \\?"commit\\?" now/);
  assert.ok(contentText(mainRequests(r)[1]?.body?.messages?.at(-1)?.content).length > 0);
});

test("a write to docs/x_RU.md by a program the analysis does not know is put back, and the model is told", async () => {
  const p = installed(["paired-docs"]);
  mkdirSync(join(p.repo, "tools"));
  // The path is decoded at run time: no word of the program names the file.
  const hex = Buffer.from("docs/x_RU.md").toString("hex");
  writeFileSync(
    join(p.repo, "tools", "gen.js"),
    `const f = Buffer.from('${hex}', 'hex').toString();\nrequire('fs').mkdirSync(require('path').dirname(f), { recursive: true });\nrequire('fs').writeFileSync(f, 'unseen');\nconsole.log('generated');\n`,
  );
  const r = await play(p, { prompt: "generate the docs", script: [bash("node tools/gen.js", "toolu_gen"), { text: "ok" }] });
  assert.equal(existsSync(join(p.repo, "docs", "x_RU.md")), false, "the file the program wrote is gone");
  const next = JSON.stringify(mainRequests(r)[1]?.body ?? {});
  assert.match(
    next,
    /skillgate\[effects-restore\]: that shell command created [^"]*docs\/x_RU\.md, which rule paired-docs-write keeps for skill \\?"paired-docs\\?" \(not loaded\); skillgate removed it/,
  );
  assert.match(next, /Load skill \\?"paired-docs\\?" first/);
});
