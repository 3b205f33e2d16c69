// Inline programs: `python -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`, and
// here-docs or here-strings fed to an interpreter. We cannot run them, so we
// read them for two things only, both by the calls they make:
//
// Writes. A path counts as written when
//  1. it is a string literal handed as the path to a call that opens a file
//     for writing or changes/removes it (open(f, 'w'), fs.writeFileSync(f),
//     Path(f).write_text, File.write, open(FH, '>f'), os.remove, ...);
//  2. or such a call gets a computed path (a variable, f-string, template,
//     path.join...): then every path-like string literal in the program counts
//     as written (`p = 'a_RU.md'; open(p, 'w')`), or `<dynamic>` if none.
// Reading calls (open(f), readFileSync) write nothing.
//
// Commands. os.system('...'), subprocess.run([...]), execSync('...'),
// system('...'), perl/ruby backticks and `system "…"`, Deno.Command, Bun.spawn,
// os.exec*/spawn*, pty.spawn: a literal command is analysed like `bash -c`; a
// computed one makes the whole command opaque. Aliased imports (`import
// subprocess as sp`, `from os import system as s`, `const {execSync: x} =
// require('child_process')`, `__import__('os')`) are undone first, and a
// process-starting name used in a way we cannot read (`f = subprocess.run`,
// `getattr(os, 'system')`) is opaque rather than ignored.
//
// awk, sed and vim programs are read too: awk `system()`, `print | "cmd"`,
// `print > "file"`; sed `e`, `s///e`, `w file`; vim `:!cmd`, `:w file`.
import { nth } from "./nth.js";
import type { PathArg } from "./model.js";
import { lookup } from "./wrappers.js";

/** Which argument of a call is the written path; "open" decides from the mode. */
type Target = "first" | "both" | "second" | "open" | "receiver";

const CALLS: Record<string, Target> = {
  // node fs: distinctive names, with or without `fs.`
  writeFile: "first",
  writeFileSync: "first",
  appendFile: "first",
  appendFileSync: "first",
  createWriteStream: "first",
  truncateSync: "first",
  rmSync: "first",
  unlinkSync: "first",
  rmdirSync: "first",
  mkdirSync: "first",
  renameSync: "both",
  copyFileSync: "second",
  cpSync: "second",
  openSync: "open",
  "fs.rm": "first",
  "fs.unlink": "first",
  "fs.truncate": "first",
  "fs.rmdir": "first",
  "fs.mkdir": "first",
  "fs.rename": "both",
  "fs.copyFile": "second",
  "fs.cp": "second",
  "fs.open": "open",
  // python
  open: "open",
  "io.open": "open",
  "codecs.open": "open",
  "os.remove": "first",
  "os.unlink": "first",
  "os.rmdir": "first",
  "os.removedirs": "first",
  "os.mkdir": "first",
  "os.makedirs": "first",
  "shutil.rmtree": "first",
  "os.rename": "both",
  "os.replace": "both",
  "shutil.move": "both",
  "shutil.copy": "second",
  "shutil.copy2": "second",
  "shutil.copyfile": "second",
  "shutil.copytree": "second",
  write_text: "receiver",
  write_bytes: "receiver",
  touch: "receiver",
  // ruby
  "File.write": "first",
  "File.delete": "first",
  "File.unlink": "first",
  "File.open": "open",
  "File.rename": "both",
  "FileUtils.rm": "first",
  "FileUtils.rm_f": "first",
  "FileUtils.rm_rf": "first",
  "FileUtils.touch": "first",
  "FileUtils.mv": "both",
  "FileUtils.cp": "second",
  // perl, php
  unlink: "first",
  rename: "both",
  file_put_contents: "first",
  fopen: "open",
  copy: "second",
  // ruby IO, deno, bun, python os
  "IO.write": "first",
  "IO.binwrite": "first",
  "File.new": "open",
  "File.binwrite": "first",
  "FileUtils.mkdir_p": "first",
  "FileUtils.cp_r": "second",
  "FileUtils.ln_s": "second",
  "Deno.writeTextFile": "first",
  "Deno.writeFile": "first",
  "Deno.writeTextFileSync": "first",
  "Deno.writeFileSync": "first",
  "Deno.remove": "first",
  "Deno.removeSync": "first",
  "Deno.rename": "both",
  "Deno.renameSync": "both",
  "Deno.copyFile": "second",
  "Deno.copyFileSync": "second",
  "Deno.create": "first",
  "Deno.open": "open",
  "Bun.write": "first",
  "os.truncate": "first",
  "os.symlink": "second",
  "os.link": "second",
  "shutil.copyfileobj": "second",
  // metadata changes (mtime, mode) are changes too
  "os.utime": "first",
  "os.chmod": "first",
  "os.chown": "first",
  "os.lchown": "first",
  utimesSync: "first",
  lutimesSync: "first",
  chmodSync: "first",
  chownSync: "first",
  symlinkSync: "second",
  linkSync: "second",
  "fs.utimes": "first",
  "fs.chmod": "first",
  "fs.chown": "first",
  "fs.symlink": "second",
  "fs.link": "second",
  "fs.writeFile": "first",
  "fs.appendFile": "first",
};

/** How a call runs a command: a shell string, or a program and its argument list. */
type Spawn = "shell" | "argv" | "execl" | "execv" | "spawnl" | "spawnv" | "deno" | "list" | "program";

const SPAWNS: Record<string, Spawn> = {
  // bare names: perl, ruby, php builtins and destructured child_process functions
  system: "shell",
  exec: "shell",
  shell_exec: "shell",
  passthru: "shell",
  popen: "shell",
  execSync: "shell",
  execFileSync: "argv",
  execFile: "argv",
  spawnSync: "argv",
  spawn: "argv",
  "os.system": "shell",
  "os.popen": "shell",
  "subprocess.run": "argv",
  "subprocess.call": "argv",
  "subprocess.check_call": "argv",
  "subprocess.check_output": "argv",
  "subprocess.Popen": "argv",
  "subprocess.getoutput": "shell",
  "subprocess.getstatusoutput": "shell",
  "child_process.exec": "shell",
  "child_process.execSync": "shell",
  "child_process.spawn": "argv",
  "child_process.spawnSync": "argv",
  "child_process.execFile": "argv",
  "child_process.execFileSync": "argv",
  "Open3.capture2": "shell",
  "Open3.capture3": "shell",
  "Open3.capture2e": "shell",
  "Open3.popen3": "shell",
  "Open3.popen2": "shell",
  "Kernel.system": "shell",
  "Kernel.exec": "shell",
  "Kernel.spawn": "shell",
  "Process.spawn": "shell",
  "IO.popen": "shell",
  "PTY.spawn": "shell",
  "os.execl": "execl",
  "os.execle": "execl",
  "os.execlp": "execl",
  "os.execlpe": "execl",
  "os.execv": "execv",
  "os.execve": "execv",
  "os.execvp": "execv",
  "os.execvpe": "execv",
  "os.posix_spawn": "execv",
  "os.posix_spawnp": "execv",
  "os.spawnl": "spawnl",
  "os.spawnle": "spawnl",
  "os.spawnlp": "spawnl",
  "os.spawnlpe": "spawnl",
  "os.spawnv": "spawnv",
  "os.spawnve": "spawnv",
  "os.spawnvp": "spawnv",
  "os.spawnvpe": "spawnv",
  "pty.spawn": "list",
  "commands.getoutput": "shell",
  "commands.getstatusoutput": "shell",
  "subprocess.check_output_": "argv",
  "child_process.fork": "argv",
  "Deno.Command": "deno",
  "Deno.run": "deno",
  "Bun.spawn": "list",
  "Bun.spawnSync": "list",
  "os.execute": "shell",
  "io.popen": "shell",
  proc_open: "shell",
  pcntl_exec: "argv",
  system2: "argv",
  "asyncio.create_subprocess_shell": "shell",
  "asyncio.create_subprocess_exec": "program",
  readpipe: "shell",
};

const CALL_SITE =
  /(?:\b(os|shutil|fs|fsp|promises|File|FileUtils|IO|io|codecs|subprocess|child_process|cp|Open3|Kernel|Process|PTY|pty|commands|Deno|Bun|asyncio)\s*\.\s*)?(\.\s*)?\b([A-Za-z_]\w*)\s*\(/g;
const LITERAL = /^\s*(?:[rRbBuU]{0,2})(['"`])([^'"`]*)\1\s*$/;
const ANY_LITERAL = /(?:\b[fFrRbBuU]{1,2})?(['"`])([^'"`\n]*)\1/g;
const PATHLIKE = /(^|\/)[^/\s]+\.[A-Za-z0-9]{1,8}$/;

interface Call<T> {
  kind: T;
  /** Offset of the call in the program. */
  at: number;
  /** The call's name as written (`fs.writeFileSync`). */
  name: string;
  args: string[];
  /** Text just before the call (for `Path('f').write_text`). */
  before: string;
}

/** Past this many file or process calls the program is not read further: it counts as computed. */
const MAX_CALLS = 1000;

/**
 * The calls of `table` in the program: `qualifier.name(args)`, or a bare
 * `name(args)`; on any other receiver (`x.exec()` on a RegExp) only names
 * `receiverOk` accepts. Null when there are too many to read.
 */
function callsOf<T>(code: string, table: Record<string, T>, receiverOk: (name: string) => boolean): Call<T>[] | null {
  const out: Call<T>[] = [];
  for (const m of code.matchAll(CALL_SITE)) {
    const qualifier = m[1] === "fsp" || m[1] === "promises" ? "fs" : m[1] === "cp" ? "child_process" : m[1];
    const name = nth(m, 3);
    const kind = qualifier
      ? (lookup(table, `${qualifier}.${name}`) ?? (qualifier === "fs" && receiverOk(name) ? lookup(table, name) : undefined))
      : m[2]
        ? receiverOk(name)
          ? lookup(table, name)
          : undefined
        : lookup(table, name);
    if (kind === undefined) continue;
    if (out.length >= MAX_CALLS) return null;
    const start = m.index;
    if (start === undefined) continue; // matchAll always sets it; the type does not say so
    const end = start + m[0].length;
    const nameAt = start + m[0].lastIndexOf(name);
    out.push({
      kind,
      at: start,
      name: qualifier ? `${qualifier}.${name}` : name,
      args: callArgs(code, end),
      before: code.slice(Math.max(0, nameAt - 300), nameAt),
    });
  }
  return out;
}

/** Node's fs names are distinctive enough to trust on any receiver (`require('fs').writeFileSync`). */
const distinctive = (name: string): boolean => /Sync$|File|Stream|^write_|^touch$|^open$/.test(name);

export function inlineWrites(code: string): PathArg[] {
  const out: PathArg[] = [];
  // python os.open(path, flags) with a writing flag
  for (const m of code.matchAll(/\bos\s*\.\s*open\s*\(\s*(['"])([^'"]+)\1\s*,([^)]*)\)/g))
    if (/O_(WRONLY|RDWR|CREAT|TRUNC|APPEND)/.test(nth(m, 3))) out.push({ path: nth(m, 2), dynamic: false });
  // perl without parentheses: unlink "f"; rename "a", "b"
  for (const m of code.matchAll(/\b(unlink|rename)\s+(?!\()((?:(['"])[^'"]*\3\s*,?\s*)+)/g))
    for (const x of nth(m, 2).matchAll(/(['"])([^'"]*)\1/g)) out.push({ path: nth(x, 2), dynamic: false });
  // tcl: open NAME w|a|RDWR…
  for (const m of code.matchAll(/\[\s*open\s+("?)([^\s"\]]+)\1\s+("?)(w|a|w\+|a\+|r\+|[A-Z_| ]*(WRONLY|RDWR|CREAT|TRUNC|APPEND)[A-Z_| ]*)\3/g))
    out.push({ path: nth(m, 2), dynamic: false });
  // perl without parentheses: open F, ">", "f" / open my $fh, ">f"
  for (const m of code.matchAll(/\bopen\s+(?:my\s+)?[$\w]+\s*,\s*(?:(['"])\s*\+?>{1,2}\s*\1\s*,\s*(['"])([^'"]+)\2|(['"])\s*\+?>{1,2}\s*([^'"]+)\4)/g)) {
    out.push({ path: (m[3] ?? m[5] ?? "").trim(), dynamic: false });
  }
  // Path('f').unlink(), P("f").rename(…), any one-literal receiver with a changing method
  for (const m of code.matchAll(
    /\b\w+\(\s*(['"])([^'"]+)\1\s*\)\s*\.\s*(unlink|rmdir|chmod|lchmod|rename|replace|symlink_to|hardlink_to|touch|write_text|write_bytes)\s*\(/g,
  ))
    out.push({ path: nth(m, 2), dynamic: false });
  // fileinput.input("f", inplace=True) rewrites its files
  for (const m of code.matchAll(/\bfileinput\s*\.\s*(?:input|FileInput)\s*\(([^)]*)\)/g)) {
    if (/inplace\s*=\s*(True|1)/.test(nth(m, 1))) for (const x of nth(m, 1).matchAll(/(['"])([^'"]+)\1/g)) out.push({ path: nth(x, 2), dynamic: false });
  }
  // perl builtins without parentheses: truncate "f", 0; utime undef, undef, "f"; chmod 0644, "f"
  for (const m of code.matchAll(/\b(truncate|utime|chmod|chown)\b\s*\(?([^;)]*)/g))
    for (const x of nth(m, 2).matchAll(/(['"])([^'"]+)\1/g)) if (isPathLike(nth(x, 2))) out.push({ path: nth(x, 2), dynamic: false });
  const found = callsOf(jsFsAliases(code), CALLS, distinctive);
  let computed = found === null;
  for (const c of found ?? []) {
    for (const p of writtenArgs(c.kind, c.args, c.before)) {
      if (p === undefined) continue; // no such argument: not a file call after all
      const lit = literal(p);
      if (lit !== undefined) out.push({ path: lit, dynamic: false });
      else computed = true;
    }
  }
  if (computed) {
    const literals = [...code.matchAll(ANY_LITERAL)].map((l) => nth(l, 2)).filter(isPathLike);
    out.push(...(literals.length ? literals.map((p) => ({ path: p, dynamic: false })) : [{ path: "<computed in the program>", dynamic: true }]));
  }
  return out;
}

/** Destructured fs functions (`const { writeFileSync: w } = require(…fs…)`, `import { rmSync as r } …`): `w(` is `writeFileSync(`. */
function jsFsAliases(code: string): string {
  if (!/['"](?:node:)?fs(?:\/promises)?['"]/.test(code)) return code;
  let c = code;
  const mod = /['"](?:node:)?fs(?:\/promises)?['"]/.source;
  for (const m of code.matchAll(
    new RegExp(`(?:(?:const|let|var)\\s*\\{([^}]*)\\}\\s*=\\s*require\\s*\\(\\s*${mod}\\s*\\)|import\\s*\\{([^}]*)\\}\\s*from\\s*${mod})`, "g"),
  )) {
    for (const item of (m[1] ?? m[2] ?? "").split(",")) {
      const [name, as] = item.trim().split(/\s*(?::|\bas\b)\s*/);
      if (name && as && /^\w+$/.test(name) && /^\w+$/.test(as)) c = c.replace(new RegExp(`(?<![\\w.])${as}\\s*\\(`, "g"), `fs.${name}(`);
    }
  }
  return c;
}

export interface InlineCommands {
  /** Shell command lines the program runs, to analyse like `bash -c`. */
  scripts: string[];
  /** Set when the program runs a command built at run time. */
  opaque?: string;
}

/** Language family of an interpreter name (`python3.12` → python, `nodejs`/`deno`/`bun` → node). */
export function languageOf(name: string): string {
  if (/^(python|pypy)/.test(name)) return "python";
  if (/^(node|nodejs|deno|bun|tsx|ts-node)$/.test(name)) return "node";
  if (name === "luajit") return "lua";
  return name;
}

/** Names that start processes, per language, in uses (not imports): each must be a call we could read. */
const SPAWN_USES: Record<string, RegExp> = {
  python:
    /\b(exec|eval)\s*\(\s*(?![rbuf]?['"\s])|\bsubprocess\s*\.\s*(?!__)\w+|\basyncio\s*\.\s*create_subprocess\w*|\bsys\s*\.\s*modules\b|\bos\s*\.\s*(system|popen|exec\w*|spawn\w*|posix_spawnp?)\b|\bpty\s*\.\s*spawn\b|\bcommands\s*\.\s*get\w+|\bgetattr\s*\(\s*(os|subprocess|pty)\b|\bctypes\b|\bimportlib\b|__import__\s*\(\s*[^'"\s]/g,
  node: /\b(eval|Function)\s*\(\s*(?!['"`\s])|\bchild_process\s*\.\s*\w+|\bDeno\s*\.\s*(Command|run)\b|\bBun\s*\.\s*(spawn|spawnSync)\b|\bprocess\s*\.\s*binding\b|\brequire\s*\(\s*[^'"\s)]/g,
  perl: /\b(system|exec|readpipe)\b|\bqx\s*[^\w\s]|\bopen\s*\(?[^;]*['"]\s*(-\||\|-)|`/g,
  ruby: /\b(system|exec|spawn|IO\s*\.\s*popen|Open3\s*\.\s*\w+|Process\s*\.\s*spawn|PTY\s*\.\s*spawn)\b|%x\s*[^\w\s]|`|\.send\s*\(\s*:(system|exec|spawn)/g,
  lua: /\bos\s*\.\s*execute\b|\bio\s*\.\s*popen\b/g,
  php: /\b(system|exec|shell_exec|passthru|proc_open|popen|pcntl_exec)\b|`/g,
  Rscript: /\bsystem2?\b/g,
};

/** Undo aliasing so calls are found under their real names. */
function normalize(code: string, lang: string): string {
  let c = code.length > 262_144 ? code.slice(0, 262_144) : code;
  if (lang === "python") {
    // `posix` is the module os re-exports on Unix: posix.system, from posix import execv
    c = c.replace(/(?<![\w.'"])posix(?![\w'"])/g, "os");
    c = c
      .replace(/__import__\s*\(\s*['"](\w+)['"]\s*\)/g, "$1")
      .replace(/importlib\s*\.\s*import_module\s*\(\s*['"](\w+)['"]\s*\)/g, "$1")
      .replace(/\bsys\s*\.\s*modules\s*\[\s*['"](\w+)['"]\s*\]/g, "$1");
    // `from subprocess import *`: the module's process functions are bare names now
    for (const m of c.matchAll(/(?:^|[;\n])\s*from\s+(subprocess|os|pty|asyncio)\s+import\s+\*/g)) {
      const names = STAR_NAMES[nth(m, 1)] ?? [];
      c = c.replace(new RegExp(`(?<![\\w.])(${names.join("|")})\\s*\\(`, "g"), `${m[1]}.$1(`);
    }
    const renames: [string, string][] = [];
    for (const m of c.matchAll(/(?:^|;)\s*import\s+([\w.]+)\s+as\s+(\w+)/gm)) renames.push([`${m[2]}.`, `${m[1]}.`]);
    for (const m of c.matchAll(/(?:^|;)\s*from\s+([\w.]+)\s+import\s+\(?([^)\n;]+)\)?/gm)) {
      for (const item of nth(m, 2).split(",")) {
        const [name, as] = item.trim().split(/\s+as\s+/);
        if (name && /^\w+$/.test(name)) renames.push([`${as ?? name}(`, `${m[1]}.${name}(`]);
      }
    }
    // `sp = subprocess`, `s = __import__('subprocess')` (already undone above)
    for (const m of c.matchAll(/(?:^|[;\n])\s*(\w+)\s*=\s*(subprocess|os|pty)\s*(?=$|[;\n])/gm)) renames.push([`${m[1]}.`, `${m[2]}.`]);
    for (const [from, to] of renames) c = c.replace(new RegExp(`(?<![\\w.])${escape(from)}`, "g"), to);
  }
  if (lang === "node") {
    const mod = /['"](?:node:)?child_process['"]/.source;
    c = c.replace(new RegExp(`require\\s*\\(\\s*${mod}\\s*\\)\\s*\\.\\s*`, "g"), "child_process.");
    const renames: [string, string][] = [];
    for (const m of c.matchAll(new RegExp(`(?:const|let|var)\\s+(\\w+)\\s*=\\s*(?:await\\s+import|require)\\s*\\(\\s*${mod}\\s*\\)`, "g")))
      renames.push([`${m[1]}.`, "child_process."]);
    for (const m of c.matchAll(new RegExp(`import\\s+(?:\\*\\s+as\\s+)?(\\w+)\\s+from\\s*${mod}`, "g"))) renames.push([`${m[1]}.`, "child_process."]);
    for (const m of c.matchAll(
      new RegExp(`(?:(?:const|let|var)\\s*\\{([^}]*)\\}\\s*=\\s*require\\s*\\(\\s*${mod}\\s*\\)|import\\s*\\{([^}]*)\\}\\s*from\\s*${mod})`, "g"),
    )) {
      for (const item of (m[1] ?? m[2] ?? "").split(",")) {
        const [name, as] = item.trim().split(/\s*(?::|\bas\b)\s*/);
        if (name && as && /^\w+$/.test(as)) renames.push([`${as}(`, `child_process.${name}(`]);
      }
    }
    for (const [from, to] of renames) c = c.replace(new RegExp(`(?<![\\w.])${escape(from)}`, "g"), to);
  }
  return c;
}

/** Process functions a star import brings in as bare names. */
const STAR_NAMES: Record<string, string[]> = {
  subprocess: ["run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput"],
  os: [
    "system",
    "popen",
    "execl",
    "execle",
    "execlp",
    "execlpe",
    "execv",
    "execve",
    "execvp",
    "execvpe",
    "spawnl",
    "spawnle",
    "spawnlp",
    "spawnlpe",
    "spawnv",
    "spawnve",
    "spawnvp",
    "spawnvpe",
    "posix_spawn",
    "posix_spawnp",
  ],
  pty: ["spawn"],
  asyncio: ["create_subprocess_shell", "create_subprocess_exec"],
};

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function inlineCommands(code: string, interpreter = "python"): InlineCommands {
  const lang = languageOf(interpreter);
  const c = normalize(code, lang);
  const out: InlineCommands = { scripts: [] };
  const found = callsOf(c, SPAWNS, (n) => /Sync$|^execFile$/.test(n));
  if (found === null) return { scripts: [], opaque: `the inline program makes more than ${MAX_CALLS} process calls` };
  const read = new Set<number>();
  for (const call of found) {
    read.add(call.at);
    const line = commandLine(call.kind, call.args);
    if (line === undefined) out.opaque = `${call.name}() in an inline program runs a command built at run time`;
    else out.scripts.push(line);
  }
  // perl/ruby/php: backticks, qx{}, %x(), `system "…"` without parentheses, open with a pipe
  if (lang === "perl" || lang === "ruby" || lang === "php") {
    for (const m of c.matchAll(/`([^`]*)`|\b(?:qx|%x)\s*(?:\{([^}]*)\}|\(([^)]*)\)|\[([^\]]*)\]|([^\w\s])([\s\S]*?)\5)/g)) {
      read.add(m.index);
      const body = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[6] ?? "";
      out.scripts.push(interpolated(body));
    }
    for (const m of c.matchAll(/\b(system|exec|spawn)\b(?!\s*\()\s*((?:(['"])(?:[^'"\\]|\\.)*\3\s*,?\s*)+)/g)) {
      read.add(m.index);
      const items = [...nth(m, 2).matchAll(/(['"])((?:[^'"\\]|\\.)*)\1/g)].map((x) => (x[1] === '"' ? interpolated(nth(x, 2)) : nth(x, 2)));
      out.scripts.push(items.length > 1 ? items.map(shellQuote).join(" ") : (items[0] ?? ""));
    }
    for (const m of c.matchAll(
      /\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*(['"])(-\||\|-)\1\s*,\s*((?:(['"])[^'"]*\4\s*,?\s*)+)|\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*(['"])\s*\|?\s*([^'"|]+?)\s*\|?\s*\5/g,
    )) {
      if (m[2]) {
        read.add(m.index);
        out.scripts.push([...nth(m, 3).matchAll(/(['"])([^'"]*)\1/g)].map((x) => nth(x, 2)).join(" "));
      } else if ((m[6] && /^\s*['"]?\s*\|/.test(m[0].split(/,/)[1] ?? "")) || (m[6] && /\|\s*['"]\s*\)?\s*$/.test(m[0]))) {
        read.add(m.index);
        out.scripts.push(m[6]);
      }
    }
  }
  // julia: run(`git commit`)
  if (lang === "julia")
    for (const m of c.matchAll(/`([^`]*)`/g)) {
      read.add(m.index);
      out.scripts.push(interpolated(nth(m, 1)));
    }
  // emacs --eval: (shell-command "…"); other process calls are not read
  if (lang === "emacs") {
    for (const m of c.matchAll(/\((?:async-)?shell-command(?:-to-string)?\s+"((?:[^"\\]|\\.)*)"/g)) {
      read.add(m.index);
      out.scripts.push(nth(m, 1).replace(/\\"/g, '"'));
    }
    if (
      /\((call-process|start-process|make-process|process-file|shell-command)\b/.test(
        c.replace(/\((?:async-)?shell-command(?:-to-string)?\s+"(?:[^"\\]|\\.)*"/g, ""),
      )
    )
      out.opaque = "emacs starts a process we cannot read";
  }
  // zx / Bun shell: $`git commit`
  if (lang === "node")
    for (const m of c.matchAll(/(?:\bBun\s*\.\s*)?\$`([^`]*)`/g)) {
      read.add(m.index);
      out.scripts.push(nth(m, 1).replace(/\$\{[^}]*\}/g, '"$JS_VALUE"'));
    }
  if (lang === "osascript") for (const m of c.matchAll(/do shell script\s+"((?:[^"\\]|\\.)*)"/g)) out.scripts.push(nth(m, 1).replace(/\\"/g, '"'));
  // a process-starting name used in a way we could not read
  const uses = lookup(SPAWN_USES, lang);
  if (uses && !out.opaque) {
    for (const m of c.matchAll(uses)) {
      const near = [...read].some((at) => Math.abs(at - m.index) <= 40);
      if (!near && !found.some((f) => f.at <= m.index && m.index <= f.at + f.name.length + 2)) {
        out.opaque = `${m[0].trim().slice(0, 40)} in an inline program starts a process we cannot read`;
        break;
      }
    }
  }
  // node: the process module is loaded but no call of it could be read (`require('child_process')['exec' + 'Sync']`)
  if (lang === "node" && /['"](?:node:)?child_process['"]/.test(c) && found.length === 0 && out.scripts.length === 0) {
    out.opaque ??= "the inline program loads child_process but no call of it could be read";
  }
  return out;
}

/** A perl/ruby string with interpolation: `#{x}` and `$x` become a shell run-time value. */
function interpolated(s: string): string {
  return s.replace(/#\{[^}]*\}/g, '"$INTERPOLATED"').replace(/\$(\w+|\{[^}]*\})/g, '"$INTERPOLATED"');
}

export interface ProgramEffects {
  scripts: string[];
  writes: PathArg[];
  opaque?: string;
}

/** awk: `system("cmd")`, `print | "cmd"`, `"cmd" | getline`, `print > "file"`. */
export function awkProgram(prog: string): ProgramEffects {
  const out: ProgramEffects = { scripts: [], writes: [] };
  const str = /"((?:[^"\\]|\\.)*)"/.source;
  let literal = 0;
  for (const m of prog.matchAll(new RegExp(`\\bsystem\\s*\\(\\s*${str}\\s*\\)`, "g"))) {
    out.scripts.push(unescapeC(nth(m, 1)));
    literal++;
  }
  if ((prog.match(/\bsystem\s*\(/g)?.length ?? 0) > literal) out.opaque = "awk system() runs a command built at run time";
  for (const m of prog.matchAll(new RegExp(`\\|&?\\s*${str}`, "g"))) out.scripts.push(unescapeC(nth(m, 1)));
  for (const m of prog.matchAll(new RegExp(`${str}\\s*\\|&?\\s*getline`, "g"))) out.scripts.push(unescapeC(nth(m, 1)));
  if (/\|&?\s*(?![\s"]|getline)[A-Za-z_$(]/.test(prog.replace(/\|\|/g, ""))) out.opaque ??= "awk pipes to a command built at run time";
  // `print "git commit" | "sh"`: the printed text is the program
  if (out.scripts.some((s) => /^\s*(\S*\/)?(ba|da|z|k|mk|a)?sh(\s+-[a-z]*)?\s*$/.test(s))) out.opaque ??= "awk prints into a shell";
  for (const m of prog.matchAll(new RegExp(`\\b(?:print|printf)\\b[^;}\\n|]*?(>>?)\\s*(?:${str}|([A-Za-z_$][\\w$]*|\\())`, "g"))) {
    if (m[2] !== undefined) out.writes.push({ path: unescapeC(m[2]), dynamic: false });
    else out.writes.push({ path: "<awk output file>", dynamic: true, pattern: "*" });
  }
  return out;
}

const unescapeC = (s: string): string => s.replace(/\\(.)/g, (_m, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : c));

/** sed: `e cmd`, `s/…/…/e` (runs the pattern space), `w file`, `s/…/…/w file`. */
export function sedProgram(script: string): ProgramEffects {
  const out: ProgramEffects = { scripts: [], writes: [] };
  // s and y commands first (their text may hold any letter), then the rest
  const rest = script.replace(
    /(^|[;\n{}!\s\d$/,])(s|y)([^\w\s\\;])((?:\\.|(?!\3)[^\\])*)\3((?:\\.|(?!\3)[^\\])*)\3([^;\n}]*)/g,
    (_m, pre: string, cmd: string, _d: string, _a: string, _b: string, flags: string) => {
      if (cmd === "s") {
        const f = /^([gpiImM0-9e]*)\s*(?:([wW])\s*(.*))?$/.exec(flags);
        if (f?.[1]?.includes("e")) out.opaque = "sed s///e runs the pattern space as a command";
        if (f?.[3]) out.writes.push(sedFile(f[3]));
      }
      return `${pre};`;
    },
  );
  for (const m of rest.matchAll(
    /(?:^|[;\n{}])\s*(?:(?:\d+|\$|\/(?:\\.|[^/\\])*\/)(?:\s*,\s*(?:\d+|\$|\/(?:\\.|[^/\\])*\/))?)?\s*!?\s*([ewW])(?:\s+([^\n;}]*)|(?=[;\n}]|$))/g,
  )) {
    const arg = (m[2] ?? "").trim();
    if (m[1] === "e") {
      if (arg) out.scripts.push(arg);
      else out.opaque = "sed e runs the pattern space as a command";
    } else if (arg) out.writes.push(sedFile(arg));
  }
  return out;
}

function sedFile(name: string): PathArg {
  const f = name.trim();
  return { path: f, dynamic: false };
}

/** vim/ex commands from `-c`/`+`: `!cmd`, `r !cmd`, `w !cmd`, `call system('…')`, `w file`, `saveas file`. */
export function vimCommands(text: string, buffer: { current?: string } = {}): ProgramEffects {
  const out: ProgramEffects = { scripts: [], writes: [] };
  for (const raw of splitBar(text)) {
    let c = raw.replace(/^[\s:]+/, "").replace(/^(silent!?|sil!?|exe(cute)?\s+)\s*/, "");
    // `exe "!cmd"`: a single string literal is the command; an expression is computed
    if (/^exe(cute)?\s/.test(raw.replace(/^[\s:]+/, "").replace(/^(silent!?|sil!?)\s*/, ""))) {
      const lit = /^(['"])((?:(?!\1)[^\\]|\\.)*)\1\s*$/.exec(c);
      if (lit) c = nth(lit, 2).replace(/\\(.)/g, "$1");
      else {
        out.opaque = "vim :execute runs a command built at run time";
        continue;
      }
    }
    let m: RegExpExecArray | null;
    if ((m = /^[\d,.$%]*\s*!([\s\S]*)$/.exec(c)) || (m = /^r(?:ead)?\s*!([\s\S]*)$/.exec(c)) || (m = /^w(?:rite)?\s+!([\s\S]*)$/.exec(c))) {
      out.scripts.push(nth(m, 1));
      return out; // `!` takes the rest of the line, bars included
    }
    if ((m = /^ter(?:minal)?\s+([\s\S]*)$/.exec(c))) {
      out.scripts.push(nth(m, 1));
      return out;
    }
    const sys = /\bsystem(?:list)?\s*\(\s*(['"])(.*?)\1\s*\)/.exec(c);
    if (sys) out.scripts.push(nth(sys, 2));
    else if (/\bsystem(?:list)?\s*\(/.test(c)) out.opaque = "vim system() runs a command built at run time";
    if ((m = /^(?:w(?:rite)?|sav(?:eas)?|wq?a?|x(?:it)?|up(?:date)?)!?\s+(?!!)(\S+)/.exec(c))) out.writes.push({ path: nth(m, 1), dynamic: false });
    // `e FILE` makes FILE the buffer a bare `w`/`x`/`wq`/`up` then writes
    else if ((m = /^e(?:dit)?!?\s+(\S+)/.exec(c))) buffer.current = nth(m, 1);
    else if (buffer.current && /^(?:w(?:rite)?|wq?a?|x(?:it|a)?|up(?:date)?)!?\s*$/.test(c)) out.writes.push({ path: buffer.current, dynamic: false });
  }
  return out;
}

/** vim's `|` separates commands (`\|` is a literal bar). */
function splitBar(s: string): string[] {
  return s.split(/(?<!\\)\|/);
}

/** Program path and argv (argv[0] first): git dispatches on argv[0], so `git-commit` as argv[0] runs `git commit`. */
function withArgv0(program: string, argv: string[]): string[] {
  const a0 = (argv[0] ?? "").replace(/^.*\//, "");
  if (/(^|\/)git$/.test(program) && /^git-[a-z-]+$/.test(a0)) return [program, a0.slice(4), ...argv.slice(1)];
  return [program, ...argv.slice(1)];
}

/** The shell line a spawn call runs, when it is spelled with literals. */
function commandLine(kind: Spawn, args: string[]): string | undefined {
  const lits = (xs: string[]): string[] | undefined => {
    const l = xs.map(literal);
    return l.every((x) => x !== undefined) ? (l as string[]) : undefined;
  };
  const argvLine = (xs: string[] | undefined): string | undefined => (xs && xs.length ? xs.map(shellQuote).join(" ") : undefined);
  const listOf = (a: string | undefined): string[] | undefined => {
    const m = a === undefined ? null : /^\s*\[([\s\S]*)\]\s*$/.exec(a);
    return m ? lits(splitTop(nth(m, 1)).filter((x) => x.trim() !== "")) : undefined;
  };
  // os.execl(path, arg0, arg1…): the program is the path, argv[0] is a name only
  if (kind === "execl") {
    const p = literal(args[0]);
    const rest = lits(args.slice(1));
    return p && rest ? argvLine(withArgv0(p, rest)) : undefined;
  }
  // asyncio.create_subprocess_exec(program, *args, stdout=…)
  if (kind === "program") return argvLine(lits(args.filter((a) => !/^\s*\w+\s*=/.test(a))));
  if (kind === "execv") {
    const p = literal(args[0]);
    const l = listOf(args[1]);
    return p && l ? argvLine(withArgv0(p, l)) : undefined;
  }
  if (kind === "spawnl") {
    const p = literal(args[1]);
    const rest = lits(args.slice(2));
    return p && rest ? argvLine(withArgv0(p, rest)) : undefined;
  }
  if (kind === "spawnv") {
    const p = literal(args[1]);
    const l = listOf(args[2]);
    return p && l ? argvLine(withArgv0(p, l)) : undefined;
  }
  if (kind === "list") {
    const l = listOf(args[0]);
    if (l) return argvLine(l);
    const s = literal(args[0]);
    return s !== undefined ? argvLine([s, ...(lits(args.slice(1).filter((x) => !/^\s*\{/.test(x))) ?? [])]) : undefined;
  }
  if (kind === "deno") {
    // new Deno.Command('git', { args: ['commit'] }); Deno.run({ cmd: ['git', 'commit'] })
    const p = literal(args[0]);
    const obj = args.find((a) => /^\s*\{/.test(a)) ?? "";
    const key = /\b(args|cmd)\s*:\s*(\[[^\]]*\])/.exec(obj);
    if (p !== undefined) return key ? argvLine([p, ...(listOf(key[2]) ?? ["$JS_VALUE"])]) : argvLine([p]);
    return key && key[1] === "cmd" ? argvLine(listOf(key[2])) : undefined;
  }
  const first = literal(args[0]);
  const list = (a: string | undefined): string[] | undefined => {
    const m = a === undefined ? null : /^\s*\[([\s\S]*)\]\s*$/.exec(a);
    if (!m) return undefined;
    const items = splitTop(nth(m, 1))
      .filter((x) => x.trim() !== "")
      .map(literal);
    return items.every((x) => x !== undefined) ? (items as string[]) : undefined;
  };
  // subprocess.run('git commit', shell=True): the string is a shell line
  if (first !== undefined && args.some((a) => /^\s*shell\s*=\s*True\s*$/.test(a))) return first;
  if (first !== undefined) {
    // system('git', 'commit') in perl/ruby is an argv, like spawn
    const all = args.map(literal);
    if (kind === "shell") return args.length > 1 && all.every((x) => x !== undefined) ? (all as string[]).map(shellQuote).join(" ") : first;
    // spawn('git', ['commit', '-m', 'x']); a missing list means no arguments
    const rest = args[1] === undefined || /^\s*\{/.test(args[1]) ? [] : list(args[1]);
    return rest ? [first, ...rest].map(shellQuote).join(" ") : undefined;
  }
  // subprocess.run(['git', 'commit'])
  const argv = list(args[0]);
  return argv ? argv.map(shellQuote).join(" ") : undefined;
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The text of a string literal argument, interpolations left as written. */
const literalText = (arg: string | undefined): string | undefined => (arg === undefined ? undefined : LITERAL.exec(arg)?.[2]);

/** The value of a plain string literal; undefined for anything computed or interpolated ("$f", `${d}`, #{d}). */
function literal(arg: string | undefined): string | undefined {
  const t = literalText(arg);
  return t !== undefined && !/\$[\w{]|#\{/.test(t) ? t : undefined;
}

const isPathLike = (s: string): boolean => s.length > 0 && s.length < 256 && !/\s/.test(s) && !/^[a-z]+:\/\//i.test(s) && (PATHLIKE.test(s) || s.includes("/"));

/** The argument texts of the call whose `(` ends at `from`. */
function callArgs(code: string, from: number): string[] {
  return splitTop(code.slice(from, from + 1024), true);
}

/** Split at top-level commas, quotes and brackets respected; with `call`, stop at the closing `)`. */
function splitTop(text: string, call = false): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = nth(text, i);
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
      continue;
    }
    if (c === "'" || c === '"' || c === "`") quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if ((c === ")" || c === "]" || c === "}") && depth > 0) depth--;
    else if ((c === ")" && call) || (c === "," && depth === 0)) {
      parts.push(text.slice(start, i));
      start = i + 1;
      if (c === ")") return parts;
    }
  }
  if (!call || start < text.length) parts.push(text.slice(start));
  return parts;
}

function writtenArgs(target: Target, args: string[], before: string): (string | undefined)[] {
  switch (target) {
    case "first":
      return [args[0]];
    case "both":
      return [args[0], args[1]];
    case "second":
      return [args[1]];
    case "receiver": {
      // Path('notes_RU.md').write_text(...): the path is the receiver.
      const m = /Path\(\s*((['"])[^'"]*\2)\s*\)\s*\.\s*$/.exec(before);
      return [m ? m[1] : "<computed receiver>"];
    }
    case "open": {
      if (/Path\(\s*(['"])[^'"]*\1\s*\)\s*\.\s*$/.test(before)) {
        // Path('f').open('w')
        return /[wax+]/.test(literalText(args[0]) ?? "") ? writtenArgs("receiver", [], before) : [];
      }
      const mode = literalText(args[1]);
      // perl: open(FH, '>', 'f') and open(FH, '>f')
      if (mode !== undefined && /^\s*(\+?[<>]|\|)/.test(mode)) {
        if (!/^\s*\+?>|^\s*\+</.test(mode)) return [];
        if (/^\s*\+?[<>]{1,2}\s*$/.test(mode)) return [args[2]];
        return [`'${mode.replace(/^\s*\+?[<>]{1,2}\s*/, "")}'`];
      }
      const kw = args.map((a) => /^\s*mode\s*=\s*(.*)$/s.exec(a)?.[1]).find((x) => x !== undefined);
      const m = literalText(kw) ?? mode;
      return m !== undefined && /[wax+]/.test(m) ? [args[0]] : [];
    }
  }
}
