// `skillgate demo`: a short session on the default table, played through the
// real hook process with captured Claude Code payloads. Exits 1 if the hook
// did not do what each line says it should.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { deepMerge, loadFixture } from "./cases/format.js";
import { observe, processInvoker } from "./cases/runner.js";
import { hookCommand } from "./cases/main.js";
import { parseArgs } from "./args.js";
import { tableHeader, tableInUse } from "./table-file.js";

interface Beat {
  say: string;
  fixture: string;
  with?: Record<string, unknown>;
  expect: string;
}

const bash = (command: string) => ({ tool_input: { command } });
const BEATS: Beat[] = [
  { say: "session starts", fixture: "session-start-startup", expect: "allow" },
  { say: "user: «please check the логи»", fixture: "user-prompt-submit", expect: "hint" },
  { say: "user: «и ещё раз логи»", fixture: "user-prompt-submit", with: { prompt: "и ещё раз логи" }, expect: "allow" },
  { say: "model runs: git commit -m 'first'", fixture: "pre-tool-use-bash", expect: "deny" },
  { say: "model runs: cd app && git commit -am wip", fixture: "pre-tool-use-bash", with: bash("cd app && git commit -am wip"), expect: "deny" },
  { say: "model loads skill commit (Skill tool)", fixture: "post-tool-use-skill", expect: "allow" },
  { say: "model runs: git commit -m 'first'", fixture: "pre-tool-use-bash", expect: "allow" },
  { say: "context is compacted (PreCompact)", fixture: "pre-compact", expect: "allow" },
  { say: "session resumes from the summary (SessionStart compact)", fixture: "session-start-compact", expect: "hint" },
  { say: "model runs: git commit -m 'first'", fixture: "pre-tool-use-bash", expect: "deny" },
  { say: "user: «please check the логи»", fixture: "user-prompt-submit", expect: "hint" },
];

export async function demoMain(args: string[], root: string): Promise<number> {
  parseArgs("demo", args);
  // Always the bundled table: the beats below are written for its rows.
  const { file, table } = await tableInUse(path.join(root, "triggers.json"), root);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgate-demo-"));
  const invoke = processInvoker(hookCommand(root));
  const env = { ...process.env, SKILLGATE_STATE: stateDir, SKILLGATE_TABLE: file, SKILLGATE_TRACE: "1" };
  const session = `demo-${process.pid}`;
  console.log(tableHeader(file, table.rows.length));
  console.log(`skillgate demo — the default table, state in ${stateDir}\n`);
  let wrong = 0;
  for (const b of BEATS) {
    const payload = deepMerge({ ...loadFixture(path.join(root, "cases"), b.fixture), session_id: session }, b.with);
    const t0 = performance.now();
    const ran = await invoke(JSON.stringify(payload), env);
    const ms = (performance.now() - t0).toFixed(0);
    const got = observe(ran);
    const ok = got.verdict === b.expect;
    if (!ok) wrong++;
    console.log(`${ok ? " " : "!"} ${b.say.padEnd(58)} → ${got.verdict.toUpperCase()}${got.rows.length ? ` [${got.rows}]` : ""}  (${ms} ms)`);
    if (got.message) console.log(`    ${got.message.split("\n")[0]!.slice(0, 160)}`);
    console.log(`    loaded: [${got.state?.loaded.join(", ") ?? ""}]`);
  }
  fs.rmSync(stateDir, { recursive: true, force: true });
  console.log(
    wrong
      ? `\n${wrong} step(s) did not go as expected`
      : "\ndeny → load → allow → compaction → deny, the logs hint once per context, and one handoff reminder after the first compaction: as designed",
  );
  return wrong ? 1 : 0;
}
