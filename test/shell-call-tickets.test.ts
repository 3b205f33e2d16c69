// Which shell calls leave a ticket for the git hooks (io/tickets.ts): every call that may run git,
// none for a call the pre-filter vouches for as read-only (it runs no git), none for a refused one;
// the call's result retires it.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runHook } from "../hooks/entries/claude-code.js";
import { root } from "./helpers.ts";

const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(root, "cases", "fixtures", `${name}.json`), "utf8")) as Record<string, unknown>;

test("a ticket for a call that may run git, none for a vouched read-only or a refused call; the result retires it", async () => {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "sg-tickets-"));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "sg-tickets-cwd-"));
  const env = { ...process.env, SKILLGATE_STATE: state, SKILLGATE_TABLE: path.join(root, "triggers.json") };
  const call = (name: string, command: string, id: string) =>
    runHook(JSON.stringify({ ...fixture(name), session_id: "s1", cwd, tool_use_id: id, tool_input: { command, description: "t" } }), {
      env,
      packageRoot: root,
    });
  const live = () => (fs.existsSync(path.join(state, "tickets")) ? fs.readdirSync(path.join(state, "tickets")).filter((n) => n.endsWith(".json")) : []);

  await call("pre-tool-use-bash", "ls -la", "toolu_ls");
  assert.deepEqual(live(), [], "ls -la, vouched read-only, left a ticket");
  const refused = await call("pre-tool-use-bash", "git commit -m x", "toolu_commit");
  assert.equal(refused.trace?.verdict, "deny");
  assert.deepEqual(live(), [], "a refused commit left a ticket");
  await call("pre-tool-use-bash", "python3 build.py", "toolu_py");
  assert.deepEqual(live(), ["s1--toolu_py.json"], "a call that may run git left no ticket");
  await call("post-tool-use-bash", "python3 build.py", "toolu_py");
  assert.deepEqual(live(), [], "the result did not retire the ticket");
  assert.ok(fs.existsSync(path.join(state, "tickets", "done", "s1--toolu_py.json")));
});
