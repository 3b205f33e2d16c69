// Guarded files put back. Before a shell call the analysis cannot prove
// read-only, the session's baseline notes every file a write row of a
// not-loaded skill (or a block or risk row) guards in the repository, and
// every file skillgate protects whatever is loaded: the trigger tables, the
// settings that register the hook, the skills' folders, the session's state.
// After the call, and again at the session's next event (work that outlived
// the call), a guarded file that changed, appeared or vanished is put back and
// the finding folded into the event (the policy words it: effects-audit.ts).
//
// One folder per session, <state>/restore/<session>/:
//   baseline.json   checksummed: the files' entries (io/restore-store.ts), the rows listed
//   state.witness   checksummed: the session state file as the hook last wrote it
//   hold-<call>     a call in flight (content: its agent id)
//   linger-<call>   a finished call whose work may still run: checked at the next event
// The folder exists only while a call holds it: an event with nothing pending
// costs one lstat. Every change to the folder happens under the session's
// state lock, and the hook's own state writes update the witness under that
// lock (noteStateWrite), so the restore compares with what the hook last
// wrote and never undoes the hook's own (or a parallel hook's) write.
import { runtimeConfigFiles } from "../io/runtime-config.js";
import fs from "node:fs";
import path from "node:path";
import type { Event, RestoreFinding, SessionState } from "../core/types.js";
import type { CompiledRow, CompiledTable } from "../core/table/compile.js";
import type { Host } from "../core/host.js";
import { contextOf } from "../core/agent-context.js";
import { isLoaded } from "../core/skills.js";
import { StateStore, isSafeSessionId, readRegularFile, writeAtomic } from "../io/state-store.js";
import { checksummed, checksumVerified, stateKey } from "../io/state-key.js";
import { ListingCache, StatCache } from "../io/stat-cache.js";
import { listMatching, filesUnder } from "../io/guarded-files.js";
import { blobDir, differs, entryOf, keptCopy, putBack, type Entry, type Keeper } from "../io/restore-store.js";
import { makeDir } from "../io/make-dir.js";
import { fastHash } from "../io/fast-hash.js";
import { parseConfig } from "../core/shell/gitconfig.js";

interface Protected {
  what: string;
  entry: Entry;
  /** A settings file (JSON): a change that keeps skillgate registered and does not weaken it is the user's (a permission granted). */
  settings?: { registers: boolean };
  /** git's config: only a change to what decides whether git's hooks run (core.hooksPath, an include) is undone. */
  gitConfig?: true;
}

interface Baseline {
  version: 1;
  root: string;
  /** Rows whose files were listed (write globs of gate, block and risk rows). */
  rows: string[];
  /** The listing stopped at a bound: a file past it that appears is not seen. */
  partial: boolean;
  files: Record<string, Entry>;
  protected: Record<string, Protected>;
  /** Folders listed whole (the skills', git's hooks): a file that appears in one is removed. */
  skillDirs: Record<string, string>;
}

/** Where the session's restore lives; undefined for an id that cannot be a file name. */
export function sessionFolder(stateDir: string, sessionId: string): string | undefined {
  return isSafeSessionId(sessionId) ? path.join(stateDir, "restore", sessionId) : undefined;
}

/** The hot path: does this session have anything pending (one lstat)? */
export function restorePending(stateDir: string, sessionId: string): boolean {
  const dir = sessionFolder(stateDir, sessionId);
  return dir !== undefined && fs.lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() === true;
}

export interface RestoreInput {
  stateDir: string;
  host: Host;
  env: NodeJS.ProcessEnv;
  packageRoot: string;
  tableFile: string;
  table: CompiledTable;
}

// ─── Before the call ─────────────────────────────────────────────────────

/** PreToolUse of a shell call that will run and is not proven read-only: note the baseline and hold it. */
export function holdForCall(
  event: Extract<Event, { kind: "tool-call" }>,
  toolUseId: string,
  state: SessionState,
  agent: string | undefined,
  r: RestoreInput,
): void {
  const dir = sessionFolder(r.stateDir, event.sessionId);
  if (!dir || !/^[A-Za-z0-9_-]{1,128}$/.test(toolUseId)) return;
  const context = contextOf(state, agent);
  const rows = r.table.rows.filter((cr) => cr.writes && guards(cr, (s) => isLoaded(context, s)));
  const root = repositoryRoot(event.cwd || "/");
  const key = stateKey(r.stateDir);
  underLock(r.stateDir, event.sessionId, () => {
    makeDir(dir, 0o700);
    const witness = path.join(dir, "state.witness");
    if (!fs.existsSync(witness)) writeWitness(key, witness, readState(r.stateDir, event.sessionId));
    const file = path.join(dir, "baseline.json");
    const had = readBaseline(key, file);
    const base = had && had.root === root ? had : undefined;
    const missingRows = rows.filter((cr) => !base?.rows.includes(cr.row.id));
    if (!base || missingRows.length > 0 || !sameProtected(base, r)) {
      const next = snapshot(base, root, base ? missingRows : rows, r);
      writeAtomic(file, checksummed(key, JSON.stringify(next)));
    }
    fs.writeFileSync(path.join(dir, `hold-${toolUseId}`), `${agent ?? ""}\n`, { mode: 0o600 });
  });
}

/** A gate's files are guarded while its skill is not loaded; a block's and a risk row's always. */
function guards(cr: CompiledRow, loaded: (skill: string) => boolean): boolean {
  const row = cr.row;
  if (row.kind === "block" || row.kind === "risk") return true;
  return row.kind === "gate" && row.skill !== undefined && !loaded(row.skill);
}

function snapshot(base: Baseline | undefined, root: string, rows: CompiledRow[], r: RestoreInput): Baseline {
  const cache = StatCache.load(r.stateDir, `restore:${root}`);
  const keeper: Keeper = { blobs: blobDir(r.stateDir), cache, kept: 0 };
  const out: Baseline = base
    ? { ...base, rows: [...base.rows], files: { ...base.files }, protected: { ...base.protected }, skillDirs: { ...base.skillDirs } }
    : { version: 1, root, rows: [], partial: false, files: {}, protected: {}, skillDirs: {} };
  // No repository to speak of (a call from `/` or the home folder): only the protected files, never a walk of the disk.
  const wholeDisk = root === path.parse(root).root || (r.env.HOME !== undefined && root === path.resolve(r.env.HOME));
  if (rows.length > 0 && !wholeDisk) {
    const listed = listGuarded(root, rows, r);
    out.partial ||= listed.partial;
    const restorable = rows.filter((cr) => cr.row.kind !== "risk");
    for (const rel of listed.files) {
      const abs = path.join(root, rel);
      if (abs in out.files) continue;
      // A file only a risk row guards is never put back: its stamp (ctime cannot be set back) tells a change.
      out.files[abs] = restorable.some((cr) => cr.writes?.(rel)) ? entryOf(abs, keeper) : entryOf(abs);
    }
    out.rows.push(...rows.map((cr) => cr.row.id).filter((id) => !out.rows.includes(id)));
  }
  const p = protectedFiles(r, root);
  for (const [file, what] of p.files) {
    if (file in out.protected) continue;
    const settings = p.settings.has(file) && file.endsWith(".json") ? { registers: r.host.registersSkillgate?.(file) === true } : undefined;
    out.protected[file] = { what, entry: entryOf(file, keeper), ...(settings ? { settings } : {}), ...(p.gitConfigs.has(file) ? { gitConfig: true } : {}) };
  }
  for (const [dir, what] of p.skillDirs) {
    if (dir in out.skillDirs) continue;
    out.skillDirs[dir] = what;
    for (const f of filesUnder(dir).files) if (!(f in out.protected)) out.protected[f] = { what, entry: entryOf(f, keeper) };
  }
  cache.save();
  return out;
}

function sameProtected(base: Baseline, r: RestoreInput): boolean {
  const p = protectedFiles(r, base.root);
  return [...p.files.keys()].every((f) => f in base.protected) && [...p.skillDirs.keys()].every((d) => d in base.skillDirs);
}

/**
 * Tables, settings, the key that signs skillgate's files, the folders of the skills the table names, and the
 * repository's git hooks and config: a program that writes a hook or moves core.hooksPath switches off the
 * git hooks that check commits and pushes (the shell analysis refuses the writes it can see).
 */
function protectedFiles(
  r: RestoreInput,
  root: string,
): { files: Map<string, string>; settings: Set<string>; skillDirs: Map<string, string>; gitConfigs: Set<string> } {
  const he = r.host.environment(r.env);
  const files = new Map<string, string>();
  for (const t of [r.tableFile, r.env.SKILLGATE_TABLE, he.projectTable, path.join(r.packageRoot, "triggers.json")])
    if (t) files.set(path.resolve(t), "a trigger table skillgate loads");
  const settings = new Set(he.settingsFiles.map((f) => path.resolve(f)));
  for (const f of settings) files.set(f, `${r.host.name} settings that register skillgate's hook`);
  for (const [f, what] of runtimeConfigFiles(he.projectDir ?? process.cwd())) files.set(f, what);
  // The key exists once the hook ran; only a change to it (or its removal) is undone.
  const key = path.join(r.stateDir, ".mac-key");
  if (fs.existsSync(key)) files.set(key, "the key that signs skillgate's state files");
  const skills = [...new Set(r.table.rows.flatMap(({ row }) => (row.skill ? [row.skill] : [])))];
  const skillDirs = new Map<string, string>();
  for (const root of r.table.skillRoots)
    for (const s of skills) skillDirs.set(path.join(path.resolve(root), s), `the text of skill "${s}", which the gate trusts`);
  const gitConfigs = new Set<string>();
  const gitDir = path.join(root, ".git");
  if (fs.lstatSync(gitDir, { throwIfNoEntry: false })?.isDirectory()) {
    const config = path.join(gitDir, "config");
    files.set(config, "git's config (its core.hooksPath decides whether git's hooks run)");
    gitConfigs.add(config);
    skillDirs.set(path.join(gitDir, "hooks"), "git's hooks folder (skillgate's commit and push checks run from it)");
  }
  return { files, settings, skillDirs, gitConfigs };
}

function listGuarded(root: string, rows: CompiledRow[], r: RestoreInput): { files: string[]; partial: boolean } {
  const matchers = rows.flatMap((cr) => (cr.writes ? [cr.writes] : []));
  const globKey = fastHash(JSON.stringify(rows.map((cr) => cr.row.when.writes ?? [])));
  const cache = ListingCache.load(r.stateDir, root, globKey);
  const l = listMatching(root, (rel) => matchers.some((m) => m(rel)), { cache, skip: [r.stateDir] });
  try {
    cache.save();
  } catch {
    /* a cache only */
  }
  return l;
}

// ─── After the call, and at the next event ───────────────────────────────

/**
 * The hook's step before it reads the state: check and put back, fold the
 * findings into the event, and load the context again when a table or
 * settings file was put back (the one loaded before was the altered one).
 */
export async function withRestore<C extends { table: CompiledTable }>(
  event: Event,
  ctx: C,
  r: Omit<RestoreInput, "table">,
  again: () => Promise<C | undefined>,
): Promise<{ event: Event; ctx: C; notice?: string }> {
  let current = ctx;
  try {
    const res = await checkSession(event, { ...r, table: ctx.table }, async () => {
      const next = await again();
      if (next) current = next;
      return next?.table;
    });
    return { event: res.findings.length ? { ...event, restored: [...(event.restored ?? []), ...res.findings] } : event, ctx: current };
  } catch (e) {
    return { event, ctx: current, notice: `skillgate: guarded files not checked after the command (${(e as Error).message})` };
  }
}

export interface CheckResult {
  findings: RestoreFinding[];
  /** A table or a settings file was put back: the caller loads its context again. */
  reload: boolean;
  notice?: string;
}

/**
 * At any event of a session that has a folder: the state file against its
 * witness; then, at the result of a held call or when a finished call
 * lingers, every guarded file against the baseline. `reloaded` gives the
 * table again after a table was put back.
 */
export async function checkSession(event: Event, r: RestoreInput, reloaded: () => Promise<CompiledTable | undefined>): Promise<CheckResult> {
  const out: CheckResult = { findings: [], reload: false };
  const dir = sessionFolder(r.stateDir, event.sessionId);
  if (!dir) return out;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return out;
  }
  const key = stateKey(r.stateDir);
  const own =
    (event.kind === "tool-result" || event.kind === "tool-failure") && event.tool.kind === "shell" && event.toolUseId ? `hold-${event.toolUseId}` : undefined;
  const lingers = names.filter((n) => n.startsWith("linger-"));
  const ownHeld = own !== undefined && names.includes(own);
  const late = !ownHeld;
  // Read first without the lock (the usual answer: as the hook wrote it); a difference is confirmed and undone under it.
  if (checkState(key, dir, r.stateDir, event.sessionId, true)) {
    underLock(r.stateDir, event.sessionId, () => {
      const f = checkState(key, dir, r.stateDir, event.sessionId);
      if (f) out.findings.push({ ...f, ...(late ? { late: true } : {}) });
    });
  }
  if (!ownHeld && lingers.length === 0) return out;

  const holders = [...(ownHeld && own ? [own] : []), ...lingers].map((n) => readSmall(path.join(dir, n)).split("\n"));
  const agents = holders.map((h) => h[0] ?? "");
  const base = readBaseline(key, path.join(dir, "baseline.json"));
  const keepDir = path.join(r.stateDir, "restore", "found", event.sessionId);
  const blobs = blobDir(r.stateDir);
  if (!base) {
    out.findings.push({
      path: path.join(dir, "baseline.json"),
      change: "changed",
      rows: [],
      protects: "skillgate's record of the guarded files",
      outcome: "failed",
      why: "it is missing or fails its check (altered, or skillgate's key changed), so nothing could be put back",
    });
  } else {
    // Protected files first: a table put back is the table the rest is checked with.
    for (const [file, p] of Object.entries(base.protected)) {
      const { now, changed } = differs(p.entry, file);
      if (!changed) continue;
      // git writes its config itself (a remote, an upstream): only a change to where its hooks come from is undone.
      if (p.gitConfig && now.kind === "file" && !hooksSourceChanged(p.entry, file, blobs)) continue;
      if (
        p.settings &&
        now.kind !== "missing" &&
        r.host.weakensSkillgate?.(file) !== true &&
        (!p.settings.registers || r.host.registersSkillgate?.(file) === true)
      )
        continue;
      out.findings.push(finding(file, p.entry, now, [], putBack(file, p.entry, blobs, keepDir), p.what, late));
      if (!file.startsWith(path.resolve(r.stateDir) + path.sep)) out.reload = true;
    }
    for (const [skillDir, what] of Object.entries(base.skillDirs)) {
      for (const file of filesUnder(skillDir).files) {
        if (file in base.protected) continue;
        out.findings.push(finding(file, { kind: "missing" }, entryOf(file), [], putBack(file, { kind: "missing" }, blobs, keepDir), what, late));
        out.reload = true;
      }
    }
    const table = (out.reload ? await reloaded() : undefined) ?? r.table;
    out.findings.push(...checkRows(base, table, agents, event, r, blobs, keepDir, late));
  }
  // This event was the lingering calls' next event; the call that just ended lingers until the next one.
  underLock(r.stateDir, event.sessionId, () => {
    for (const n of lingers) fs.rmSync(path.join(dir, n), { force: true });
    if (ownHeld && own) fs.renameSync(path.join(dir, own), path.join(dir, `linger-${own.slice(5)}`));
    if (!fs.readdirSync(dir).some((n) => n.startsWith("hold-") || n.startsWith("linger-"))) fs.rmSync(dir, { recursive: true, force: true });
  });
  return out;
}

/** Did core.hooksPath or an include of git's config change (or can the old text not be read to tell)? */
function hooksSourceChanged(was: Entry, file: string, blobs: string): boolean {
  if (was.kind !== "file" || !was.kept || !was.sha) return was.kind === "file";
  const before = keptCopy(was.sha, blobs);
  if (typeof before === "string") return true;
  try {
    return hooksSource(before.toString("utf8")) !== hooksSource(fs.readFileSync(file, "utf8"));
  } catch {
    return true;
  }
}

function hooksSource(text: string): string {
  return JSON.stringify(parseConfig(text).filter(([k]) => /^core\.hookspath$|^include(if\..*)?\.path$/i.test(k)));
}

function checkRows(
  base: Baseline,
  table: CompiledTable,
  agents: string[],
  event: Event,
  r: RestoreInput,
  blobs: string,
  keepDir: string,
  late: boolean,
): RestoreFinding[] {
  const rows = table.rows.filter((cr) => cr.writes && base.rows.includes(cr.row.id));
  if (rows.length === 0 || base.rows.length === 0) return [];
  const state = new StateStore(r.stateDir).peek(event.sessionId);
  // Lifted when loaded in the context of any call holding the baseline (the writer is not known).
  const loaded = (skill: string) => agents.some((a) => isLoaded(contextOf(state, a === "" ? undefined : a), skill));
  const now = listGuarded(base.root, rows, r);
  const candidates = new Set([...Object.keys(base.files), ...(base.partial ? [] : now.files.map((rel) => path.join(base.root, rel)))]);
  const out: RestoreFinding[] = [];
  for (const file of candidates) {
    const was = base.files[file] ?? { kind: "missing" as const };
    const d = differs(was, file);
    if (!d.changed) continue;
    const rel = path.relative(base.root, file).split(path.sep).join("/");
    const by = rows.filter((cr) => cr.writes?.(rel));
    const undo = by.filter((cr) => cr.row.kind !== "risk" && guards(cr, loaded));
    const risk = by.filter((cr) => cr.row.kind === "risk");
    // Whatever changed it: a program, a patch, a git hook, or git's own checkout, merge or stash (the row
    // guards the file, not a way of writing it; a branch switch that changes a paired document changes it).
    if (undo.length > 0)
      out.push(
        finding(
          file,
          was,
          d.now,
          [...undo, ...risk].map((cr) => cr.row.id),
          putBack(file, was, blobs, keepDir),
          undefined,
          late,
        ),
      );
    else if (risk.length > 0)
      out.push({
        ...finding(
          file,
          was,
          d.now,
          risk.map((cr) => cr.row.id),
          undefined,
          undefined,
          late,
        ),
        outcome: "left",
      });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

function finding(
  file: string,
  was: Entry,
  now: Entry,
  rows: string[],
  done: ReturnType<typeof putBack> | undefined,
  protects: string | undefined,
  late: boolean,
): RestoreFinding {
  const change = was.kind === "missing" ? "created" : now.kind === "missing" ? "deleted" : "changed";
  const base: RestoreFinding = { path: file, change, rows, outcome: "left", ...(protects ? { protects } : {}), ...(late ? { late: true } : {}) };
  if (!done) return base;
  return done.ok
    ? { ...base, outcome: done.did, ...(done.keptAt ? { keptAt: done.keptAt } : {}) }
    : { ...base, outcome: "failed", why: done.why, ...(done.keptAt ? { keptAt: done.keptAt } : {}) };
}

// ─── The session state file and its witness ──────────────────────────────

const ABSENT = "absent";

/** Format shared with noteStateWrite (runner/audit.ts). */
function writeWitness(key: Buffer, file: string, text: string | undefined): void {
  writeAtomic(file, checksummed(key, text === undefined ? ABSENT : `present\n${text}`));
}

/** The state file as the hook last wrote it; put back when something else changed it. */
function checkState(key: Buffer, dir: string, stateDir: string, sessionId: string, lookOnly = false): RestoreFinding | undefined {
  const file = path.join(stateDir, `${sessionId}.json`);
  const w = readRegularFile(path.join(dir, "state.witness"), 8 * 1024 * 1024);
  const body = w.ok ? checksumVerified(key, w.text) : undefined;
  const what = "skillgate's state of this session (the skills it counts as loaded)";
  if (body === undefined) {
    if (w.ok === false && w.missing) return undefined;
    return {
      path: file,
      change: "changed",
      rows: [],
      protects: what,
      outcome: "failed",
      why: "the record of what skillgate last wrote there fails its check",
    };
  }
  const want = body === ABSENT ? undefined : body.startsWith("present\n") ? body.slice(8) : undefined;
  const have = readState(stateDir, sessionId);
  if (have === want) return undefined;
  const change = want === undefined ? "created" : have === undefined ? "deleted" : "changed";
  if (lookOnly) return { path: file, change, rows: [], protects: what, outcome: "left" };
  try {
    if (want === undefined) fs.rmSync(file, { force: true });
    else writeAtomic(file, want);
    return { path: file, change, rows: [], protects: what, outcome: want === undefined ? "removed" : have === undefined ? "recreated" : "restored" };
  } catch (e) {
    return { path: file, change, rows: [], protects: what, outcome: "failed", why: (e as Error).message };
  }
}

function readState(stateDir: string, sessionId: string): string | undefined {
  const r = readRegularFile(path.join(stateDir, `${sessionId}.json`), 8 * 1024 * 1024);
  // Anything there that is not a readable file counts as a change (its text differs from any witness).
  return r.ok ? r.text : r.missing ? undefined : `\0${r.error}`;
}

// ─── Small helpers ───────────────────────────────────────────────────────

/** The session's state lock (the state store's), held while fn runs. */
function underLock(stateDir: string, sessionId: string, fn: () => void): void {
  new StateStore(stateDir).locked(sessionId, fn);
}

function readBaseline(key: Buffer, file: string): Baseline | undefined {
  const r = readRegularFile(file, 64 * 1024 * 1024);
  const body = r.ok ? checksumVerified(key, r.text) : undefined;
  if (body === undefined) return undefined;
  try {
    const b = JSON.parse(body) as Baseline;
    return b && b.version === 1 && typeof b.root === "string" ? b : undefined;
  } catch {
    return undefined;
  }
}

function readSmall(file: string): string {
  const r = readRegularFile(file, 1024);
  return r.ok ? r.text : "";
}

/** The folder holding `.git` above cwd (the repository's top), else cwd itself. */
function repositoryRoot(cwd: string): string {
  let d = path.resolve(cwd);
  for (let i = 0; i < 64; i++) {
    if (fs.lstatSync(path.join(d, ".git"), { throwIfNoEntry: false })) return d;
    const up = path.dirname(d);
    if (up === d) break;
    d = up;
  }
  return path.resolve(cwd);
}

/** Session folders and kept copies older than a day, blobs older than a week (session start housekeeping). */
export function cleanRestore(stateDir: string, now = Date.now()): void {
  const top = path.join(stateDir, "restore");
  let names: string[];
  try {
    names = fs.readdirSync(top);
  } catch {
    return;
  }
  for (const n of names) {
    const p = path.join(top, n);
    try {
      if (n === "blobs" || n === "found") {
        for (const b of fs.readdirSync(p)) {
          const q = path.join(p, b);
          if (now - fs.lstatSync(q).mtimeMs > 7 * 86_400_000) fs.rmSync(q, { recursive: true, force: true });
        }
      } else if (now - fs.lstatSync(p).mtimeMs > 86_400_000) fs.rmSync(p, { recursive: true, force: true });
    } catch {
      /* housekeeping only */
    }
  }
}
