// The decision-time world a class-corpus record runs in (test/corpus/classes/README.md):
// a repository at /work/repo with an origin remote, two paired documents, a home
// folder, plus the record's own setup (files, symlinks, env). Shared by the corpus
// test (test/shell-analysis.test.ts) and scripts/corpus-score.ts, so both judge
// a record in the same world.
import { memoryWorld } from "../../hooks/core/shell/world.ts";

export const REPO = "/work/repo";
export const HOME = "/home/agent";
const REPO_CONFIG = '[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = ../origin.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "work"]\n\tremote = origin\n\tmerge = refs/heads/work\n';

export interface RecordSetup {
  files?: Record<string, string>;
  symlinks?: Record<string, string>;
  env?: Record<string, string>;
}

export function corpusWorld(setup: RecordSetup | undefined) {
  const at = (p: string) => (p.startsWith("~/") ? `${HOME}/${p.slice(2)}` : p);
  const files: Record<string, string | { link: string }> = {
    ".git/config": REPO_CONFIG, ".git/HEAD": "ref: refs/heads/work\n", "notes_RU.md": "", "notes_EN.md": "",
    "docs/guide_RU.md": "", "docs/guide_EN.md": "", "src/app.js": "", [`${HOME}/`]: "",
  };
  for (const [p, t] of Object.entries(setup?.files ?? {})) files[at(p)] = at(p) === ".git/config" ? REPO_CONFIG + t : t;
  for (const [p, t] of Object.entries(setup?.symlinks ?? {})) files[at(p)] = { link: at(t) };
  return memoryWorld(REPO, files, { HOME, TMPDIR: "/tmp/skillgate-run", EDITOR: "true", PATH: "/usr/local/bin:/usr/bin:/bin", ...(setup?.env ?? {}) });
}
