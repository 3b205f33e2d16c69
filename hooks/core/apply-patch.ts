// The apply_patch envelope (Codex CLI, Copilot CLI): the paths a patch adds, updates, deletes or moves to.
// Pure and host-neutral: every host whose edit tool takes this envelope reads its paths here.
// The paths an apply_patch envelope touches. Codex gives the hook the raw
// patch text (tool_input.command); the file headers are the only place the
// paths appear:
//   *** Begin Patch
//   *** Add File: <path>      (+lines follow)
//   *** Update File: <path>   (optionally followed by *** Move to: <path>)
//   *** Delete File: <path>
//   *** End Patch
// Pure: no file is read; relative paths stay relative (the core resolves them against cwd).

export interface PatchPaths {
  /** Files the patch creates. */
  added: string[];
  /** Files it changes, deletes, or moves (both the old and the new name of a move). */
  changed: string[];
}

const HEADER = /^\*\*\* (Add File|Update File|Delete File|Move to): (.*)$/;

export function patchPaths(patch: string): PatchPaths {
  const added: string[] = [];
  const changed: string[] = [];
  for (const raw of patch.split(/\r?\n/)) {
    // Codex trims header lines before matching them, so a header indented by the model still applies.
    const m = HEADER.exec(raw.trim());
    if (!m) continue;
    const file = (m[2] ?? "").trim();
    if (!file) continue;
    (m[1] === "Add File" ? added : changed).push(file);
  }
  return { added: unique(added), changed: unique(changed) };
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
