// What a ref update did, asked of git itself (docs/git-hooks.md, "What counts").
//   commit effect: a branch (refs/heads/*) or a detached HEAD moved to a commit
//     that no branch, tag, remote-tracking ref or HEAD reached before the
//     transaction. refs/stash and other namespaces do not count as "reached":
//     a stash commit put on a branch is a new commit on that branch.
//   force push: the remote's commit is not an ancestor of the one pushed, or the
//     remote ref is deleted (delete, then push again, replaces history).
import { spawnSync } from "node:child_process";

export const ZERO = /^0+$/;

export interface RefUpdate {
  old: string;
  new: string;
  ref: string;
}

export interface PushUpdate {
  localRef: string;
  localOid: string;
  remoteRef: string;
  remoteOid: string;
}

/** reference-transaction's stdin: `<old> <new> <ref>` per line. */
export function parseRefUpdates(text: string): RefUpdate[] {
  return text.split("\n").flatMap((l) => {
    const [o, n, ref] = l.trim().split(/\s+/);
    return o && n && ref ? [{ old: o, new: n, ref }] : [];
  });
}

/** pre-push's stdin: `<local ref> <local oid> <remote ref> <remote oid>` per line. */
export function parsePushUpdates(text: string): PushUpdate[] {
  return text.split("\n").flatMap((l) => {
    const [localRef, localOid, remoteRef, remoteOid] = l.trim().split(/\s+/);
    return localRef && localOid && remoteRef && remoteOid ? [{ localRef, localOid, remoteRef, remoteOid }] : [];
  });
}

export interface Git {
  /** Run git with these arguments in the repository the hook runs for: exit status and stdout. */
  (args: string[]): { status: number | null; stdout: string };
}

export const realGit: Git = (args) => {
  const r = spawnSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 30_000 });
  return { status: r.status, stdout: r.stdout ?? "" };
};

/** The refs whose move can be a commit effect: branches, and HEAD itself (detached, or as the symref git also reports). */
const onBranch = (ref: string): boolean => ref === "HEAD" || ref.startsWith("refs/heads/");

/**
 * The updates of one transaction that put a new commit on a branch. Asked in
 * the `prepared` state, when the refs still hold their old values. A git that
 * cannot answer counts as "new" (the caller is an agent: refuse rather than guess).
 */
export function commitEffects(updates: RefUpdate[], git: Git = realGit): RefUpdate[] {
  const moved = updates.filter((u) => onBranch(u.ref) && !ZERO.test(u.new) && u.new !== u.old);
  const oids = [...new Set(moved.map((u) => u.new))];
  if (oids.length === 0) return [];
  const head = git(["rev-parse", "-q", "--verify", "HEAD^{commit}"]);
  const reached = ["--branches", "--tags", "--remotes", ...(head.status === 0 && head.stdout.trim() ? [head.stdout.trim()] : [])];
  const fresh = new Set<string>();
  for (const oid of oids) {
    const r = git(["rev-list", "-n1", oid, "--not", ...reached]);
    if (r.status !== 0 || r.stdout.trim() !== "") fresh.add(oid);
  }
  return moved.filter((u) => fresh.has(u.new));
}

/** A local ref git names by HEAD: `HEAD`, `@`, `HEAD~0`, `HEAD^0`, `HEAD@{0}` (pre-push passes the spelling given). */
export const isHeadRef = (ref: string): boolean => /^(HEAD|@)([~^@].*)?$/.test(ref);

export interface PushFacts extends PushUpdate {
  deletion: boolean;
  /** History on the remote is replaced: not a fast-forward, or a deletion. */
  force: boolean;
  fromHead: boolean;
}

export function pushFacts(updates: PushUpdate[], git: Git = realGit): PushFacts[] {
  return updates.map((u) => {
    const deletion = ZERO.test(u.localOid);
    let force = deletion;
    if (!deletion && !ZERO.test(u.remoteOid)) {
      // Exit 0: an ancestor (fast-forward); 1: not; else the remote commit is unknown here, so the push cannot contain it.
      force = git(["merge-base", "--is-ancestor", u.remoteOid, u.localOid]).status !== 0;
    }
    return { ...u, deletion, force, fromHead: isHeadRef(u.localRef) };
  });
}
