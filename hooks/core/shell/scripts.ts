// Programs that live in files, read at decision time (never run): package.json
// scripts (`npm run X` with its pre/post scripts), Makefile recipes (`make T`),
// Tcl for expect, and a script's interpreter from its shebang. Pure parsers:
// the text comes from the ShellWorld or from earlier in the same command.
import { nth } from "./nth.js";

/** The shell lines `npm run X` runs: preX, X, postX. Undefined when X is not a script. */
export function packageScripts(packageJson: string, name: string): { pre?: string; main: string; post?: string } | undefined {
  let pkg: unknown;
  try {
    pkg = JSON.parse(packageJson);
  } catch {
    return undefined;
  }
  const scripts = (pkg as { scripts?: unknown } | null)?.scripts;
  if (!scripts || typeof scripts !== "object") return undefined;
  const get = (k: string): string | undefined => {
    const v = Object.hasOwn(scripts, k) ? (scripts as Record<string, unknown>)[k] : undefined;
    return typeof v === "string" ? v : undefined;
  };
  const main = get(name);
  if (main === undefined) return undefined;
  return { pre: get(`pre${name}`), main, post: get(`post${name}`) };
}

/** Package-manager commands that run the root package's lifecycle scripts (and what npm itself runs). */
export const LIFECYCLE: Record<string, string[]> = {
  install: ["preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"],
  pack: ["prepack", "prepare", "postpack"],
  publish: ["prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"],
  version: ["preversion", "version", "postversion"],
  rebuild: ["preinstall", "install", "postinstall", "prepare"],
};
export const LIFECYCLE_ALIASES: Record<string, string> = {
  i: "install",
  ci: "install",
  "clean-install": "install",
  "install-clean": "install",
  isntall: "install",
  add: "install",
  rb: "rebuild",
};

/** npm commands that are not scripts (so `npm X` for them is not `npm run X`). */
const NPM_LIFECYCLE = new Set(["test", "t", "tst", "start", "stop", "restart"]);

/**
 * The script a package manager runs: `npm run X`, `npm test`, `pnpm X`,
 * `yarn X`, `bun run X`. Returns the script name and the words after it.
 */
export function scriptRun(pm: string, words: string[]): { script: string; dir?: string; args: string[] } | undefined {
  let i = 0;
  let dir: string | undefined;
  while (i < words.length && nth(words, i).startsWith("-")) {
    const t = nth(words, i);
    if (/^(--prefix|-C|--dir|--cwd)$/.test(t)) {
      dir = words[i + 1];
      i += 2;
      continue;
    }
    const eq = /^(--prefix|--dir|--cwd)=(.*)$/.exec(t);
    if (eq) dir = eq[2];
    i += /^(-w|--workspace|--filter|-F)$/.test(t) ? 2 : 1;
  }
  const sub = words[i];
  if (sub === undefined) return undefined;
  const rest = words.slice(i + 1);
  const after = (xs: string[]) => {
    const s = xs.findIndex((x) => !x.startsWith("-"));
    return s < 0 ? undefined : { script: nth(xs, s), args: xs.slice(s + 1).filter((x) => x !== "--"), dir };
  };
  if (sub === "run" || sub === "run-script" || sub === "rum" || sub === "urn") return after(rest);
  if (NPM_LIFECYCLE.has(sub)) return { script: sub === "t" || sub === "tst" ? "test" : sub, args: rest.filter((x) => x !== "--"), dir };
  // pnpm/yarn/bun: an unknown command is a script name
  if (pm !== "npm" && !PM_COMMANDS.has(sub)) return { script: sub, args: rest, dir };
  return undefined;
}

const PM_COMMANDS = new Set(
  (
    "add install i remove rm uninstall un update up upgrade outdated list ls link unlink audit why info view " +
    "publish pack init create exec dlx x config set get login logout version help store import patch patch-commit prune rebuild " +
    "setup env cache dedupe licenses fetch deploy bin root doctor server workspaces workspace node global plugin constraints " +
    "explain dedupe npm pm build completions"
  ).split(" "),
);

export interface MakeRecipe {
  target: string;
  lines: string[];
}

/** Recipes run by `make T…` (prerequisites first), with simple variables expanded. Capped. */
export function makeRecipes(makefile: string, targets: string[], vars: Record<string, string> = {}): MakeRecipe[] | undefined {
  const text = makefile.replace(/\\\r?\n[ \t]*/g, " ");
  const rules = new Map<string, { prereqs: string[]; lines: string[] }>();
  const defs: Record<string, string> = {};
  let first: string | undefined;
  let current: { prereqs: string[]; lines: string[] }[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith("\t")) {
      for (const r of current) r.lines.push(line.slice(1));
      continue;
    }
    if (/^\s*(#|$)/.test(line)) continue;
    const def = /^\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*(?:[:+?!]?=|::=)\s*(.*)$/.exec(line);
    if (def) {
      defs[nth(def, 1)] = nth(def, 2);
      current = [];
      continue;
    }
    const rule = /^([^:=#]+?)\s*::?(?!=)\s*([^;#]*)(?:;(.*))?$/.exec(line);
    if (!rule) {
      current = [];
      continue;
    }
    current = [];
    for (const t of nth(rule, 1).trim().split(/\s+/)) {
      const r = rules.get(t) ?? { prereqs: [], lines: [] };
      r.prereqs.push(...nth(rule, 2).trim().split(/\s+/).filter(Boolean));
      if (rule[3]?.trim()) r.lines.push(rule[3].trim());
      rules.set(t, r);
      current.push(r);
      if (first === undefined && !t.startsWith(".") && !t.includes("%")) first = t;
    }
  }
  const want = targets.length ? targets : first ? [first] : [];
  const all = { ...defs, ...vars, MAKE: "make" };
  const out: MakeRecipe[] = [];
  const seen = new Set<string>();
  const visit = (t: string, depth: number) => {
    if (seen.has(t) || depth > 16 || out.length >= 64) return;
    seen.add(t);
    const r = rules.get(t);
    if (!r) return;
    for (const p of r.prereqs) visit(expandMake(p, all, t, r.prereqs), depth + 1);
    out.push({ target: t, lines: r.lines.map((l) => expandMake(l.replace(/^[@+\-\s]+/, ""), all, t, r.prereqs)) });
  };
  for (const t of want) visit(t, 0);
  return rules.size ? out : undefined;
}

/** `$(VAR)`, `${VAR}`, `$@`, `$<`, `$^`, `$$`: known ones replaced, unknown ones left for the shell (run-time). */
function expandMake(line: string, vars: Record<string, string>, target: string, prereqs: string[], depth = 0): string {
  return line.replace(/\$(\$|@|<|\^|\(([A-Za-z_][A-Za-z0-9_.-]*)\)|\{([A-Za-z_][A-Za-z0-9_.-]*)\})/g, (m, what: string, a?: string, b?: string) => {
    if (what === "$") return "$";
    if (what === "@") return target;
    if (what === "<") return prereqs[0] ?? "";
    if (what === "^") return prereqs.join(" ");
    const name = a ?? b ?? "";
    const v = Object.hasOwn(vars, name) ? vars[name] : undefined;
    return v !== undefined && depth < 8 ? expandMake(v, vars, target, prereqs, depth + 1) : m;
  });
}

export interface TclCommand {
  name: string;
  words: { text: string; dynamic: boolean }[];
}

/** Commands of a Tcl program (expect), top level only; `[…]` and `$var` words are run-time values. */
export function tclCommands(src: string): TclCommand[] {
  const out: TclCommand[] = [];
  let i = 0;
  const n = src.length;
  while (i < n && out.length < 1000) {
    const words: { text: string; dynamic: boolean }[] = [];
    while (i < n) {
      while (i < n && (src[i] === " " || src[i] === "\t" || (src[i] === "\\" && src[i + 1] === "\n"))) i += src[i] === "\\" ? 2 : 1;
      if (i >= n || src[i] === "\n" || src[i] === ";") {
        i++;
        break;
      }
      if (src[i] === "#" && words.length === 0) {
        while (i < n && src[i] !== "\n") i++;
        continue;
      }
      const w = tclWord(src, i);
      words.push(w.word);
      i = w.end;
    }
    if (words.length) out.push({ name: nth(words, 0).text, words: words.slice(1) });
  }
  return out;
}

function tclWord(src: string, i: number): { word: { text: string; dynamic: boolean }; end: number } {
  const c = src[i];
  if (c === "{") {
    let depth = 0;
    let j = i;
    for (; j < src.length; j++) {
      if (src[j] === "\\") {
        j++;
        continue;
      }
      if (src[j] === "{") depth++;
      else if (src[j] === "}" && --depth === 0) break;
    }
    return { word: { text: src.slice(i + 1, j), dynamic: false }, end: j + 1 };
  }
  let text = "";
  let dynamic = false;
  const quoted = c === '"';
  let j = quoted ? i + 1 : i;
  for (; j < src.length; j++) {
    const ch = nth(src, j);
    if (quoted ? ch === '"' : /[\s;]/.test(ch)) {
      if (quoted) j++;
      break;
    }
    if (ch === "\\" && j + 1 < src.length) {
      const e = nth(src, ++j);
      text += e === "r" || e === "n" ? "\n" : e === "t" ? "\t" : e;
      continue;
    }
    if (ch === "$") dynamic = true;
    if (ch === "[") {
      dynamic = true;
      let depth = 0;
      for (; j < src.length; j++) {
        if (src[j] === "[") depth++;
        else if (src[j] === "]" && --depth === 0) break;
      }
      continue;
    }
    text += ch;
  }
  return { word: { text, dynamic }, end: j };
}

/** The interpreter a script file names in its `#!` line (`bash`, `python3`, `node`; `env -S` handled). */
export function shebang(text: string): string | undefined {
  const m = /^#!\s*(\S+)(?:\s+(.*))?/.exec(text);
  if (!m) return undefined;
  const prog = nth(m, 1).slice(nth(m, 1).lastIndexOf("/") + 1);
  if (prog === "env") {
    const words = (m[2] ?? "").split(/\s+/).filter((w) => w && !w.startsWith("-") && !w.includes("="));
    return words[0];
  }
  return prog;
}

/** Files a unified diff changes: `+++ b/path` (and `--- a/path` for deletions), `-p` components stripped. */
/** git's C-quoted path (`"a/docs/\\147uide_RU.md"`): escapes and octal bytes decoded as UTF-8, as git apply and GNU patch do. */
function unquoteC(q: string): string {
  const bytes: number[] = [];
  const body = q.slice(1, -1);
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };
  for (let i = 0; i < body.length; i++) {
    const c = nth(body, i);
    if (c !== "\\") {
      bytes.push(...Buffer.from(c, "utf8"));
      continue;
    }
    const oct = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (oct) {
      bytes.push(parseInt(oct[0], 8));
      i += 3;
      continue;
    }
    const e = body[i + 1] ?? "";
    bytes.push(simple[e] ?? e.charCodeAt(0));
    i++;
  }
  return Buffer.from(bytes).toString("utf8");
}

/** A file name as a patch header gives it: C-quoted (`"a/x y"`) or a word. */
const patchName = (w: string): string => (w.startsWith('"') && w.endsWith('"') && w.length >= 2 ? unquoteC(w) : w);

export function patchedFiles(patch: string, strip: number): string[] {
  const out = new Set<string>();
  let from: string | undefined;
  for (const raw of patch.split(/\r?\n/)) {
    // quoted names are decoded first; the rest of the parser reads plain words
    const line = raw.includes('"') ? raw.replace(/"(?:[^"\\]|\\.)*"/g, (q) => patchName(q)) : raw;
    const minus = /^--- (\S+)/.exec(line);
    if (minus) {
      from = minus[1];
      continue;
    }
    const plus = /^\+\+\+ (\S+)/.exec(line);
    if (plus) {
      const target = plus[1] === "/dev/null" ? from : plus[1];
      if (target && target !== "/dev/null") out.add(target.split("/").slice(strip).join("/") || target);
      continue;
    }
    const git = /^diff --git a\/(\S+) b\/(\S+)/.exec(line);
    if (git && strip >= 1) {
      out.add(nth(git, 2));
      if (git[1] !== git[2]) out.add(nth(git, 1));
    }
    const rename = /^rename (from|to) (\S+)/.exec(line);
    if (rename) out.add(nth(rename, 2));
  }
  return [...out];
}
