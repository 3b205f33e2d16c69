// Bun reads the bunfig.toml of the folder it starts in (the project) before skillgate's code, and a `preload`
// there would run in every later hook. So `install` writes a Bun hook that names its own (no) config
// (`bun --config=/dev/null …`, hooks/hosts/claude-code/install.ts), and when the hook runs under Bun the project's
// bunfig.toml is protected too (hooks/io/runtime-config.ts): the Write tool and a shell write the analysis sees
// are refused, and a write by a program the analysis cannot read is put back after the call. Under Node the file
// is the project's own business.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { makeHandler } from "../hooks/hosts/claude-code/install.ts";
import { bunHookBundle, bunOrSkip, casesDir, hookBundle, root } from "./helpers.ts";

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

/** The hook as `install` writes it for this runtime, in the event's folder (as the client starts it). */
function run(exe: string, hook: string, event: Record<string, unknown>, env: NodeJS.ProcessEnv): string {
  const r = spawnSync(exe, makeHandler(exe, hook).args, { input: JSON.stringify(event), env, encoding: "utf8", cwd: String(event.cwd) });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test("under Bun the project's bunfig.toml is neither read by the hook nor writable behind its back", async (t) => {
  const bun = await bunOrSkip(t);
  if (!bun) return;
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

  // A program the analysis cannot read (its target decoded at run time) writes it during a shell call: the next
  // hook (run as install writes it) does not preload it, and puts it back.
  const target = Buffer.from(bunfig).toString("base64");
  fs.writeFileSync(path.join(p.dir, "gen.js"), `require("fs").writeFileSync(Buffer.from(process.argv[2], "base64").toString(), 'preload = ["./x.js"]\\n');\n`);
  const command = `node gen.js ${target}`;
  const call = { ...fixture("pre-tool-use-bash"), session_id: "bf", cwd: p.dir, tool_use_id: "toolu_bunfig", tool_input: { command, description: "t" } };
  assert.doesNotMatch(run(bun, bunHookBundle, call, p.env), /deny/, "the call runs (the analysis cannot see what it writes)");
  assert.equal(spawnSync(process.execPath, ["gen.js", target], { cwd: p.dir }).status, 0);
  assert.ok(fs.existsSync(bunfig), "the program wrote bunfig.toml");
  const result = { ...fixture("post-tool-use-bash"), session_id: "bf", cwd: p.dir, tool_use_id: "toolu_bunfig", tool_input: { command, description: "t" } };
  const answer = run(bun, bunHookBundle, result, p.env);
  assert.equal(fs.existsSync(bunfig), false, `bunfig.toml was put back (it did not exist): ${answer}`);
  assert.match(answer, /bunfig\.toml/);
  // Without the flag install writes, Bun would have run the planted preload (what the flag is for).
  fs.writeFileSync(bunfig, 'preload = ["./x.js"]\n');
  const bare = spawnSync(bun, [bunHookBundle], { input: "{}", env: p.env, encoding: "utf8", cwd: p.dir });
  assert.match(bare.stderr, /preload not found "\.\/x\.js"/);
  fs.rmSync(p.dir, { recursive: true, force: true });
});
