// git's own indirection, seen statically: aliases (from `-c`, the environment,
// `git config` earlier in the command, and config files), subcommands that run
// shell strings (`rebase -x`, `submodule foreach`, `bisect run`, `-c
// core.pager=…`), `git-<sub>` programs, and what a push really does (`+ref`,
// `@`, `--mirror`, push refspecs from config).
import { nth } from "./nth.js";
import { posix as path } from "node:path";
import type { OpaqueCode } from "./model.js";
import type { Script } from "./launchers.js";
import { fileConfig, normalizeKey, parseConfig, parseConfigParameters, type ConfigEntries } from "./gitconfig.js";
import { clip, type Arg } from "./wrappers.js";
import type { ShellWorld } from "./world.js";

/** git 2.39's own commands (builtins and the scripts shipped with it): never aliases. */
export const GIT_COMMANDS = new Set(
  (
    "add am annotate apply archimport archive bisect blame branch bugreport bundle cat-file check-attr check-ignore check-mailmap " +
    "check-ref-format checkout checkout-index cherry cherry-pick citool clean clone column commit commit-graph commit-tree config " +
    "count-objects credential credential-cache credential-store cvsexportcommit cvsimport cvsserver daemon describe diagnose diff " +
    "diff-files diff-index diff-tree difftool fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref " +
    "for-each-repo format-patch fsck fsck-objects fsmonitor--daemon gc get-tar-commit-id grep gui hash-object help hook http-backend " +
    "http-fetch http-push imap-send index-pack init init-db instaweb interpret-trailers log ls-files ls-remote ls-tree mailinfo " +
    "mailsplit maintenance merge merge-base merge-file merge-index merge-octopus merge-one-file merge-ours merge-recursive " +
    "merge-resolve merge-subtree merge-tree mergetool mktag mktree multi-pack-index mv name-rev notes p4 pack-objects pack-redundant " +
    "pack-refs patch-id prune prune-packed pull push quiltimport range-diff read-tree rebase receive-pack reflog remote remote-ext " +
    "remote-fd repack replace replay request-pull rerere reset restore rev-list rev-parse revert rm scalar send-email send-pack " +
    "sh-i18n--envsubst shortlog show show-branch show-index show-ref sparse-checkout stage stash status stripspace submodule svn " +
    "switch symbolic-ref tag unpack-file unpack-objects update-index update-ref update-server-info upload-archive upload-pack var " +
    "verify-commit verify-pack verify-tag version web--browse whatchanged worktree write-tree"
  ).split(" "),
);

/** git runs these files from .git/hooks (or core.hooksPath) when the matching event happens. */
export const GIT_HOOK =
  /(^|\/)(applypatch-msg|pre-applypatch|post-applypatch|pre-commit|pre-merge-commit|prepare-commit-msg|commit-msg|post-commit|pre-rebase|post-checkout|post-merge|pre-push|pre-receive|update|proc-receive|post-receive|post-update|reference-transaction|push-to-checkout|pre-auto-gc|post-rewrite|sendemail-validate|fsmonitor-watchman|post-index-change|p4-[a-z-]+)$/;

/** Common third-party `git-<name>` programs: they run themselves (before aliases, as git does). */
const KNOWN_EXTERNALS = new Set(
  (
    "lfs flow annex absorb filter-repo crypt secret extras town machete branchless delete-merged-branches " +
    "open browse sizer standup quick-stats cliff cz fame trim gone spice stack revise imerge credential-manager credential-osxkeychain " +
    "credential-libsecret remote-gcrypt subrepo when-merged bug cinnabar codereview review pr-train"
  ).split(" "),
);

/** Global options before the subcommand that take a value. */
export const GIT_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path", "--list-cmds"]);

/** Config keys whose value git runs as a shell command. */
const SHELL_KEYS =
  /^(core\.(pager|editor|sshcommand|askpass|fsmonitor|gitproxy)|sequence\.editor|diff\.external|diff\..+\.(command|textconv)|merge\..+\.driver|filter\..+\.(clean|smudge|process)|pager\..+|gpg(\..+)?\.program|interactive\.difffilter|sendemail\.(tocmd|cccmd|sendmailcmd)|uploadpack\.packobjectshook|remote\..+\.(uploadpack|receivepack)|(diff|merge)tool\..+\.cmd|browser\..+\.cmd|man\..+\.cmd|credential(\..+)?\.helper)$/;

/** Environment variables whose value git (or what it starts) runs as a shell command. */
export const GIT_SHELL_ENV = new Set([
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "GIT_PAGER",
  "GIT_SSH_COMMAND",
  "GIT_SSH",
  "GIT_EXTERNAL_DIFF",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "GIT_PROXY_COMMAND",
  "EDITOR",
  "VISUAL",
  "PAGER",
  "MANPAGER",
  "LESSOPEN",
]);

/** Values that are not commands although the key could hold one (`core.fsmonitor=true`, `pager.log=false`). */
const NOT_A_COMMAND = /^(true|false|yes|no|on|off|1|0|)$/i;

export function isShellKey(key: string, value: string): boolean {
  const k = normalizeKey(key).toLowerCase();
  if (!SHELL_KEYS.test(k) || NOT_A_COMMAND.test(value.trim())) return false;
  // credential.helper `store` runs git-credential-store; only `!cmd` or a path is a command of its own
  if (/credential(\..+)?\.helper$/.test(k)) return value.startsWith("!") || value.includes("/");
  return true;
}

/** The shell text a command-running key runs: a credential helper's `!cmd` is `cmd`. */
export function keyScript(key: string, value: Arg, label: string): Script {
  const helper = /credential(\..+)?\.helper$/i.test(key) && value.text.startsWith("!");
  return { ...value, text: helper ? value.text.slice(1) : value.text, label };
}

export interface GitSetting {
  key: string;
  /** null: `git config --unset key`. */
  value: string | null;
}

/** help.autocorrect runs the guess for `immediate`, a positive delay, or a negative number; not for 0, never, prompt (no tty here), show. */
function autocorrects(v: Arg | undefined): boolean {
  if (!v) return false;
  if (v.dynamic) return true;
  const t = v.text.trim().toLowerCase();
  return t === "immediate" || t === "1" || t === "true" || (/^-?\d+$/.test(t) && Number(t) !== 0);
}

/** An ext:: command: words split at unescaped spaces, `% ` a space, `%%` a percent. */
function extCommand(s: string): string {
  const words: string[] = [];
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "%" && i + 1 < s.length) {
      cur += s[++i] === "s" ? " " : s[i];
      continue;
    }
    if (s[i] === " ") {
      if (cur) words.push(cur);
      cur = "";
      continue;
    }
    cur += s[i];
  }
  if (cur) words.push(cur);
  return words.map(shellQuote).join(" ");
}

export interface GitContext {
  world: ShellWorld;
  /** `git config k v` run earlier in the same command. */
  earlier: GitSetting[];
  /** A variable of the command's environment (prefix assignment, earlier assignment, or the session's). */
  env(name: string): Arg | undefined;
  /** Config read from files, per directory (cached by the caller). */
  files(dir: string): { entries: ConfigEntries; complete: boolean };
  /** A config file's text (written earlier in the command, or on disk); null when written with unknown text. */
  read(path: string): string | null | undefined;
  /** The command wrote a git config file before this git command: the files on disk are not what git will see. */
  configWritten: boolean;
}

export interface GitResolved {
  /** The argv git really runs: aliases expanded (`git ci -m x` → `git commit -m x`). */
  argv: Arg[];
  verb: number;
  /** The subcommand is not something we can name (an unknown alias, a typo with help.autocorrect). */
  verbUnknown: boolean;
  /** How the subcommand was found (`alias ci=commit`), for `via`. */
  via: string[];
  scripts: Script[];
  argvs: Arg[][];
  /** Words that say what the command does beyond its literal words (push: `--force`, `HEAD`). */
  implied: string[];
  /** A push that deletes a remote branch (`--delete`, `-d`, `:dst`): a later push in the same command replaces it. */
  deletes?: boolean;
  /** The repository word of a push (`git push --repo=origin HEAD`: HEAD names the remote, it is no refspec). */
  remote?: Arg;
  /** Subcommands whose effect this one has (`send-pack` pushes, `fast-import` commits). */
  acts: string[];
  /** As written it changes nothing (`push --dry-run`, `commit --dry-run`). */
  inert: boolean;
  opaque?: { code: OpaqueCode; reason: string };
}

const MAX_ALIAS_DEPTH = 10;

/** log, show and whatchanged run diff.external only with --ext-diff (git diff runs it unasked). */
function externalDiffUnused(key: string, argv: Arg[], verb: number): boolean {
  const sub = verb >= 0 ? argv[verb] : undefined;
  if (key.toLowerCase() !== "diff.external" || !sub || sub.dynamic || sub.pattern || !/^(log|show|whatchanged)$/.test(sub.text)) return false;
  return !argv.slice(verb + 1).some((a) => a.dynamic || a.pattern || a.text.startsWith("--ext"));
}

export function resolveGit(argv: Arg[], ctx: GitContext): GitResolved {
  const out: GitResolved = { argv, verb: -1, verbUnknown: false, via: [], scripts: [], argvs: [], implied: [], acts: [], inert: false };
  let cur = argv;
  for (let depth = 0; depth <= MAX_ALIAS_DEPTH; depth++) {
    const g = globals(cur);
    // config files are read only when they matter: an alias to resolve, a push's refspecs
    const cfg: Config = new LazyConfig(() => commandConfig(g.config, ctx, g.dir, out));
    out.argv = cur;
    out.verb = g.verb;
    for (const { key, value } of g.config)
      if (!externalDiffUnused(key, cur, g.verb) && (isShellKey(key, value.text) || (value.dynamic && SHELL_KEYS.test(key.toLowerCase()))))
        out.scripts.push(keyScript(key, value, `git -c ${key}`));
    // `git clone 'ext::sh -c …'`: the ext transport runs its command
    for (const a of cur) if (a.text.startsWith("ext::")) out.scripts.push({ text: extCommand(a.text.slice(5)), dynamic: a.dynamic, label: "git ext::" });
    // configuration from the environment is read now: it may name commands git runs
    if (
      ctx.env("GIT_CONFIG_COUNT") ||
      ctx.env("GIT_CONFIG_PARAMETERS") ||
      g.config.some((c) => (c as { fromEnv?: boolean }).fromEnv || c.key === "include.path")
    )
      void cfg.known;
    if (g.verb < 0) return out;
    const verbArg = nth(cur, g.verb);
    if (verbArg.dynamic || verbArg.pattern) {
      out.verbUnknown = true;
      return out;
    }
    const sub = verbArg.text;
    if (GIT_COMMANDS.has(sub)) {
      subcommandEffects(sub, cur.slice(g.verb + 1), cfg, out);
      return out;
    }
    // external commands (git-lfs) run before aliases are looked up
    if (KNOWN_EXTERNALS.has(sub)) return out;
    const alias = cfg.value(`alias.${sub.toLowerCase()}`);
    if (alias === undefined) {
      // Not a command and no alias we can see: an alias we could not read, or a typo help.autocorrect would run.
      out.verbUnknown = !cfg.known || autocorrects(cfg.value("help.autocorrect"));
      return out;
    }
    out.via.push(`git alias ${sub}`);
    if (alias.dynamic) {
      out.verbUnknown = true;
      return out;
    }
    if (alias.text.startsWith("!")) {
      // a shell alias: `!f() { git commit "$@"; }; f` gets the remaining words as arguments
      const rest = cur.slice(g.verb + 1);
      out.scripts.push({
        text: `${alias.text.slice(1)} ${rest.map((a) => shellQuote(a.text)).join(" ")}`,
        dynamic: rest.some((a) => a.dynamic),
        label: `git alias ${sub}`,
      });
      out.verb = -1;
      out.argv = cur;
      return out;
    }
    const words = splitAlias(alias.text).map((t) => ({ text: t, dynamic: false }));
    cur = [...cur.slice(0, g.verb), ...words, ...cur.slice(g.verb + 1)];
  }
  out.opaque = { code: "git-config-dynamic", reason: "git aliases nest too deep to follow" };
  return out;
}

interface Globals {
  verb: number;
  config: { key: string; value: Arg }[];
  dir?: string;
}

/** git's global options: `-c k=v`, `--config-env=k=ENV`, `-C dir`; the subcommand's index. */
function globals(argv: Arg[]): Globals {
  const out: Globals = { verb: -1, config: [] };
  for (let i = 1; i < argv.length; i++) {
    const a = nth(argv, i);
    const t = a.text;
    if (a.dynamic && !t.startsWith("-")) {
      out.verb = i;
      return out;
    }
    if (t === "-c" || t === "--config-env" || t === "-C" || GIT_VALUED.has(t)) {
      const v = argv[i + 1];
      if (v) {
        if (t === "-c") out.config.push(keyValue(v));
        else if (t === "--config-env") out.config.push({ ...keyValue(v), fromEnv: true } as never);
        else if (t === "-C") out.dir = out.dir && !v.text.startsWith("/") ? path.join(out.dir, v.text) : v.text;
      }
      i++;
      continue;
    }
    if (t.startsWith("--config-env=")) {
      out.config.push({ ...keyValue({ ...a, text: t.slice(13) }), fromEnv: true } as never);
      continue;
    }
    if (/^-c./.test(t)) {
      out.config.push(keyValue({ ...a, text: t.slice(2) }));
      continue;
    }
    if (t.startsWith("-")) continue;
    out.verb = i;
    return out;
  }
  return out;
}

function keyValue(a: Arg): { key: string; value: Arg } {
  const eq = a.text.indexOf("=");
  return eq < 0
    ? { key: normalizeKey(a.text), value: { text: "true", dynamic: a.dynamic } }
    : { key: normalizeKey(a.text.slice(0, eq)), value: { text: a.text.slice(eq + 1), dynamic: a.dynamic } };
}

interface Config {
  /** Last value of a key (git's "last one wins"), or undefined. */
  value(key: string): Arg | undefined;
  all(key: string): Arg[];
  /** Every source was readable: a missing key is really missing. */
  known: boolean;
}

/** A Config read on first use (a class: cheaper to make per git command than an object literal with a getter). */
class LazyConfig implements Config {
  private cached: Config | undefined;
  private readonly load: () => Config;
  constructor(load: () => Config) {
    this.load = load;
  }
  private get c(): Config {
    return (this.cached ??= this.load());
  }
  value(k: string): Arg | undefined {
    return this.c.value(k);
  }
  all(k: string): Arg[] {
    return this.c.all(k);
  }
  get known(): boolean {
    return this.c.known;
  }
}

/** All config sources for one git command, lowest priority first. */
function commandConfig(cli: { key: string; value: Arg; fromEnv?: boolean }[], ctx: GitContext, dir: string | undefined, out: GitResolved): Config {
  const entries: [string, Arg][] = [];
  let known = true;
  const cwd = ctx.world.cwd;
  if (cwd) {
    const f = ctx.files(dir ? path.resolve(cwd, dir) : cwd);
    known = f.complete && !ctx.configWritten;
    for (const [k, v] of f.entries) entries.push([k, { text: v, dynamic: false }]);
  } else known = false;
  for (const s of ctx.earlier) {
    const k = normalizeKey(s.key);
    if (s.value === null) {
      for (let i = entries.length - 1; i >= 0; i--) if (nth(entries, i)[0].toLowerCase() === k.toLowerCase()) entries.splice(i, 1);
      continue;
    }
    if (k === "include.path") {
      const home = ctx.env("HOME");
      const text = ctx.read(s.value.startsWith("~/") && home ? `${home.text}/${s.value.slice(2)}` : s.value);
      if (typeof text === "string") for (const [ik, iv] of parseConfig(text)) entries.push([ik, { text: iv, dynamic: false }]);
      else known = false;
      continue;
    }
    entries.push([k, { text: s.value, dynamic: false }]);
  }
  const params = ctx.env("GIT_CONFIG_PARAMETERS");
  if (params) {
    const parsed = params.dynamic ? undefined : parseConfigParameters(params.text);
    if (!parsed) {
      known = false;
      out.opaque ??= { code: "git-config-dynamic", reason: `GIT_CONFIG_PARAMETERS ${clip(params.text, 60)} cannot be read statically` };
    }
    for (const [k, v] of parsed ?? []) {
      entries.push([k, { text: v, dynamic: false }]);
      if (isShellKey(k, v)) out.scripts.push(keyScript(k, { text: v, dynamic: false }, `GIT_CONFIG_PARAMETERS (${k})`));
    }
  }
  const count = ctx.env("GIT_CONFIG_COUNT");
  if (count) {
    const n = Number(count.text);
    if (count.dynamic || !Number.isInteger(n) || n < 0 || n > 1000) {
      known = false;
      out.opaque ??= { code: "git-config-dynamic", reason: "GIT_CONFIG_COUNT is computed at run time" };
    } else
      for (let i = 0; i < n; i++) {
        const k = ctx.env(`GIT_CONFIG_KEY_${i}`);
        const v = ctx.env(`GIT_CONFIG_VALUE_${i}`);
        if (!k || !v || k.dynamic) {
          known = false;
          continue;
        }
        entries.push([normalizeKey(k.text), v]);
        if (isShellKey(k.text, v.text)) out.scripts.push(keyScript(k.text, v, `GIT_CONFIG_VALUE_${i} (${k.text})`));
      }
  }
  for (const c of cli) {
    // `-c include.path=F`: F's entries count here
    if (c.key === "include.path") {
      const text = c.value.dynamic ? null : ctx.read(c.value.text);
      if (typeof text === "string")
        for (const [k, v] of parseConfig(text)) {
          entries.push([k, { text: v, dynamic: false }]);
          if (isShellKey(k, v)) out.scripts.push(keyScript(k, { text: v, dynamic: false }, `git include ${k}`));
        }
      else known = false;
      continue;
    }
    let value = c.value;
    if (c.fromEnv) {
      value = ctx.env(c.value.text) ?? { text: "", dynamic: true };
      if (isShellKey(c.key, value.text) || (value.dynamic && SHELL_KEYS.test(c.key))) out.scripts.push(keyScript(c.key, value, `git --config-env ${c.key}`));
    }
    if (c.value.dynamic && !c.fromEnv) known = false;
    entries.push([c.key, value]);
  }
  return {
    value: (key) => {
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, v] = nth(entries, i);
        if (k.toLowerCase() === key.toLowerCase()) return v;
      }
      return undefined;
    },
    all: (key) => entries.filter(([k]) => k.toLowerCase() === key.toLowerCase()).map(([, v]) => v),
    known,
  };
}

/** Split an alias value into words the way git does (quotes, backslashes). */
function splitAlias(s: string): string[] {
  const out: string[] = [];
  let cur = "";
  let q = "";
  let has = false;
  for (let i = 0; i < s.length; i++) {
    const c = nth(s, i);
    if (q) {
      if (c === q) q = "";
      else if (c === "\\" && q === '"' && i + 1 < s.length) cur += s[++i];
      else cur += c;
      continue;
    }
    if (c === "'" || c === '"') {
      q = c;
      has = true;
      continue;
    }
    if (c === "\\" && i + 1 < s.length) {
      cur += s[++i];
      has = true;
      continue;
    }
    if (/\s/.test(c)) {
      if (has || cur) out.push(cur);
      cur = "";
      has = false;
      continue;
    }
    cur += c;
  }
  if (has || cur) out.push(cur);
  return out;
}

const shellQuote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Options whose value git runs as a shell command, per subcommand (and the short form that takes it attached). */
const GIT_SHELL_OPTS: Record<string, [string[], string?]> = {
  rebase: [["-x", "--exec"], "-x"],
  "filter-branch": [["--tree-filter", "--index-filter", "--msg-filter", "--commit-filter", "--env-filter", "--parent-filter", "--tag-name-filter"]],
  difftool: [["-x", "--extcmd"], "-x"],
  "send-email": [["--to-cmd", "--cc-cmd", "--sendmail-cmd"]],
  fetch: [["--upload-pack"]],
  pull: [["--upload-pack"]],
  "ls-remote": [["--upload-pack"]],
  clone: [["-u", "--upload-pack"]],
  push: [["--receive-pack", "--exec"]],
  "send-pack": [["--receive-pack", "--exec"]],
  "fetch-pack": [["--upload-pack", "--exec"]],
  archive: [["--exec"]],
  grep: [["-O", "--open-files-in-pager"], "-O"],
};

/** What a subcommand runs (rebase -x, submodule foreach, bisect run, filter-branch) and implies (push). */
function subcommandEffects(sub: string, args: Arg[], cfg: Config, out: GitResolved): void {
  const valueOf = (i: number, names: string[], shortAttached?: string): Arg | undefined => {
    const t = nth(args, i).text;
    if (names.includes(t)) return args[i + 1];
    for (const n of names) if (n.startsWith("--") && t.startsWith(`${n}=`)) return { text: t.slice(n.length + 1), dynamic: nth(args, i).dynamic };
    if (shortAttached && t.startsWith(shortAttached) && t.length > shortAttached.length)
      return { text: t.slice(shortAttached.length), dynamic: nth(args, i).dynamic };
    return undefined;
  };
  const so = GIT_SHELL_OPTS[sub];
  if (so)
    for (let i = 0; i < args.length; i++) {
      const v = valueOf(i, so[0], so[1]);
      if (v) out.scripts.push({ ...v, label: `git ${sub} ${so[0][0]}` });
    }
  if (sub === "submodule") {
    const f = args.findIndex((a) => a.text === "foreach");
    if (f >= 0) {
      const cmd = args
        .slice(f + 1)
        .filter((a, i, all) => !(i < 2 && /^(--recursive|--quiet|-q)$/.test(a.text) && all.slice(0, i).every((x) => x.text.startsWith("-"))));
      if (cmd.length) out.scripts.push({ text: cmd.map((a) => a.text).join(" "), dynamic: cmd.some((a) => a.dynamic), label: "git submodule foreach" });
    }
  }
  if (sub === "bisect" && args[0]?.text === "run" && args.length > 1) out.argvs.push(args.slice(1));
  if (sub === "push" || sub === "send-pack") pushEffects(args, cfg, out, sub === "send-pack");
  // plumbing that writes commits: fast-import updates the branches its stream names; hash-object -t commit
  // -w writes a commit object (commit-tree is decided with the whole line: see publishedCommits in analyze.ts)
  if (
    sub === "fast-import" ||
    (sub === "hash-object" &&
      args.some((a) => a.text === "-w") &&
      args.some((a, i) => (a.text === "-t" && args[i + 1]?.text === "commit") || a.text === "--type=commit"))
  )
    out.acts.push("commit");
  if (sub === "commit") out.inert = lastFlag(args, ["--dry-run"], ["--no-dry-run"]) || asksForHelp(args, COMMIT_VALUED);
}

/** `git commit`'s options whose value is the next word (`-m -h` is a message "-h"; `-am -h` too). */
const COMMIT_VALUED = {
  short: "mFCct",
  long: new Set([
    "--message",
    "--file",
    "--reuse-message",
    "--reedit-message",
    "--template",
    "--author",
    "--date",
    "--cleanup",
    "--fixup",
    "--squash",
    "--trailer",
    "--pathspec-from-file",
  ]),
};

/**
 * `-h` or `--help` as an option of its own: git prints the usage (or the manual) and exits
 * without acting. Not when a word before it could be an option that takes it as a value (a
 * word known only at run time, `-m`, `-am`), nor after `--` (a path).
 */
function asksForHelp(args: Arg[], valued: { short: string; long: Set<string> }): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = nth(args, i);
    if (a.dynamic || a.text === "--") return false;
    if (a.text === "-h" || a.text === "--help") return true;
    // `-am`: the first letter that takes a value takes the rest of the cluster, or the next word when it is last
    const cluster = /^-[A-Za-z]+$/.test(a.text) ? [...a.text.slice(1)].findIndex((c) => valued.short.includes(c)) : -1;
    if (valued.long.has(a.text) || (cluster >= 0 && cluster === a.text.length - 2)) i++;
  }
  return false;
}

/** Did a flag stay on: its last mention wins over its negation (`--dry-run … --no-dry-run`). */
function lastFlag(args: Arg[], on: string[], off: string[], shortLetter?: string): boolean {
  let state = false;
  for (const a of args) {
    if (a.text === "--") break;
    // in a cluster, letters after one that takes a value (`-o`) are that value: `-on` is a push option "n"
    if (on.includes(a.text) || (shortLetter && /^-[A-Za-z0-9]+$/.test(a.text) && nth(a.text.slice(1).split("o"), 0).includes(shortLetter))) state = true;
    else if (off.includes(a.text)) state = false;
  }
  return state;
}

/** git's boolean values: true/yes/on/a nonzero number; a key given without a value is true. */
export function gitTrue(v: Arg | undefined): boolean {
  if (!v) return false;
  if (v.dynamic) return true; // unknown: the safe side
  const t = v.text.trim().toLowerCase();
  return t === "true" || t === "yes" || t === "on" || (/^-?\d+$/.test(t) && Number(t) !== 0);
}

/** A revision that is HEAD itself: `HEAD`, `@`, `HEAD~0`, `HEAD^0`, `HEAD@{0}`, `HEAD^{commit}`, `@~0^0`. */
export const HEAD_ITSELF = /^(HEAD|@)(~0+|\^0+|@\{0\}|\^\{(commit)?\})*$/;

/**
 * What a push does, as words a row can match: `--force` when any refspec is
 * forced (`+main`, `+HEAD:main`), `--mirror` is given or a push refspec from
 * config is forced; `HEAD` when a refspec pushes HEAD (`@`, `+HEAD`).
 */
function pushEffects(args: Arg[], cfg: Config, out: GitResolved, sendPack = false): void {
  if (sendPack) out.acts.push("push");
  // `-n`, `--dry-run` (also in a cluster: `-nf`): nothing is sent
  const valued = new Set(["--repo", "--receive-pack", "--exec", "-o", "--push-option", "--signed", "--recurse-submodules"]);
  // `-n`, `--dry-run` (also in a cluster: `-nf`): nothing is sent. Values of options (`-o -n`) are not flags.
  const flags = args.filter((_, i) => !valued.has(args[i - 1]?.text ?? ""));
  out.inert = lastFlag(flags, ["--dry-run"], ["--no-dry-run"], sendPack ? undefined : "n");
  const ops: Arg[] = [];
  let end = false;
  for (let i = 0; i < args.length; i++) {
    const t = nth(args, i).text;
    if (!end && t === "--") {
      end = true;
      continue;
    }
    if (!end && valued.has(t)) {
      i++;
      continue;
    }
    if (!end && t.startsWith("-")) {
      // git accepts unambiguous abbreviations: `--mirr` is --mirror
      if (t.length >= 4 && "--mirror".startsWith(t)) out.implied.push("--force");
      // deleting a remote branch, then pushing it again, replaces its history without --force (the pre-push
      // hook counts a deletion as a forced push, docs/git-hooks.md)
      if ((t.length >= 4 && "--delete".startsWith(t)) || /^-[a-zA-Z]*d[a-zA-Z]*$/.test(t)) out.deletes = true;
      continue;
    }
    ops.push(nth(args, i));
  }
  let refspecs = ops.slice(1);
  // the first operand names the repository, even after --repo (git: "the command-line argument takes precedence");
  // --signed and --recurse-submodules take a value only after `=`, so a separate word after them is unsure
  const unsure = args.some((a) => a.dynamic || a.text === "--signed" || a.text === "--recurse-submodules");
  if (!sendPack && !unsure && ops[0] && !ops[0].pattern) out.remote = ops[0];
  if (refspecs.length === 0 && !sendPack) {
    // `git push [remote]` pushes the configured refspecs of that remote
    const remote = ops[0]?.text ?? cfg.value("branch.main.remote")?.text ?? "origin";
    refspecs = cfg.all(`remote.${remote}.push`);
    if (gitTrue(cfg.value(`remote.${remote}.mirror`))) out.implied.push("--force");
  }
  for (const r of refspecs) {
    // `+"$BRANCH"`: forced whatever the name
    if (r.dynamic) {
      if (r.text.startsWith("+")) out.implied.push("--force");
      continue;
    }
    const forced = r.text.startsWith("+");
    const spec = forced ? r.text.slice(1) : r.text;
    if (forced) out.implied.push("--force");
    // HEAD (or @) as the source pushes whatever is checked out, whatever the destination
    const src = spec.split(":")[0] ?? "";
    if (HEAD_ITSELF.test(src)) out.implied.push("HEAD");
    // `:main` deletes main on the remote
    if (src === "" && spec.includes(":") && spec !== ":") out.deletes = true;
  }
  out.implied = [...new Set(out.implied)];
}

/** `git-commit`, `/usr/lib/git-core/git-commit`: git running one subcommand. */
export function dashedGit(name: string): string | undefined {
  const m = /^git-(.+)$/.exec(name);
  return m && (GIT_COMMANDS.has(nth(m, 1)) || m[1] === "receive-pack") ? m[1] : undefined;
}

/** Where the files of a directory-less config lookup start: shared by callers that cache fileConfig. */
export { fileConfig };
