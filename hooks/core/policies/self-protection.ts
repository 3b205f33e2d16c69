// Built-in, not a row (a row can be deleted): the agent may not write what
// the gate trusts — the tables, the table cache and state, the capped
// outputs, skillgate's installed files, the skills the table names (in every
// trusted root) and the host settings that register the hook — nor define a
// git alias that hides a gated subcommand.
import path from "node:path";
import type { CompiledTable, ProtectedPath } from "../table/compile.js";
import type { Facts } from "../facts.js";
import type { Event } from "../types.js";
import type { Policy, Refusal } from "./proposal.js";
import { clip } from "../clip.js";
import { isGitInternal } from "../git-internals.js";

export const SELF_PROTECTION_ROW = "self-protection";

export const selfProtection: Policy = ({ event, table, facts }) => {
  if (event.kind !== "tool-call" || !facts || table.protect.length === 0) return undefined;
  const refuse: Refusal[] = [];
  // Running skillgate's own hook or CLI first: what such a script would write (the analysis may read it) says less.
  const hit =
    runsSkillgate(facts, event.cwd, table) ??
    protectedWrite(facts, event.cwd, table) ??
    hardLinkOfProtected(facts, event.cwd, table) ??
    otherToolWrite(event, table) ??
    gitInternalsWrite(event, facts);
  if (hit) refuse.push({ row: SELF_PROTECTION_ROW, line: `skillgate[${SELF_PROTECTION_ROW}]: ${hit}` });
  const alias = shadowingAlias(facts, table);
  if (alias) refuse.push({ row: SELF_PROTECTION_ROW, line: `skillgate[${SELF_PROTECTION_ROW}]: ${alias}` });
  return refuse.length ? { refuse: refuse.slice(0, 1) } : undefined;
};

const MAX_PATH = 4096;
const HOW = "the user changes these by hand or with `skillgate` verbs (init, install, uninstall); no skill lifts this";

/** The first written path that is (or lies inside, or is a folder holding) a protected one, as a refusal sentence. */
function protectedWrite(facts: Facts, cwd: string, table: CompiledTable): string | undefined {
  // `cd dir && … > file`: a relative path may resolve against any folder the command changes to.
  // (both are pure and needed only when the command writes something)
  const bases = facts.writes.length > 0 ? [cwd, ...cdTargets(facts, cwd, table.home)] : [];
  const onlyMade = facts.writes.length > 0 ? harmlessToFolders(facts, bases, table.home) : new Set<string>();
  for (const w of facts.writes) {
    if (w.length > MAX_PATH) continue; // longer than PATH_MAX: no such file can be written
    for (const c of spellings(w, bases, table.home)) {
      const p = findProtected(c, table.protect);
      if (p) return `writing ${clip(w, 120)} is refused: it is ${p.what} (${p.path}), which skillgate trusts; ${HOW}.`;
      // Only the session's own folder is exempt as a whole tree: a `cd` target is the command's choice.
      const held = onlyMade.has(c) ? undefined : holdsProtected(c, [cwd], table.protect);
      if (held)
        return `writing ${clip(w, 120)} is refused: that folder holds ${held.what} (${held.path}), which skillgate trusts; removing, moving or replacing it would too; ${HOW}.`;
      const globbed = /[*?[]/.test(c) ? globMatch(c, [cwd], table.protect) : undefined;
      if (globbed)
        return `writing ${clip(w, 120)} is refused: the pattern matches ${globbed.what} (${globbed.path}) or a folder holding it, which skillgate trusts; ${HOW}.`;
    }
  }
  // A write known only at run time (a variable folder, a glob) that names a protected file, or a folder holding one.
  // (the names are gathered only when the command mentions run-time paths at all: the usual command does not)
  const names = facts.mentions?.length ? new Set(table.protect.filter((p) => !p.dir).map((p) => path.basename(p.path))) : undefined;
  const named =
    names &&
    facts.mentions?.find(
      (m) =>
        names.has(path.basename(m)) || spellings(m, [cwd], table.home).some((c) => findProtected(c, table.protect) || holdsProtected(c, [cwd], table.protect)),
    );
  if (named) return `this command writes paths known only at run time and names ${clip(named, 80)}, a file skillgate trusts; ${HOW}.`;
  // A write whose name is a glob (`$UNSET/skillgate/x.json` → `**/skillgate/x.json`) that can land on a protected path.
  const pattern = facts.writePatterns?.find((g) => g.length <= MAX_PATH && table.protect.some((p) => globReaches(g, p)));
  if (pattern) return `this command writes ${clip(pattern, 80)} (a name known only at run time), which can be a file skillgate trusts; ${HOW}.`;
  return undefined;
}

function findProtected(abs: string, protect: readonly ProtectedPath[]): ProtectedPath | undefined {
  const a = fold(abs);
  return protect.find((p) => {
    const q = foldedPath(p);
    // inside a protected folder: `q/…` (q itself may end with a slash)
    return a === q || (p.dir && a.startsWith(q) && (q.endsWith("/") || a.charCodeAt(q.length) === 47));
  });
}

/** fold(p.path), computed once per protected path (checked against the path, so a changed one is folded again). */
const FOLDED = new WeakMap<ProtectedPath, { path: string; folded: string }>();
function foldedPath(p: ProtectedPath): string {
  const hit = FOLDED.get(p);
  if (hit && hit.path === p.path) return hit.folded;
  const folded = fold(p.path);
  FOLDED.set(p, { path: p.path, folded });
  return folded;
}

/**
 * A folder above a protected path: removing, moving or replacing it (`rm -rf .claude`,
 * `mv ~/.claude/skills x`, `ln -sfn /tmp/evil ~/.claude/skills`) changes what the gate trusts.
 * Not `/`, nor the working folder or a folder above it (`git checkout .` is a whole-tree
 * operation, not an attack on one file), nor the shared temp folder holding the output folder.
 */
function holdsProtected(abs: string, bases: readonly string[], protect: readonly ProtectedPath[]): ProtectedPath | undefined {
  const a = fold(abs).replace(/\/+$/, "");
  if (a === "" || bases.some((b) => b && isSelfOrInside(fold(path.resolve(b)), a))) return undefined;
  return protect.find((p) => p.parents !== false && foldedPath(p).startsWith(`${a}/`));
}

/** Folders only created or touched (`mkdir -p .claude`, `touch dir`): that removes or replaces nothing. */
function harmlessToFolders(facts: Facts, bases: readonly string[], home: string | undefined): Set<string> {
  const writes = facts.analysis?.writes ?? [];
  const by = new Map<string, boolean>();
  for (const w of writes) {
    if (w.dynamic || w.path.length > MAX_PATH) continue;
    const harmless = w.by === "mkdir" || w.by === "touch";
    for (const c of spellings(w.path, bases, home)) by.set(c, (by.get(c) ?? true) && harmless);
  }
  return new Set([...by].filter(([, harmless]) => harmless).map(([c]) => c));
}

/**
 * A glob written as is (`rm -rf .claude/*`, `rm -rf .cl*`, `rm ~/.local/state/*`): does it match a
 * protected path, or a folder holding one? Bash rules: `*` and `?` do not match a leading dot.
 */
function globMatch(glob: string, bases: readonly string[], protect: readonly ProtectedPath[]): ProtectedPath | undefined {
  const re = globRegex(fold(glob));
  if (!re) return undefined;
  const excluded = bases.filter(Boolean).map((b) => fold(path.resolve(b)));
  for (const p of protect) {
    const target = fold(p.path);
    if (re.test(target)) return p;
    if (p.parents === false) continue;
    for (let a = path.dirname(target); a !== "/" && a !== path.dirname(a); a = path.dirname(a)) {
      if (excluded.some((b) => isSelfOrInside(b, a))) break;
      if (re.test(a)) return p;
    }
  }
  return undefined;
}

function globRegex(glob: string): RegExp | undefined {
  if (glob.length > MAX_PATH) return undefined;
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] ?? "";
    const segStart = i === 0 || glob[i - 1] === "/";
    if (ch === "*" && glob[i + 1] === "*") {
      out += segStart ? "(?!\\.)(?:[^/]*(?:/(?!\\.)[^/]*)*)?" : "[^/]*";
      i++;
    } else if (ch === "*") out += `${segStart ? "(?!\\.)" : ""}[^/]*`;
    else if (ch === "?") out += `${segStart ? "(?!\\.)" : ""}[^/]`;
    else if (ch === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\");
        out += `${segStart ? "(?!\\.)" : ""}[${body}]`;
        i = end;
      }
    } else out += ch.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  try {
    return new RegExp(`^${out}$`);
  } catch {
    return undefined;
  }
}

const isSelfOrInside = (child: string, dir: string) => child === dir || child.startsWith(`${dir}/`);

/**
 * Every absolute spelling of a written path: relative ones against each base,
 * `~/x` as the home folder's, `/proc/self/root/x` as `/x`, `/proc/self/cwd/x` against each base.
 */
function spellings(w: string, bases: readonly string[], home: string | undefined): string[] {
  let p = normalizeSlashes(w);
  const proc = /^\/proc\/(?:self|thread-self|\d+)\/(root|cwd)(?=\/|$)\/?/.exec(p);
  if (proc) {
    const rest = p.slice(proc[0].length);
    if (proc[1] === "root") p = `/${rest}`;
    else return bases.map((b) => path.resolve(b || "/", rest));
  }
  if ((p === "~" || p.startsWith("~/")) && home) p = path.join(home, p.slice(1));
  return path.isAbsolute(p) ? [path.resolve(p)] : bases.map((b) => path.resolve(b || "/", p));
}

/**
 * Paths are compared case-folded: on a case-insensitive file system (macOS, Windows)
 * `.claude/Settings.json` is the settings file; on Linux refusing it costs nothing.
 */
function fold(p: string): string {
  return p.toLowerCase();
}

/**
 * Can a write glob land on a protected path? The glob's literal tail (after its last `**`
 * or wildcard segment) must end the protected path, or a path inside a protected folder.
 */
function globReaches(glob: string, p: ProtectedPath): boolean {
  const segs = glob.split("/").filter(Boolean);
  let i = segs.length;
  while (i > 0 && !/[*?[\]{}]/.test(segs[i - 1] ?? "")) i--;
  const tail = segs.slice(i);
  if (tail.length === 0) return false; // nothing literal at the end: mentions cover it
  const target = fold(p.path).split("/").filter(Boolean);
  const lit = tail.map(fold);
  // The tail ends the protected path itself…
  const endsAt = (n: number) => n >= lit.length && lit.every((s, k) => s === target[n - lit.length + k]);
  if (endsAt(target.length)) return true;
  // …or, for a folder, the first literal segments are its last ones and the rest lies inside it.
  if (!p.dir) return false;
  for (let k = 1; k < lit.length; k++) {
    const head = lit.slice(0, k);
    if (head.every((s, j) => s === target[target.length - k + j])) return true;
  }
  return false;
}

/** A tool the host does not classify (an MCP server's `write_file`, `move_file`, …) whose name says it changes files. */
const WRITING_TOOL = /write|edit|create|move|rename|delete|remove|copy|put|save|upload|patch|mkdir|append|replace|chmod|link|unzip|extract/i;

/**
 * An unclassified tool that writes (by its name) and names a protected path in any
 * string of its input: an MCP filesystem server is a second Write tool.
 */
function otherToolWrite(event: Extract<Event, { kind: "tool-call" }>, table: CompiledTable): string | undefined {
  if (event.tool.kind !== "other" || !WRITING_TOOL.test(event.tool.name) || !event.input) return undefined;
  for (const v of pathLikeStrings(event.input)) {
    for (const c of spellings(v, [event.cwd], table.home)) {
      const p = findProtected(c, table.protect) ?? holdsProtected(c, [event.cwd], table.protect);
      if (p) return `${clip(event.tool.name, 60)} on ${clip(v, 120)} is refused: it is or holds ${p.what} (${p.path}), which skillgate trusts; ${HOW}.`;
    }
  }
  return undefined;
}

/**
 * A file tool (Write, Edit, an MCP write) on git's hooks, config or refs: a hook replaced or
 * core.hooksPath moved switches off the git hooks that check commits and pushes, whatever the
 * skill. (A shell write to them is the shell analysis's door: analyze.ts.)
 */
function gitInternalsWrite(event: Extract<Event, { kind: "tool-call" }>, facts: Facts): string | undefined {
  if (event.tool.kind === "shell") return undefined;
  const candidates = event.tool.kind === "other" && event.input && WRITING_TOOL.test(event.tool.name) ? pathLikeStrings(event.input) : facts.writes;
  const hit = candidates.find((w) => w.length <= MAX_PATH && isGitInternal(path.resolve(event.cwd || "/", w)));
  return hit
    ? `writing ${clip(hit, 120)} is refused: it is one of git's own files (hooks, config, refs), and changing it could switch off the git hooks that check commits and pushes; git changes these itself (git config, git commit); no skill lifts this.`
    : undefined;
}

/** String values that look like paths, from an input of any shape (bounded: depth 4, 256 strings). */
function pathLikeStrings(input: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (out.length >= 256 || depth > 4) return;
    if (typeof v === "string") {
      if (v.length <= MAX_PATH && (v.includes("/") || v.includes("\\") || v.startsWith("~"))) out.push(v);
    } else if (Array.isArray(v)) for (const x of v.slice(0, 256)) walk(x, depth + 1);
    else if (v && typeof v === "object") for (const x of Object.values(v).slice(0, 256)) walk(x, depth + 1);
  };
  walk(input, 0);
  return out;
}

/** skillgate's verbs that change what the gate trusts (settings, skills, tables) or feed the hook an event. */
const SKILLGATE_VERBS = new Set(["hook", "uninstall", "install", "init", "schema"]);
/** skillgate's hook executables and launcher: run by hand, they take a forged event (a Skill "loaded") as the client's. */
const HOOK_ENTRY = /^(hook(\.bun|\.node|-[a-z]+)?\.(mjs|cjs|js)|skillgate\.(mjs|cjs|js|ts))$/;
const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);
const JS_RUNTIMES = new Set(["node", "nodejs", "bun", "deno", "tsx", "ts-node", "esno", "vite-node"]);
const REMOVE_VERBS = new Set(["uninstall", "remove", "rm", "r", "un", "unlink"]);

/**
 * The agent running skillgate itself: its hook with an event it wrote (a forged
 * load), or a verb that rewrites the settings and skills (uninstall, install,
 * init), or a package manager or the client (its Host.pluginCommand) removing it.
 */
function runsSkillgate(facts: Facts, cwd: string, table: CompiledTable): string | undefined {
  for (const c of facts.analysis?.commands ?? []) {
    const name = c.name.includes("@") ? c.name.replace(/@.*$/, "") : c.name;
    // (the operands are listed only for the programs that look at them)
    const plugin = table.pluginCommand;
    const operands = name === "skillgate" || name === plugin?.program || PACKAGE_MANAGERS.has(name) ? c.argv.slice(1).filter((a) => !a.startsWith("-")) : [];
    if (name === "skillgate" && operands[0] !== undefined && SKILLGATE_VERBS.has(operands[0])) {
      return `running \`skillgate ${operands[0]}\` from the session is refused: ${operands[0] === "hook" ? "the hook takes its events from the client, not from the agent" : "it changes the settings, skills or tables the gate trusts"}; ${HOW}.`;
    }
    // Run, not read: the word is the program itself, or the script a JavaScript runtime runs.
    const runs = JS_RUNTIMES.has(name);
    const upTo = runs ? c.argv.length : Math.min(1, c.argv.length);
    for (let i = 0; i < upTo; i++) {
      const w = c.argv[i] ?? "";
      if (w.length > MAX_PATH || c.dynamic[i]) continue;
      const base = path.basename(normalizeSlashes(w));
      // whether the word is an installed file matters only for a hook entry or cli.mjs (spellings are pure)
      const entry = HOOK_ENTRY.test(base);
      if (!entry && base !== "cli.mjs") continue;
      const installed = spellings(w, [cwd], table.home).some((x) => findProtected(x, table.protect));
      if (entry && (installed || /^skillgate\./.test(base) || /^hook\.(bun|node)\./.test(base))) {
        return `running skillgate's hook (${clip(w, 80)}) from the session is refused: the hook takes its events from the client, not from the agent; ${HOW}.`;
      }
      const verb = c.argv[i + 1];
      if (installed && base === "cli.mjs" && verb !== undefined && SKILLGATE_VERBS.has(verb)) {
        return `running \`skillgate ${verb}\` from the session is refused: it changes what the gate trusts or feeds the hook an event; ${HOW}.`;
      }
    }
    if (PACKAGE_MANAGERS.has(name) && c.verb >= 0 && REMOVE_VERBS.has(c.argv[c.verb] ?? "") && operands.some((a) => /^skillgate(@|$)/.test(a))) {
      return `removing the skillgate package from the session is refused: ${HOW}.`;
    }
    if (
      plugin &&
      name === plugin.program &&
      operands[0] === plugin.subcommand &&
      operands.some((a) => plugin.removes.includes(a)) &&
      operands.some((a) => /skillgate/i.test(a))
    ) {
      return `removing or disabling the skillgate plugin from the session is refused: ${HOW}.`;
    }
  }
  return undefined;
}

/**
 * `ln SRC DEST` without -s (and `cp -l`, `link`): the protected SRC becomes
 * writable under another name, which no later check would recognise.
 */
function hardLinkOfProtected(facts: Facts, cwd: string, table: CompiledTable): string | undefined {
  for (const c of facts.analysis?.commands ?? []) {
    const args = c.argv.slice(1);
    const opts = args.filter((a) => a.startsWith("-") && a !== "-");
    const operands = args.filter((a) => !a.startsWith("-") || a === "-");
    let sources: string[];
    if (c.name === "link") sources = operands.slice(0, 1);
    else if (c.name === "ln") {
      if (opts.some((o) => o === "--symbolic" || (/^-[^-]/.test(o) && o.includes("s")))) continue;
      sources = opts.some((o) => o === "-t" || o.startsWith("--target-directory")) ? operands : operands.length > 1 ? operands.slice(0, -1) : operands;
    } else if (c.name === "cp") {
      if (!opts.some((o) => o === "--link" || (/^-[^-]/.test(o) && o.includes("l")))) continue;
      sources = operands.length > 1 ? operands.slice(0, -1) : operands;
    } else continue;
    for (const s of sources) {
      if (s.length > MAX_PATH) continue;
      const p = spellings(s, [cwd], table.home)
        .map((x) => findProtected(x, table.protect))
        .find(Boolean);
      if (p)
        return `a hard link to ${clip(s, 120)} is refused: it is ${p.what} (${p.path}), and a second name for it would let it be written unchecked; ${HOW}.`;
    }
  }
  return undefined;
}

function cdTargets(facts: Facts, cwd: string, home?: string): string[] {
  const out: string[] = [];
  for (const c of facts.analysis?.commands ?? []) {
    if (c.name !== "cd" && c.name !== "pushd") continue;
    const arg = c.argv.slice(1).find((a) => !a.startsWith("-") || a === "-");
    if (arg === undefined) {
      if (home) out.push(home); // a bare `cd` goes home
    } else if (!c.dynamic[c.argv.indexOf(arg)] && arg.length <= MAX_PATH) out.push(...spellings(arg, [cwd], home));
  }
  return out;
}

/** Windows-style separators are folded so `C:\x` and `C:/x` compare alike. */
function normalizeSlashes(p: string): string {
  return p.includes("\\") ? p.replace(/\\/g, "/") : p;
}

/**
 * `git config [scope] alias.NAME VALUE` where VALUE runs a subcommand a gate or
 * block row names, or is a shell alias (`!…`, which can run anything).
 */
function shadowingAlias(facts: Facts, table: CompiledTable): string | undefined {
  // The gated subcommands are gathered from the rows only for a `git config alias.…` command (rare).
  let gatedSubs: Set<string> | undefined;
  for (const c of facts.analysis?.commands ?? []) {
    if (c.name !== "git" || c.verb < 0 || c.argv[c.verb] !== "config") continue;
    const args = c.argv.slice(c.verb + 1);
    const i = args.findIndex((a) => /^alias\./i.test(a));
    if (i < 0) continue;
    gatedSubs ??= new Set(
      table.rows.flatMap(({ row }) => ((row.kind === "gate" || row.kind === "block") && row.when.command?.name === "git" ? (row.when.command.sub ?? []) : [])),
    );
    if (gatedSubs.size === 0) return undefined;
    const value = args[i + 1];
    if (value === undefined || args.some((a) => a === "--unset" || a === "--unset-all" || a === "--get" || a === "--get-all" || a === "-l" || a === "--list"))
      continue;
    const first = value.trim().split(/\s+/)[0] ?? "";
    if (value.trim().startsWith("!") || gatedSubs.has(first) || c.dynamic[c.verb + 1 + i + 1]) {
      return `defining the git alias ${clip(args[i] ?? "", 60)} = ${clip(value, 60)} is refused: it would run a gated git subcommand under another name; use the subcommand itself.`;
    }
  }
  return undefined;
}
