// skillgate as an opencode plugin, end to end: the real opencode binary
// (pinned), installed into a temp repo with the real install function, driven
// headless against the scripted Anthropic mock. Assertions are on what opencode
// fed back to the model (the next request), the run's JSON stream and the repo.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { test } from "node:test";
import { installOpencode } from "../hooks/hosts/opencode/install.ts";
import {
  bodyText,
  contentText,
  mainRequests,
  makeTempRepo,
  OPENCODE_BIN,
  ROOT,
  runOpencode,
  tempDir,
  toolParts,
  toolResults,
  type RunOptions,
  type RunResult,
} from "./harness.ts";
import { hostTest, recordResults } from "../e2e-shared/scenarios.ts";
import { opencodeDriver } from "./driver.ts";

recordResults(opencodeDriver, import.meta.filename);

if (!existsSync(OPENCODE_BIN)) throw new Error(`opencode binary missing at ${OPENCODE_BIN}: run (cd e2e-opencode && npm install)`);
// opencode's skill tool lists the skill's files with ripgrep: without `rg` on PATH it downloads one, which fails offline
// and every skill-tool load comes back as the error "ripgrep execution failed".
if (!onPath("rg")) throw new Error("ripgrep (rg) missing on PATH: opencode's skill tool needs it (apt-get install ripgrep)");
if (!existsSync(join(ROOT, "dist", "opencode-plugin.mjs"))) throw new Error("dist/opencode-plugin.mjs missing: run npm run build");

function onPath(program: string): boolean {
  return (process.env["PATH"] ?? "").split(delimiter).some((dir) => dir !== "" && existsSync(join(dir, program)));
}

interface Project {
  repo: string;
  state: string;
}

function installed(): Project {
  const repo = makeTempRepo();
  installOpencode({ project: repo }, ROOT);
  return { repo, state: tempDir("state") };
}

async function play(p: Project, opts: Omit<RunOptions, "cwd">): Promise<RunResult> {
  const r = await runOpencode({ cwd: p.repo, ...opts, env: { SKILLGATE_STATE: p.state, ...opts.env } });
  assert.equal(r.timedOut, false, "run timed out");
  assert.equal(r.exitCode, 0, `opencode exited ${r.exitCode}; stderr tail: ${r.stderr.slice(-1500)}`);
  assert.ok(r.sessionId, "no session id in the JSON stream");
  assert.doesNotMatch(r.stderr, /skillgate: (internal error|trigger table unusable)/);
  return r;
}

const commits = (repo: string): string[] => execFileSync("git", ["log", "--format=%s"], { cwd: repo, encoding: "utf8" }).trim().split("\n");

/** The tool_result the model got back for a tool call id (the mock numbers calls toolu_e2e_<n> over the run). */
function resultFor(r: RunResult, id: string): { text: string; isError: boolean } {
  for (const q of mainRequests(r)) {
    const b = toolResults(q.body).find((x) => x.tool_use_id === id);
    if (b) return { text: contentText(b.content), isError: b.is_error === true };
  }
  assert.fail(`no tool_result for ${id} reached the model`);
}

test("commit refused: the reason reaches the model as the bash tool error; nothing is committed", async () => {
  const p = installed();
  const r = await play(p, {
    prompt: "commit the work",
    script: [{ toolUse: { name: "bash", input: { command: 'git commit --allow-empty -m "e2e: refused"', description: "commit" } } }, { text: "ok" }],
  });
  const res = resultFor(r, "toolu_e2e_1");
  assert.equal(res.isError, true);
  assert.match(res.text, /skillgate\[commit-gate\]: Load skill "commit" first .*call the skill tool with name "commit"/);
  assert.deepEqual(commits(p.repo), ["init"]);
});

test("skillgate as the project's dependency: the plugin file imports the bundle relative to itself, no absolute path, and opencode loads it: the commit is refused", async () => {
  const repo = makeTempRepo();
  mkdirSync(join(repo, "node_modules"));
  symlinkSync(ROOT, join(repo, "node_modules", "skillgate"));
  // As in a real project: node_modules is not the project's own text.
  writeFileSync(join(repo, ".gitignore"), ".opencode/\nnode_modules/\n");
  installOpencode({ project: repo }, ROOT);
  const plugin = readFileSync(join(repo, ".opencode", "plugins", "skillgate.js"), "utf8");
  assert.ok(!plugin.includes(ROOT) && !plugin.includes(repo), plugin);
  assert.match(plugin, /from "\.\.\/\.\.\/node_modules\/skillgate\/dist\/opencode-plugin\.mjs"/);
  const p = { repo, state: tempDir("state") };
  const r = await play(p, {
    prompt: "commit the work",
    script: [{ toolUse: { name: "bash", input: { command: 'git commit --allow-empty -m "e2e: refused"', description: "commit" } } }, { text: "ok" }],
  });
  assert.match(resultFor(r, "toolu_e2e_1").text, /skillgate\[commit-gate\]/);
  assert.deepEqual(commits(repo), ["init"]);
});

test("skill loaded through opencode's skill tool (skillgate's skills folder, added by the plugin's config hook), then the commit runs", async () => {
  const p = installed();
  const r = await play(p, {
    prompt: "commit the work",
    script: [
      { toolUse: { name: "skill", input: { name: "commit" } } },
      { toolUse: { name: "bash", input: { command: 'git commit --allow-empty -m "e2e: allowed"', description: "commit" } } },
      { text: "committed" },
    ],
  });
  const skill = resultFor(r, "toolu_e2e_1");
  assert.equal(skill.isError, false);
  assert.match(skill.text, /<skill_content name="commit">/);
  assert.ok(skill.text.includes(join(ROOT, "skills", "commit")), "the skill came from skillgate's own skills folder");
  assert.equal(resultFor(r, "toolu_e2e_2").isError, false);
  assert.deepEqual(commits(p.repo), ["e2e: allowed", "init"]);
});

test("reading the project's .claude/skills/commit/SKILL.md whole also loads the skill", async () => {
  const p = installed();
  cpSync(join(ROOT, "skills", "commit"), join(p.repo, ".claude", "skills", "commit"), { recursive: true });
  const r = await play(p, {
    prompt: "commit the work",
    script: [
      { toolUse: { name: "read", input: { filePath: join(p.repo, ".claude", "skills", "commit", "SKILL.md") } } },
      { toolUse: { name: "bash", input: { command: 'git commit --allow-empty -m "e2e: after read"', description: "commit" } } },
      { text: "committed" },
    ],
  });
  assert.equal(resultFor(r, "toolu_e2e_1").isError, false);
  assert.deepEqual(commits(p.repo), ["e2e: after read", "init"]);
});

test("write to a *_RU.md refused (paired-docs gate); reading it is allowed", async () => {
  const p = installed();
  const doc = join(p.repo, "guide_RU.md");
  writeFileSync(doc, "ORIGINAL-RU\n");
  const r = await play(p, {
    prompt: "update the Russian guide",
    script: [
      { toolUse: { name: "read", input: { filePath: doc } } },
      { toolUse: { name: "write", input: { filePath: doc, content: "CHANGED\n" } } },
      { toolUse: { name: "edit", input: { filePath: doc, oldString: "ORIGINAL-RU", newString: "CHANGED" } } },
      { text: "ok" },
    ],
  });
  const read = resultFor(r, "toolu_e2e_1");
  assert.equal(read.isError, false);
  assert.match(read.text, /ORIGINAL-RU/);
  for (const id of ["toolu_e2e_2", "toolu_e2e_3"]) {
    const w = resultFor(r, id);
    assert.equal(w.isError, true, `${id} refused`);
    assert.match(w.text, /skillgate\[paired-docs-write\]: Load skill "paired-docs" first/);
  }
  assert.equal(readFileSync(doc, "utf8"), "ORIGINAL-RU\n");
});

test("git push HEAD is blocked (no skill lifts it)", async () => {
  const p = installed();
  const r = await play(p, {
    prompt: "push it",
    script: [
      { toolUse: { name: "skill", input: { name: "commit" } } },
      { toolUse: { name: "bash", input: { command: "git push origin HEAD", description: "push" } } },
      { text: "ok" },
    ],
  });
  const res = resultFor(r, "toolu_e2e_2");
  assert.equal(res.isError, true);
  assert.match(res.text, /skillgate\[push-head-block\]: Refused by rule push-head-block .*no skill lifts this rule/);
});

test("a keyword in the prompt adds a hint to the user message the model reads (chat.message, synthetic part), once", async () => {
  const p = installed();
  const r = await play(p, { prompt: "please look at the logs", script: [{ text: "looking" }] });
  const first = mainRequests(r)[0];
  assert.ok(first, "a main request");
  const user = first.body?.messages?.filter((m) => m.role === "user").at(-1);
  const text = contentText(user?.content);
  assert.match(text, /please look at the logs/);
  assert.match(text, /skillgate\[logs-hint\]: load skill "logs" .*call the skill tool with name "logs"/);
  assert.equal(text.split("skillgate[logs-hint]").length - 1, 1);
});

hostTest(
  "compaction",
  "opencode's own compaction (context overflow) forgets the loaded skill: the commit is refused again, and the handoff reminder follows",
  async () => {
    const p = installed();
    const r = await play(p, {
      prompt: "commit after a long session",
      // A small context window: the first answer reports 50,000 input tokens, so opencode compacts before the next turn.
      limit: { context: 20_000, output: 2_000 },
      script: [
        { toolUse: { name: "skill", input: { name: "commit" } }, usage: { input_tokens: 50_000 } },
        { toolUse: { name: "bash", input: { command: 'git commit --allow-empty -m "e2e: after compaction"', description: "commit" } } },
        { toolUse: { name: "bash", input: { command: "echo next", description: "echo" } } },
        { text: "ok" },
      ],
    });
    assert.ok(
      r.requests.some((q) => q.kind === "side" && bodyText(q).includes("<conversation>")),
      "opencode sent a compaction request",
    );
    // The compaction summarizes the load's result away: the JSON stream still has it.
    const load = toolParts(r).find((t) => t.tool === "skill");
    assert.equal(load?.state?.["status"], "completed", `the skill loaded before the compaction: ${JSON.stringify(load?.state).slice(0, 300)}`);
    const refused = resultFor(r, "toolu_e2e_2");
    assert.equal(refused.isError, true);
    assert.match(refused.text, /skillgate\[commit-gate\]/);
    assert.deepEqual(commits(p.repo), ["init"]);
    assert.match(resultFor(r, "toolu_e2e_3").text, /skillgate\[handoff-after-compaction\]: this session has been compacted 1 time/);
    const state = JSON.parse(readFileSync(join(p.state, `${r.sessionId}.json`), "utf8"));
    assert.equal(state.compactions, 1);
    assert.deepEqual(state.loaded, []);
  },
);

hostTest("cap", "a long bash output is capped: the model gets a summary and a pointer, the whole output is in a 0600 file", async () => {
  const p = installed();
  const r = await play(p, {
    prompt: "make noise",
    script: [{ toolUse: { name: "bash", input: { command: "head -c 30000 /dev/zero | tr '\\0' x", description: "noise" } } }, { text: "ok" }],
  });
  const res = resultFor(r, "toolu_e2e_1");
  assert.equal(res.isError, false);
  // The cap every host gets (runner/hook.ts): a summary naming the whole output's file.
  assert.match(res.text, /\[skillgate\[output-cap\]: long output summarized under budget profile \w+\]/);
  const m = /raw_evidence (\S+) \(30,000 chars/.exec(res.text);
  assert.ok(m?.[1], `summary header in: ${res.text.slice(0, 300)}`);
  assert.ok(res.text.length < 5_000, `the model got ${res.text.length} chars`);
  assert.equal(readFileSync(m[1], "utf8"), "x".repeat(30_000));
  assert.equal(execFileSync("stat", ["-c", "%a", m[1]], { encoding: "utf8" }).trim(), "600");
  const part = toolParts(r).find((t) => t.tool === "bash");
  assert.match(String(part?.state?.["output"] ?? ""), /long output summarized/, "opencode stored the capped output too");
});

test("a subagent's (task tool) skill load does not open the main session's gate", async () => {
  const p = installed();
  const r = await play(p, {
    prompt: "delegate then commit",
    script: [
      { toolUse: { name: "task", input: { description: "load", prompt: "SUB-LOAD: load the commit skill", subagent_type: "general" } } },
      { toolUse: { name: "bash", input: { command: 'git commit --allow-empty -m "e2e: sub"', description: "commit" } } },
      { text: "ok" },
    ],
    subagentScripts: { "SUB-LOAD": [{ toolUse: { name: "skill", input: { name: "commit" } } }, { text: "loaded" }] },
  });
  assert.ok(
    r.requests.some((q) => q.kind === "subagent"),
    "the subagent ran",
  );
  const subLoad = r.requests.filter((q) => q.kind === "subagent").flatMap((q) => toolResults(q.body));
  assert.ok(subLoad.length > 0 && subLoad.every((b) => b.is_error !== true), "the subagent's skill load succeeded");
  assert.match(contentText(subLoad[0]?.content), /<skill_content name="commit">/);
  const res = resultFor(r, "toolu_e2e_3");
  assert.equal(res.isError, true);
  assert.match(res.text, /skillgate\[commit-gate\]/);
  assert.deepEqual(commits(p.repo), ["init"]);
});

test("a budget row reminds once when the prompt size (opencode's token count for the last request) crosses a level", async () => {
  const p = installed();
  const r = await play(p, {
    prompt: "keep working",
    script: [
      { toolUse: { name: "bash", input: { command: "echo one", description: "one" } }, usage: { input_tokens: 120_000 } },
      { toolUse: { name: "bash", input: { command: "echo two", description: "two" } } },
      { toolUse: { name: "bash", input: { command: "echo three", description: "three" } } },
      { text: "ok" },
    ],
  });
  // opencode counts a request's tokens when its step ends, after that step's tool ran: the reminder rides on the
  // first tool result read after the 120,000-token request (the second call's), and only once.
  const texts = ["toolu_e2e_1", "toolu_e2e_2", "toolu_e2e_3"].map((id) => resultFor(r, id).text);
  assert.equal(texts.filter((t) => t.includes("skillgate[context-budget]")).length, 1, texts.join("\n---\n"));
  assert.match(texts.find((t) => t.includes("context-budget")) ?? "", /\n\n\nskillgate\[context-budget\]: the context is past 100,000 tokens/);
  assert.doesNotMatch(texts[2] ?? "", /context-budget/);
});

test("evidence: a commit that requires a green `npm test` is refused before it, allowed after, refused after a write in scope and after a red run", async () => {
  const p = installed();
  // A table of its own (the plugin reads $SKILLGATE_TABLE): the check, and a commit gate that requires it.
  const conf = tempDir("ev-table");
  const table = join(conf, "triggers.json");
  writeFileSync(
    table,
    JSON.stringify({
      version: 1,
      skillsDir: "skills",
      rows: [
        { id: "tests", kind: "evidence", when: { command: { name: "npm", sub: ["test"] } }, paths: ["src", "package.json"] },
        { id: "commit-needs-tests", kind: "gate", when: { command: { name: "git", sub: ["commit"] } }, require: { evidence: "tests" } },
      ],
    }),
  );
  // `npm test` passes while src/ok exists: deleting it makes the next run red.
  writeFileSync(
    join(p.repo, "package.json"),
    JSON.stringify({ name: "ev", private: true, scripts: { test: "node -e \"process.exit(require('fs').existsSync('src/ok') ? 0 : 1)\"" } }),
  );
  execFileSync("mkdir", ["-p", join(p.repo, "src")]);
  writeFileSync(join(p.repo, "src", "ok"), "");
  const bash = (command: string) => ({ toolUse: { name: "bash", input: { command, description: "step" } } });
  const r = await play(p, {
    prompt: "test and commit",
    env: { SKILLGATE_TABLE: table },
    script: [
      bash('git commit --allow-empty -m "e2e: before tests"'), // 1 refused: no run recorded
      bash("npm test"), // 2 green
      bash('git commit --allow-empty -m "e2e: after tests"'), // 3 allowed
      { toolUse: { name: "write", input: { filePath: join(p.repo, "src", "a.ts"), content: "export const a = 1;\n" } } }, // 4 a change in scope
      bash('git commit --allow-empty -m "e2e: after edit"'), // 5 refused: src/a.ts changed
      bash("rm src/ok && npm test"), // 6 red (opencode reports it as a successful call with metadata.exit 1)
      bash('git commit --allow-empty -m "e2e: after red"'), // 7 refused: the latest run failed
      { text: "ok" },
    ],
  });
  assert.match(resultFor(r, "toolu_e2e_1").text, /skillgate\[commit-needs-tests\]: .*check "tests".*none is recorded/s);
  assert.equal(resultFor(r, "toolu_e2e_3").isError, false, resultFor(r, "toolu_e2e_3").text);
  assert.match(resultFor(r, "toolu_e2e_5").text, /changed since the green run: src\/a\.ts/);
  assert.match(resultFor(r, "toolu_e2e_7").text, /the latest run failed/);
  assert.deepEqual(commits(p.repo), ["e2e: after tests", "init"]);
});
