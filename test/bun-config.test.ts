// Under Bun, the hook process (and the hook server it starts) reads the project's bunfig.toml before skillgate's
// code, and a `preload` there runs in every later hook (hooks/io/runtime-config.ts). So when the hook runs under
// Bun, the project's bunfig.toml is protected: the Write tool and a shell write the analysis sees are refused. A
// write by a program the analysis cannot read is put back after the call, but Bun reads the file when it starts
// the next hook, before that: still open (docs/security.md). Under Node the file is the project's own business.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { findBun } from "../cli/install.ts";
import { bunHookBundle, casesDir, hookBundle, root } from "./helpers.ts";

const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(casesDir, "fixtures", `${name}.json`), "utf8")) as Record<string, unknown>;

function project(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bunfig-"));
  const runtime = path.join(dir, ".run");
  fs.mkdirSync(runtime, { mode: 0o700 });
  const env: NodeJS.ProcessEnv = { ...process.env, CLAUDE_PROJECT_DIR: dir, SKILLGATE_STATE: path.join(dir, ".state"), XDG_RUNTIME_DIR: runtime };
  env.SKILLGATE_TABLE = path.join(root, "triggers.json");
  delete env.SKILLGATE_SERVER;
  return { dir, env };
}

function run(exe: string, hook: string, event: Record<string, unknown>, env: NodeJS.ProcessEnv): string {
  const r = spawnSync(exe, [hook], { input: JSON.stringify(event), env, encoding: "utf8", cwd: String(event.cwd) });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test("under Bun the project's bunfig.toml is protected from the Write tool and from shell writes the analysis sees", (t) => {
  const bun = findBun(root);
  if (!bun) {
    if (process.env.CI) assert.fail("no bun on PATH nor SKILLGATE_BUN; CI is set, so the Bun route must run");
    t.skip("no bun on PATH nor SKILLGATE_BUN");
    return;
  }
  const p = project();
  const bunfig = path.join(p.dir, "bunfig.toml");
  const write = { ...fixture("pre-tool-use-write"), session_id: "bf", cwd: p.dir, tool_input: { file_path: bunfig, content: 'preload = ["./x.js"]\n' } };
  assert.match(run(bun, bunHookBundle, write, p.env), /"permissionDecision":"deny".*bunfig\.toml/);
  // Node reads no such file: there the same write is not refused for it.
  assert.doesNotMatch(run(process.execPath, hookBundle, { ...write, session_id: "bf-node" }, p.env), /bunfig/);

  // A shell command that writes it is refused too (the analysis sees the write).
  const echo = {
    ...fixture("pre-tool-use-bash"),
    session_id: "bf",
    cwd: p.dir,
    tool_input: { command: "echo 'preload = [1]' > bunfig.toml", description: "t" },
  };
  assert.match(run(bun, bunHookBundle, echo, p.env), /"permissionDecision":"deny".*bunfig\.toml/);

  // Still open (docs/security.md): a program the analysis cannot read writes it during a shell call; Bun reads it
  // when it starts the next hook, before the restore in that hook can put it back.
  const target = Buffer.from(bunfig).toString("base64");
  fs.writeFileSync(path.join(p.dir, "gen.js"), `require("fs").writeFileSync(Buffer.from(process.argv[2], "base64").toString(), 'preload = ["./x.js"]\\n');\n`);
  assert.equal(spawnSync(process.execPath, ["gen.js", target], { cwd: p.dir }).status, 0);
  const next = spawnSync(bun, [bunHookBundle], {
    input: JSON.stringify({ ...fixture("user-prompt-submit"), session_id: "bf", cwd: p.dir }),
    env: p.env,
    encoding: "utf8",
    cwd: p.dir,
  });
  assert.match(next.stderr, /preload not found "\.\/x\.js"/, "the next Bun hook start read the planted bunfig.toml");
  fs.rmSync(p.dir, { recursive: true, force: true });
});
