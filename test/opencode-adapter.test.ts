// The opencode adapter and plugin on payloads captured from the real opencode
// 1.18.33 (test/fixtures/opencode/, made by e2e-opencode/capture.ts): the
// adapter's field reading, then the whole plugin replaying a captured session.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { applyToChatMessage, applyToToolOutput, normalize, opencodeHost, patchPaths, render, type ChatPart } from "../hooks/hosts/opencode/adapter.ts";
import type { Event } from "../hooks/core/types.ts";
import { SkillgatePlugin } from "../hooks/entries/opencode-plugin.ts";
import { installOpencode, uninstallOpencode, doctorOpencode, opencodeSkills, pluginFileOf } from "../hooks/hosts/opencode/install.ts";
import { defaultTable, root } from "./helpers.ts";
import { StateStore } from "../hooks/io/state-store.ts";

interface Line {
  hook: string;
  input: any;
  output: any;
}
const fixture = (name: string): Line[] =>
  fs
    .readFileSync(path.join(root, "test", "fixtures", "opencode", `${name}.jsonl`), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
const tools = fixture("tools");
const compaction = fixture("compaction");
const directory = tools[0]!.input.directory as string;
const mainSession = tools.find((l) => l.hook === "chat.message")!.input.sessionID as string;
const call = (hook: string, callID: string): Line => {
  const l = tools.find((x) => x.hook === hook && x.input.callID === callID);
  assert.ok(l, `${hook} ${callID} is in the fixture`);
  return structuredClone(l);
};
const eventOf = (payload: unknown): Event => {
  const n = normalize(payload, directory);
  assert.ok(n.ok, `normalized: ${JSON.stringify(n)}`);
  return n.event;
};

test("tool.execute.before: bash command, write/edit paths, task subagent type; opencode's tool ids keep their names, with kinds", () => {
  assert.deepEqual(eventOf(call("tool.execute.before", "toolu_e2e_1")), {
    kind: "tool-call",
    sessionId: mainSession,
    cwd: directory,
    toolUseId: "toolu_e2e_1",
    tool: { kind: "shell", name: "bash", command: "git commit --allow-empty -m x" },
  });
  const doc = path.join(directory, "doc_RU.md");
  assert.deepEqual(eventOf(call("tool.execute.before", "toolu_e2e_5")), {
    kind: "tool-call",
    sessionId: mainSession,
    cwd: directory,
    toolUseId: "toolu_e2e_5",
    tool: { kind: "write", name: "write", paths: [doc] },
  });
  const edit = eventOf(call("tool.execute.before", "toolu_e2e_6"));
  assert.deepEqual(edit.kind === "tool-call" && edit.tool, { kind: "edit", name: "edit", paths: [doc] });
  const task = eventOf(call("tool.execute.before", "toolu_e2e_8"));
  assert.deepEqual(task.kind === "tool-call" && task.tool, { kind: "subagent", name: "task", subagentType: "general" });
});

test("tool.execute.after: the skill tool's success is a load; reads say whether they are whole; bash output is measured", () => {
  const skill = eventOf(call("tool.execute.after", "toolu_e2e_2"));
  assert.deepEqual(skill.kind === "tool-result" && skill.loads, ["commit"]);
  const failedShape = call("tool.execute.after", "toolu_e2e_2");
  failedShape.output.output = "Skill not found";
  const notLoaded = eventOf(failedShape);
  assert.deepEqual(notLoaded.kind === "tool-result" && notLoaded.loads, []);
  const read = call("tool.execute.after", "toolu_e2e_4");
  const whole = eventOf(read);
  assert.deepEqual(whole.kind === "tool-result" && whole.tool, {
    kind: "read",
    name: "read",
    path: path.join(directory, ".claude/skills/commit/SKILL.md"),
    whole: true,
  });
  read.input.args.limit = 3;
  const sliced = eventOf(read);
  assert.equal(sliced.kind === "tool-result" && sliced.tool.kind === "read" && sliced.tool.whole, false);
  const big = eventOf(call("tool.execute.after", "toolu_e2e_7"));
  assert.equal(big.kind === "tool-result" && big.output?.chars, 30_000);
  assert.deepEqual(big.kind === "tool-result" && big.output?.fields, ["output"]);
});

test("chat.message: the user's text without synthetic parts, with the message id as the turn; session.compacted is a compaction; other events are ignored", () => {
  const msg = structuredClone(tools.find((l) => l.hook === "chat.message")!);
  msg.output.parts.push({ type: "text", text: "SYNTHETIC", synthetic: true });
  const e = eventOf(msg);
  assert.deepEqual(e, {
    kind: "prompt",
    sessionId: mainSession,
    cwd: directory,
    prompt: '"please commit and check the logs"',
    promptId: msg.output.message.id,
  });
  const compacted = compaction.find((l) => l.hook === "event" && l.input.event.type === "session.compacted")!;
  const session = compacted.input.event.properties.sessionID;
  assert.deepEqual(eventOf(compacted), { kind: "session-start", source: "compact", sessionId: session, cwd: directory });
  const idle = tools.find((l) => l.hook === "event" && l.input.event.type === "session.idle")!;
  assert.deepEqual(normalize(idle, directory), { ok: false, ignored: true });
  assert.deepEqual(normalize({ hook: "tool.execute.before", input: {}, output: {} }, directory), {
    ok: false,
    ignored: false,
    error: "tool.execute.before without a sessionID",
  });
});

test("apply_patch envelopes: every path added, updated, deleted or moved to", () => {
  const patch =
    "*** Begin Patch\n*** Add File: a_RU.md\n+x\n*** Update File: src/b.ts\n*** Move to: src/c.ts\n@@\n-a\n+b\n*** Delete File: old.txt\n*** End Patch";
  assert.deepEqual(patchPaths(patch), ["a_RU.md", "src/b.ts", "src/c.ts", "old.txt"]);
  const e = eventOf({ hook: "tool.execute.before", input: { tool: "apply_patch", sessionID: "s", callID: "c" }, output: { args: { patchText: patch } } });
  assert.deepEqual(e.kind === "tool-call" && e.tool, { kind: "edit", name: "apply_patch", paths: ["a_RU.md", "src/b.ts", "src/c.ts", "old.txt"] });
});

test("render: a refusal as the tool's error, a cap's output, a hint as context; applied to the hook's mutable output", () => {
  const call0 = eventOf(call("tool.execute.before", "toolu_e2e_1"));
  const r = render(call0, { verdict: "deny", rows: ["commit-gate"], message: "REFUSED" }, {});
  assert.equal(r?.refuse, "REFUSED");
  assert.equal(render(call0, { verdict: "allow", rows: [] }, {}), undefined);
  const result = eventOf(call("tool.execute.after", "toolu_e2e_7"));
  const capped = render(
    result,
    { verdict: "cap", rows: ["output-cap"], cap: { row: "output-cap", headChars: 2, profile: "balanced" } },
    { updatedOutput: { output: "lo[capped]" } },
  );
  const out = { output: "long" };
  applyToToolOutput(capped, out, ["REMINDER"]);
  assert.equal(out.output, "lo[capped]\n\nREMINDER");
  const untouched = { output: "same" };
  applyToToolOutput(undefined, untouched);
  assert.equal(untouched.output, "same");
  const prompt = eventOf(tools.find((l) => l.hook === "chat.message")!);
  const hint = render(prompt, { verdict: "hint", rows: ["logs-hint"], message: "HINT" }, {});
  const chat = { message: { id: "msg_1", sessionID: "ses_1" }, parts: [{ id: "prt_a", type: "text", text: "hi" }] as ChatPart[] };
  applyToChatMessage(hint, chat, (after: string | undefined) => `${after}x`);
  assert.deepEqual(chat.parts[1], { id: "prt_ax", messageID: "msg_1", sessionID: "ses_1", type: "text", synthetic: true, text: "HINT" });
  applyToChatMessage(undefined, chat, (after: string | undefined) => `${after}x`);
  assert.equal(chat.parts.length, 2);
  const host = opencodeHost(directory);
  // opencode's own tool names: `skill` with {name}, `read` with {filePath} (a slice has offset/limit).
  assert.equal(
    host.howToLoad("commit", "/s/commit/SKILL.md"),
    'call the skill tool with name "commit"',
    "a file outside opencode's skill folders: the read would ask first",
  );
  assert.equal(
    host.howToLoad("commit", "/p/.opencode/skills/commit/SKILL.md"),
    'call the skill tool with name "commit" (or read /p/.opencode/skills/commit/SKILL.md whole with the read tool, no offset/limit)',
  );
  assert.equal(host.looksLikeToolCall(JSON.stringify(call("tool.execute.before", "toolu_e2e_1"))), true);
  assert.deepEqual(host.renderFailure("bad", true), { refuse: "bad", notice: "bad" });
  assert.ok(host.environment({ HOME: "/h" }).skillRoots.includes(path.join(directory, ".opencode", "skills")));
});

/** A fresh plugin instance over the captured project directory, with its own state folder and the default table. */
async function plugin(extraEnv: Record<string, string> = {}) {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-oc-state-"));
  const saved = { ...process.env };
  Object.assign(process.env, { SKILLGATE_STATE: state, SKILLGATE_TABLE: defaultTable, SKILLGATE_OUTPUT_DIR: path.join(state, "out"), ...extraEnv });
  try {
    const hooks = await SkillgatePlugin({ directory });
    return { hooks, state };
  } finally {
    process.env = saved;
  }
}

/** Replays fixture lines through the plugin: returns each tool.execute.before refusal (or undefined), by callID. */
async function replay(hooks: Awaited<ReturnType<typeof SkillgatePlugin>>, lines: Line[]): Promise<Map<string, string | undefined>> {
  const refusals = new Map<string, string | undefined>();
  for (const l of lines) {
    const input = structuredClone(l.input);
    if (l.hook === "event") await hooks.event(input);
    else if (l.hook === "chat.message") await hooks["chat.message"](input, l.output);
    else if (l.hook === "tool.execute.before") {
      try {
        await hooks["tool.execute.before"](input, structuredClone(l.output));
        refusals.set(input.callID, undefined);
      } catch (e) {
        refusals.set(input.callID, (e as Error).message);
      }
    } else if (l.hook === "tool.execute.after") await hooks["tool.execute.after"](input, l.output);
  }
  return refusals;
}

test("plugin replaying the captured session: commit refused until the skill tool loads commit; the _RU.md write refused; the big bash output capped; a logs hint on the prompt", async () => {
  const { hooks, state } = await plugin();
  const lines = structuredClone(tools);
  const refusals = await replay(hooks, lines);
  assert.match(refusals.get("toolu_e2e_1") ?? "", /^skillgate\[commit-gate\]: Load skill "commit" first .*call the skill tool with name "commit"/);
  assert.match(refusals.get("toolu_e2e_5") ?? "", /skillgate\[paired-docs-write\]/, "write to doc_RU.md is gated");
  assert.match(refusals.get("toolu_e2e_6") ?? "", /skillgate\[paired-docs-write\]/, "edit of doc_RU.md is gated");
  assert.equal(refusals.get("toolu_e2e_7"), undefined);
  const big = lines.find((l) => l.hook === "tool.execute.after" && l.input.callID === "toolu_e2e_7")!;
  // The cap every host gets (runner/hook.ts): a summary with a pointer to the whole output, saved 0600.
  assert.match(big.output.output, /\[skillgate\[output-cap\]: long output summarized under budget profile \w+\]$/);
  assert.ok(big.output.output.length < 5_000, `the model reads ${big.output.output.length} chars`);
  const file = /raw_evidence (\S+) \(30,000 chars/.exec(big.output.output)?.[1] ?? "";
  assert.equal(fs.readFileSync(file, "utf8").length, 30_000);
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  const chat = lines.find((l) => l.hook === "chat.message" && l.input.sessionID === mainSession)!;
  const hint = chat.output.parts.find((p: any) => p.synthetic);
  assert.match(hint?.text ?? "", /skillgate\[logs-hint\]: load skill "logs"/);
  assert.ok(hint.id > chat.output.parts[0].id, "the hint part sorts after the prompt");
  // The subagent's prompt got no hint: main-scope rows do not fire inside a subagent.
  const sub = lines.find((l) => l.hook === "chat.message" && l.input.sessionID !== mainSession)!;
  assert.equal(
    sub.output.parts.some((p: any) => p.synthetic),
    false,
  );
  // State is on disk under the main session, loads and stats included (counts may wait in the .calls journal).
  const store = new StateStore(state);
  const saved = store.read(mainSession).state;
  const bashCalls = (saved.stats.toolCalls.bash ?? 0) + (store.counted(mainSession).toolCalls.bash ?? 0);
  assert.deepEqual(saved.loaded, ["commit", "extra"], "both skill-tool loads (the second skill came from a config-added path)");
  assert.equal(saved.stats.capped.bash, 1);
  assert.equal(bashCalls, 2, "the subagent's bash call counts under the main session");
});

test("plugin: a commit after the skill is loaded passes; opencode's compaction forgets the load and the gate closes again", async () => {
  const { hooks } = await plugin();
  const session = compaction.find((l) => l.hook === "chat.message")!.input.sessionID as string;
  const skillLoad = call("tool.execute.after", "toolu_e2e_2");
  skillLoad.input.sessionID = session;
  const commit = () => hooks["tool.execute.before"]({ tool: "bash", sessionID: session, callID: "c" }, { args: { command: "git commit -m x" } });
  await assert.rejects(commit(), /commit-gate/);
  await hooks["tool.execute.after"](skillLoad.input, skillLoad.output);
  await commit();
  for (const l of compaction) if (l.hook === "event") await hooks.event(structuredClone(l.input));
  await assert.rejects(commit(), /commit-gate/);
  // The compaction's handoff reminder rides on the next tool result the model reads, once.
  const next = () => ({ output: "next\n" as unknown });
  const first = next();
  await hooks["tool.execute.after"]({ tool: "bash", sessionID: session, callID: "n1", args: { command: "echo next" } }, first);
  assert.match(String(first.output), /^next\n\n\nskillgate\[handoff-after-compaction\]: this session has been compacted 1 time/);
  const second = next();
  await hooks["tool.execute.after"]({ tool: "bash", sessionID: session, callID: "n2", args: { command: "echo next" } }, second);
  assert.equal(second.output, "next\n");
});

test("plugin: push HEAD is blocked whatever is loaded; reading a _RU.md file is allowed", async () => {
  const { hooks } = await plugin();
  await assert.rejects(
    hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_x", callID: "c1" }, { args: { command: "git push origin HEAD" } }),
    /push-head-block/,
  );
  await hooks["tool.execute.before"]({ tool: "read", sessionID: "ses_x", callID: "c2" }, { args: { filePath: path.join(directory, "doc_RU.md") } });
});

test("plugin: an unusable table fails open with a warning, or refuses every tool call when failMode is closed", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-oc-table-"));
  const bad = path.join(dir, "triggers.json");
  fs.writeFileSync(bad, "{ not json");
  const open = await plugin({ SKILLGATE_TABLE: bad });
  await open.hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: { command: "git commit -m x" } });
  const closed = await plugin({ SKILLGATE_TABLE: bad, SKILLGATE_FAIL_MODE: "closed" });
  await assert.rejects(
    closed.hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: { command: "ls" } }),
    /trigger table unusable, refusing/,
  );
});

test("plugin: garbage hook input never throws (only a refusal does)", async () => {
  const { hooks } = await plugin();
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: "../../etc", callID: "c" }, { args: null });
  await hooks["tool.execute.after"]({ tool: "skill", sessionID: "s", callID: "c" } as any, {} as any);
  await hooks["chat.message"]({ sessionID: "s" }, {} as any);
  await hooks.event({ event: { type: "session.compacted", properties: null } });
  await hooks.event({ event: {} as any });
});

test("plugin config hook: the table's skills folder joins opencode's skills.paths once", async () => {
  const { hooks } = await plugin();
  const config: Record<string, unknown> = { skills: { paths: ["/x"] } };
  await hooks.config(config);
  await hooks.config(config);
  assert.deepEqual(config.skills, { paths: ["/x", path.join(root, "skills")] });
});

test("install --host opencode: project and user files, idempotent, uninstall removes only ours, doctor checks the bundle", async () => {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-oc-inst-"));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-oc-home-"));
  const env = { HOME: home };
  assert.equal(pluginFileOf({ user: true, env }), path.join(home, ".config", "opencode", "plugins", "skillgate.js"));
  assert.equal(pluginFileOf({ user: true, env: { HOME: home, XDG_CONFIG_HOME: "/cfg" } }), "/cfg/opencode/plugins/skillgate.js");
  assert.throws(() => pluginFileOf({ project, user: true }), /not both/);
  const bundle = path.join(root, "dist", "opencode-plugin.mjs");
  if (!fs.existsSync(bundle)) assert.fail("dist/opencode-plugin.mjs missing: run npm run build first");
  // skillgate as the project's dependency: the committed plugin file names no absolute path (doctor checks).
  fs.mkdirSync(path.join(project, "node_modules"));
  fs.symlinkSync(root, path.join(project, "node_modules", "skillgate"));
  const r = installOpencode({ project }, root);
  assert.deepEqual(r, { file: path.join(project, ".opencode", "plugins", "skillgate.js"), action: "installed" });
  assert.equal(installOpencode({ project }, root).action, "unchanged");
  const doctor = await doctorOpencode({ project }, root);
  assert.equal(doctor.ok, true, doctor.lines.join("\n"));
  assert.ok(
    doctor.lines.some((l) => l.startsWith(`✓ table ${defaultTable}`)),
    doctor.lines.join("\n"),
  );
  fs.writeFileSync(path.join(project, ".opencode", "triggers.json"), "{ broken");
  const broken = await doctorOpencode({ project, env: {} }, root);
  assert.equal(broken.ok, false);
  assert.ok(
    broken.lines.some((l) => /✗ table .*\.opencode\/triggers\.json is unusable \(gates would be OFF\)/.test(l)),
    broken.lines.join("\n"),
  );
  fs.rmSync(path.join(project, ".opencode", "triggers.json"));
  assert.equal(uninstallOpencode({ project }).action, "removed");
  assert.equal(uninstallOpencode({ project }).action, "absent");
  assert.equal((await doctorOpencode({ project }, root)).ok, false);
  fs.writeFileSync(r.file, "export const Mine = async () => ({})\n");
  assert.throws(() => installOpencode({ project }, root), /not written by skillgate/);
  assert.throws(() => uninstallOpencode({ project }), /not written by skillgate/);
  assert.equal(fs.readFileSync(r.file, "utf8"), "export const Mine = async () => ({})\n");
});

test("plugin stop gate: a 'done' final answer without done-check becomes one follow-up prompt with the reason; the follow-up's own stop passes; a new user turn is gated again", async () => {
  const sent: { id: string; text: string }[] = [];
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-oc-state-"));
  const saved = { ...process.env };
  Object.assign(process.env, { SKILLGATE_STATE: state, SKILLGATE_TABLE: defaultTable });
  const client = {
    session: {
      promptAsync: async (o: { path: { id: string }; body: { parts: { text: string }[] } }) =>
        void sent.push({ id: o.path.id, text: o.body.parts[0]?.text ?? "" }),
    },
  };
  const hooks = await SkillgatePlugin({ directory, client }).finally(() => (process.env = saved));
  const s = "ses_stop";
  const turn = async (userId: string, userText: string, answerId: string, answer: string) => {
    const chat = { message: { id: userId, sessionID: s }, parts: [{ id: `prt_${userId}`, type: "text", text: userText }] as ChatPartT[] };
    await hooks["chat.message"]({ sessionID: s }, chat);
    await hooks.event({
      event: { type: "message.updated", properties: { sessionID: s, info: { id: answerId, sessionID: s, role: "assistant", parentID: userId } } },
    });
    await hooks.event({
      event: {
        type: "message.part.updated",
        properties: { sessionID: s, part: { id: `prt_${answerId}`, messageID: answerId, sessionID: s, type: "text", text: answer } },
      },
    });
    await hooks.event({ event: { type: "session.idle", properties: { sessionID: s } } });
    return chat;
  };
  await turn("msg_u1", "finish it", "msg_a1", "Всё готово ✅");
  assert.equal(sent.length, 1);
  assert.equal(sent[0]?.id, s);
  assert.match(
    sent[0]?.text ?? "",
    /^\[skillgate: final answer refused\]\nskillgate\[done-check-final\]: Load skill "done-check" first .*call the skill tool with name "done-check"/,
  );
  // opencode turns the follow-up into a user message: no hint on it, and its answer's stop passes.
  const follow = await turn("msg_u2", sent[0]?.text ?? "", "msg_a2", "Готово ✅ (checked)");
  assert.equal(follow.parts.length, 1, "no hint part on our own follow-up");
  assert.equal(sent.length, 1, "the follow-up's stop passes (no loop)");
  await turn("msg_u3", "and now the next thing", "msg_a3", "готово ✅");
  assert.equal(sent.length, 2, "a new user turn is gated again");
  await turn("msg_u4", "one more", "msg_a4", "Here is the plan.");
  assert.equal(sent.length, 2, "an answer that claims nothing passes");
});
type ChatPartT = { id: string; type: string; text: string; synthetic?: boolean };

test("plugin self-protection: the agent may not write the plugin file that loads skillgate, nor the project's table", async () => {
  const { hooks } = await plugin();
  for (const file of [path.join(directory, ".opencode", "plugins", "skillgate.js"), path.join(directory, ".opencode", "triggers.json")]) {
    await assert.rejects(
      hooks["tool.execute.before"]({ tool: "write", sessionID: "ses_p", callID: "c" }, { args: { filePath: file, content: "" } }),
      /skillgate/,
      file,
    );
    await assert.rejects(
      hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_p", callID: "c" }, { args: { command: `rm ${file}` } }),
      /skillgate/,
      `rm ${file}`,
    );
  }
  await hooks["tool.execute.before"]({ tool: "write", sessionID: "ses_p", callID: "c" }, { args: { filePath: path.join(directory, "notes.md"), content: "" } });
});

test("plugin, through the runner's pipeline: a write through a symlink to the project's table is refused like the table itself (link targets)", async () => {
  // A project of its own: the link must exist for its target to be seen.
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-oc-link-"));
  fs.mkdirSync(path.join(project, ".opencode"));
  fs.writeFileSync(path.join(project, ".opencode", "triggers.json"), fs.readFileSync(defaultTable));
  fs.symlinkSync(path.join(project, ".opencode", "triggers.json"), path.join(project, "notes.md"));
  fs.writeFileSync(path.join(project, "plain.md"), "");
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-oc-state-"));
  const saved = { ...process.env };
  Object.assign(process.env, { SKILLGATE_STATE: state });
  delete process.env.SKILLGATE_TABLE;
  const hooks = await SkillgatePlugin({ directory: project }).finally(() => (process.env = saved));
  const write = (file: string) =>
    hooks["tool.execute.before"]({ tool: "write", sessionID: "ses_link", callID: "c" }, { args: { filePath: path.join(project, file), content: "{}" } });
  await assert.rejects(write("notes.md"), /skillgate\[self-protection\].*trigger table/);
  await write("plain.md");
});

test("plugin: session state is written behind the calls, and at once before a shell call runs (the git hooks read it)", async () => {
  const { hooks, state } = await plugin();
  const s = "ses_behind";
  const file = path.join(state, `${s}.json`);
  const load = call("tool.execute.after", "toolu_e2e_2");
  load.input.sessionID = s;
  await hooks["tool.execute.after"](load.input, load.output);
  assert.equal(fs.existsSync(file), false, "a skill load is kept in memory first");
  await hooks["tool.execute.before"]({ tool: "bash", sessionID: s, callID: "c1" }, { args: { command: "git commit -m x" } });
  assert.deepEqual(new StateStore(state).read(s).state.loaded, ["commit"], "on disk before the allowed commit runs");
  // That write is the hook's own, made after the call's restore noted the state: after the call the load stands, nothing is put back.
  const after = { output: "[main 1234567] x\n" as unknown, metadata: { exit: 0 } };
  await hooks["tool.execute.after"]({ tool: "bash", sessionID: s, callID: "c1", args: { command: "git commit -m x" } }, after);
  assert.doesNotMatch(String(after.output), /effects-restore/);
  assert.deepEqual(new StateStore(state).read(s).state.loaded, ["commit"], "the load is still on disk");
});

test("plugin budget rows: the prompt size from opencode's assistant message tokens; one reminder per level on the next tool result", async () => {
  const { hooks } = await plugin();
  const s = "ses_budget";
  const tokens = (input: number) =>
    hooks.event({
      event: {
        type: "message.updated",
        properties: {
          sessionID: s,
          info: { id: `msg_${input}`, sessionID: s, role: "assistant", tokens: { input, output: 20, reasoning: 0, cache: { read: 0, write: 0 } } },
        },
      },
    });
  const after = async () => {
    const out = { output: "ok\n" as unknown };
    await hooks["tool.execute.after"]({ tool: "bash", sessionID: s, callID: "c", args: { command: "true" } }, out);
    return String(out.output);
  };
  await tokens(50_000);
  assert.equal(await after(), "ok\n");
  await tokens(120_000);
  assert.match(await after(), /^ok\n\n\nskillgate\[context-budget\]: the context is past 100,000 tokens/);
  assert.equal(await after(), "ok\n", "once per level");
  await tokens(160_000);
  assert.match(await after(), /past 150,000 tokens/);
});

test("install --host opencode: the table's skillsDir loads through the plugin; a skill missing there is refused, or copied into .opencode/skills with --with-skills", async () => {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "sg-oc-skills-"));
  const env = { HOME: project, XDG_CONFIG_HOME: path.join(project, "config") };
  // The shipped table: its skillsDir is skillgate's skills/, which the plugin adds to opencode's skill paths.
  assert.deepEqual(await opencodeSkills({ project, env }, root, false), []);
  assert.deepEqual(await opencodeSkills({ project, env }, root, true), ["the table's skills are loadable by opencode already: nothing to copy"]);
  // A project table whose skillsDir lacks the skill it names.
  fs.mkdirSync(path.join(project, ".opencode", "empty"), { recursive: true });
  fs.writeFileSync(
    path.join(project, ".opencode", "triggers.json"),
    JSON.stringify({
      version: 1,
      skillsDir: "empty",
      rows: [{ id: "commit-gate", kind: "gate", skill: "commit", when: { command: { name: "git", sub: ["commit"] } } }],
    }),
  );
  await assert.rejects(opencodeSkills({ project, env }, root, false), /names skills opencode cannot load: commit .*--with-skills.*\.opencode\/skills/s);
  assert.deepEqual(await opencodeSkills({ project, env }, root, true, true), [`would copy skills into ${path.join(project, ".opencode", "skills")}: commit`]);
  assert.ok(!fs.existsSync(path.join(project, ".opencode", "skills")), "a dry run copies nothing");
  assert.match((await opencodeSkills({ project, env }, root, true)).join("\n"), /copied skills into \S+\.opencode\/skills: commit/);
  assert.equal(
    fs.readFileSync(path.join(project, ".opencode", "skills", "commit", "SKILL.md"), "utf8"),
    fs.readFileSync(path.join(root, "skills", "commit", "SKILL.md"), "utf8"),
  );
  assert.deepEqual(await opencodeSkills({ project, env }, root, false), [], "now loadable: nothing to do");
});
