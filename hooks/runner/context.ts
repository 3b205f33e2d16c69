// Everything a decision needs besides the event: the table (with the host's
// environment folded in, once, here), the state folder and the host. The hook,
// `explain`, `measure`, `stats` and `cases` all come through loadContext(), so
// they decide from the same table and the same state folder.
import { runtimeConfigFiles } from "../io/runtime-config.js";
import fs from "node:fs";
import path from "node:path";
import type { Host, HostEnvironment } from "../core/host.js";
import type { CompiledTable, ProtectedPath } from "../core/table/compile.js";
import { loadTable, resolveTableFile, type LoadOptions } from "../io/table-load.js";
import { stateDirOf } from "../io/state-dir.js";
import { readRegularFile } from "../io/state-store.js";

export interface HookEnv {
  env: NodeJS.ProcessEnv;
  /** skillgate's own folder (the default table and skills live there). */
  packageRoot: string;
  /** The host whose events come in: each entry (hooks/entries/) passes its own. */
  host: Host;
  /** An in-process host's contexts, kept between events (a hook process loads once and exits). */
  contexts?: ContextCache;
  /** The hook process the event came from, when another process answers it (the hook server): its parent is the client. */
  hookPid?: number;
}

/**
 * Contexts kept by an in-process host (opencode's plugin), per set of options: one is reused while the
 * table resolves to the same file and neither it nor the default table changed (path, size, mtime, inode).
 */
export class ContextCache {
  private readonly kept = new Map<string, { stamp: string; ctx: RunContext }>();
  get(key: string, stamp: string): RunContext | undefined {
    const hit = this.kept.get(key);
    return hit && hit.stamp === stamp ? hit.ctx : undefined;
  }
  set(key: string, stamp: string, ctx: RunContext): void {
    this.kept.set(key, { stamp, ctx });
  }
}

function stampOf(files: string[]): string {
  return files
    .map((f) => {
      const st = fs.statSync(f, { throwIfNoEntry: false });
      return st ? `${f}:${st.size}:${st.mtimeMs}:${st.ino}` : `${f}:-`;
    })
    .join("|");
}

export type RunContext =
  | { ok: true; host: Host; table: CompiledTable; tableFile: string; stateDir: string; isDefaultTable: boolean }
  | { ok: false; host: Host; error: string; failMode: "open" | "closed"; tableFile: string; stateDir: string };

export interface ContextOptions extends LoadOptions {
  /** A table file chosen by the user (`--table`); default: the one resolution every verb uses. */
  tableFile?: string;
  /** Cache the validated table in the state folder (the hook does; one-off verbs need not). */
  cache?: boolean;
  /** Check which named skills the client cannot load (a few stat calls; for events that can refuse). */
  checkSkills?: boolean;
  /** Build the list of paths the agent may not write (reads the output-folder memo); only tool calls need it. Default: yes. */
  protect?: boolean;
  /** Add the real (symlink-resolved) spelling of each protected path: a few file system calls, only worth it for a call that writes. Default: yes. */
  realPaths?: boolean;
}

/** skillgate's installed files (package or plugin root): never the agent's to write. */
const INSTALLED = ["dist", "hooks", "bin", "skills", "triggers.json", "triggers.schema.json", "package.json", ".claude-plugin"];

/** `environment`: the host's, when the caller already read it for this event (it is not read twice). */
export async function loadContext(h: HookEnv, opts: ContextOptions = {}, environment?: HostEnvironment): Promise<RunContext> {
  const host = h.host;
  const he = environment ?? host.environment(h.env);
  const stateDir = stateDirOf({ ...h, ...(he.dataDir ? { dataDir: he.dataDir } : {}) });
  const projectTables = [he.projectTable, ...(he.alsoTables ?? [])].filter((f): f is string => !!f);
  const tableFile = opts.tableFile ? path.resolve(opts.tableFile) : resolveTableFile(h.env, h.packageRoot, { files: projectTables });
  const key = h.contexts ? JSON.stringify([tableFile, stateDir, opts]) : "";
  const stamp = h.contexts ? stampOf([tableFile, path.join(h.packageRoot, "triggers.json")]) : "";
  const kept = h.contexts?.get(key, stamp);
  if (kept) return kept;
  const ctx = await loadFresh(h, host, he, stateDir, tableFile, opts);
  h.contexts?.set(key, stamp, ctx);
  return ctx;
}

async function loadFresh(h: HookEnv, host: Host, he: HostEnvironment, stateDir: string, tableFile: string, opts: ContextOptions): Promise<RunContext> {
  const t = await loadTable(tableFile, opts.cache === false ? undefined : stateDir, h.env, {
    ...opts,
    defaultTable: path.join(h.packageRoot, "triggers.json"),
  });
  if (!t.ok) return { ok: false, host, error: t.error, failMode: t.failMode, tableFile, stateDir };
  const table = foldEnvironment(t.compiled, host, he, h, tableFile, stateDir, opts.checkSkills === true, opts.protect !== false, opts.realPaths !== false);
  return { ok: true, host, table, tableFile, stateDir, isDefaultTable: tableFile === path.join(h.packageRoot, "triggers.json") };
}

/** The host's skill roots, plugin naming and protected paths, added to a new compiled table (never mutating the loaded one). */
function foldEnvironment(
  compiled: CompiledTable,
  host: Host,
  he: HostEnvironment,
  h: HookEnv,
  tableFile: string,
  stateDir: string,
  checkSkills: boolean,
  withProtect: boolean,
  realPaths: boolean,
): CompiledTable {
  const pluginNamespace =
    he.pluginRoot && realpath(he.pluginRoot) === realpath(h.packageRoot) && path.dirname(tableFile) === h.packageRoot ? "skillgate" : undefined;
  const skillRoots = [...new Set([...compiled.skillRoots, ...he.skillRoots])];
  const skills = [...new Set(compiled.rows.flatMap(({ row }) => (row.skill ? [row.skill] : [])))];
  const protect: ProtectedPath[] = !withProtect
    ? []
    : [
        { path: tableFile, dir: false, what: "the active trigger table" },
        ...[h.env.SKILLGATE_TABLE, he.projectTable, ...(he.alsoTables ?? []), path.join(h.packageRoot, "triggers.json")]
          .filter((f): f is string => !!f)
          .map((f) => ({ path: path.resolve(f), dir: false, what: "a trigger table skillgate may load" })),
        { path: stateDir, dir: true, what: "skillgate's state folder (loaded skills, the table cache)" },
        ...outputDirs(h, compiled, stateDir).map((d) => ({ path: d, dir: true, what: "skillgate's folder of saved tool outputs", parents: false })),
        ...INSTALLED.map((f) => ({ path: path.join(h.packageRoot, f), dir: !f.includes("."), what: "a file of skillgate's installation" })),
        ...skillRoots.flatMap((r) =>
          skills.map((s) => ({ path: path.join(path.resolve(r), s), dir: true, what: `the text of skill "${s}", which the gate trusts` })),
        ),
        ...he.settingsFiles.map((f) => ({ path: f, dir: false, what: `${host.name} settings that register skillgate's hook` })),
        ...runtimeConfigFiles(he.projectDir ?? process.cwd()).map(([f, what]) => ({ path: f, dir: false, what })),
      ];
  const missingSkills = checkSkills ? skills.filter((s) => !skillRoots.some((r) => fs.existsSync(path.join(r, s, "SKILL.md")))) : [];
  return {
    ...compiled,
    skillRoots,
    protect: dedupe(realPaths ? withRealPaths(protect) : protect),
    ...(h.env.HOME ? { home: path.resolve(h.env.HOME) } : {}),
    subagentsLoadSkills: host.capabilities.subagentsLoadSkills,
    loadWording: (skill: string, file: string) => host.howToLoad(skill, file),
    ...(host.pluginCommand ? { pluginCommand: host.pluginCommand } : {}),
    missingSkills,
    ...(pluginNamespace ? { pluginNamespace } : {}),
  };
}

/** Where capped outputs go: configured, or the private folder named in the state folder (read, never created, here). */
function outputDirs(h: HookEnv, compiled: CompiledTable, stateDir: string): string[] {
  const dirs = [h.env.SKILLGATE_OUTPUT_DIR, compiled.table.outputDir].filter((d): d is string => !!d).map((d) => path.resolve(d));
  // Never a blocking read: a FIFO here would hang every tool call (and a hung hook lets the call through).
  const memo = readRegularFile(path.join(stateDir, ".output-root"), 8192);
  if (memo.ok) dirs.push(memo.text.trim());
  return dirs.filter(Boolean);
}

/**
 * A protected path reached through a symlinked folder (macOS /tmp → /private/tmp, a
 * dotfiles link) is protected under its real spelling too. A path that does not exist
 * yet is resolved through its nearest existing parent. lstat without throwing and a
 * memo per folder keep this to a few calls per tool call (exceptions cost milliseconds).
 */
function withRealPaths(list: ProtectedPath[]): ProtectedPath[] {
  const out = [...list];
  const memo = new Map<string, string | null>();
  for (const p of list) {
    const real = realpathOfNearest(p.path, memo);
    if (real !== p.path) out.push({ ...p, path: real });
  }
  return out;
}

/** Memo per path: its real spelling, or null when it does not exist (each folder is asked once). */
function realpathOfNearest(p: string, memo: Map<string, string | null>): string {
  let dir = path.resolve(p);
  const rest: string[] = [];
  for (let i = 0; i < 64; i++) {
    const real = realOf(dir, memo);
    if (real !== null) return rest.length ? path.join(real, ...rest.reverse()) : real;
    const up = path.dirname(dir);
    if (up === dir) break;
    rest.push(path.basename(dir));
    dir = up;
  }
  return path.resolve(p);
}

/**
 * The real spelling of an absolute path, or null when nothing is there. Component by component, each folder's
 * memoized: the protected paths share a few parents, so this is one lstat per distinct component, where a libc
 * realpath per path read every component's link again (81 readlinks for a Write). A symlink is resolved whole.
 */
function realOf(p: string, memo: Map<string, string | null>): string | null {
  const known = memo.get(p);
  if (known !== undefined) return known;
  const up = path.dirname(p);
  const parent = up === p ? p : realOf(up, memo);
  let real: string | null = null;
  if (up === p) real = p;
  else if (parent !== null) {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (st?.isSymbolicLink()) {
      try {
        real = fs.realpathSync.native(p);
      } catch {
        real = p; // a dangling link: nothing real behind it yet
      }
    } else if (st) real = path.join(parent, path.basename(p));
  }
  memo.set(p, real);
  return real;
}

function dedupe(list: ProtectedPath[]): ProtectedPath[] {
  const seen = new Set<string>();
  return list.filter((p) => (seen.has(p.path) ? false : (seen.add(p.path), true)));
}

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
