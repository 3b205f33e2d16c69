// Captures what the real opencode binary hands to plugin hooks, for the
// adapter's fixtures. Run:
//   node --import tsx e2e-opencode/capture.ts <out-dir> [tools|compaction] [--fixtures]
// Writes <out-dir>/tools.jsonl and <out-dir>/compaction.jsonl (one line per hook
// call) and the run's requests/stdout beside them; with --fixtures also
// test/fixtures/opencode/<name>.jsonl (session.status events left out).
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempRepo, runOpencode, tempDir, writeSkill, ROOT } from "./harness.ts";

const out = process.argv[2] ?? tempDir("capture");
mkdirSync(out, { recursive: true });

function withCapturePlugin(repo: string): void {
  mkdirSync(join(repo, ".opencode", "plugins"), { recursive: true });
  cpSync(join(ROOT, "e2e-opencode", "capture-plugin.mjs"), join(repo, ".opencode", "plugins", "capture.js"));
}

async function tools(): Promise<void> {
  const repo = makeTempRepo();
  withCapturePlugin(repo);
  const skill = writeSkill(repo, "commit", "How to commit here", "Commit with a short message.");
  const extra = tempDir("skills");
  writeSkill(extra, "extra", "A skill from a config-added path", "Extra body.");
  const r = await runOpencode({
    cwd: repo,
    prompt: "please commit and check the logs",
    env: {
      CAPTURE_LOG: join(out, "tools.jsonl"),
      CAPTURE_HINT: "HINT-MARKER from chat.message",
      CAPTURE_REFUSE: "git commit",
      CAPTURE_REWRITE: "REWRITTEN-MARKER",
      CAPTURE_SKILLS_PATH: join(extra, ".claude", "skills"),
    },
    script: [
      { toolUse: { name: "bash", input: { command: "git commit --allow-empty -m x", description: "commit" } } },
      { toolUse: { name: "skill", input: { name: "commit" } } },
      { toolUse: { name: "skill", input: { name: "extra" } } },
      { toolUse: { name: "read", input: { filePath: skill } } },
      { toolUse: { name: "write", input: { filePath: join(repo, "doc_RU.md"), content: "x\n" } } },
      { toolUse: { name: "edit", input: { filePath: join(repo, "doc_RU.md"), oldString: "x", newString: "y" } } },
      { toolUse: { name: "bash", input: { command: "head -c 30000 /dev/zero | tr '\\0' x", description: "big output" } } },
      { toolUse: { name: "task", input: { description: "sub", prompt: "SUBAGENT-MARK: run echo", subagent_type: "general" } } },
      { text: "all done" },
    ],
    subagentScripts: {
      "SUBAGENT-MARK": [{ toolUse: { name: "bash", input: { command: "echo sub", description: "echo" } } }, { text: "sub done" }],
    },
  });
  writeFileSync(join(out, "tools.requests.json"), JSON.stringify(r.requests, null, 1));
  writeFileSync(join(out, "tools.stdout.jsonl"), r.stdout);
  writeFileSync(join(out, "tools.stderr.log"), r.stderr);
  console.log("tools", { exit: r.exitCode, timedOut: r.timedOut, ms: r.durationMs, requests: r.requests.length });
}

async function compaction(): Promise<void> {
  const repo = makeTempRepo();
  withCapturePlugin(repo);
  const r = await runOpencode({
    cwd: repo,
    prompt: "fill the context",
    limit: { context: 20_000, output: 2_000 },
    env: { CAPTURE_LOG: join(out, "compaction.jsonl") },
    script: [
      { toolUse: { name: "bash", input: { command: "echo one", description: "one" } }, usage: { input_tokens: 50_000 } },
      { toolUse: { name: "bash", input: { command: "echo two", description: "two" } } },
      { text: "after compaction" },
    ],
  });
  writeFileSync(join(out, "compaction.requests.json"), JSON.stringify(r.requests, null, 1));
  writeFileSync(join(out, "compaction.stdout.jsonl"), r.stdout);
  writeFileSync(join(out, "compaction.stderr.log"), r.stderr);
  console.log("compaction", { exit: r.exitCode, timedOut: r.timedOut, ms: r.durationMs, requests: r.requests.length });
}

function fixture(name: string): void {
  const lines = readFileSync(join(out, `${name}.jsonl`), "utf8")
    .split("\n")
    .filter((l) => l && !l.includes('"type":"session.status"'));
  const dir = join(ROOT, "test", "fixtures", "opencode");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.jsonl`), lines.join("\n") + "\n");
}

const args = process.argv.slice(3);
const which = args.find((a) => !a.startsWith("--"));
const fixtures = args.includes("--fixtures");
if (!which || which === "tools") {
  await tools();
  if (fixtures) fixture("tools");
}
if (!which || which === "compaction") {
  await compaction();
  if (fixtures) fixture("compaction");
}
console.log(out);
