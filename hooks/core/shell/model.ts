// The typed model of a shell analysis: words with provenance and spans,
// redirections as records, nested programs hanging off the command that runs
// them, opaque parts as codes, and one parse status. Everything a row, `explain`
// or a test reads comes from here; no code branches on human text.

/** Where a word's value comes from. A word mixing parts gets the least static one. */
export type Provenance = "literal" | "brace" | "glob" | "variable" | "arithmetic" | "command-substitution" | "unknown";

/** Character offsets in the command as the agent wrote it. Nested strings (`bash -c '…'`) carry their holder's span. */
export interface Span {
  start: number;
  end: number;
}

/**
 * What a run-time word can turn out to be, as far as we can tell statically:
 * `exact` (static), `glob` (a pattern: `*_RU.md`, `"$TMPDIR"/copy` → `*\/copy`),
 * `branch` (a branch name: `$(git branch --show-current)`, never `HEAD`, an option or a refspec with `+`),
 * `any` (no idea).
 */
export type ValueShape = { kind: "exact"; text: string } | { kind: "glob"; glob: string } | { kind: "branch" } | { kind: "any" };

export interface ShellWord {
  text: string;
  provenance: Provenance;
  span: Span;
  shape: ValueShape;
}

export interface PathArg {
  path: string;
  dynamic: boolean;
  /** For a run-time path: a glob of the names it can take (`*` where the value is unknown). */
  pattern?: string;
  /** The program replaces the name itself (a new file renamed over it), so a symlink there is not followed. */
  noFollow?: boolean;
}

/** Why part of a command cannot be seen through. Code branches on these, never on `reason` text. */
export type OpaqueCode =
  | "program-dynamic" // `$cmd commit`, `$(echo git) commit`
  | "program-pattern" // `/usr/bin/gi? commit`
  | "eval-dynamic" // `eval "$X"`
  | "shell-string-dynamic" // `bash -c "$X"`, `xargs sh -c`
  | "heredoc-expansions" // `bash <<EOF` with `$X` in the body
  | "program-from-pipe" // `curl … | sh`
  | "program-from-substitution" // `bash <(curl …)`
  | "interpreter-program-dynamic" // `python3 -c "$CODE"`
  | "inline-spawn-dynamic" // `subprocess.run(sys.argv[1:])`, `sed 's/x/y/e'`
  | "source-dynamic" // `source "$F"`
  | "script-written-at-run-time" // `curl -o x.sh …; bash x.sh`
  | "alias-dynamic" // `alias g="$X"`
  | "launcher-dynamic" // `tmux send-keys "$X"`
  | "git-config-dynamic" // `git -c "$K"=x st`, `GIT_CONFIG_PARAMETERS="$P" git st`
  | "git-hooks-door" // `git -c core.hooksPath=/dev/null …`, `HOME=x git …`, `> .git/hooks/pre-push`: git's own hooks could be switched off
  | "shell-program" // `make SHELL=./x`, `npm run t --script-shell=./x`: recipes and scripts run through another program
  | "step-budget" // a command built to be slow to analyse: the analysis stops
  | "too-many-wrappers"
  | "nesting-depth"
  | "reparse-budget"
  | "parse-error"
  | "too-long";

export interface Opaque {
  code: OpaqueCode;
  /** For people: what could not be seen and why. */
  reason: string;
  /** The command text concerned, clipped. */
  text: string;
  span: Span;
}

export interface RedirectRecord {
  /** `>`, `>>`, `<`, `<<`, `<<<`, `>&`, `&>`, … */
  op: string;
  fd?: number;
  target: string;
  dynamic: boolean;
  /** Here-doc: its body and whether expansions run in it. */
  heredoc?: { delimiter: string; quoted: boolean; body: string };
  /** Index in `commands` of the command it belongs to; -1 for a compound (`{ …; } > f`). */
  command: number;
  span: Span;
}

/**
 * complete: everything parsed and seen; partial: some part is opaque;
 * invalid: the command does not parse (what parsed is analysed);
 * limited: a cap was hit (length, nesting, re-parse budget).
 */
export type ParseStatus = "complete" | "partial" | "invalid" | "limited";
