// skillgate's git hooks in a repository: `reference-transaction` (every ref
// update: commit, merge, rebase, update-ref, …) and `pre-push`. Installed where
// git runs hooks from (`git rev-parse --git-path hooks`, which honours
// core.hooksPath: husky's .husky/_, a tracked .githooks/), and chained, never
// replacing: a hook already there is renamed to `<name>.skillgate-chained` and
// run by ours after skillgate's check, with the same arguments, the same stdin
// and the same $0 (husky finds its user hooks by $0). Uninstall renames it back,
// so every file is as it was, byte for byte. docs/git-hooks.md.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { makeDir } from "./make-dir.js";

export const GIT_HOOKS = ["reference-transaction", "pre-push"] as const;
export type GitHookName = (typeof GIT_HOOKS)[number];

/** The first lines of every script skillgate writes: how uninstall and doctor know it. */
export const SCRIPT_MARK = "# skillgate git hook:";
export const CHAINED_SUFFIX = ".skillgate-chained";
const MADE_DIR = "# skillgate made this folder";

export interface GitHookConfig {
  /** Absolute path of the runtime (node) the check runs with. */
  node: string;
  /** dist/git-hook.mjs of this skillgate. */
  entry: string;
  /** The state folder install computed (tickets are looked for there and in $SKILLGATE_STATE). */
  stateDir: string;
  /** Environment variables a host sets in its shell tool (hooks/effects/caller.ts AGENT_MARKERS). */
  markers: string[];
}

/** One shell word. */
const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The hook script. Up to `sg_agent` it uses shell builtins only: a person's
 * commit (no agent marker in the environment, no live ticket) costs a few
 * microseconds of sh and never starts node.
 */
export function hookScript(name: GitHookName, c: GitHookConfig, madeDir: boolean): string {
  const markers = c.markers
    .filter((m) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(m))
    .map((m) => `\${${m}-}`)
    .join("");
  const when = name === "reference-transaction" ? `"$sg_name:\${1-}" = reference-transaction:prepared` : "1 = 1";
  return `#!/bin/sh
${SCRIPT_MARK} ${name}. Written by \`skillgate install\`; \`skillgate uninstall\` puts back what was here.
# An agent's commit or push is checked against skillgate's trigger table (docs/git-hooks.md in skillgate);
# a person's passes after a few shell builtins, without starting node. The hook that was here before, if
# any, is ${name}${CHAINED_SUFFIX} and runs after the check, as if git had run it.
${madeDir ? `${MADE_DIR}\n` : ""}sg_name=${name}
sg_state=${q(c.stateDir)}
sg_node=${q(c.node)}
sg_entry=${q(c.entry)}
case $0 in */*) sg_chained="\${0%/*}/$sg_name${CHAINED_SUFFIX}" ;; *) sg_chained="./$sg_name${CHAINED_SUFFIX}" ;; esac

# The hook that was here before, with $0 unchanged for a shell script (husky's hooks find their own by $0).
sg_chain() {
  [ -x "$sg_chained" ] || exit 0
  sg_first=
  IFS= read -r sg_first < "$sg_chained" || :
  sg_first=\${sg_first#\\#!}
  sg_interp=\${sg_first%% *}
  sg_arg=\${sg_first#"$sg_interp"}
  if [ "$sg_interp" = /usr/bin/env ]; then sg_arg=\${sg_arg# }; sg_interp=\${sg_arg%% *}; sg_arg=\${sg_arg#"$sg_interp"}; fi
  case \${sg_interp##*/} in
    sh|dash|bash) SG_CHAINED=$sg_chained; export SG_CHAINED; exec "$sg_interp" $sg_arg -c '. "$SG_CHAINED"' "$0" "$@" ;;
    *) exec "$sg_chained" "$@" ;;
  esac
}

sg_agent=
if [ ${when} ]; then
  if [ -n "${markers}" ]; then sg_agent=1
  else
    for sg_t in "\${SKILLGATE_STATE:-$sg_state}"/tickets/*.json "$sg_state"/tickets/*.json; do
      if [ -e "$sg_t" ]; then sg_agent=1; break; fi
    done
  fi
fi
[ -n "$sg_agent" ] || sg_chain "$@"

# Maybe an agent: skillgate decides (and git gets the same stdin for the chained hook).
sg_in=
while IFS= read -r sg_l || [ -n "$sg_l" ]; do sg_in="$sg_in$sg_l
"; done
if [ ! -x "$sg_node" ] || [ ! -f "$sg_entry" ]; then
  echo "skillgate: the git hook $0 cannot run its check ($sg_node $sg_entry is missing); refusing an agent's $sg_name. Run skillgate install again, or skillgate uninstall." >&2
  exit 1
fi
printf '%s' "$sg_in" | SKILLGATE_GIT_HOOK_STATE=$sg_state "$sg_node" "$sg_entry" "$sg_name" "$@" || exit $?
printf '%s' "$sg_in" | sg_chain "$@"
`;
}

const isOurs = (text: string | undefined): boolean => text !== undefined && text.split("\n", 3).some((l) => l.startsWith(SCRIPT_MARK));

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

const exists = (p: string): boolean => fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;

export type HooksDir = { ok: true; dir: string; top: string; hooksPath?: string } | { ok: false; why: string };

/** Where git runs this repository's hooks from (core.hooksPath honoured), or why there is none. */
export function hooksDirOf(project: string): HooksDir {
  const run = (args: string[]) => spawnSync("git", ["-C", project, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 10_000 });
  const top = run(["rev-parse", "--show-toplevel"]);
  if (top.error) return { ok: false, why: `git is not available (${top.error.message})` };
  if (top.status !== 0) return { ok: false, why: `${path.resolve(project)} is not in a git repository` };
  let r = run(["rev-parse", "--path-format=absolute", "--git-path", "hooks"]);
  if (r.status !== 0) r = run(["rev-parse", "--git-path", "hooks"]);
  if (r.status !== 0) return { ok: false, why: `git rev-parse --git-path hooks failed: ${r.stderr.trim()}` };
  const hp = run(["config", "--get", "core.hooksPath"]);
  const dir = path.resolve(project, r.stdout.trim());
  return { ok: true, dir, top: top.stdout.trim(), ...(hp.status === 0 && hp.stdout.trim() ? { hooksPath: hp.stdout.trim() } : {}) };
}

export interface HookChange {
  name: GitHookName;
  file: string;
  action: "installed" | "updated" | "unchanged" | "removed" | "absent" | "conflict" | "restored";
  /** The hook that was there before and now runs after skillgate's check. */
  chained?: string;
  why?: string;
}

/** Install (or refresh) both hooks. A hook already there is chained; a conflict is reported, never overwritten. */
export function installGitHooks(project: string, c: GitHookConfig, dryRun = false): { dir: HooksDir; changes: HookChange[] } {
  const dir = hooksDirOf(project);
  if (!dir.ok) return { dir, changes: [] };
  const madeDir = !fs.existsSync(dir.dir);
  if (madeDir && !dryRun) makeDir(dir.dir);
  const changes: HookChange[] = [];
  for (const name of GIT_HOOKS) {
    const file = path.join(dir.dir, name);
    const chained = file + CHAINED_SUFFIX;
    const now = readText(file);
    const ours = isOurs(now);
    if (!ours && exists(file) && exists(chained)) {
      changes.push({ name, file, action: "conflict", why: `both ${file} (not skillgate's) and ${chained} exist; move one of them away and run install again` });
      continue;
    }
    // A refresh keeps the "made this folder" note of the first install.
    const text = hookScript(name, c, ours ? now!.includes(MADE_DIR) : madeDir);
    const hasChained = exists(chained) || (!ours && exists(file));
    const change: HookChange = { name, file, action: ours ? (now === text ? "unchanged" : "updated") : "installed", ...(hasChained ? { chained } : {}) };
    changes.push(change);
    if (dryRun || change.action === "unchanged") continue;
    if (!ours && exists(file)) fs.renameSync(file, chained);
    const tmp = `${file}.skillgate-${process.pid}.tmp`;
    fs.writeFileSync(tmp, text, { mode: 0o755 });
    fs.chmodSync(tmp, 0o755);
    fs.renameSync(tmp, file);
  }
  return { dir, changes };
}

/** Remove skillgate's hooks and put back the ones they chained; a folder install made goes when empty. */
export function uninstallGitHooks(project: string, dryRun = false): { dir: HooksDir; changes: HookChange[] } {
  const dir = hooksDirOf(project);
  if (!dir.ok) return { dir, changes: [] };
  const changes: HookChange[] = [];
  let madeDir = false;
  for (const name of GIT_HOOKS) {
    const file = path.join(dir.dir, name);
    const chained = file + CHAINED_SUFFIX;
    const now = readText(file);
    if (!isOurs(now)) {
      changes.push({ name, file, action: "absent" });
      continue;
    }
    madeDir ||= now!.includes(MADE_DIR);
    const back = exists(chained);
    changes.push({ name, file, action: back ? "restored" : "removed", ...(back ? { chained } : {}) });
    if (dryRun) continue;
    if (back) fs.renameSync(chained, file);
    else fs.rmSync(file);
  }
  if (madeDir && !dryRun) {
    try {
      fs.rmdirSync(dir.dir);
    } catch {
      /* not empty: other hooks live there now */
    }
  }
  return { dir, changes };
}

export interface HookStatus {
  name: GitHookName;
  file: string;
  state: "installed" | "missing" | "outdated";
  chained?: string;
  why?: string;
}

/** doctor: is each hook skillgate's, current, and what does it chain to? */
export function inspectGitHooks(project: string, c: GitHookConfig): { dir: HooksDir; hooks: HookStatus[] } {
  const dir = hooksDirOf(project);
  if (!dir.ok) return { dir, hooks: [] };
  const hooks = GIT_HOOKS.map((name): HookStatus => {
    const file = path.join(dir.dir, name);
    const chained = file + CHAINED_SUFFIX;
    const now = readText(file);
    const ch = exists(chained) ? { chained } : {};
    if (!isOurs(now)) return { name, file, state: "missing", ...ch, why: exists(file) ? `${file} is another hook (not skillgate's)` : `no ${file}` };
    const st = fs.statSync(file);
    if ((st.mode & 0o111) === 0) return { name, file, state: "outdated", ...ch, why: `${file} is not executable: git skips it` };
    if (now !== hookScript(name, c, now!.includes(MADE_DIR)))
      return { name, file, state: "outdated", ...ch, why: `${file} was written by another skillgate (or another state folder)` };
    return { name, file, state: "installed", ...ch };
  });
  return { dir, hooks };
}
