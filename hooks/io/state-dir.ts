// Where per-session state and capped outputs live. One function, used by the
// hook and every verb. Never inside the package: `npm ci` wipes it, and a
// root-owned global install makes it unwritable for everyone else.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeDir } from "./make-dir.js";

export interface StateDirHost {
  env: NodeJS.ProcessEnv;
  /** skillgate's own folder: only to find state left there by older versions. */
  packageRoot: string;
  /** The host's data folder for skillgate as its plugin (HostEnvironment.dataDir): state goes under it. */
  dataDir?: string;
}

/**
 * $SKILLGATE_STATE, else the host's data folder for its plugin (survives plugin updates),
 * else $XDG_STATE_HOME/skillgate, else ~/.local/state/skillgate.
 * The folder is created 0700 on first use; state an older skillgate kept in
 * <package>/state is moved there once.
 */
export function stateDirOf(h: StateDirHost): string {
  const dir = stateDirPath(h.env, h.dataDir);
  if (!fs.existsSync(dir)) prepare(dir, isSkillgatePackage(h.packageRoot) ? path.join(h.packageRoot, "state") : undefined);
  return dir;
}

/** The path alone, no file system access. */
export function stateDirPath(env: NodeJS.ProcessEnv, dataDir?: string): string {
  if (env.SKILLGATE_STATE) return path.resolve(env.SKILLGATE_STATE);
  if (dataDir) return path.join(dataDir, "state");
  if (env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME)) return path.join(env.XDG_STATE_HOME, "skillgate");
  // $HOME first (tests and sandboxes set it); the OS's idea of home otherwise.
  const home = env.HOME || env.USERPROFILE || safeHomedir();
  return path.join(home, ".local", "state", "skillgate");
}

function safeHomedir(): string {
  try {
    return os.homedir();
  } catch {
    return os.tmpdir(); // no home at all (a locked-down service account): still never the package
  }
}

/**
 * Create the folder (0700: session files name the skills a user loaded, capped
 * outputs hold command output) and move the old default's contents into it.
 * Best effort: a failure here surfaces as the state store's own clear error.
 */
function prepare(dir: string, oldDir: string | undefined): void {
  try {
    makeDir(dir, 0o700);
  } catch {
    return;
  }
  if (oldDir === undefined || path.resolve(oldDir) === path.resolve(dir)) return;
  migrateOldState(oldDir, dir);
}

/** Only skillgate's own folder had a state/ of ours: never move some other folder's state/. */
function isSkillgatePackage(dir: string): boolean {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: unknown }).name === "skillgate";
  } catch {
    return false;
  }
}

/**
 * Move every entry of the old <package>/state into the new folder (rename when
 * on the same file system, copy otherwise). Entries already present in the new
 * folder win. The old folder is emptied when we may, left alone when not
 * (a root-owned install): the copies are what counts.
 */
export function migrateOldState(oldDir: string, dir: string): number {
  let names: string[];
  try {
    names = fs.readdirSync(oldDir).filter((n) => n !== ".gitkeep");
  } catch {
    return 0;
  }
  let moved = 0;
  for (const name of names) {
    const from = path.join(oldDir, name);
    const to = path.join(dir, name);
    if (fs.existsSync(to)) continue;
    try {
      fs.renameSync(from, to);
      moved++;
      continue;
    } catch {
      /* another file system or no write access to the old folder: copy */
    }
    try {
      fs.cpSync(from, to, { recursive: true, errorOnExist: true, force: false });
      moved++;
    } catch {
      /* unreadable: leave it */
    }
  }
  return moved;
}
