// Claude Code's install, uninstall and doctor: which settings file, the
// portable handler and its launcher in a project, the skills the Skill tool
// must find. The install is a plan of file changes (cli/install/apply.ts
// writes it); what a registration looks like is in hooks/hosts/claude-code/install.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { colours, EXIT, type ArgsOf } from "../args.js";
import { compiledTable, tableFileOf, tableHeader, tableJson } from "../table-file.js";
import { resolveTable, type TableResolution } from "../../hooks/io/table-load.js";
import { projectTables } from "../../hooks/hosts/claude-code/env.js";
import { stateDirOf } from "../../hooks/io/state-dir.js";
import {
  FAIL_CLOSED_EVENTS,
  HOOK_EVENTS,
  HOOK_TIMEOUT_S,
  ON_FAILURE_SINCE,
  SettingsShapeError,
  honoursOnFailure,
  absolutePathsIn,
  clientSkillFile,
  clientSkillRoots,
  expandArgs,
  hookPathOf,
  inspectSettings,
  installIntoText,
  launcherFileOf,
  launcherSourceOf,
  makeHandler,
  portableHandler,
  projectSettingsFiles,
  settingsFileFor,
  uninstallFromText,
  type Handler,
  type Scope,
} from "../../hooks/hosts/claude-code/install.js";
import { JsonTextError } from "../../hooks/hosts/claude-code/settings-text.js";
import type { CompiledTable } from "../../hooks/core/table/compile.js";
import type { FileChange, InstallPlan, InstallTarget } from "../../hooks/io/hook-install.js";
import { packageDirInProject } from "../../hooks/io/project-package.js";
import { gitHooksVerb } from "../git-hooks.js";
import { pickRuntime } from "./runtime.js";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined);
const home = (): string => process.env.HOME || os.homedir();

// ---------------------------------------------------------------- where

export type Where = { ok: true; file: string; projectDir: string; scope: Scope } | { ok: false; error: string };

/**
 * --project DIR (default: here) → .claude/settings.json; --local → .claude/settings.local.json;
 * --user → ~/.claude/settings.json. Exclusive options are already refused by the verb's spec.
 */
export function settingsFileOf(o: { project: string | undefined; local: boolean; user: boolean }): Where {
  if (o.user) return { ok: true, file: settingsFileFor("user", process.cwd(), home()), projectDir: process.cwd(), scope: "user" };
  const dir = path.resolve(o.project ?? ".");
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return { ok: false, error: `--project ${dir}: no such directory` };
  const scope: Scope = o.local ? "local" : "project";
  return { ok: true, file: settingsFileFor(scope, dir, home()), projectDir: dir, scope };
}

const whereOf = (f: ArgsOf<"install" | "uninstall" | "doctor">): Where =>
  settingsFileOf({ project: f.get("project"), local: f.has("local"), user: f.has("user") });

/**
 * Is this skillgate the project's own dependency (node_modules/skillgate here
 * or in a parent), or the project itself? Only then can committed settings
 * point at it by a path every clone has.
 */
export function isProjectDependency(projectDir: string, root: string): boolean {
  return packageDirInProject(projectDir, root) !== undefined;
}

type Read = { ok: true; settings: Json; text: string | undefined } | { ok: false; error: string };

export function readSettings(file: string): Read {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, settings: {}, text: undefined };
    return { ok: false, error: `cannot read ${file}: ${(e as Error).message}` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `${file} is not valid JSON (${(e as Error).message})` };
  }
  const settings = obj(parsed);
  if (!settings) return { ok: false, error: `${file} does not hold a JSON object` };
  return { ok: true, settings, text };
}

export interface SkillCheck {
  /** Rows whose skill Claude Code cannot load, with the skill's name. */
  missing: { row: string; skill: string }[];
  roots: string[];
}

/** Every row's skill must be loadable by the client's Skill tool, or the deny's advice ends in "Unknown skill". */
export function checkSkills(t: CompiledTable, projectDir: string | undefined): SkillCheck {
  const roots = clientSkillRoots(projectDir, home());
  const missing = t.rows.flatMap((r) => (r.row.skill && !clientSkillFile(r.row.skill, roots) ? [{ row: r.row.id, skill: r.row.skill }] : []));
  return { missing, roots };
}

function tableFor(projectDir: string, root: string, flag?: string): TableResolution {
  return resolveTable({ env: process.env, packageRoot: root, project: projectTables(projectDir), ...(flag ? { flag } : {}) });
}

// ---------------------------------------------------------------- install and uninstall as plans

const LAUNCHER_MARK = "// skillgate launcher.";

/** `skillgate install` for Claude Code: the settings file (and in a project the launcher it runs), the skills its table needs. */
export function claudePlan(verb: "install" | "uninstall", t: InstallTarget, root: string): InstallPlan {
  const where = settingsFileOf({ project: t.user ? undefined : t.project, local: t.local === true, user: t.user });
  if (!where.ok) throw new Error(where.error);
  return verb === "install" ? installPlan(where, t, root) : uninstallPlan(where, root);
}

function installPlan(where: Extract<Where, { ok: true }>, t: InstallTarget, root: string): InstallPlan {
  const rt = pickRuntime(t.runtimeGiven, root);
  if (!rt.ok) throw new Error(rt.error);
  const hookPath = hookPathOf(root, rt.name === "bun" ? "bun" : "node");
  if (!fs.existsSync(hookPath)) throw new Error(`${hookPath} does not exist; build skillgate first (npm run build)`);
  // The settings file first: a broken one is the first thing to fix.
  const r = readSettings(where.file);
  if (!r.ok) throw new Error(`${r.error}.\nNothing was written. Fix the file (or move it away) and run again.`);
  // Project settings get the portable form when skillgate is the project's dependency.
  const portable = where.scope !== "user" && isProjectDependency(where.projectDir, root);
  const handler: Handler = portable ? portableHandler(t.runtimeGiven === "bun" ? "bun" : "node") : makeHandler(rt.path, hookPath);
  const warnings: string[] = [];
  if (where.scope === "project" && !portable) {
    warnings.push(
      `warning: skillgate is not installed in this project (${path.join(where.projectDir, "node_modules", "skillgate")}), so the hooks point at ${root} by absolute paths: they work on this machine only.\n` +
        `For settings the team can commit: npm install --save-dev skillgate, then npx skillgate install. For a personal install: skillgate install --local.`,
    );
  } else if (root.split(path.sep).includes("_npx")) {
    // The hooks would point into npx's cache, which npm may clear at any time.
    warnings.push(
      `warning: skillgate runs from npx's cache (${root}); the hooks break when that cache is cleared. Install skillgate (npm i -D skillgate, or -g) and run its install instead.`,
    );
  }
  let next: string;
  try {
    next = installIntoText(r.text, handler, hookPath);
  } catch (err) {
    if (!(err instanceof SettingsShapeError) && !(err instanceof JsonTextError)) throw err;
    throw new Error(`${where.file}: ${(err as Error).message}, which Claude Code does not accept either.\nNothing was written. Fix the file and run again.`);
  }
  // Another settings file that registers skillgate too: Claude Code merges them, so every event would run it twice.
  for (const other of otherRegistrations(where, hookPath)) {
    warnings.push(`warning: skillgate is also installed in ${other.file}: every event now runs it twice; remove one (skillgate uninstall ${other.flags})`);
  }
  const changes: FileChange[] = [];
  if (portable) {
    const launcher = launcherFileOf(where.projectDir);
    const launcherText = fs.readFileSync(launcherSourceOf(root), "utf8");
    const old = fs.existsSync(launcher) ? fs.readFileSync(launcher, "utf8") : null;
    if (old !== launcherText)
      changes.push({
        file: launcher,
        before: old,
        after: launcherText,
        what: "the launcher",
        says: `launcher written (commit it with ${path.basename(where.file)})`,
      });
  }
  const how = portable ? `${handler.command} ${handler.args.join(" ")}` : `${rt.name}: ${rt.path} ${hookPath}`;
  changes.push({
    file: where.file,
    before: r.text ?? null,
    after: next,
    fresh: r.text === undefined || uninstallFromText(r.text, hookPath) === r.text,
    says: `skillgate hooks installed for ${Object.keys(HOOK_EVENTS).length} events (${how})`,
  });
  const tableFile = t.table ? tableFileOf(t.table, root) : tableFor(where.projectDir, root).file;
  const skillsDest = where.scope === "user" ? path.join(home(), ".claude", "skills") : path.join(where.projectDir, ".claude", "skills");
  return {
    changes,
    warnings,
    notes: [checkItWith(where, portable)],
    skills: {
      host: "Claude Code",
      tableFile,
      roots: clientSkillRoots(where.scope === "user" ? undefined : where.projectDir, home()),
      dest: skillsDest,
      withSkills: t.withSkills,
      packageRoot: root,
      env: t.env,
      advice: `run skillgate init (it writes a table and copies its skills into .claude/skills/); without them a deny would tell the model to call the Skill tool, and the client would answer "Unknown skill"`,
    },
  };
}

/** The command that checks this install, runnable where the user is. */
function checkItWith(where: Extract<Where, { ok: true }>, portable: boolean): string {
  if (portable) {
    // skillgate is the project's dependency: not on PATH, so npx, run from the project (npx resolves from the cwd).
    const here = path.resolve(process.cwd()) === path.resolve(where.projectDir);
    const dir = /[\s'"$`\\]/.test(where.projectDir) ? `'${where.projectDir.replaceAll("'", `'\\''`)}'` : where.projectDir;
    return `check it with: ${here ? "" : `cd ${dir} && `}npx skillgate doctor${where.scope === "local" ? " --local" : ""}`;
  }
  const scopeFlag = where.scope === "user" ? " --user" : ` --project ${where.projectDir}${where.scope === "local" ? " --local" : ""}`;
  return `check it with: skillgate doctor${scopeFlag}`;
}

function uninstallPlan(where: Extract<Where, { ok: true }>, root: string): InstallPlan {
  const hookPath = hookPathOf(root);
  const r = readSettings(where.file);
  if (!r.ok) throw new Error(`${r.error}.\nNothing was written. Fix the file (or move it away) and run again.`);
  if (r.text === undefined) return { changes: [{ file: where.file, before: null, after: null }], notes: [] };
  let next: string;
  try {
    next = uninstallFromText(r.text, hookPath);
  } catch (err) {
    throw new Error(`${where.file}: ${(err as Error).message}.\nNothing was written. Fix the file and run again.`);
  }
  const changes: FileChange[] = [{ file: where.file, before: r.text, after: next, says: "skillgate hooks removed (everything else kept)" }];
  const emptyDirs: string[] = [];
  // The launcher goes when no other project settings file runs it.
  if (where.scope !== "user" && next !== r.text) {
    const launcher = launcherFileOf(where.projectDir);
    const stillUsed = projectSettingsFiles(where.projectDir).some((file) => {
      if (path.resolve(file) === path.resolve(where.file)) return false;
      const s = readSettings(file);
      return s.ok && inspectSettings(s.settings, hookPath).handlers.size > 0;
    });
    const text = fs.existsSync(launcher) ? fs.readFileSync(launcher, "utf8") : null;
    if (!stillUsed && text?.startsWith(LAUNCHER_MARK)) {
      changes.push({ file: launcher, before: text, after: null, what: "the launcher" });
      emptyDirs.push(path.dirname(launcher));
    }
  }
  return { changes, notes: [], emptyDirs };
}

/** The other settings files Claude Code reads for this project that already hold skillgate's hooks, with the uninstall flags for each. */
function otherRegistrations(where: { file: string; projectDir: string; scope: string }, hookPath: string): { file: string; flags: string }[] {
  const [projectFile, localFile] = projectSettingsFiles(where.projectDir);
  const candidates = [
    { file: projectFile ?? "", flags: `--project ${where.projectDir}` },
    { file: localFile ?? "", flags: `--project ${where.projectDir} --local` },
    { file: settingsFileFor("user", where.projectDir, home()), flags: "--user" },
  ];
  return candidates.filter((c) => {
    if (!c.file || path.resolve(c.file) === path.resolve(where.file)) return false;
    const s = readSettings(c.file);
    return s.ok && s.text !== undefined && inspectSettings(s.settings, hookPath).handlers.size > 0;
  });
}

// ---------------------------------------------------------------- doctor

/** A configuration problem: one line, exit 3. */
function fail(verb: string, error: string): number {
  console.error(`skillgate ${verb}: ${error.split("\n").join(" ")}`);
  return EXIT.config;
}

/** The project's skillgate dependency when it is a `file:` path (a tarball or folder) outside the project. */
function tarballOutside(projectDir: string): { spec: string; file: string } | undefined {
  let pkg: { dependencies?: Record<string, unknown>; devDependencies?: Record<string, unknown> };
  try {
    pkg = JSON.parse(fs.readFileSync(path.join(projectDir, "package.json"), "utf8")) as typeof pkg;
  } catch {
    return undefined;
  }
  const spec = pkg?.devDependencies?.skillgate ?? pkg?.dependencies?.skillgate;
  if (typeof spec !== "string" || !spec.startsWith("file:")) return undefined;
  const file = path.resolve(projectDir, spec.slice("file:".length));
  const rel = path.relative(projectDir, file);
  return rel.startsWith("..") || path.isAbsolute(rel) ? { spec, file } : undefined;
}

/** The probe's session is not the user's: `stats` would report it as the latest one (state, counts, lock). */
function forgetProbeSession(stateDir: string, sessionId: string): void {
  try {
    for (const name of fs.readdirSync(stateDir)) if (name.startsWith(`${sessionId}.json`)) fs.rmSync(path.join(stateDir, name), { force: true });
  } catch {
    /* no state folder: nothing was left */
  }
}

/** The captured SessionStart payload; cases/ is not in the npm package, so an equivalent one there. */
function sessionStartFixture(root: string): Json {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, "cases", "fixtures", "session-start-startup.json"), "utf8")) as Json;
  } catch {
    return { transcript_path: "", hook_event_name: "SessionStart", source: "startup" };
  }
}

/**
 * Fail closed or open: do the gate's handlers carry onFailure "block", and does
 * the `claude` on PATH honour it (a crash or timeout of the hook then refuses the call)?
 */
function failClosedCheck(handlers: Map<string, Json>, sg: string, ok: (s: string) => void, bad: (s: string) => void, note: (s: string) => void): void {
  if (handlers.size === 0) return;
  const open = [...handlers].filter(([k, h]) => FAIL_CLOSED_EVENTS.has(k.split("#").pop() ?? "") && h.onFailure !== "block").map(([k]) => k.replace("#", ": "));
  if (open.length)
    return bad(`${open.join(", ")}: the hook has no "onFailure": "block", so a crash or timeout of the hook lets the call through; run ${sg} install again`);
  const r = spawnSync("claude", ["--version"], { encoding: "utf8", timeout: 10_000 });
  const honours = r.status === 0 ? honoursOnFailure(r.stdout) : undefined;
  const version = r.stdout?.trim().split(/\s/)[0];
  if (honours === true) ok(`Claude Code ${version} honours onFailure: a PreToolUse hook that crashes or times out refuses the call (fail closed)`);
  else if (honours === false)
    note(
      `Claude Code ${version} is older than ${ON_FAILURE_SINCE}, the first seen honouring onFailure: a crash or timeout of the hook may let the call through (fail open); update Claude Code`,
    );
  else
    note(
      `no \`claude\` on PATH answered --version: whether the client honours onFailure is unknown (${ON_FAILURE_SINCE} and later do; older ones let the call through when the hook crashes or times out)`,
    );
}

/** `skillgate doctor` for Claude Code: settings, the hook command, the table and its skills, the state folder, the git hooks. */
export async function claudeDoctorMain(f: ArgsOf<"doctor">, root: string): Promise<number> {
  const problems: string[] = [];
  const checks: { ok: boolean; text: string }[] = [];
  const c = colours();
  const json = f.has("json");
  const ok = (s: string) => (checks.push({ ok: true, text: s }), json || console.log(`${c.green("ok")}       ${s}`));
  const bad = (s: string) => (problems.push(s), checks.push({ ok: false, text: s }), json || console.log(`${c.red("PROBLEM")}  ${s}`));
  const note = (s: string) => (checks.push({ ok: true, text: s }), json || console.log(`note     ${s}`));
  const hookPath = hookPathOf(root);

  // 1. Hooks in settings: the named file, or (no flag) the project's two and the user's.
  const where = whereOf(f);
  if (!where.ok) return fail("doctor", where.error);
  // The table the hook will use in this project: named first, checked in 3.
  const table: TableResolution = f.get("table")
    ? { file: tableFileOf(f.get("table"), root), source: "flag", why: "--table" }
    : tableFor(where.projectDir, root);
  const tableRows = await compiledTable(table.file, root).then(
    (t) => t.rows.length,
    () => undefined,
  );
  if (!json) console.log(tableHeader(table.file, tableRows));
  // The command to tell the user: a project's own skillgate is not on PATH, npx finds it.
  const sg =
    where.scope !== "user" && isProjectDependency(where.projectDir, root) && path.resolve(where.projectDir) !== path.resolve(root)
      ? "npx skillgate"
      : "skillgate";
  const userFile = settingsFileFor("user", where.projectDir, home());
  const files =
    f.has("user") || f.has("local")
      ? [where.file]
      : f.has("project")
        ? projectSettingsFiles(where.projectDir)
        : [...new Set([...projectSettingsFiles(where.projectDir), userFile])];
  let handler: Json | undefined;
  const handlersSeen = new Map<string, Json>();
  const installedIn: string[] = [];
  let asPlugin = false;
  for (const file of files) {
    const r = readSettings(file);
    if (!r.ok) {
      bad(`${r.error}: Claude Code cannot read it either`);
      continue;
    }
    const plugins = obj(r.settings.enabledPlugins) ?? {};
    if (Object.keys(plugins).some((k) => k.startsWith("skillgate@") && plugins[k])) asPlugin = true;
    const { handlers, problems: p } = inspectSettings(r.settings, hookPath);
    if (handlers.size === 0) continue;
    for (const [e, h] of handlers) handlersSeen.set(`${file}#${e}`, h);
    installedIn.push(file);
    handler ??= handlers.values().next().value;
    const missing = Object.keys(HOOK_EVENTS).filter((e) => !handlers.has(e));
    if (missing.length) bad(`${file} has no skillgate hook for ${missing.join(", ")}: run ${sg} install again`);
    else ok(`${file}: skillgate hooks on all ${handlers.size} events`);
    p.forEach(bad);
    // The committed file must run on every clone.
    if (file === settingsFileFor("project", where.projectDir, home())) {
      const abs = [...new Set([...handlers.values()].flatMap(absolutePathsIn))];
      if (abs.length)
        bad(
          `${file} is committed with the project but its skillgate hooks name absolute paths (${abs.join(", ")}): they break on a teammate's clone; npm install --save-dev skillgate, then run npx skillgate install again`,
        );
    }
  }
  failClosedCheck(handlersSeen, sg, ok, bad, note);
  if (installedIn.length > 1) bad(`skillgate is installed in both ${installedIn.join(" and ")}: every event runs it twice; uninstall one`);
  if (where.scope !== "user") {
    // Committed settings run the project's skillgate, so every clone must be able to npm ci it.
    const spec = tarballOutside(where.projectDir);
    if (spec) {
      const say = installedIn.includes(settingsFileFor("project", where.projectDir, "")) ? bad : note;
      say(
        `${path.join(where.projectDir, "package.json")} installs skillgate from ${spec.spec}, outside the project: a teammate's npm ci fails unless the tarball is at that path on their machine too; copy it into the repository (vendor/), npm install --save-dev ./vendor/${path.basename(spec.file)} and commit it`,
      );
    }
  }
  if (installedIn.length === 0) {
    if (asPlugin) ok("skillgate is enabled as a plugin (its hooks come from hooks/hooks.json)");
    else bad(`no skillgate hooks in ${files.join(" or ")}: run ${sg} install${f.has("user") ? " --user" : ""} (or load skillgate as a plugin)`);
  }

  // 2. The hook command starts and answers a SessionStart like Claude Code would send it.
  const command = typeof handler?.command === "string" ? handler.command : process.execPath;
  const rawArgs = Array.isArray(handler?.args) ? (handler.args as unknown[]).map(String) : [hookPath];
  const hargs = expandArgs(rawArgs, where.projectDir);
  if (rawArgs.some((a) => a.includes("CLAUDE_PROJECT_DIR")) && !fs.existsSync(hargs[0] ?? "")) {
    bad(`the launcher ${hargs[0]} named in the settings is missing: run ${sg} install again (and commit .claude/hooks/skillgate.mjs)`);
  }
  const launcher = hargs[0] ?? "";
  if (
    rawArgs.some((a) => a.includes("CLAUDE_PROJECT_DIR")) &&
    fs.existsSync(launcher) &&
    fs.readFileSync(launcher, "utf8") !== fs.readFileSync(launcherSourceOf(root), "utf8")
  ) {
    note(`${launcher} differs from this skillgate's launcher: skillgate install updates it (commit the change)`);
  }
  const payload = { ...sessionStartFixture(root), session_id: `skillgate-doctor-${process.pid}`, cwd: where.projectDir };
  const env = { ...process.env, CLAUDE_PROJECT_DIR: where.projectDir };
  const t0 = Date.now();
  const run = spawnSync(command, hargs, { input: JSON.stringify(payload), encoding: "utf8", cwd: where.projectDir, env, timeout: HOOK_TIMEOUT_S * 1000 });
  forgetProbeSession(stateDirOf({ env, packageRoot: root }), payload.session_id);
  const shown = `${command} ${rawArgs.join(" ")}`;
  if (run.error) bad(`the hook command does not start (${shown}): ${run.error.message}`);
  else if (run.status !== 0) bad(`the hook command exited with ${run.status ?? run.signal} (${shown}): ${run.stderr.trim().slice(0, 300)}`);
  else {
    let answer: Json | undefined;
    try {
      answer = run.stdout.trim() ? obj(JSON.parse(run.stdout)) : {};
    } catch {
      /* reported below */
    }
    if (!answer) bad(`the hook command printed something that is not JSON (${shown}): ${run.stdout.slice(0, 200)}`);
    else {
      // A session start announces the active table (information); anything else it says is a problem.
      const said = typeof answer.systemMessage === "string" ? answer.systemMessage.split("\n").filter(Boolean) : [];
      const info = said.filter((l) => / is active \(\d+ rows?\)$/.test(l));
      const worries = said.filter((l) => !info.includes(l));
      if (worries.length) bad(`the hook runs but says: ${worries.join("; ")}`);
      else ok(`the hook command starts and answers (${Date.now() - t0} ms): ${shown}${info.length ? ` — ${info.join("; ")}` : ""}`);
    }
  }

  // 3. The table the hook will use in this project validates, and its skills are loadable.
  try {
    const t = await compiledTable(table.file, root);
    ok(`trigger table ${table.file} (${table.why}): ${t.rows.length} rows`);
    if (installedIn.length === 0 && asPlugin && table.source === "default") ok("the plugin's own skills are loadable as skillgate:<name>");
    else {
      const s = checkSkills(t, where.scope === "user" ? undefined : where.projectDir);
      if (s.missing.length) {
        // One line for all: the default table without its skills would otherwise print a problem per row.
        const rowsOf = new Map<string, string[]>();
        for (const m of s.missing) rowsOf.set(m.skill, [...(rowsOf.get(m.skill) ?? []), m.row]);
        const list = [...rowsOf].map(([skill, rows]) => `${skill} (row${rows.length > 1 ? "s" : ""} ${rows.join(", ")})`).join(", ");
        bad(
          `the table names skills Claude Code cannot load (no <skill>/SKILL.md in ${s.roots.join(" or ")}): ${list}; the Skill tool would answer "Unknown skill": run ${sg} init or ${sg} install --with-skills`,
        );
      }
      if (!s.missing.length) ok(`every skill the table names is loadable by the Skill tool (${s.roots.join(", ")})`);
    }
  } catch (e) {
    bad(`the trigger table ${table.file} does not validate: ${(e as Error).message}`);
  }

  // 4. The hook can keep per-session state, outside the package.
  const stateDir = stateDirOf({ env: process.env, packageRoot: root });
  try {
    fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    const probe = path.join(stateDir, `.doctor-${process.pid}`);
    fs.writeFileSync(probe, "");
    fs.rmSync(probe);
    ok(`state folder ${stateDir} is writable`);
  } catch (e) {
    bad(`the state folder ${stateDir} is not writable (${(e as Error).message}): set SKILLGATE_STATE to a folder the hook can write`);
  }
  if (path.resolve(stateDir).startsWith(path.resolve(root) + path.sep))
    bad(`the state folder ${stateDir} is inside the skillgate package: npm ci wipes it; unset SKILLGATE_STATE or point it elsewhere`);

  // 5. The git hooks that check an agent's commits and pushes where git makes them.
  gitHooksVerb({ verb: "doctor", project: where.scope === "user" ? undefined : where.projectDir, root, say: ok, bad });

  if (json) console.log(JSON.stringify({ table: tableJson(table.file, tableRows), problems: problems.length, checks }, null, 2));
  else console.log(problems.length ? `\n${problems.length} problem(s): skillgate will not work as intended until they are fixed` : "\nall good");
  return problems.length ? EXIT.findings : EXIT.ok;
}
