// Programs that run another program or a shell string: `sudo -iu root git
// commit`, `watch git commit`, `su -c 'git commit'`, `tmux new -d 'git push'`.
// Each is parsed by its own option grammar (which options take a value, which
// value is a shell string, how many operands come before the program), so the
// word after `-u root` is not mistaken for the program and no launcher is a
// blind spot. An unknown program gets no special trust: it is simply a program.
import { entry, nth } from "./nth.js";
import type { OpaqueCode } from "./model.js";
import { basename, clip, lookup, SHELLS, STDIN_ARGS, STDIN_PATH, type Arg } from "./wrappers.js";

/** A shell string some launcher runs, with a label for `via`. */
export interface Script extends Arg {
  label: string;
}

export interface Unwrapped {
  /** The program that finally runs, with its arguments. Empty when nothing runs (e.g. `command -v git`). */
  argv: Arg[];
  /** Launchers peeled, outermost first. */
  via: string[];
  /** Shell strings run (`bash -c '…'`, `su -c`, `watch a b`, `tmux new 'cmd'`, `eval`). */
  scripts: Script[];
  /** More programs run as argv (`parallel git ::: commit`, `gdb --args`). */
  argvs: Arg[][];
  /** expect/Tcl programs (`expect -c 'spawn git commit'`). */
  tcl: Arg[];
  /** A shell or interpreter reads its program from stdin (`bash`, `bash -s`, `at now`, `bash /dev/stdin`). */
  readsProgramFromStdin?: boolean;
  /** A file whose content is the program (`at -f job.sh`, `expect job.exp`): read at decision time if possible. */
  programFiles: { file: Arg; lang: "shell" | "tcl" }[];
  opaque?: { code: OpaqueCode; reason: string };
}

interface Launcher {
  /** Options taking a value: short ones may end a cluster (`-iu root`) or carry it attached (`-uroot`). */
  valued?: string[];
  /** Options whose value is a shell string that runs (`su -c`, `flock -c`). */
  shell?: string[];
  /** Options whose value is split on blanks into a command line (`env -S`). */
  split?: string[];
  /** Options that mean nothing runs (`command -v`, `ionice -p PID`). */
  stops?: string[];
  /** Operands before the program (timeout DURATION, chrt PRIO, chroot DIR, flock FILE). */
  leading?: number;
  /** NAME=VALUE words are skipped (env). */
  assignments?: boolean;
  /** The words after the options are joined into one `sh -c` string (watch, sg). */
  joinShell?: boolean;
  /** The program comes on stdin or from `-f FILE` (at, batch). */
  stdinProgram?: boolean;
  /** Options whose value is a file holding the program (`at -f`). */
  programFile?: string[];
  /** A word that must come first (`uv run`, `bundle exec`); without it nothing is launched. */
  sub?: string[];
  /** `-` alone is an option (`env -`). */
  dashIsOption?: boolean;
}

const L: Record<string, Launcher> = {
  "ld.so": {
    valued: ["--library-path", "--inhibit-rpath", "--audit", "--preload", "--argv0", "--glibc-hwcaps-prepend", "--glibc-hwcaps-mask"],
    stops: ["--list", "--verify", "--help", "--version", "--list-diagnostics", "--list-tunables"],
  },
  env: { valued: ["-u", "--unset", "-C", "--chdir", "-P", "-a", "--argv0"], split: ["-S", "--split-string"], assignments: true, dashIsOption: true },
  sudo: {
    valued: [
      "-u",
      "-g",
      "-h",
      "-p",
      "-C",
      "-D",
      "-r",
      "-t",
      "-U",
      "-T",
      "-R",
      "--user",
      "--group",
      "--host",
      "--prompt",
      "--chdir",
      "--close-from",
      "--role",
      "--type",
      "--other-user",
      "--command-timeout",
      "--chroot",
    ],
    stops: ["-l", "--list", "-v", "--validate", "-K", "--remove-timestamp", "-V", "--version", "-e", "--edit"],
  },
  doas: { valued: ["-u", "-C"] },
  pkexec: { valued: ["--user"] },
  nice: { valued: ["-n", "--adjustment"] },
  ionice: { valued: ["-c", "-n", "-u", "--class", "--classdata", "--uid"], stops: ["-p", "-P", "--pid", "--pgid"] },
  renice: { stops: ["-p", "-g", "-u", "-n"] },
  nohup: {},
  setsid: {},
  chronic: {},
  unbuffer: {},
  eatmydata: {},
  catchsegv: {},
  "dbus-run-session": { valued: ["--config-file", "--dbus-daemon"] },
  caffeinate: { valued: ["-t", "-w"] },
  stdbuf: { valued: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  time: { valued: ["-o", "-f", "--output", "--format"] },
  builtin: {},
  command: { stops: ["-v", "-V"] },
  exec: { valued: ["-a"] },
  timeout: { valued: ["-s", "-k", "--signal", "--kill-after"], leading: 1 },
  gtimeout: { valued: ["-s", "-k", "--signal", "--kill-after"], leading: 1 },
  chrt: { stops: ["-p", "--pid", "-m", "--max"], leading: 1 },
  taskset: { stops: ["-p", "--pid"], leading: 1 },
  chroot: { valued: ["--userspec", "--groups"], leading: 1 },
  flock: { valued: ["-w", "-E", "--timeout", "--conflict-exit-code"], shell: ["-c", "--command"], leading: 1 },
  watch: { valued: ["-n", "--interval", "-q", "--equexit"], joinShell: true },
  sg: { shell: ["-c"], leading: 1, joinShell: true },
  strace: {
    valued: [
      "-o",
      "-e",
      "-p",
      "-s",
      "-u",
      "-E",
      "-a",
      "-b",
      "-I",
      "-O",
      "-S",
      "-X",
      "-P",
      "-U",
      "--output",
      "--trace",
      "--signal",
      "--user",
      "--env",
      "--attach",
      "--string-limit",
      "--columns",
    ],
  },
  ltrace: { valued: ["-o", "-e", "-p", "-s", "-u", "-a", "-n", "-A", "-D", "-F", "-l", "-x", "-w", "--output", "--library", "--align", "--indent"] },
  valgrind: {},
  firejail: {},
  nsenter: { valued: ["-t", "--target", "-S", "--setuid", "-G", "--setgid"] },
  unshare: { valued: ["--map-user", "--map-group", "--setgroups", "--propagation"] },
  "systemd-run": {
    valued: [
      "-u",
      "--unit",
      "-p",
      "--property",
      "-E",
      "--setenv",
      "-M",
      "--machine",
      "-H",
      "--host",
      "--description",
      "--slice",
      "--uid",
      "--gid",
      "--nice",
      "--working-directory",
      "--on-active",
      "--on-calendar",
      "--timer-property",
    ],
  },
  cgexec: { valued: ["-g"] },
  numactl: { valued: ["-C", "-N", "-m", "-i", "-p", "--physcpubind", "--cpunodebind", "--membind", "--interleave", "--preferred"] },
  prlimit: { stops: ["-p", "--pid"] },
  setpriv: {},
  xvfb_run: {},
  "xvfb-run": { valued: ["-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file", "-p", "--xauth-protocol", "-w", "--wait"] },
  torsocks: { valued: ["-u", "-p", "-a", "-P"] },
  proxychains: { valued: ["-f"] },
  proxychains4: { valued: ["-f"] },
  faketime: { valued: ["-f", "-m"], leading: 1 },
  fakeroot: { valued: ["-l", "--lib", "--faked", "-s", "-i"] },
  gosu: { leading: 1 },
  "su-exec": { leading: 1 },
  setuidgid: { leading: 1 },
  envdir: { leading: 1 },
  chpst: { valued: ["-u", "-U", "-e", "-n", "-l", "-L", "-m", "-d", "-o", "-p", "-f", "-c", "-r", "-t", "-b", "-/"] },
  softlimit: { valued: ["-a", "-c", "-d", "-f", "-l", "-m", "-o", "-p", "-r", "-s", "-t"] },
  "ssh-agent": { valued: ["-a", "-E", "-P", "-t"] },
  sshpass: { valued: ["-p", "-f", "-d", "-P"] },
  dotenv: { valued: ["-e", "-f", "-c", "-v"] },
  retry: { valued: ["-t", "--tries", "-d", "--delay", "-m", "--min", "-x", "--max"] },
  tini: { valued: ["-p", "-e"] },
  "dumb-init": { valued: ["-r", "--rewrite"] },
  "with-contenv": {},
  busybox: {},
  npx: { valued: ["-p", "--package", "--cache", "--prefix", "-w", "--workspace"], shell: ["-c", "--call"] },
  bunx: { valued: ["-p", "--package"] },
  pnpx: { valued: ["-p", "--package"] },
  uvx: { valued: ["--from", "--with", "--python", "-p"] },
  at: { valued: ["-q", "-t", "-m"], stdinProgram: true, programFile: ["-f"], stops: ["-l", "-d", "-r", "-c"] },
  batch: { valued: ["-q", "-m"], stdinProgram: true, programFile: ["-f"] },
  direnv: { sub: ["exec"], leading: 1 },
  uv: {
    sub: ["run"],
    valued: ["--with", "--python", "-p", "--project", "--directory", "--env-file", "--group", "--extra", "--package", "--index", "--with-requirements"],
  },
  poetry: { sub: ["run"], valued: ["-C", "--directory", "-P", "--project"] },
  pipenv: { sub: ["run"] },
  pdm: { sub: ["run"], valued: ["-p", "--project"] },
  hatch: { sub: ["run"], valued: ["-e", "--env"] },
  bundle: { sub: ["exec"] },
  rbenv: { sub: ["exec"] },
  pyenv: { sub: ["exec"] },
  asdf: { sub: ["exec"] },
  mise: { sub: ["exec", "x"], valued: ["-C", "--cd", "-E", "--env", "-j", "--jobs"] },
  conda: { sub: ["run"], valued: ["-n", "--name", "-p", "--prefix", "--cwd"] },
  mamba: { sub: ["run"], valued: ["-n", "--name", "-p", "--prefix", "--cwd"] },
  micromamba: { sub: ["run"], valued: ["-n", "--name", "-p", "--prefix", "--cwd"] },
  devbox: { sub: ["run"], valued: ["-c", "--config"] },
  op: { sub: ["run"], valued: ["--env-file"] },
  doppler: { sub: ["run"], valued: ["-p", "--project", "-c", "--config"] },
  "aws-vault": { sub: ["exec"], leading: 1 },
  xterm: {},
  setarch: { valued: ["--uname-2.6"], leading: 1 },
  linux32: {},
  linux64: {},
  cpulimit: { valued: ["-l", "--limit", "-p", "--pid", "-e", "--exe", "-P", "--path"] },
  trickle: { valued: ["-d", "-u", "-w", "-t", "-l", "-n"] },
  tsp: { valued: ["-L", "-D", "-N", "-E"] },
  nq: { valued: ["-c"] },
  corepack: {},
  "flatpak-spawn": { valued: ["--directory", "--env", "--forward-fd"] },
  "sandbox-exec": { valued: ["-p", "-f", "-n", "-D"] },
  daemonize: { valued: ["-a", "-c", "-e", "-E", "-o", "-p", "-l", "-u"] },
  rlwrap: { valued: ["-a", "-b", "-f", "-H", "-l", "-p", "-P", "-S", "-z"] },
  perf: {
    sub: ["record", "stat", "trace", "sched", "mem", "c2c", "kmem", "lock"],
    valued: ["-o", "-e", "-p", "-t", "-F", "-c", "-C", "-u", "-G", "-r", "-x", "-I", "-m", "-j", "--output", "--event"],
  },
  mpirun: { valued: ["-np", "-n", "-H", "--host", "-hostfile", "--hostfile", "-x", "-wdir", "--wdir", "-c", "--map-by", "--bind-to"] },
  mpiexec: { valued: ["-np", "-n", "-H", "--host", "-hostfile", "--hostfile", "-x", "-wdir", "--wdir", "-c", "--map-by", "--bind-to"] },
  srun: { valued: ["-n", "-N", "-p", "-t", "-J", "-c", "-o", "-e", "-w", "-A", "-q", "--ntasks", "--nodes", "--partition", "--time", "--job-name"] },
  timelimit: { valued: ["-t", "-T", "-s", "-S"] },
  run0: { valued: ["-u", "--user", "-g", "--group", "-D", "--chdir", "--setenv", "--nice", "--unit", "--property", "--description", "--slice"] },
  gksu: { valued: ["-u", "--user", "-m", "--message", "-D", "--description"], joinShell: true },
  gksudo: { valued: ["-u", "--user", "-m", "--message", "-D", "--description"], joinShell: true },
  kdesu: { valued: ["-u", "-p", "-i", "-d"], shell: ["-c"] },
  proot: { valued: ["-r", "-b", "-w", "-q", "-k", "-0", "--rootfs", "--bind", "--cwd", "--qemu", "--kernel-release"] },
  fakechroot: { valued: ["-l", "--lib", "-d", "--elfloader", "-e", "--environment"] },
  nocache: {},
  torify: {},
  tsocks: {},
  heaptrack: { valued: ["-o", "--output"] },
  scl: { sub: ["enable"], leading: 1 },
};

const MAX_UNWRAP = 32;
/** Words joined from more arguments than this are not worth expanding (parallel ::: a b c …). */
const MAX_FANOUT = 16;

const none = (via: string[]): Unwrapped => ({ argv: [], via, scripts: [], argvs: [], tcl: [], programFiles: [] });

/** Peel launchers off argv until a program that is not one remains. */
export function unwrap(argv: Arg[]): Unwrapped {
  const out = none([]);
  let rest = argv;
  while (rest.length > 0) {
    const head = nth(rest, 0);
    if (head.dynamic)
      return { ...out, argv: rest, opaque: { code: "program-dynamic", reason: `the command name ${clip(head.text, 60)} is computed at run time` } };
    // `/usr/bin/gi? commit`: the name is whatever the glob expands to.
    if (head.pattern)
      return { ...out, argv: rest, opaque: { code: "program-pattern", reason: `the command name ${clip(head.text, 60)} is a pattern expanded at run time` } };
    const name = basename(head.text);
    // built only when the cap is hit
    const tooMany = (): Unwrapped => ({ ...out, argv: rest, opaque: { code: "too-many-wrappers", reason: `more than ${MAX_UNWRAP} wrappers in a row` } });
    const step = special(name, rest);
    if (step !== undefined) {
      // a launcher that runs only strings (tmux, gdb -ex, hyperfine) is itself a command that runs
      if (step.done && (step.result.argv === undefined || step.result.argv.length === 0) && !step.result.readsProgramFromStdin) step.result.argv = rest;
      if (step.done) return { ...merge(out, step.result), via: [...out.via, ...step.result.via] };
      if (out.via.length === MAX_UNWRAP) return tooMany();
      out.via.push(name);
      Object.assign(out, merge(out, step.result));
      rest = step.next;
      continue;
    }
    // the dynamic loader runs the program it is given: `/lib64/ld-linux-x86-64.so.2 /usr/bin/git commit`
    const spec = lookup(L, /^ld(-linux[\w.-]*)?\.so(\.\d+)*$/.test(name) ? "ld.so" : name);
    if (!spec) {
      out.argv = rest;
      return out;
    } // (out is this call's own: no copy)
    const p = parseOptions(rest, spec);
    // `uv add x`, `bundle install`: not the launching subcommand, so a program like any other
    if (p.notLaunching) return { ...out, argv: rest };
    if (out.via.length === MAX_UNWRAP) return tooMany();
    out.via.push(name);
    out.scripts.push(...p.shell.map((s) => ({ ...s, label: `${name} ${s.label}` })));
    for (const s of p.split) out.scripts.push({ ...s, label: `${name} -S` });
    for (const f of p.programFiles) out.programFiles.push({ file: f, lang: "shell" });
    if (p.stop || p.shell.length > 0 || p.split.length > 0) return { ...out, argv: [] };
    if (spec.stdinProgram) {
      if (p.programFiles.length === 0) out.readsProgramFromStdin = true;
      return { ...out, argv: [] };
    }
    if (spec.joinShell) {
      if (p.inner.length === 0) return out;
      // `watch git commit` runs `sh -c "git commit"`: words joined with spaces, then parsed by a shell.
      const dynamic = p.inner.some((a) => a.dynamic);
      // `watch -x` / `--exec` runs argv directly.
      if (rest.some((a) => a.text === "-x" || a.text === "--exec")) {
        rest = p.inner;
        continue;
      }
      out.scripts.push({ text: p.inner.map((a) => a.text).join(" "), dynamic, label: `${name} (sh -c)` });
      return { ...out, argv: [] };
    }
    rest = p.inner;
  }
  return { ...out, argv: rest };
}

function merge(a: Unwrapped, b: Partial<Unwrapped>): Unwrapped {
  return {
    argv: b.argv ?? a.argv,
    via: a.via,
    scripts: [...a.scripts, ...(b.scripts ?? [])],
    argvs: [...a.argvs, ...(b.argvs ?? [])],
    tcl: [...a.tcl, ...(b.tcl ?? [])],
    programFiles: [...a.programFiles, ...(b.programFiles ?? [])],
    readsProgramFromStdin: b.readsProgramFromStdin ?? a.readsProgramFromStdin,
    opaque: b.opaque ?? a.opaque,
  };
}

interface Parsed {
  inner: Arg[];
  shell: Script[];
  split: Script[];
  programFiles: Arg[];
  stop: boolean;
  notLaunching?: boolean;
}

/** Walk a launcher's options; return what follows them and any shell strings they carry. */
function parseOptions(argv: Arg[], spec: Launcher): Parsed {
  const out: Parsed = { inner: [], shell: [], split: [], programFiles: [], stop: false };
  const valued = new Set(spec.valued ?? []);
  const shell = new Set(spec.shell ?? []);
  const split = new Set(spec.split ?? []);
  const files = new Set(spec.programFile ?? []);
  const stops = new Set(spec.stops ?? []);
  let i = 1;
  if (spec.sub) {
    // `uv run …`, `bundle exec …`: global options, then the subcommand.
    while (i < argv.length && nth(argv, i).text.startsWith("-")) i += valued.has(nth(argv, i).text) ? 2 : 1;
    if (!spec.sub.includes(argv[i]?.text ?? "")) return { ...out, stop: true, notLaunching: true };
    i++;
  }
  let leading = spec.leading ?? 0;
  const take = (opt: string, value: Arg | undefined) => {
    if (!value) return;
    if (shell.has(opt)) out.shell.push({ ...value, label: opt });
    if (split.has(opt)) out.split.push({ ...value, label: opt });
    if (files.has(opt)) out.programFiles.push(value);
  };
  while (i < argv.length) {
    const a = nth(argv, i);
    const t = a.text;
    if (a.dynamic && t.startsWith("-")) {
      i++;
      continue;
    }
    if (t === "--") {
      i++;
      break;
    }
    if (t === "-" && spec.dashIsOption) {
      i++;
      continue;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const opt = eq < 0 ? t : t.slice(0, eq);
      if (stops.has(opt)) return { ...out, stop: true };
      if (eq >= 0) take(opt, { text: t.slice(eq + 1), dynamic: a.dynamic });
      else if (valued.has(opt) || shell.has(opt) || split.has(opt) || files.has(opt)) {
        take(opt, argv[i + 1]);
        i++;
      }
      i++;
      continue;
    }
    if (t.startsWith("-") && t.length > 1) {
      if (stops.has(t)) return { ...out, stop: true };
      // single-dash long options (`mpirun -np 2`, `-hostfile f`) are matched whole first
      if (t.length > 2 && (valued.has(t) || shell.has(t) || split.has(t) || files.has(t))) {
        take(t, argv[i + 1]);
        i += 2;
        continue;
      }
      // A cluster: `-iu root`, `-uroot`, `-lc 'cmd'`, `-vS'git commit'`.
      let consumed = 1;
      for (let j = 1; j < t.length; j++) {
        const opt = `-${t[j]}`;
        if (stops.has(opt)) return { ...out, stop: true };
        if (valued.has(opt) || shell.has(opt) || split.has(opt) || files.has(opt)) {
          const attached = t.slice(j + 1);
          if (attached) take(opt, { text: attached, dynamic: a.dynamic });
          else {
            take(opt, argv[i + 1]);
            consumed = 2;
          }
          break;
        }
      }
      i += consumed;
      continue;
    }
    if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) {
      i++;
      continue;
    }
    if (leading > 0) {
      leading--;
      i++;
      continue;
    }
    break;
  }
  out.inner = argv.slice(i);
  return out;
}

interface Step {
  /** true: the result is final (nothing left to peel); false: continue with `next`. */
  done: boolean;
  result: Partial<Unwrapped> & { via: string[] };
  next: Arg[];
}

const final = (r: Partial<Unwrapped>, via: string[] = []): Step => ({ done: true, result: { ...r, via }, next: [] });
const peel = (next: Arg[], r: Partial<Unwrapped> = {}): Step => ({ done: false, result: { ...r, via: [] }, next });

/**
 * What `$(printf 'git %s -1' log)` prints: a quoted format of plain text and `%s` (used again while
 * arguments remain), plain or single-quoted arguments. Anything else (escapes, other conversions,
 * glob characters, more than one line): undefined.
 */
export function printfOutput(word: string): string | undefined {
  const m = /^"?\$\(\s*printf\s+'([^'\\%]*(?:%s[^'\\%]*)*)'((?:\s+(?:'[^']*'|[\w.,:=/@+-]+))*)\s*\)"?$/.exec(word);
  if (!m || !m[1]) return undefined;
  const format = m[1];
  const args = [...(m[2] ?? "").matchAll(/'([^']*)'|([\w.,:=/@+-]+)/g)].map((x) => x[1] ?? x[2] ?? "");
  const slots = format.split("%s").length - 1;
  let text = "";
  let i = 0;
  do {
    text += format.replace(/%s/g, () => args[i++] ?? "");
  } while (slots > 0 && i < args.length);
  text = text.replace(/\n+$/, "");
  return /[*?[\]\n\\$`"';|&<>(){}]/.test(text) ? undefined : text;
}

/** Launchers whose grammar is not "options, then a program". */
function special(name: string, argv: Arg[]): Step | undefined {
  const args = argv.slice(1);
  if (name === "eval") {
    if (args.some((a) => a.dynamic))
      return final({ argv: [nth(argv, 0)], opaque: { code: "eval-dynamic", reason: "eval runs a string computed at run time" } });
    return final({ argv: [nth(argv, 0)], scripts: [{ text: args.map((a) => a.text).join(" "), dynamic: false, label: "eval" }] });
  }
  if (SHELLS.has(name) || name === "pwsh" || name === "powershell") return final(shellInvocation(argv));
  if (name === "exec" && args[0]?.text === "-a" && args[1] && /^git-/.test(args[1].text) && args[2] && basename(args[2].text) === "git") {
    const dir = args[2].text.includes("/") ? args[2].text.slice(0, args[2].text.lastIndexOf("/") + 1) : "git-core/";
    return peel([{ ...args[2], text: `${dir}${args[1].text}` }, ...args.slice(3)]);
  }
  if (name === "trap") {
    // `trap 'git commit' EXIT` runs its string when the shell exits.
    const ops = args.filter((a) => !/^-[lp]$/.test(a.text) && a.text !== "--");
    if (ops.length >= 2 && nth(ops, 0).text !== "-" && nth(ops, 0).text !== "") {
      return final({ argv: [nth(argv, 0)], scripts: [{ ...nth(ops, 0), label: "trap" }] });
    }
    return final({ argv: argv });
  }
  if (name === "sudo") {
    const p = parseOptions(argv, entry(L, "sudo"));
    const shellFlag = argv
      .slice(1, argv.length - p.inner.length)
      .some((a) => (/^-[A-Za-z]*[si]/.test(a.text) && !a.text.startsWith("--")) || a.text === "--shell" || a.text === "--login");
    if (shellFlag && p.inner.length && !p.stop)
      return peel([], { scripts: [{ text: p.inner.map((a) => a.text).join(" "), dynamic: p.inner.some((a) => a.dynamic), label: "sudo -s" }] });
  }
  if (name === "su" || (name === "runuser" && !args.some((a) => a.text === "-u" || a.text === "--user"))) return final(suInvocation(argv));
  if (name === "runuser") {
    const p = parseOptions(argv, { valued: ["-u", "--user", "-g", "--group", "-G", "--supp-group", "-s", "--shell", "-w"] });
    return peel(p.inner);
  }
  // CMake's command mode runs a program: `cmake -E env [--unset=V] [N=V]… CMD`, `chdir DIR CMD`, `time CMD`
  if (name === "cmake" && args[0]?.text === "-E") {
    const sub = args[1]?.text;
    if (sub === "env") {
      let i = 2;
      while (i < args.length && (/^--(unset|modify)=/.test(nth(args, i).text) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(nth(args, i).text))) i++;
      if (args[i]?.text === "--") i++;
      return peel(args.slice(i));
    }
    if (sub === "chdir" && args.length > 3) return peel(args.slice(3));
    if (sub === "time" && args.length > 2) return peel(args.slice(2));
  }
  if (name === "script") return scriptInvocation(argv);
  if (name === "xargs") return xargsInvocation(argv);
  if (name === "parallel" || name === "sem") return parallelInvocation(argv);
  if (name === "tmux") return final(tmuxInvocation(args));
  if (name === "screen") return screenInvocation(argv);
  if (name === "gdb") return gdbInvocation(argv);
  if (name === "expect") return expectInvocation(argv);
  if (name === "hyperfine") return final(hyperfineInvocation(argv));
  if (name === "entr") {
    const p = parseOptions(argv, {});
    if (argv.some((a) => /^-[a-z]*s/.test(a.text)) && p.inner[0]) return final({ scripts: [{ ...p.inner[0], label: "entr -s" }] });
    return peel(p.inner);
  }
  if (name === "xterm" || name === "alacritty" || name === "konsole" || name === "gnome-terminal") {
    const e = argv.findIndex((a) => a.text === "-e" || a.text === "--command" || a.text === "-x" || a.text === "--");
    return e > 0 ? peel(argv.slice(e + 1)) : final({ argv: [] });
  }
  if (name === "npm" || name === "pnpm" || name === "yarn" || name === "bun") return packageExec(name, argv);
  if (name === "nix-shell") {
    const r = argv.findIndex((a) => a.text === "--run" || a.text === "--command");
    return r > 0 && argv[r + 1] ? final({ argv: [], scripts: [{ ...nth(argv, r + 1), label: "nix-shell --run" }] }) : final({ argv });
  }
  if (name === "nix") {
    const c = argv.findIndex((a) => a.text === "-c" || a.text === "--command");
    return c > 0 ? peel(argv.slice(c + 1)) : final({ argv });
  }
  if (name === "busybox" && args[0] && !args[0].text.startsWith("-")) return peel(args);
  // capsh … -- ARGS: the words after `--` are handed to bash
  if (name === "capsh") {
    const dd = argv.findIndex((a) => a.text === "--");
    return dd > 0 ? final(shellInvocation([{ text: "bash", dynamic: false }, ...argv.slice(dd + 1)])) : final({ argv });
  }
  // bwrap: options take one or two values, then the program
  if (name === "bwrap") {
    const two = new Set([
      "--bind",
      "--ro-bind",
      "--dev-bind",
      "--bind-try",
      "--ro-bind-try",
      "--dev-bind-try",
      "--symlink",
      "--setenv",
      "--file",
      "--bind-data",
      "--ro-bind-data",
      "--chmod",
    ]);
    let i = 1;
    while (i < argv.length && nth(argv, i).text.startsWith("--"))
      i +=
        nth(argv, i).text === "--"
          ? 1
          : two.has(nth(argv, i).text)
            ? 3
            : /^--(unshare-|share-|die-with|new-session|clearenv|as-pid-1|disable-userns|assert-userns)/.test(nth(argv, i).text)
              ? 1
              : 2;
    return peel(argv.slice(i));
  }
  // start-stop-daemon --start --exec /usr/bin/git -- commit
  if (name === "start-stop-daemon") {
    const x = argv.findIndex((a) => a.text === "--exec" || a.text === "-x" || a.text === "--startas" || a.text === "-a");
    const dd = argv.findIndex((a) => a.text === "--");
    const prog = x > 0 ? argv[x + 1] : undefined;
    return prog ? peel([prog, ...(dd > 0 ? argv.slice(dd + 1) : [])]) : final({ argv });
  }
  if (name === "fd" || name === "fdfind") {
    const x = argv.findIndex((a) => a.text === "-x" || a.text === "--exec" || a.text === "-X" || a.text === "--exec-batch");
    if (x > 0) {
      const inner = argv.slice(x + 1).map((a) => (/\{[/.]*\}|\{\/\.\}/.test(a.text) || a.text === "{}" ? { ...a, dynamic: true } : a));
      return final({ argv: [], argvs: [inner.length ? inner : []] });
    }
  }
  return undefined;
}

/** `bash -lc 'cmd'`, `bash -c -- 'cmd'`, `sh script.sh`, `bash /dev/stdin`, or `bash` reading stdin. */
function shellInvocation(argv: Arg[]): Partial<Unwrapped> {
  const shell = basename(nth(argv, 0).text);
  // `bash -n x.sh`: read, never run
  if (
    argv
      .slice(1)
      .some(
        (a, i, all) =>
          (/^-[a-zA-Z]*n[a-zA-Z]*$/.test(a.text) && !/c/.test(a.text) && all.slice(0, i).every((x) => x.text.startsWith("-"))) || a.text === "--noexec",
      )
  )
    return { argv };
  const rc: Unwrapped["programFiles"] = startupFiles(shell, argv);
  for (let i = 1; i < argv.length; i++) {
    const a = nth(argv, i);
    const t = a.text;
    if (a.dynamic) return { argv, programFiles: [...rc, { file: a, lang: "shell" }] };
    if (t === "--rcfile" || t === "--init-file") {
      if (argv[i + 1]) rc.push({ file: nth(argv, i + 1), lang: "shell" });
      i++;
      continue;
    }
    if (t === "-o" || t === "+o" || t === "-O" || t === "+O") {
      i++;
      continue;
    }
    // `-euo pipefail`: a cluster ending in o takes the next word; one holding c runs a string
    if (/^[-+][A-Za-z]*[oO]$/.test(t) && !/c/.test(t)) {
      i++;
      continue;
    }
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(t) && /o$/.test(t)) {
      const s = argv[i + 2];
      return s ? { argv: [nth(argv, 0)], scripts: [{ ...s, label: `${shell} -c` }], programFiles: rc } : { argv: [nth(argv, 0)] };
    }
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(t) || /^-(c|command|Command|EncodedCommand)$/i.test(t)) {
      let s = argv[i + 1];
      if (s?.text === "--") s = argv[i + 2];
      // `xargs sh -c`: the program is whatever xargs reads.
      return s
        ? { argv: [nth(argv, 0)], scripts: [{ ...s, label: `${shell} -c` }], programFiles: rc }
        : { argv: [nth(argv, 0)], opaque: { code: "shell-string-dynamic", reason: `${shell} -c gets its program at run time` } };
    }
    if (t === "-s") return { argv: [nth(argv, 0)], readsProgramFromStdin: true };
    if (t === "--") continue;
    if (t.startsWith("-") || t.startsWith("+")) continue;
    if (STDIN_PATH.test(t)) return { argv: [nth(argv, 0)], readsProgramFromStdin: true };
    // A script file: read at decision time when possible.
    return { argv, programFiles: [...rc, { file: a, lang: "shell" }] };
  }
  return { argv: [nth(argv, 0)], readsProgramFromStdin: true, programFiles: rc };
}

/**
 * Files a shell sources before its program: a login shell (`-l`, `--login`, `-lc`) its profile, an interactive
 * bash (`-i`) ~/.bashrc — unless `--noprofile` / `--norc`. Options count up to the first operand.
 */
function startupFiles(shell: string, argv: Arg[]): Unwrapped["programFiles"] {
  let login = false,
    interactive = false,
    noProfile = false,
    noRc = false;
  for (let i = 1; i < argv.length; i++) {
    const t = nth(argv, i).text;
    if (t === "--login") login = true;
    else if (t === "--noprofile") noProfile = true;
    else if (t === "--norc" || t === "--posix") noRc = true;
    else if (t === "--rcfile" || t === "--init-file" || t === "-o" || t === "+o" || t === "-O" || t === "+O") i++;
    else if (/^-[A-Za-z]+$/.test(t)) {
      if (t.includes("l")) login = true;
      if (t.includes("i")) interactive = true;
      if (t.includes("c")) break;
    } else if (!t.startsWith("-") && !t.startsWith("+")) break;
  }
  const files: string[] = [];
  const isBash = shell === "bash" || shell === "rbash";
  if (login && !noProfile)
    files.push(...(isBash ? ["~/.bash_profile", "~/.bash_login", "~/.profile"] : shell === "zsh" ? ["~/.zprofile", "~/.zlogin"] : ["~/.profile"]));
  if (interactive && !noRc && isBash) files.push("~/.bashrc");
  if (interactive && shell === "zsh") files.push("~/.zshrc");
  return files.map((f) => ({ file: { text: f, dynamic: false }, lang: "shell" as const }));
}

/** `su -c 'cmd' user`, `su - user -c 'cmd'`, `su --command=cmd`; without -c a login shell reads stdin. */
function suInvocation(argv: Arg[]): Partial<Unwrapped> {
  for (let i = 1; i < argv.length; i++) {
    const t = nth(argv, i).text;
    const long = /^--(command|session-command)=(.*)$/s.exec(t);
    if (long) return { argv: [nth(argv, 0)], scripts: [{ text: nth(long, 2), dynamic: nth(argv, i).dynamic, label: "su -c" }] };
    if (t === "--command" || t === "--session-command" || /^-[A-Za-z]*c$/.test(t)) {
      const s = argv[i + 1];
      return s ? { argv: [nth(argv, 0)], scripts: [{ ...s, label: "su -c" }] } : { argv: [nth(argv, 0)] };
    }
    if (/^-[A-Za-z]*c./.test(t) && !t.startsWith("--")) {
      return { argv: [nth(argv, 0)], scripts: [{ text: t.slice(t.indexOf("c") + 1), dynamic: nth(argv, i).dynamic, label: "su -c" }] };
    }
  }
  return { argv: [nth(argv, 0)], readsProgramFromStdin: true };
}

/** util-linux `script -c CMD [file]`, `--command=CMD`; BSD `script [-q] file cmd args…`. */
function scriptInvocation(argv: Arg[]): Step {
  for (let i = 1; i < argv.length; i++) {
    const t = nth(argv, i).text;
    // the whole argv stays: script writes its typescript file (an operand)
    if (t.startsWith("--command=")) return final({ argv, scripts: [{ text: t.slice(10), dynamic: nth(argv, i).dynamic, label: "script -c" }] });
    if (t === "--command" || /^-[A-Za-z]*c$/.test(t)) {
      const s = argv[i + 1];
      return final({ argv, scripts: s ? [{ ...s, label: "script -c" }] : [] });
    }
  }
  const p = parseOptions(argv, {
    valued: ["-t", "-T", "-I", "-O", "-B", "-E", "-m", "--timing", "--log-in", "--log-out", "--log-io", "--echo", "--logging-format"],
  });
  // the first operand is the typescript file; what follows is a program (BSD form)
  return p.inner.length > 1 ? peel(p.inner.slice(1)) : final({ argv: [nth(argv, 0)] });
}

/**
 * `xargs git` appends words read from stdin; with -I/-i/--replace the replace
 * string in a word is filled in at run time.
 */
function xargsInvocation(argv: Arg[]): Step {
  const p = parseOptions(argv, {
    valued: [
      "-I",
      "-n",
      "-P",
      "-d",
      "-E",
      "-L",
      "-s",
      "-a",
      "-e",
      "--max-args",
      "--max-procs",
      "--delimiter",
      "--arg-file",
      "--max-lines",
      "--max-chars",
      "--eof",
      "--process-slot-var",
    ],
  });
  const options = argv.slice(1, argv.length - p.inner.length);
  if (p.inner.length === 0) return final({ argv: [nth(argv, 0)] }); // runs echo
  let replace: string | undefined;
  for (const [i, o] of options.entries()) {
    if (o.text === "-I") replace = options[i + 1]?.text;
    else if (o.text.startsWith("-I")) replace = o.text.slice(2);
    else if (o.text === "-i" || o.text === "--replace") replace = "{}";
    else if (o.text.startsWith("-i")) replace = o.text.slice(2);
    else if (o.text.startsWith("--replace=")) replace = o.text.slice("--replace=".length);
  }
  const inner = replace ? p.inner.map((a) => (a.text.includes(replace) ? { ...a, dynamic: true } : a)) : [...p.inner, STDIN_ARGS];
  return peel(inner);
}

/** GNU parallel: `parallel git ::: commit`, `parallel 'git {}' ::: commit`, or arguments from stdin. */
function parallelInvocation(argv: Arg[]): Step {
  const p = parseOptions(argv, {
    valued: [
      "-j",
      "--jobs",
      "-S",
      "--sshlogin",
      "-a",
      "--arg-file",
      "--colsep",
      "-d",
      "--delimiter",
      "-E",
      "-I",
      "-n",
      "-N",
      "-L",
      "--joblog",
      "--results",
      "--tmpdir",
      "--workdir",
      "--wd",
      "--timeout",
      "--delay",
      "--retries",
      "--halt",
      "--memfree",
      "--load",
    ],
  });
  const sep = p.inner.findIndex((a) => /^:::[:+]*$/.test(a.text));
  const cmd = sep < 0 ? p.inner : p.inner.slice(0, sep);
  const inputs = sep < 0 ? [] : p.inner.slice(sep + 1).filter((a) => !/^:::[:+]*$/.test(a.text));
  if (cmd.length === 0) {
    // the input lines are themselves the commands
    if (sep < 0) return final({ opaque: { code: "program-from-pipe", reason: "parallel runs command lines read at run time" } });
    return final({ scripts: inputs.slice(0, MAX_FANOUT).map((a) => ({ ...a, label: "parallel" })) });
  }
  const line = cmd.map((a) => a.text).join(" ");
  const dynamic = cmd.some((a) => a.dynamic);
  if (sep < 0 || inputs.some((a) => a.dynamic) || inputs.length > MAX_FANOUT) {
    const fill = /\{[^}]*\}/.test(line) ? line.replace(/\{[^}]*\}/g, '"$PARALLEL_ARG"') : `${line} "$PARALLEL_ARG"`;
    return final({ scripts: [{ text: fill, dynamic, label: "parallel" }] });
  }
  return final({
    scripts: inputs.map((a) => ({ text: /\{[^}]*\}/.test(line) ? line.replace(/\{[^}]*\}/g, a.text) : `${line} ${a.text}`, dynamic, label: "parallel" })),
  });
}

const TMUX_SHELL_CMDS = new Set([
  "new-session",
  "new",
  "new-window",
  "neww",
  "split-window",
  "splitw",
  "respawn-pane",
  "respawnp",
  "respawn-window",
  "respawnw",
  "run-shell",
  "run",
  "display-popup",
  "popup",
  "pipe-pane",
  "pipep",
  "if-shell",
  "if",
]);
const TMUX_VALUED = new Set(["-t", "-s", "-n", "-c", "-x", "-y", "-e", "-F", "-l", "-L", "-S", "-f", "-T", "-b", "-d", "-w", "-h", "-p", "-N", "-X"]);
const TMUX_KEYS = /^(Enter|C-[a-z]|M-[a-z]|Escape|Tab|Space|BSpace|KPEnter|Up|Down|Left|Right)$/;

/** tmux runs shell commands in sessions, windows, panes, run-shell, and types keys into shells (send-keys). */
function tmuxInvocation(args: Arg[]): Partial<Unwrapped> {
  let i = 0;
  while (i < args.length && nth(args, i).text.startsWith("-")) i += /^-[LSf]$/.test(nth(args, i).text) ? 2 : 1;
  const scripts: Script[] = [];
  // several tmux commands may be chained with `;`
  while (i < args.length) {
    const sub = nth(args, i).text;
    let j = i + 1;
    const words: Arg[] = [];
    while (j < args.length && nth(args, j).text !== ";" && nth(args, j).text !== "\\;") {
      const t = nth(args, j).text;
      // flags without a value for the common commands: -d -P -h -v -b -a -k -l? (-l takes a size for split)
      if (t.startsWith("-") && t.length > 1 && words.length === 0) {
        j += TMUX_VALUED.has(t) && !/^-[dPhvbakEZ]$/.test(t) ? 2 : 1;
        continue;
      }
      words.push(nth(args, j));
      j++;
    }
    if (sub === "send-keys" || sub === "send") {
      const typed = words.filter((w) => !TMUX_KEYS.test(w.text));
      if (typed.length) scripts.push({ text: typed.map((w) => w.text).join(" "), dynamic: typed.some((w) => w.dynamic), label: "tmux send-keys" });
    } else if (TMUX_SHELL_CMDS.has(sub) && words.length) {
      const cmdWords = sub === "if-shell" || sub === "if" ? words.slice(0, 1) : words;
      scripts.push({ text: cmdWords.map((w) => w.text).join(" "), dynamic: cmdWords.some((w) => w.dynamic), label: `tmux ${sub}` });
    }
    i = j + 1;
  }
  return { argv: [], scripts };
}

/** `screen -dmS name git commit`, `screen -X stuff 'git commit\n'`. */
function screenInvocation(argv: Arg[]): Step {
  const x = argv.findIndex((a) => a.text === "-X");
  if (x > 0) {
    const words = argv.slice(x + 1);
    if (words[0]?.text === "stuff" && words[1])
      return final({ scripts: [{ ...words[1], text: words[1].text.replace(/\\n|\\r/g, "\n"), label: "screen stuff" }] });
    if (words[0]?.text === "exec" || words[0]?.text === "screen") return peel(words.slice(1));
    return final({ argv: [] });
  }
  const p = parseOptions(argv, { valued: ["-S", "-s", "-c", "-e", "-h", "-p", "-T", "-t", "-Logfile"], stops: ["-r", "-R", "-x", "-ls", "-list"] });
  return p.stop ? final({ argv: [] }) : p.inner.length ? peel(p.inner) : final({ argv: [] });
}

/** `gdb -ex 'shell git commit'`, `gdb -batch -ex '!git commit'`, `gdb --args prog args`. */
function gdbInvocation(argv: Arg[]): Step {
  const scripts: Script[] = [];
  for (let i = 1; i < argv.length; i++) {
    const t = nth(argv, i).text;
    let value: Arg | undefined;
    if (t === "-ex" || t === "--ex" || t === "-eval-command" || t === "--eval-command" || t === "-iex" || t === "--init-eval-command") value = argv[++i];
    else if (/^--?(eval-command|init-eval-command)=/.test(t)) value = { text: t.slice(t.indexOf("=") + 1), dynamic: nth(argv, i).dynamic };
    if (value) {
      const m = /^\s*(?:shell\s+|!\s*|pipe\s+[^|]*\|\s*)([\s\S]*)$/.exec(value.text);
      if (m) scripts.push({ text: nth(m, 1), dynamic: value.dynamic, label: "gdb shell" });
      else if (/^\s*python\b/.test(value.text))
        scripts.push({ text: `python3 -c ${JSON.stringify(value.text.replace(/^\s*python\s*/, ""))}`, dynamic: value.dynamic, label: "gdb python" });
    }
    if (t === "--args" || t === "-args") return peel(argv.slice(i + 1), { scripts });
  }
  // `gdb -ex 'run commit -m x' git`: the program operand runs with the run command's words
  const runCmd = argv
    .map((a, i) => (/^-?-?(ex|eval-command)$/.test(a.text) ? argv[i + 1] : undefined))
    .find((v) => v && /^\s*(r|run|start|starti)(\s|$)/.test(v.text));
  const prog = argv
    .slice(1)
    .find(
      (a, i) => !a.text.startsWith("-") && !/^-?-?(ex|iex|eval-command|init-eval-command|x|p|pid|cd|d|directory|s|symbols|c|core)$/.test(argv[i]?.text ?? ""),
    );
  if (runCmd && prog)
    return final({
      argv: [nth(argv, 0)],
      scripts,
      argvs: [
        [
          prog,
          ...runCmd.text
            .trim()
            .split(/\s+/)
            .slice(1)
            .map((t) => ({ text: t, dynamic: runCmd.dynamic })),
        ],
      ],
    });
  return final({ argv: [], scripts });
}

/** `expect -c 'spawn git commit; expect eof'`, `expect job.exp`. */
function expectInvocation(argv: Arg[]): Step {
  const tcl: Arg[] = [];
  const programFiles: Unwrapped["programFiles"] = [];
  for (let i = 1; i < argv.length; i++) {
    const t = nth(argv, i).text;
    if (t === "-c" && argv[i + 1]) {
      tcl.push(nth(argv, ++i));
      continue;
    }
    if (t === "-f" && argv[i + 1]?.text === "-") return final({ argv: [nth(argv, 0)], readsProgramFromStdin: true });
    if (t === "-f" && argv[i + 1]) {
      programFiles.push({ file: nth(argv, ++i), lang: "tcl" });
      continue;
    }
    if (t.startsWith("-")) continue;
    programFiles.push({ file: nth(argv, i), lang: "tcl" });
    break;
  }
  if (tcl.length === 0 && programFiles.length === 0) return final({ argv: [], readsProgramFromStdin: false });
  return final({ argv: [], tcl, programFiles });
}

/** hyperfine runs each operand (and --prepare/--setup/--cleanup) through a shell. */
function hyperfineInvocation(argv: Arg[]): Partial<Unwrapped> {
  const scripts: Script[] = [];
  const shellOpts = new Set(["-p", "--prepare", "-s", "--setup", "-c", "--cleanup", "--conclude"]);
  const valued = new Set([
    "-w",
    "--warmup",
    "-r",
    "--runs",
    "-m",
    "--min-runs",
    "-M",
    "--max-runs",
    "-n",
    "--command-name",
    "-S",
    "--shell",
    "-u",
    "--time-unit",
    "-o",
    "--output",
    "--style",
    "--export-json",
    "--export-csv",
    "--export-markdown",
    "--export-asciidoc",
    "--export-orgmode",
    "--sort",
    "-P",
    "--parameter-scan",
    "-L",
    "--parameter-list",
    "-D",
    "--parameter-step-size",
  ]);
  for (let i = 1; i < argv.length; i++) {
    const t = nth(argv, i).text;
    if (shellOpts.has(t)) {
      const v = argv[++i];
      if (v) scripts.push({ ...v, label: "hyperfine" });
      continue;
    }
    const eq = /^(--prepare|--setup|--cleanup|--conclude)=(.*)$/s.exec(t);
    if (eq) {
      scripts.push({ text: nth(eq, 2), dynamic: nth(argv, i).dynamic, label: "hyperfine" });
      continue;
    }
    if (t === "-P" || t === "--parameter-scan") {
      i += 3;
      continue;
    }
    if (t === "-L" || t === "--parameter-list") {
      i += 2;
      continue;
    }
    if (valued.has(t)) {
      i++;
      continue;
    }
    if (t.startsWith("-")) continue;
    scripts.push({ ...nth(argv, i), label: "hyperfine" });
  }
  return { argv: [], scripts };
}

/** `npm exec -- git commit`, `npm exec -c 'cmd'`, `npx`-likes under npm/pnpm/yarn/bun. Scripts (`npm run`) are read elsewhere. */
function packageExec(name: string, argv: Arg[]): Step | undefined {
  let i = 1;
  while (i < argv.length && nth(argv, i).text.startsWith("-")) i += /^(--prefix|-C|--dir|-w|--workspace|--filter|-F|--cwd)$/.test(nth(argv, i).text) ? 2 : 1;
  const sub = argv[i]?.text;
  const execs = name === "npm" ? ["exec", "x"] : name === "pnpm" ? ["exec", "dlx"] : name === "yarn" ? ["exec", "dlx"] : ["x", "exec"];
  if (!sub || !execs.includes(sub)) return undefined;
  const p = parseOptions([nth(argv, 0), ...argv.slice(i + 1)], { valued: ["-p", "--package", "-w", "--workspace", "--prefix"], shell: ["-c", "--call"] });
  if (p.shell.length) return final({ argv: [], scripts: p.shell.map((s) => ({ ...s, label: `${name} ${sub} -c` })) });
  return peel(p.inner);
}
