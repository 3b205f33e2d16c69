// Built-in, not a row (a row can be deleted): the agent may not write what
// the gate trusts — the tables, the table cache and state, the capped
// outputs, skillgate's installed files, the skills the table names (in every
// trusted root) and the host settings that register the hook — nor define a
// git alias that hides a gated subcommand.
import path from "node:path";
import type { CompiledTable, ProtectedPath } from "../table/compile.js";
import type { Facts } from "../facts.js";
import type { Policy, Refusal } from "./proposal.js";
import { clip } from "../clip.js";

export const SELF_PROTECTION_ROW = "self-protection";

export const selfProtection: Policy = ({ event, table, facts }) => {
  if (event.kind !== "tool-call" || !facts || table.protect.length === 0) return undefined;
  const refuse: Refusal[] = [];
  const hit = protectedWrite(facts, event.cwd, table);
  if (hit) refuse.push({ row: SELF_PROTECTION_ROW, line: `skillgate[${SELF_PROTECTION_ROW}]: ${hit}` });
  const alias = shadowingAlias(facts, table);
  if (alias) refuse.push({ row: SELF_PROTECTION_ROW, line: `skillgate[${SELF_PROTECTION_ROW}]: ${alias}` });
  return refuse.length ? { refuse: refuse.slice(0, 1) } : undefined;
};

const MAX_PATH = 4096;
const HOW = "the user changes these by hand or with `skillgate` verbs (init, install, uninstall); no skill lifts this";

/** The first written path that is (or lies inside) a protected one, as a refusal sentence. */
function protectedWrite(facts: Facts, cwd: string, table: CompiledTable): string | undefined {
  // `cd dir && … > file`: a relative path may resolve against any folder the command changes to.
  const bases = [cwd, ...cdTargets(facts, cwd)];
  for (const w of facts.writes) {
    if (w.length > MAX_PATH) continue; // longer than PATH_MAX: no such file can be written
    const candidates = path.isAbsolute(w) ? [w] : bases.map((b) => path.resolve(b || "/", w));
    for (const c of candidates) {
      const p = findProtected(normalizeSlashes(c), table.protect);
      if (p) return `writing ${clip(w, 120)} is refused: it is ${p.what} (${p.path}), which skillgate trusts; ${HOW}.`;
    }
  }
  // A write known only at run time (a variable folder, a glob) that names a protected file.
  const names = new Set(table.protect.filter((p) => !p.dir).map((p) => path.basename(p.path)));
  const named = facts.mentions?.find((m) => names.has(path.basename(m)) || findProtected(path.resolve(cwd || "/", m), table.protect));
  if (named) return `this command writes paths known only at run time and names ${clip(named, 80)}, a file skillgate trusts; ${HOW}.`;
  return undefined;
}

function findProtected(abs: string, protect: readonly ProtectedPath[]): ProtectedPath | undefined {
  return protect.find((p) => abs === p.path || (p.dir && abs.startsWith(p.path.endsWith("/") ? p.path : `${p.path}/`)));
}

function cdTargets(facts: Facts, cwd: string): string[] {
  const out: string[] = [];
  for (const c of facts.analysis?.commands ?? []) {
    if ((c.name === "cd" || c.name === "pushd") && c.argv[1] !== undefined && !c.dynamic[1]) out.push(path.resolve(cwd || "/", c.argv[1]));
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
  const gatedSubs = new Set(table.rows.flatMap(({ row }) => (row.kind === "gate" || row.kind === "block") && row.when.command?.name === "git" ? (row.when.command.sub ?? []) : []));
  if (gatedSubs.size === 0) return undefined;
  for (const c of facts.analysis?.commands ?? []) {
    if (c.name !== "git" || c.verb < 0 || c.argv[c.verb] !== "config") continue;
    const args = c.argv.slice(c.verb + 1);
    const i = args.findIndex((a) => /^alias\./i.test(a));
    if (i < 0) continue;
    const value = args[i + 1];
    if (value === undefined || args.some((a) => a === "--unset" || a === "--unset-all" || a === "--get" || a === "--get-all" || a === "-l" || a === "--list")) continue;
    const first = value.trim().split(/\s+/)[0] ?? "";
    if (value.trim().startsWith("!") || gatedSubs.has(first) || c.dynamic[c.verb + 1 + i + 1]) {
      return `defining the git alias ${clip(args[i] ?? "", 60)} = ${clip(value, 60)} is refused: it would run a gated git subcommand under another name; use the subcommand itself.`;
    }
  }
  return undefined;
}
