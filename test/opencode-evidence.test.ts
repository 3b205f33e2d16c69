// Evidence-bound gates under the opencode plugin, in process, with opencode
// 1.18.33's event shapes (test/fixtures/opencode/tools.jsonl: bash's
// tool.execute.before {args: {command, description}}, tool.execute.after
// {title, output, metadata: {output, exit, truncated}}): the plugin goes through
// the runner's evidence steps, so a gate that requires a green check decides
// as it does under the hook (test/evidence-gate.test.ts).
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { SkillgatePlugin } from "../hooks/entries/opencode-plugin.ts";
import { gitProject } from "./helpers.ts";

const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), p));
const SESSION = "ses_evidence";

const TABLE = {
  version: 1,
  skillsDir: "skills",
  rows: [
    { id: "tests", kind: "evidence", when: { command: { name: "npm", sub: ["test"] } }, paths: ["src", "test", "package.json"] },
    { id: "commit-needs-tests", kind: "gate", when: { command: { name: "git", sub: ["commit"] } }, require: { evidence: "tests" } },
  ],
};

/** A git project as the plugin's directory, a table with an evidence row and a gate on it, a plugin instance. */
async function project() {
  const { ws } = gitProject("sg-oc-ev-ws-", { readme: false });
  const conf = tmp("sg-oc-ev-conf-");
  const tableFile = path.join(conf, "triggers.json");
  fs.writeFileSync(tableFile, JSON.stringify(TABLE));
  fs.mkdirSync(path.join(conf, "skills"));
  const saved = { ...process.env };
  Object.assign(process.env, { SKILLGATE_TABLE: tableFile, SKILLGATE_STATE: path.join(conf, "state"), SKILLGATE_OUTPUT_DIR: path.join(conf, "out") });
  try {
    return { ws, hooks: await SkillgatePlugin({ directory: ws }) };
  } finally {
    process.env = saved;
  }
}

type Hooks = Awaited<ReturnType<typeof SkillgatePlugin>>;
let seq = 0;

/** tool.execute.before as opencode calls it: the refusal (a thrown Error's message) or undefined. */
async function before(hooks: Hooks, tool: string, args: Record<string, unknown>, callID = `toolu_oc_${++seq}`): Promise<string | undefined> {
  try {
    await hooks["tool.execute.before"]({ tool, sessionID: SESSION, callID }, { args });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

const commit = (hooks: Hooks) => before(hooks, "bash", { command: "git commit -m x", description: "commit" });

/** The model runs `npm test`: allowed, then opencode's after hook with the exit status in metadata (a red run is no failure to opencode). */
async function npmTest(hooks: Hooks, exit: number): Promise<void> {
  const callID = `toolu_oc_${++seq}`;
  const args = { command: "npm test", description: "run the tests" };
  assert.equal(await before(hooks, "bash", args, callID), undefined, "the check itself is never refused");
  const text = exit === 0 ? "# tests 3\n# pass 3\n# fail 0\n" : "not ok 2 - adds\n# fail 1\n";
  await hooks["tool.execute.after"](
    { tool: "bash", sessionID: SESSION, callID, args },
    { title: "npm test", output: text, metadata: { output: text, exit, truncated: false } },
  );
}

/** opencode's edit tool on a file: the call, the change on disk, the after hook. */
async function edit(hooks: Hooks, ws: string, rel: string, text: string): Promise<void> {
  const callID = `toolu_oc_${++seq}`;
  const args = { filePath: path.join(ws, rel), oldString: "1", newString: "2" };
  assert.equal(await before(hooks, "edit", args, callID), undefined);
  fs.writeFileSync(path.join(ws, rel), text);
  await hooks["tool.execute.after"]({ tool: "edit", sessionID: SESSION, callID, args }, { title: rel, output: "Edit applied successfully.", metadata: {} });
}

test("opencode plugin: a commit is refused before a green check run, allowed after, refused again after an edit in scope", async () => {
  const { ws, hooks } = await project();
  assert.match((await commit(hooks)) ?? "", /^skillgate\[commit-needs-tests\]: .*check "tests".*none is recorded.*Run: npm test/s);
  await npmTest(hooks, 0);
  assert.equal(await commit(hooks), undefined, "allowed after the green run");
  await edit(hooks, ws, "src/a.ts", "export const a = 2;\n");
  const r = await commit(hooks);
  assert.match(r ?? "", /changed since the green run: src\/a\.ts \(modified\)/);
  assert.match(r ?? "", /Run: npm test/);
  await npmTest(hooks, 0);
  assert.equal(await commit(hooks), undefined, "the re-run opens it again");
  await hooks.dispose();
});

test("opencode plugin: a check that exits non-zero (metadata.exit) is a failed run, not a green one", async () => {
  const { hooks } = await project();
  await npmTest(hooks, 1);
  assert.match((await commit(hooks)) ?? "", /the latest run failed \(npm test, exit 1/);
  await npmTest(hooks, 0);
  assert.equal(await commit(hooks), undefined);
  await npmTest(hooks, 1);
  assert.match((await commit(hooks)) ?? "", /the latest run failed/);
  await hooks.dispose();
});

test("opencode plugin: an edit outside the check's paths leaves the green run fresh", async () => {
  const { ws, hooks } = await project();
  fs.writeFileSync(path.join(ws, "README.md"), "readme\n");
  await npmTest(hooks, 0);
  await edit(hooks, ws, "README.md", "changed\n");
  assert.equal(await commit(hooks), undefined);
  await hooks.dispose();
});
