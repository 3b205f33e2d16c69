// The git hooks as part of `install`, `uninstall`, `doctor` (every host) and
// `init`: one call each (hooks/io/git-hooks.ts does the work, docs/git-hooks.md
// says what they check). A repository-less project or `--user` gets a note.
import path from "node:path";
import { stateDirOf } from "../hooks/io/state-dir.js";
import { inspectGitHooks, installGitHooks, uninstallGitHooks, type GitHookConfig } from "../hooks/io/git-hooks.js";
import { AGENT_MARKERS } from "../hooks/effects/caller.js";

export function gitHookConfig(root: string, env: NodeJS.ProcessEnv = process.env): GitHookConfig {
  return {
    node: process.execPath,
    entry: path.join(root, "dist", "git-hook.mjs"),
    stateDir: stateDirOf({ env, packageRoot: root }),
    markers: Object.keys(AGENT_MARKERS),
  };
}

export interface GitHooksVerb {
  verb: "install" | "uninstall" | "doctor";
  /** The project folder; undefined for --user (git hooks belong to a repository). */
  project: string | undefined;
  root: string;
  dryRun?: boolean;
  say: (line: string) => void;
  /** doctor: report a problem (the caller counts it). */
  bad?: (line: string) => void;
}

/** Returns the number of problems (a conflict on install, a missing hook for doctor). */
export function gitHooksVerb(o: GitHooksVerb): number {
  if (o.project === undefined) {
    if (o.verb !== "uninstall")
      o.say(
        "git hooks: not for --user (they belong to a repository): run skillgate install --project DIR (or skillgate init) in each repository an agent commits in",
      );
    return 0;
  }
  const project = path.resolve(o.project);
  const bad = o.bad ?? o.say;
  try {
    if (o.verb === "doctor") {
      const { dir, hooks } = inspectGitHooks(project, gitHookConfig(o.root));
      if (!dir.ok) {
        o.say(`git hooks: none (${dir.why}): an agent's commit is checked only by the shell analysis`);
        return 0;
      }
      let problems = 0;
      for (const h of hooks) {
        const chain = h.chained ? `, chained to ${h.chained}` : "";
        if (h.state === "installed") o.say(`git hook ${h.name}: installed in ${dir.dir}${chain}`);
        else {
          problems++;
          bad(
            `git hook ${h.name}: ${h.state} (${h.why})${chain}: run skillgate install again${dir.hooksPath ? ` (core.hooksPath is ${dir.hooksPath}: a hook manager that rewrites that folder removes skillgate's hook)` : ""}`,
          );
        }
      }
      return problems;
    }
    const r = o.verb === "install" ? installGitHooks(project, gitHookConfig(o.root), o.dryRun) : uninstallGitHooks(project, o.dryRun);
    if (!r.dir.ok) {
      o.say(`git hooks: not ${o.verb === "install" ? "installed" : "touched"} (${r.dir.why})`);
      return 0;
    }
    let problems = 0;
    const would = o.dryRun ? "would be " : "";
    for (const c of r.changes) {
      if (c.action === "conflict") {
        problems++;
        bad(`git hook ${c.name}: not installed: ${c.why}`);
      } else if (c.action !== "unchanged" && c.action !== "absent") {
        o.say(
          `git hook ${c.name}: ${would}${c.action} (${c.file}${c.chained ? `; ${c.action === "restored" ? "put back from" : "the hook that was there runs after skillgate's check:"} ${c.chained}` : ""})`,
        );
      }
    }
    return problems;
  } catch (e) {
    bad(`git hooks: ${o.verb} failed (${(e as Error).message})`);
    return 1;
  }
}
