// skillgate's registration as data (hooks/hosts/claude-code/registration.ts):
// matchers compared as the sets of tools they send, a settings file's
// deficits against what install writes, and which of them are new.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HOOK_EVENTS, addSkillgate, makeHandler, portableHandler } from "../hooks/hosts/claude-code/install.ts";
import { INSTALLED, clientMatches, deficitsOf, describeDeficit, isOurHandler, leftOut, newDeficits } from "../hooks/hosts/claude-code/registration.ts";

const ours = { packageRoot: "/opt/skillgate", projectDir: "/work/p" };
const EVENTS = Object.keys(HOOK_EVENTS);

test("matchers as Claude Code reads them: empty or * is everything, a name list is exact, anything else an unanchored regex", () => {
  assert.equal(clientMatches(undefined, "Bash"), true);
  assert.equal(clientMatches("*", "mcp__fs__write_file"), true);
  assert.equal(clientMatches("Bash|Write", "Bash"), true);
  assert.equal(clientMatches("Bash|Write", "BashX"), false, "a name list is exact");
  assert.equal(clientMatches("Bash, Edit", "Edit"), true);
  assert.equal(clientMatches("mcp__.*", "mcp__fs__write_file"), true);
  assert.equal(clientMatches("Ba.h", "xBashx"), true, "a regex is unanchored");
  assert.equal(clientMatches("(", "Bash"), false, "a regex the client cannot compile sends nothing");
});

test("a matcher is narrower when some tool the installed one sends is no longer sent", () => {
  const installed = "Bash|Write|Edit|MultiEdit|NotebookEdit|Agent|Task|mcp__.*";
  assert.deepEqual(leftOut(installed, [installed]), []);
  assert.deepEqual(leftOut(installed, ["*"]), []);
  assert.deepEqual(leftOut(installed, [undefined]), [], "no matcher is every tool");
  assert.deepEqual(leftOut(installed, [".*"]), []);
  assert.deepEqual(leftOut(installed, ["NoSuchTool"]), installed.split("|"));
  assert.deepEqual(leftOut(installed, ["Bash|Write|Edit|MultiEdit|NotebookEdit|Agent|Task"]), ["mcp__.*"]);
  // Split over two groups: their union counts.
  assert.deepEqual(leftOut(installed, ["Bash|Write|Edit", "MultiEdit|NotebookEdit|Agent|Task|mcp__.*"]), []);
  // A regex that still sends every named tool.
  assert.deepEqual(leftOut("Bash|Write", ["^(Bash|Write|Read)$"]), []);
  // A pattern piece is kept only by the same pattern or by everything: inclusion of regexes is not decided.
  assert.deepEqual(leftOut(installed, ["Bash|Write|Edit|MultiEdit|NotebookEdit|Agent|Task|mcp__fs.*"]), ["mcp__.*"]);
  assert.deepEqual(leftOut(undefined, ["Bash"]), ["every tool"], "an event installed without matcher takes no narrowing");
});

test("what install writes has no deficits; a file without skillgate lacks every event", () => {
  for (const h of [
    portableHandler(),
    makeHandler("/usr/bin/node", "/opt/skillgate/dist/hook.cjs"),
    makeHandler("/home/u/.bun/bin/bun", "/opt/skillgate/dist/hook.bun.cjs"),
  ]) {
    assert.deepEqual(deficitsOf(addSkillgate({ model: "opus" }, h), ours), [], h.args[0]);
  }
  assert.deepEqual(
    deficitsOf({}, ours),
    EVENTS.map((e) => `${e}:absent`),
  );
  assert.deepEqual(
    deficitsOf("not an object", ours),
    EVENTS.map((e) => `${e}:absent`),
  );
});

test("a handler counts only when it runs this skillgate's hook with a JS runtime", () => {
  assert.equal(isOurHandler({ type: "command", command: "node", args: ["${CLAUDE_PROJECT_DIR}/.claude/hooks/skillgate.mjs"] }, ours), true);
  assert.equal(isOurHandler({ type: "command", command: "node", args: ["/work/p/.claude/hooks/skillgate.mjs"] }, ours), true);
  assert.equal(isOurHandler({ type: "command", command: "node", args: ["/tmp/.claude/hooks/skillgate.mjs"] }, ours), false, "a launcher copied elsewhere");
  assert.equal(isOurHandler({ type: "command", command: "node", args: ["/tmp/skillgate/dist/hook.cjs"] }, ours), false, "another package's hook");
  assert.equal(isOurHandler({ type: "command", command: "/bin/true", args: ["/opt/skillgate/dist/hook.cjs"] }, ours), false, "a program that runs nothing");
  assert.equal(isOurHandler({ type: "command", command: "echo", args: ["skillgate"] }, ours), false);
  assert.equal(isOurHandler({ type: "http", command: "node", args: ["/opt/skillgate/dist/hook.cjs"] }, ours), false);
  // Bun with the config install writes (none) is ours; with any other config file (its preload would run) it is not.
  assert.equal(isOurHandler({ type: "command", command: "bun", args: ["--config=/dev/null", "/opt/skillgate/dist/hook.bun.cjs"] }, ours), true);
  assert.equal(isOurHandler({ type: "command", command: "bun", args: ["--config=/tmp/preload.toml", "/opt/skillgate/dist/hook.bun.cjs"] }, ours), false);
});

test("each weakening of one event is its own deficit, named by event", () => {
  const base = addSkillgate({}, portableHandler()) as { hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]> };
  const withPre = (change: (g: { matcher?: string; hooks: Record<string, unknown>[] }) => void) => {
    const s = structuredClone(base);
    change(s.hooks.PreToolUse![0]!);
    return deficitsOf(s, ours);
  };
  assert.deepEqual(
    withPre((g) => (g.hooks[0]!.timeout = 0.001)),
    ["PreToolUse:timeout=0.001"],
  );
  assert.deepEqual(
    withPre((g) => delete g.hooks[0]!.timeout),
    [],
    "no timeout is the client's 600 s",
  );
  assert.deepEqual(
    withPre((g) => (g.hooks[0]!.async = true)),
    ["PreToolUse:async"],
  );
  assert.deepEqual(
    withPre((g) => (g.hooks[0]!.asyncRewake = true)),
    ["PreToolUse:async"],
  );
  assert.deepEqual(
    withPre((g) => (g.hooks[0]!.once = true)),
    ["PreToolUse:once"],
  );
  assert.deepEqual(
    withPre((g) => (g.hooks[0]!.if = "Bash(git *)")),
    ["PreToolUse:if"],
  );
  assert.deepEqual(
    withPre((g) => delete g.hooks[0]!.onFailure),
    ["PreToolUse:onFailure"],
  );
  assert.deepEqual(
    withPre((g) => (g.matcher = "Bash")),
    (INSTALLED.PreToolUse!.matcher ?? "")
      .split("|")
      .filter((p) => p !== "Bash")
      .map((p) => `PreToolUse:matcher:${p}`),
  );
  const off = deficitsOf({ ...base, disableAllHooks: true, env: { SKILLGATE_TABLE: "/tmp/t.json" }, enabledPlugins: { "skillgate@m": false } }, ours);
  assert.deepEqual(off, ["disableAllHooks", "env:SKILLGATE_TABLE", "plugin-off:skillgate@m"]);
  assert.match(describeDeficit("PreToolUse:timeout=0.001"), /^PreToolUse: timeout lowered to 0\.001 s \(installed: 10 s\)$/);
});

test("only what is new counts, and a timeout only when it is lower than before", () => {
  assert.deepEqual(newDeficits([], ["PreToolUse:absent"]), ["PreToolUse:absent"]);
  assert.deepEqual(newDeficits(["PreToolUse:matcher:mcp__.*"], ["PreToolUse:matcher:mcp__.*"]), [], "an older install's matcher stays as it was");
  assert.deepEqual(newDeficits(["PreToolUse:matcher:mcp__.*"], ["PreToolUse:matcher:mcp__.*", "PreToolUse:matcher:Bash"]), ["PreToolUse:matcher:Bash"]);
  assert.deepEqual(newDeficits(["PreToolUse:timeout=5"], ["PreToolUse:timeout=8"]), [], "raised, still below the installed 10 s");
  assert.deepEqual(newDeficits(["PreToolUse:timeout=5"], ["PreToolUse:timeout=1"]), ["PreToolUse:timeout=1"]);
  // A registration added where there was none widens coverage; its other deficits can still shadow the installed copy.
  assert.deepEqual(newDeficits(["PreToolUse:absent"], ["PreToolUse:matcher:Write", "PreToolUse:async"]), ["PreToolUse:async"]);
  // Session start unknown: only what switches skillgate off for every file.
  assert.deepEqual(newDeficits(undefined, ["PreToolUse:absent", "disableAllHooks", "env:SKILLGATE_STATE"]), ["disableAllHooks", "env:SKILLGATE_STATE"]);
});
