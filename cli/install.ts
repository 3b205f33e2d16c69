// `skillgate install | uninstall | doctor [--host HOST|all]`: one path for every
// host. A host says what it wants as data (an InstallPlan of file changes,
// hooks/io/hook-install.ts, built in its own install file); this file parses the
// command line once (cli/args.ts), picks the hosts, checks the table's skills,
// applies each plan (cli/install/apply.ts: diff for --dry-run, backups, atomic
// writes, install records), installs the git hooks every host shares, and reports.
import fs from "node:fs";
import path from "node:path";
import { colours, EXIT, parseArgs, usageLine, UsageError, UserError, type ArgsOf } from "./args.js";
import { ensureSkills, type DoctorCheck, type HostInstaller, type InstallPlan, type InstallTarget } from "../hooks/io/hook-install.js";
import { stateDirOf } from "../hooks/io/state-dir.js";
import { gitHooksVerb } from "./git-hooks.js";
import { applyChanges, removeEmptyDirs, type Applied } from "./install/apply.js";
import { claudeDoctorMain } from "./install/claude-code.js";
import { detectHosts, hostById, type Detected } from "./install/hosts.js";
import { findBun, noBun } from "./install/runtime.js";

export { findBun, GET_BUN, pickRuntime } from "./install/runtime.js";
export { BACKUPS_KEPT, lineDiff } from "./install/apply.js";
export { copySkills } from "../hooks/io/hook-install.js";
export { checkSkills, isProjectDependency, readSettings, settingsFileOf, type SkillCheck, type Where } from "./install/claude-code.js";
export {
  FAIL_CLOSED_EVENTS,
  HOOK_EVENTS,
  HOOK_TIMEOUT_S,
  ON_FAILURE_SINCE,
  SettingsShapeError,
  honoursOnFailure,
  addSkillgate,
  hookPathOf,
  inspectSettings,
  isSkillgateHandler,
  makeHandler,
  portableHandler,
  removeSkillgate,
  type Handler,
} from "../hooks/hosts/claude-code/install.js";

type Verb = "install" | "uninstall" | "doctor";
type Flags = ArgsOf<Verb>;

const hostFlag = (f: Flags): string | undefined => (f as ArgsOf<"doctor">).get("host");

/** The options that mean something for one host only. */
const ONLY_FOR: Record<string, string> = { local: "claude-code", trust: "codex" };

/** The hosts to act on: the one named (default claude-code), or with `all` every one the project uses. */
function hostsOf(f: Flags, base: string, env: NodeJS.ProcessEnv): Detected[] {
  const name = hostFlag(f) ?? "claude-code";
  if (name !== "all") {
    for (const [opt, host] of Object.entries(ONLY_FOR))
      if (f.has(opt as "local") && host !== name) throw new UsageError(`--${opt} is for --host ${host}, not ${name}`);
    const host = hostById(name);
    if (!host) throw new UsageError(`--host ${name}: no such host`);
    return [{ host, why: "--host" }];
  }
  const found = detectHosts(base, env);
  if (!found.length) {
    throw new UserError(
      `--host all: no host found: ${base} has none of .claude, .codex, .agents, .gemini, .github/hooks, .github/skills, opencode.json, .opencode, .cursor, and none of claude, codex, gemini, copilot, opencode, cursor-agent is on PATH; name one with --host`,
    );
  }
  return found;
}

/** The target every host's plan reads: the parsed flags, checked once. */
function targetOf(f: Flags, host: HostInstaller, root: string, env: NodeJS.ProcessEnv): InstallTarget {
  const user = f.has("user");
  const project = user ? undefined : path.resolve(f.get("project") ?? ".");
  if (project !== undefined && !fs.statSync(project, { throwIfNoEntry: false })?.isDirectory()) throw new UserError(`--project ${project}: no such directory`);
  const given = (f as ArgsOf<"install">).get("runtime");
  let runtime = process.execPath;
  if (given === "bun" && host.id !== "claude-code") {
    const bun = findBun(root);
    if (!bun) throw new UserError(noBun());
    runtime = bun;
  }
  const table = (f as ArgsOf<"install">).get("table");
  return {
    ...(project !== undefined ? { project } : {}),
    user,
    runtime,
    ...(given ? { runtimeGiven: given } : {}),
    local: f.has("local"),
    trust: f.has("trust" as "local"),
    withSkills: f.has("with-skills" as "local"),
    ...(table ? { table: path.resolve(table) } : {}),
    env,
  };
}

/** "skillgate install" for the default host, "skillgate install --host codex" for another. */
const prefix = (verb: Verb, f: Flags, host: HostInstaller) => `skillgate ${verb}${hostFlag(f) ? ` --host ${host.id}` : ""}`;

/** Where a verb's output goes and the environment it reads: the process's, or a test's. */
export interface Io {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
}

const consoleIo = (): Io => ({ env: process.env, out: (l) => console.log(l), err: (l) => console.error(l) });

/** A configuration or I/O problem: one line on stderr, exit 3. */
function fail(io: Io, what: string, error: string): number {
  io.err(
    `${what}: ${error
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .join(" ")}`,
  );
  return EXIT.config;
}

const base = (f: Flags, env: NodeJS.ProcessEnv) => (f.has("user") ? (env.HOME ?? process.cwd()) : path.resolve(f.get("project") ?? "."));

export async function installMain(args: string[], root: string): Promise<number> {
  return changeMain("install", parseArgs("install", args), root, consoleIo());
}

export async function uninstallMain(args: string[], root: string): Promise<number> {
  return changeMain("uninstall", parseArgs("uninstall", args), root, consoleIo());
}

/**
 * `install | uninstall | doctor` with its own environment and output, exit code
 * included (a usage error is exit 2 with the message and the usage line on err),
 * as cli/main.ts would run it: for callers that drive a host's install in-process.
 */
export async function installVerb(verb: Verb, args: string[], root: string, io: Io): Promise<number> {
  try {
    if (verb === "doctor") return await doctorWith(parseArgs("doctor", args), root, io);
    return await changeMain(verb, parseArgs(verb, args), root, io);
  } catch (e) {
    io.err(`skillgate ${verb}: ${(e as Error).message}`);
    if (e instanceof UsageError) {
      io.err(usageLine(verb));
      return EXIT.usage;
    }
    return e instanceof UserError ? e.code : EXIT.config;
  }
}

async function changeMain(verb: "install" | "uninstall", f: ArgsOf<"install"> | ArgsOf<"uninstall">, root: string, io: Io): Promise<number> {
  const env = io.env;
  const json = f.has("json");
  const dryRun = f.has("dry-run");
  // With --json, stdout holds one JSON document and the notes go to stderr.
  const say = (line: string): void => (json ? io.err(line) : io.out(line));
  const hosts = hostsOf(f, base(f, env), env);
  const all = hostFlag(f) === "all";
  const reports: Record<string, unknown>[] = [];
  let code: number = EXIT.ok;
  for (const { host, why } of hosts) {
    if (all) say(`${host.label} (${why}):`);
    const r = await changeOne(verb, f, host, root, io, say);
    if (typeof r === "number") code = Math.max(code, r);
    else reports.push(r);
  }
  if (code === EXIT.config && !all) return code;
  // The git hooks check an agent's commits for every host (hooks/io/git-hooks.ts).
  const problems = gitHooksVerb({ verb, project: f.has("user") ? undefined : base(f, env), root, dryRun, say });
  if (json) io.out(JSON.stringify(all ? { dryRun, hosts: reports } : (reports[0] ?? {}), null, 2));
  if (problems) code = Math.max(code, EXIT.findings);
  return code;
}

/** One host's install or uninstall: its plan, the skills its table needs, the changes applied. Returns the report, or an exit code. */
async function changeOne(
  verb: "install" | "uninstall",
  f: ArgsOf<"install"> | ArgsOf<"uninstall">,
  host: HostInstaller,
  root: string,
  io: Io,
  say: (l: string) => void,
): Promise<Record<string, unknown> | number> {
  const env = io.env;
  const what = prefix(verb, f, host);
  const dryRun = f.has("dry-run");
  let plan: InstallPlan;
  try {
    const t = targetOf(f, host, root, env);
    plan = host.plan(verb, t, root);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return fail(io, what, (e as Error).message);
  }
  for (const w of plan.warnings ?? []) io.err(`${what}: ${w}`);
  if (verb === "install" && plan.skills) {
    // Every skill the table names must be loadable where this host loads skills, or copied there (--with-skills).
    const s = await ensureSkills(plan.skills, dryRun);
    if (!s.ok) return fail(io, what, s.error);
    s.lines.forEach(say);
  }
  let applied: Applied[];
  try {
    applied = applyChanges(plan.changes, { verb, dryRun, stateDir: stateDirOf({ env, packageRoot: root }), say });
  } catch (e) {
    return fail(io, what, (e as Error).message);
  }
  if (dryRun) say("dry run: nothing written");
  else {
    removeEmptyDirs(plan.emptyDirs ?? []);
    plan.notes.forEach(say);
  }
  const main = applied.find((a) => !plan.changes.find((c) => c.file === a.file)?.what) ?? applied[0];
  return {
    host: host.id,
    file: main?.file ?? null,
    changed: applied.some((a) => a.changed),
    dryRun,
    exists: main ? !main.created && !(main.removedFile && main.diff.length === 0) : false,
    removedFile: main?.removedFile ?? false,
    diff: main?.diff ?? [],
    backup: main?.backup ?? null,
    files: applied,
  };
}

export async function doctorMain(args: string[], root: string): Promise<number> {
  return doctorWith(parseArgs("doctor", args), root, consoleIo());
}

async function doctorWith(f: ArgsOf<"doctor">, root: string, io: Io): Promise<number> {
  const env = io.env;
  const hosts = hostsOf(f, base(f, env), env);
  const all = hostFlag(f) === "all";
  // One JSON document per run: each host's doctor writes its own.
  if (all && f.has("json")) throw new UsageError("--json takes one host: run doctor --host <host> --json for each");
  let code: number = EXIT.ok;
  const claudeToo = hosts.some((h) => h.host.id === "claude-code");
  for (const { host, why } of hosts) {
    if (all && !f.has("json")) io.out(`\n${host.label} (${why}):`);
    const r = host.id === "claude-code" ? await claudeDoctorMain(f, root) : await hostDoctor(f, host, root, io, all, !claudeToo);
    code = Math.max(code, r);
  }
  return code;
}

/** Another host's doctor: its checks, then the git hooks, printed as Claude Code's are. */
async function hostDoctor(f: ArgsOf<"doctor">, host: HostInstaller, root: string, io: Io, all: boolean, gitHooks: boolean): Promise<number> {
  const env = io.env;
  if (!host.doctor) {
    if (all) {
      io.out(`note     ${host.label} has no doctor (its adapter follows the host's documentation and is not run under the real host here)`);
      return EXIT.ok;
    }
    throw new UserError(`--host ${host.id}: no doctor (the ${host.label} adapter follows the host's documentation and is not run under the real host here)`);
  }
  let t: InstallTarget;
  try {
    t = targetOf(f, host, root, env);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return fail(io, prefix("doctor", f, host), (e as Error).message);
  }
  const json = f.has("json");
  const c = colours();
  const checks: DoctorCheck[] = [...(await host.doctor(t, root))];
  if (gitHooks) {
    gitHooksVerb({ verb: "doctor", project: t.project, root, say: (text) => checks.push({ ok: true, text }), bad: (text) => checks.push({ ok: false, text }) });
  }
  const problems = checks.filter((k) => !k.ok).length;
  if (json) io.out(JSON.stringify({ host: host.id, problems, checks }, null, 2));
  else {
    for (const k of checks) io.out(`${k.ok ? c.green("ok") : c.red("PROBLEM")}${k.ok ? "       " : "  "}${k.text}`);
    io.out(problems ? `\n${problems} problem(s): skillgate will not work as intended until they are fixed` : "\nall good");
  }
  return problems ? EXIT.findings : EXIT.ok;
}
