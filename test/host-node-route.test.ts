// The Node route of the hook hosts besides Claude Code (Codex, Gemini CLI,
// Copilot CLI, Cursor): dist/hook-<host>.cjs runs that host's `main` from the
// one bundle Claude Code's dist/hook.cjs runs (scripts/build.mjs, buildForNode);
// dist/hook-<host>.mjs, what older installs wrote, answers the same; installs
// write the .cjs and replace an older .mjs entry. Needs `npm run build`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { installCodex } from "../hooks/hosts/codex/install.ts";
import { installCopilot } from "../hooks/hosts/copilot/install.ts";
import { installCursor } from "../hooks/hosts/cursor/install.ts";
import { installGemini } from "../hooks/hosts/gemini/install.ts";
import { hookPathsOf } from "../hooks/io/hook-install.ts";
import { copyBuiltHook } from "./built-hook.ts";
import { installVerb } from "../cli/install.ts";

/** `skillgate <verb> --host codex …` in-process (cli/install.ts installVerb), with its own environment and output. */
const codexInstallMain = (verb: "install" | "uninstall", args: string[], root: string, env: NodeJS.ProcessEnv, out: (s: string) => void) =>
  installVerb(verb, ["--host", "codex", ...args], root, { env, out, err: out });

/** `skillgate <verb> --host copilot …` in-process (cli/install.ts installVerb), with its own environment and output. */
const copilotInstallMain = (verb: "install" | "uninstall", args: string[], root: string, env: NodeJS.ProcessEnv, out: (s: string) => void) =>
  installVerb(verb, ["--host", "copilot", ...args], root, { env, out, err: out });

/** `skillgate <verb> --host cursor …` in-process (cli/install.ts installVerb), with its own environment and output. */
const cursorInstallMain = (verb: "install" | "uninstall", args: string[], root: string, env: NodeJS.ProcessEnv, out: (s: string) => void) =>
  installVerb(verb, ["--host", "cursor", ...args], root, { env, out, err: out });

/** `skillgate <verb> --host gemini …` in-process (cli/install.ts installVerb), with its own environment and output. */
const geminiInstallMain = (verb: "install" | "uninstall", args: string[], root: string, env: NodeJS.ProcessEnv, out: (s: string) => void) =>
  installVerb(verb, ["--host", "gemini", ...args], root, { env, out, err: out });

const ROOT = path.resolve(import.meta.dirname, "..");
const DIST = path.join(ROOT, "dist");
const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), `skillgate-node-route-${p}-`));
const fixture = (host: string, name: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(ROOT, "test", "fixtures", host, name), "utf8"));

interface HostCase {
  /** The hook's arguments (Copilot's command names the event). */
  args: string[];
  /** The host's captured shell PreToolUse with `command` in it, run in `project`. */
  event: (command: string, project: string) => Record<string, unknown>;
  /** Where the host keeps a project table (hooks/hosts/<host>/hook.ts). */
  table: string;
  /** The host's deny in its own output shape. */
  deny: RegExp;
  /** How this host's model loads a skill (its adapter's howToLoad): proves the host's main ran, not Claude Code's. */
  loadWords: RegExp;
}

const HOSTS: Record<string, HostCase> = {
  codex: {
    args: [],
    event: (command, cwd) => ({ ...fixture("codex", "PreToolUse-Bash.json"), cwd, tool_input: { command } }),
    table: ".codex/triggers.json",
    deny: /^\{"hookSpecificOutput":\{"hookEventName":"PreToolUse","permissionDecision":"deny"/,
    loadWords: /`cat` it/,
  },
  gemini: {
    args: [],
    event: (command, cwd) => ({ ...fixture("gemini", "BeforeTool-run_shell_command.json"), cwd, tool_input: { command, description: "t" } }),
    table: ".gemini/triggers.json",
    deny: /^\{"decision":"deny"/,
    loadWords: /call activate_skill/,
  },
  copilot: {
    args: ["preToolUse"],
    event: (command, cwd) => ({ ...fixture("copilot", "preToolUse-bash.json"), cwd, toolArgs: { command, description: "t" } }),
    table: ".github/skillgate/triggers.json",
    deny: /^\{"permissionDecision":"deny"/,
    loadWords: /call the skill tool with skill \\"commit\\"/,
  },
  cursor: {
    args: [],
    event: (command, cwd) => ({ ...fixture("cursor", "beforeShellExecution.json"), cwd, workspace_roots: [cwd], command }),
    table: ".cursor/triggers.json",
    deny: /^\{"permission":"deny"/,
    loadWords: /with the Read tool \(no offset or limit\)/,
  },
};

function runHook(hook: string, args: string[], event: Record<string, unknown>, project: string) {
  const env = { PATH: process.env.PATH ?? "", HOME: project, SKILLGATE_STATE: tmp("state") };
  const r = spawnSync(process.execPath, [hook, ...args], { input: JSON.stringify(event), encoding: "utf8", env, cwd: project });
  assert.equal(r.status, 0, `${hook} exits 0\n${r.stderr}`);
  return r.stdout.trim();
}

for (const [host, c] of Object.entries(HOSTS)) {
  test(`${host}: dist/hook-${host}.cjs runs ${host}'s hook from the shared bundle (its words, its project table); the older .mjs answers the same`, () => {
    const project = tmp(host);
    const cjs = path.join(DIST, `hook-${host}.cjs`);
    const commit = runHook(cjs, c.args, c.event("git commit -m x", project), project);
    assert.match(commit, c.deny);
    assert.match(commit, /commit-gate/);
    assert.match(commit, c.loadWords);
    assert.equal(runHook(path.join(DIST, `hook-${host}.mjs`), c.args, c.event("git commit -m x", project), project), commit);
    // The host's project table (its own path) is read: a row only it has refuses `rm`.
    assert.doesNotMatch(runHook(cjs, c.args, c.event("rm -r build", project), project), /deny/, "no row refuses rm without the project table");
    const table = path.join(project, c.table);
    fs.mkdirSync(path.dirname(table), { recursive: true });
    fs.writeFileSync(
      table,
      JSON.stringify({
        version: 1,
        rows: [{ id: "project-rm-block", kind: "block", when: { command: { name: "rm" } }, why: "This project keeps its build." }],
      }),
    );
    const rm = runHook(cjs, c.args, c.event("rm -r build", project), project);
    assert.match(rm, c.deny);
    assert.match(rm, /project-rm-block/);
  });
}

test("a loader copy named for no host says so in a systemMessage and exits 0", () => {
  const root = tmp("nohost");
  copyBuiltHook(root, "codex");
  const nope = path.join(root, "dist", "hook-nope.cjs");
  fs.copyFileSync(path.join(DIST, "hook-codex.cjs"), nope);
  const r = spawnSync(process.execPath, [nope], { input: "{}", encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const answer = JSON.parse(r.stdout) as { systemMessage: string };
  assert.match(answer.systemMessage, /no host "nope" \(it has codex, gemini, copilot, cursor\)/);
});

test("the loader names hosts by file name; the bundle holds every host; both code caches are accepted", async () => {
  const loader = createRequire(import.meta.url)(path.join(DIST, "hook.cjs")) as {
    hostOf: (f: string) => string | undefined;
    load: () => {
      hook: { hosts: Record<string, { main: unknown; hookOptions: unknown }>; runHook: (input: string, o: object) => Promise<{ stdout: string }> };
      scripts: Map<string, { cachedDataRejected?: boolean }>;
    };
  };
  assert.equal(loader.hostOf("hook-codex.cjs"), "codex");
  assert.equal(loader.hostOf("hook-gemini.mjs"), "gemini");
  assert.equal(loader.hostOf("hook.cjs"), undefined);
  assert.equal(loader.hostOf("hook.mjs"), undefined);
  const { hook, scripts } = loader.load();
  assert.deepEqual(Object.keys(hook.hosts).sort(), Object.keys(HOSTS).sort());
  for (const h of Object.values(hook.hosts)) assert.equal(typeof h.main, "function");
  assert.deepEqual([...scripts.keys()], ["hook.node"], "the shell parser's script is not loaded before a shell call needs it");
  // A shell call the pre-filter cannot vouch for loads the parser's script, from its own cache.
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-node-route-"));
  const bash = JSON.parse(fs.readFileSync(path.join(ROOT, "cases", "fixtures", "pre-tool-use-bash.json"), "utf8")) as Record<string, unknown>;
  const r = await hook.runHook(JSON.stringify({ ...bash, tool_input: { command: "git commit -m x" } }), {
    env: { ...process.env, SKILLGATE_STATE: state, SKILLGATE_TABLE: path.join(ROOT, "triggers.json") },
    packageRoot: ROOT,
  });
  assert.match(r.stdout, /commit-gate/, "the parser's script decided the commit");
  assert.deepEqual([...scripts.keys()], ["hook.node", "hook.node-shell"]);
  for (const [name, script] of scripts) {
    assert.ok(fs.existsSync(path.join(DIST, `${name}.cache`)), `the build made ${name}.cache`);
    assert.equal(script.cachedDataRejected, false, `V8 accepts ${name}.cache for its script`);
  }
});

test("hookPathsOf: a .cjs hook path also owns the .mjs an older install wrote; nothing else", () => {
  assert.deepEqual(hookPathsOf("/opt/sg/dist/hook-codex.cjs"), ["/opt/sg/dist/hook-codex.cjs", "/opt/sg/dist/hook-codex.mjs"]);
  assert.deepEqual(hookPathsOf("/opt/sg/dist/hook-codex.mjs"), ["/opt/sg/dist/hook-codex.mjs"]);
});

/** Each host's install on top of an older install's .mjs entry, and a foreign tool's hook of the same file name. */
const REINSTALLS: Record<
  string,
  {
    file: (dir: string) => string;
    older: (dir: string, hookPath: string) => void;
    main: (verb: "install" | "uninstall", dir: string, root: string) => number | Promise<number>;
    foreign: (dir: string) => void;
    events: number;
  }
> = {
  codex: {
    file: (d) => path.join(d, ".codex", "hooks.json"),
    older: (d, hookPath) => void installCodex({ project: d, runtime: "node", hookPath, trust: true, env: { CODEX_HOME: path.join(d, "home") } }),
    main: (verb, d, root) =>
      codexInstallMain(
        verb,
        ["--project", d, ...(verb === "install" ? ["--trust", "--with-skills"] : [])],
        root,
        { CODEX_HOME: path.join(d, "home"), SKILLGATE_TABLE: TABLE, HOME: d },
        () => undefined,
      ),
    foreign: (d) => {
      const f = path.join(d, ".codex", "hooks.json");
      const j = JSON.parse(fs.readFileSync(f, "utf8")) as { hooks: Record<string, unknown[]> };
      j.hooks.Stop = [...(j.hooks.Stop ?? []), { hooks: [{ type: "command", command: "node /other/dist/hook-codex.mjs" }] }];
      fs.writeFileSync(f, JSON.stringify(j));
    },
    events: 7,
  },
  gemini: {
    file: (d) => path.join(d, ".gemini", "settings.json"),
    older: (d, hookPath) => void installGemini({ project: d, runtime: "node", hookPath, env: { HOME: d } }),
    main: (verb, d, root) =>
      geminiInstallMain(verb, ["--project", d, ...(verb === "install" ? ["--with-skills"] : [])], root, { HOME: d, SKILLGATE_TABLE: TABLE }, () => undefined),
    foreign: (d) => {
      const f = path.join(d, ".gemini", "settings.json");
      const j = JSON.parse(fs.readFileSync(f, "utf8")) as { hooks: Record<string, unknown[]> };
      j.hooks.AfterAgent = [...(j.hooks.AfterAgent ?? []), { hooks: [{ type: "command", command: "node /other/dist/hook-gemini.mjs" }] }];
      fs.writeFileSync(f, JSON.stringify(j));
    },
    events: 6,
  },
  copilot: {
    file: (d) => path.join(d, "home", "config.json"),
    older: (d, hookPath) => void installCopilot({ user: true, runtime: "node", hookPath, env: { COPILOT_HOME: path.join(d, "home") } }),
    main: (verb, d, root) =>
      copilotInstallMain(
        verb,
        ["--user", ...(verb === "install" ? ["--with-skills"] : [])],
        root,
        { COPILOT_HOME: path.join(d, "home"), HOME: d, SKILLGATE_TABLE: TABLE },
        () => undefined,
      ),
    foreign: (d) => {
      const f = path.join(d, "home", "config.json");
      const j = JSON.parse(fs.readFileSync(f, "utf8")) as { hooks: Record<string, unknown[]> };
      j.hooks.sessionStart = [...(j.hooks.sessionStart ?? []), { type: "command", bash: "node /other/dist/hook-copilot.mjs sessionStart" }];
      fs.writeFileSync(f, JSON.stringify(j));
    },
    events: 0, // counted below from the file itself
  },
  cursor: {
    file: (d) => path.join(d, ".cursor", "hooks.json"),
    older: (d, hookPath) => void installCursor({ project: d, runtime: "node", hookPath }),
    main: (verb, d, root) =>
      cursorInstallMain(verb, ["--project", d, ...(verb === "install" ? ["--with-skills"] : [])], root, { HOME: d, SKILLGATE_TABLE: TABLE }, () => undefined),
    foreign: (d) => {
      const f = path.join(d, ".cursor", "hooks.json");
      const j = JSON.parse(fs.readFileSync(f, "utf8")) as { hooks: Record<string, unknown[]> };
      j.hooks.stop = [...(j.hooks.stop ?? []), { command: "node /other/dist/hook-cursor.mjs" }];
      fs.writeFileSync(f, JSON.stringify(j));
    },
    events: 0,
  },
};

const count = (text: string, s: string) => text.split(s).length - 1;
/** The shipped table: the install at the made-up root /opt/sg copies its skills (--with-skills) from this checkout. */
const TABLE = path.join(ROOT, "triggers.json");

for (const [host, r] of Object.entries(REINSTALLS)) {
  test(`${host}: install replaces an older install's dist/hook-${host}.mjs with the .cjs; uninstall removes either, never a foreign tool's`, async () => {
    const dir = tmp(`reinstall-${host}`);
    const root = "/opt/sg";
    const older = `${root}/dist/hook-${host}.mjs`;
    r.older(dir, older);
    const before = fs.readFileSync(r.file(dir), "utf8");
    const entries = count(before, older);
    assert.ok(entries > 0, "the older install wrote its entries");
    if (r.events) assert.equal(entries, r.events);
    r.foreign(dir);
    assert.equal(await r.main("install", dir, root), 0);
    const after = fs.readFileSync(r.file(dir), "utf8");
    assert.equal(count(after, older), 0, "no older entry left");
    assert.equal(count(after, `${root}/dist/hook-${host}.cjs`), entries, "one new entry per older one");
    assert.equal(count(after, `/other/dist/hook-${host}.mjs`), 1, "the foreign tool's hook stays");
    if (host === "codex") {
      const toml = fs.readFileSync(path.join(dir, "home", "config.toml"), "utf8");
      assert.equal(count(toml, "[hooks.state."), entries, "trust entries for the new handlers only");
    }
    // Uninstall on top of the older install alone also removes it.
    const dir2 = tmp(`uninstall-${host}`);
    r.older(dir2, older);
    assert.equal(await r.main("uninstall", dir2, root), 0);
    const left = fs.existsSync(r.file(dir2)) ? fs.readFileSync(r.file(dir2), "utf8") : "";
    assert.equal(count(left, older), 0, left);
  });
}
