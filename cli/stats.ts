// `skillgate stats [--session ID]`: a session's counters, from its state file
// (the most recently changed session when no id is given).
import fs from "node:fs";
import path from "node:path";
import { parseArgs, UsageError, UserError } from "./args.js";
import { stateDirOf } from "../hooks/runner/hook.js";
import { isSafeSessionId, StateStore } from "../hooks/io/state-store.js";
import { tableHeader, tableInUse, tableJson } from "./table-file.js";
import { sessionProfile } from "../hooks/core/policies/budget-profile.js";
import { defaultProjectsDir } from "./measure/files.js";
import { measure } from "./measure/run.js";
import type { BudgetResult } from "./measure/budget.js";

/** The session's Claude Code transcript, where the client keeps it (<projects>/<project>/<session>.jsonl). */
function transcriptOf(session: string, projects: string): string | undefined {
  try {
    for (const p of fs.readdirSync(projects)) {
      const file = path.join(projects, p, `${session}.jsonl`);
      if (fs.existsSync(file)) return file;
    }
  } catch {
    /* no projects folder: no transcript */
  }
  return undefined;
}

/**
 * raw_fallback is not in the state (the hook cannot see a later read as a
 * consequence of a summary): it is read from the session's transcript, with
 * measure's reader — pointers skillgate showed, and which of them the model read back.
 */
async function rawFallbackOf(
  session: string,
  table: Awaited<ReturnType<typeof tableInUse>>,
): Promise<{ transcript: string; byProfile: Record<string, { pointers: number; read: number }> } | { transcript: null; looked: string }> {
  const projects = defaultProjectsDir();
  const transcript = transcriptOf(session, projects);
  if (!transcript) return { transcript: null, looked: projects };
  const b: BudgetResult = (await measure({ projects: transcript, since: "100000d", table: table.table, tableFile: table.file })).budget;
  const byProfile = Object.fromEntries(
    Object.entries(b.profiles)
      .filter(([, p]) => p.pointers > 0)
      .map(([name, p]) => [name, { pointers: p.pointers, read: p.rawFallback }]),
  );
  return { transcript, byProfile };
}

export async function statsMain(args: string[], root: string): Promise<number> {
  const f = parseArgs("stats", args);
  const given = f.get("session");
  if (given !== undefined && !isSafeSessionId(given))
    throw new UsageError(`--session wants a session id (letters, digits, - and _), not ${JSON.stringify(given.slice(0, 60))}`);
  const dir = stateDirOf({ env: process.env, packageRoot: root });
  let session = given;
  if (!session) {
    // A session is its state file, or only its count file (nothing but counters changed so far).
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((x) => /\.json(\.calls)?$/.test(x) && !x.startsWith(".")) : [];
    const newest = files.map((x) => ({ x, t: fs.statSync(path.join(dir, x)).mtimeMs })).sort((a, b) => b.t - a.t)[0];
    if (!newest) throw new UserError(`no session state in ${dir}`);
    session = newest.x.replace(/\.json(\.calls)?$/, "");
  }
  const store = new StateStore(dir);
  if (!fs.existsSync(store.file(session)) && !fs.existsSync(`${store.file(session)}.calls`)) throw new UserError(`no state for session ${session} in ${dir}`);
  const read = store.read(session);
  if (read.warning) console.error(read.warning);
  // Calls and refusals counted by append (most PostToolUse events, repeated refusals) join the ones counted in the state.
  const counted = store.counted(session);
  const add = (into: Record<string, number>, more: Record<string, number>) => {
    const out = { ...into };
    for (const [k, n] of Object.entries(more)) out[k] = (Object.hasOwn(out, k) ? (out[k] ?? 0) : 0) + n;
    return out;
  };
  const state = {
    ...read.state,
    denials: add(read.state.denials, counted.denials),
    stats: { ...read.state.stats, toolCalls: add(read.state.stats.toolCalls, counted.toolCalls) },
  };
  // The same loader as the hook: the budget levels as the hook saw them.
  const inUse = await tableInUse(f.get("table"), root);
  const { file, table } = inUse;
  const fallback = await rawFallbackOf(session, inUse);
  const levels = table.rows.flatMap(({ row }) => (row.kind === "budget" ? (row.when.context?.levels ?? []) : [])).sort((a, b) => a - b);
  const s = state.stats;
  const list = (o: Record<string, number>) =>
    Object.entries(o)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(", ") || "none";
  if (f.has("json")) {
    const p = sessionProfile(state, table.table);
    console.log(JSON.stringify({ table: tableJson(file, table.rows.length), session, budgetProfile: p.profile, rawFallback: fallback, ...state }, null, 2));
    return 0;
  }
  console.log(tableHeader(file, table.rows.length));
  console.log(`session ${session} (${path.join(dir, session + ".json")})`);
  console.log(`  tool calls       ${Object.values(s.toolCalls).reduce((a, b) => a + b, 0)}: ${list(s.toolCalls)}`);
  console.log(
    `  outputs capped   ${Object.values(s.capped).reduce((a, b) => a + b, 0)}: ${list(s.capped)}; ${s.charsSaved.toLocaleString("en-US")} characters kept out of the context; ${s.capFailures} failed to save`,
  );
  const { profile, risk } = sessionProfile(state, table.table);
  const chosen = state.profile ? `chosen by a mode row` : `the table's default`;
  console.log(
    `  budget profile   ${profile}${risk ? ` (raised to audit by risk row ${risk}; ${state.profile ?? table.table.budgetProfile ?? "balanced"} before)` : ` (${chosen})`}`,
  );
  console.log(`  summarized       ${Object.values(s.summarized ?? {}).reduce((a, b) => a + b, 0)}: ${list(s.summarized ?? {})}`);
  console.log(`  passed raw       ${Object.values(s.rawPasses ?? {}).reduce((a, b) => a + b, 0)}: ${list(s.rawPasses ?? {})}`);
  if (fallback.transcript === null) console.log(`  raw fallback     unknown: no transcript of this session under ${fallback.looked}`);
  else {
    const all = Object.values(fallback.byProfile).reduce((a, x) => ({ pointers: a.pointers + x.pointers, read: a.read + x.read }), { pointers: 0, read: 0 });
    const per = Object.entries(fallback.byProfile)
      .map(([k, x]) => `${k} ${x.read}/${x.pointers}`)
      .join(", ");
    console.log(
      `  raw fallback     ${all.read} of ${all.pointers} raw files a summary or cap pointed to were read back${per ? ` (${per})` : ""}; from ${fallback.transcript}`,
    );
  }
  console.log(`  compactions      ${state.compactions}`);
  console.log(
    `  budget level     ${state.budgetLevel === 0 ? "below all levels" : `past ${levels[state.budgetLevel - 1]?.toLocaleString("en-US") ?? state.budgetLevel} tokens`} (largest prompt seen: ${s.maxContextTokens.toLocaleString("en-US")} tokens)`,
  );
  console.log(`  skills loaded    ${state.loaded.join(", ") || "none"}`);
  console.log(`  refusals         ${list(state.denials)}`);
  return 0;
}
