// The layers, checked on the import graph of hooks/, cli/ and scripts/:
// core ← io ← runner, core ← io ← hosts, runner + hosts ← entries ← cli;
// scripts may import anything; no cycles. The runner never imports a host and
// a host never imports the runner: hooks/entries/ wires the two. hooks/core,
// hooks/io and hooks/runner name no host (a scan of their code below).
// Specifiers are read with a regex over the source (static import/export-from,
// side-effect imports, dynamic import() with a literal), comments removed first.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { builtinModules } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LAYERED = ["hooks", "cli", "scripts"];
const SOURCE = /\.(ts|mts|mjs|js)$/;

/**
 * Temporary exceptions, each with the reason and who removes it. Keep this list
 * short and explicit: an entry is "from -> to" exactly as reported by the test.
 */
export const ALLOWED: ReadonlyMap<string, string> = new Map<string, string>([]);

export interface Graph {
  /** file (repo-relative, forward slashes) → imported specifiers, resolved to a repo file or left bare ("node:fs", "zod"). */
  edges: Map<string, string[]>;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules" && !e.name.startsWith(".")) walk(p, out);
    } else if (SOURCE.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** Remove comments but keep string literals (a "//" inside a URL string is not a comment). */
export function stripComments(src: string): string {
  return src.replace(/("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m, str: string | undefined) =>
    str ? m : m.startsWith("/*") ? m.replace(/[^\n]/g, " ") : "",
  );
}

/** Module specifiers a source file imports (static, re-exports, side-effect, dynamic with a literal). */
export function specifiersOf(src: string): string[] {
  const code = stripComments(src);
  const out: string[] = [];
  const patterns = [
    /(?:^|[;\n}])\s*(?:import|export)\s+(?:type\s+)?[^;"'`]*?\bfrom\s*["']([^"']+)["']/g,
    /(?:^|[;\n}])\s*import\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) out.push(m[1] as string);
  return out;
}

/** A relative specifier as the repo file it names (".js" written for a ".ts" source, as NodeNext wants). */
function resolveRelative(from: string, spec: string, root = ROOT): string {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, base.replace(/\.js$/, ".ts"), base.replace(/\.mjs$/, ".mts"), `${base}.ts`, path.join(base, "index.ts")];
  const hit = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
  return path
    .relative(root, hit ?? base)
    .split(path.sep)
    .join("/");
}

/** The graph without the ALLOWED edges, which every check below ignores. */
export function importGraph(root = ROOT): Graph {
  const edges = new Map<string, string[]>();
  for (const top of LAYERED) {
    if (!fs.existsSync(path.join(root, top))) continue;
    for (const file of walk(path.join(root, top))) {
      const rel = path.relative(root, file).split(path.sep).join("/");
      const specs = specifiersOf(fs.readFileSync(file, "utf8")).map((s) => (s.startsWith(".") ? resolveRelative(file, s, root) : s));
      edges.set(
        rel,
        [...new Set(specs)].filter((to) => !ALLOWED.has(`${rel} -> ${to}`)),
      );
    }
  }
  return { edges };
}

/**
 * Node built-ins the pure core may use: only node:path (string work). Everything
 * else (fs, child_process, os, process, …) acts on or reads the world, so it is
 * refused by default rather than listed.
 */
const CORE_BUILTINS = new Set(["path", "path/posix", "path/win32"]);
const isBuiltin = (spec: string) => spec.startsWith("node:") || builtinModules.includes(spec);
const worldly = (spec: string) => isBuiltin(spec) && !CORE_BUILTINS.has(spec.replace(/^node:/, ""));

const under = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`);
const hostOf = (file: string) => /^hooks\/hosts\/([^/]+)\//.exec(file)?.[1];

/** Every layering rule a single edge can break; "" when the edge is fine. */
export function ruleBroken(from: string, to: string): string {
  if (under(from, "hooks/core")) {
    for (const d of ["hooks/io", "hooks/runner", "hooks/hosts", "cli", "scripts"]) if (under(to, d)) return `hooks/core must not import ${d}`;
    if (worldly(to)) return `hooks/core is pure: no ${to} (inject what it needs from hooks/io)`;
  }
  if (under(from, "hooks/io")) {
    for (const d of ["hooks/runner", "hooks/hosts", "hooks/effects", "hooks/entries", "cli", "scripts"])
      if (under(to, d)) return `hooks/io must not import ${d}`;
  }
  // The host is an argument of the runner; a host's modules never reach into the runner. hooks/entries/ wires them.
  if (under(from, "hooks/runner") && under(to, "hooks/hosts"))
    return "hooks/runner must not import hooks/hosts (the host is an argument: hooks/entries/ passes it)";
  if (under(from, "hooks/hosts") && under(to, "hooks/runner")) return "hooks/hosts must not import hooks/runner (hooks/entries/ wires a host to the runner)";
  // The entries are the top of hooks/: only the hook executable (hooks/skillgate.ts), cli/ and scripts/ import them.
  if (under(to, "hooks/entries") && under(from, "hooks") && !under(from, "hooks/entries") && from !== "hooks/skillgate.ts")
    return "only hooks/skillgate.ts, cli/ and scripts/ import hooks/entries";
  // hooks/effects/ is the git hooks' entry (like a host's hook.ts): nothing else in hooks/ depends on it.
  if (under(to, "hooks/effects") && under(from, "hooks") && !under(from, "hooks/effects"))
    return "only hooks/effects imports hooks/effects (an entry, like cli/)";
  const a = hostOf(from),
    b = hostOf(to);
  if (a && b && a !== b) return `host ${a} must not import host ${b}`;
  if (under(from, "hooks")) {
    for (const d of ["cli", "scripts"]) if (under(to, d)) return `hooks/ must not import ${d}/`;
  }
  if (under(from, "cli") && under(to, "scripts")) return "cli/ (shipped) must not import scripts/ (dev tools)";
  return "";
}

export function layerViolations(g: Graph): string[] {
  const out: string[] = [];
  for (const [from, tos] of g.edges) {
    for (const to of tos) {
      const why = ruleBroken(from, to);
      if (why) out.push(`${from} -> ${to}: ${why}`);
    }
  }
  return out.sort();
}

/**
 * Strongly connected components with more than one file (or a self-import):
 * one concrete cycle path each, plus every file of the component.
 */
export function cycles(g: Graph): { cycle: string[]; component: string[] }[] {
  const index = new Map<string, number>(),
    low = new Map<string, number>(),
    onStack = new Set<string>();
  const stack: string[] = [];
  const sccs: string[][] = [];
  let next = 0;
  const local = (f: string) => (g.edges.get(f) ?? []).filter((t) => g.edges.has(t));
  const visit = (v: string) => {
    index.set(v, next), low.set(v, next), next++;
    stack.push(v), onStack.add(v);
    for (const w of local(v)) {
      if (!index.has(w)) visit(w), low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string | undefined;
      do (w = stack.pop()), w !== undefined && (onStack.delete(w), scc.push(w));
      while (w !== undefined && w !== v);
      if (scc.length > 1 || local(v).includes(v)) sccs.push(scc);
    }
  };
  for (const v of [...g.edges.keys()].sort()) if (!index.has(v)) visit(v);
  // One concrete cycle per component: breadth-first from its first file back to itself.
  return sccs.map((scc) => ({ cycle: shortestCycle(scc), component: [...scc].sort() }));
  function shortestCycle(scc: string[]): string[] {
    const inside = new Set(scc);
    const start = [...scc].sort()[0] as string;
    const prev = new Map<string, string>();
    const queue = [start];
    while (queue.length) {
      const v = queue.shift() as string;
      for (const w of local(v).filter((x) => inside.has(x))) {
        if (w === start) {
          const pathBack = [v];
          for (let u = v; u !== start; u = prev.get(u) as string) pathBack.unshift(prev.get(u) as string);
          return [...pathBack, start];
        }
        if (!prev.has(w)) prev.set(w, v), queue.push(w);
      }
    }
    return [start, start];
  }
}

const graph = importGraph();
const rawSpecs = (file: string) =>
  specifiersOf(fs.readFileSync(path.join(ROOT, file), "utf8")).map((s) => (s.startsWith(".") ? resolveRelative(path.join(ROOT, file), s) : s));

test("the import graph is read: every layer has files and imports", () => {
  for (const d of ["hooks/core", "hooks/io", "hooks/runner", "hooks/hosts", "hooks/effects", "cli", "scripts"]) {
    assert.ok(
      [...graph.edges.keys()].some((f) => under(f, d)),
      `no source files found under ${d}`,
    );
  }
  // Spot checks of the parser itself, so a regex that silently finds nothing cannot pass the rules below.
  assert.deepEqual(
    specifiersOf(
      `import a from "./a.js";\nexport { b } from './b.js';\nimport "./c.js";\nconst d = await import("./d.js");\nimport type { E } from "./e.js";\n// import x from "./commented.js"\nconst s = "import y from './in-string.js'";`,
    ).sort(),
    ["./a.js", "./b.js", "./c.js", "./d.js", "./e.js"],
  );
  assert.ok((graph.edges.get("hooks/skillgate.ts") ?? []).length > 0, "hooks/skillgate.ts imports nothing?");
});

test("each rule catches what it is for", () => {
  assert.match(ruleBroken("hooks/core/decide.ts", "hooks/io/state-store.ts"), /core must not import hooks\/io/);
  assert.match(ruleBroken("hooks/core/shell/reads.ts", "node:fs"), /pure/);
  assert.match(ruleBroken("hooks/core/x.ts", "fs"), /pure/);
  assert.match(ruleBroken("hooks/core/x.ts", "node:child_process"), /pure/);
  assert.match(ruleBroken("hooks/core/x.ts", "node:os"), /pure/);
  assert.equal(ruleBroken("hooks/core/x.ts", "zod"), "", "packages are fine in the core");
  assert.equal(ruleBroken("hooks/core/decide.ts", "node:path"), "");
  assert.match(ruleBroken("hooks/io/table-load.ts", "hooks/runner/hook.ts"), /io must not/);
  assert.match(ruleBroken("hooks/hosts/opencode/a.ts", "hooks/hosts/claude-code/adapter.ts"), /host opencode must not import host claude-code/);
  assert.equal(ruleBroken("hooks/hosts/claude-code/a.ts", "hooks/hosts/claude-code/b.ts"), "");
  assert.match(ruleBroken("hooks/runner/hook.ts", "cli/main.ts"), /hooks\/ must not import cli/);
  assert.match(ruleBroken("cli/main.ts", "scripts/fuzz.ts"), /dev tools/);
  assert.match(ruleBroken("hooks/runner/hook.ts", "hooks/effects/caller.ts"), /only hooks\/effects imports hooks\/effects/);
  assert.match(ruleBroken("hooks/io/tickets.ts", "hooks/effects/refs.ts"), /io must not|only hooks\/effects/);
  assert.match(ruleBroken("hooks/effects/git-hook.ts", "cli/main.ts"), /hooks\/ must not import cli/);
  assert.equal(ruleBroken("hooks/effects/check.ts", "hooks/runner/context.ts"), "", "the git hook entry wires runner, io and hosts");
  assert.equal(ruleBroken("cli/git-hooks.ts", "hooks/effects/caller.ts"), "");
  assert.equal(ruleBroken("scripts/bench.ts", "cli/install.ts"), "");
  const g: Graph = {
    edges: new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "node:fs"]],
      ["d", ["d"]],
      ["e", ["a"]],
    ]),
  };
  assert.deepEqual(
    cycles(g).map((c) => c.cycle),
    [
      ["a", "b", "c", "a"],
      ["d", "d"],
    ],
  );
  assert.deepEqual(cycles(g)[0]?.component, ["a", "b", "c"]);
});

test("layers: core ← io ← runner, hosts ← entries ← cli; runner and hosts never import each other; hooks/ never imports cli/ or scripts/; cli/ never imports scripts/", () => {
  const v = layerViolations(graph);
  assert.deepEqual(v, [], `layering broken:\n  ${v.join("\n  ")}`);
});

test("no import cycles", () => {
  const c = cycles(graph).map(
    ({ cycle, component }) =>
      `${cycle.join(" -> ")}${component.length > cycle.length - 1 ? `\n    (one of the cycles among ${component.length} files: ${component.join(", ")})` : ""}`,
  );
  assert.deepEqual(c, [], `${c.length} import cycle(s):\n  ${c.join("\n  ")}`);
});

test("every temporary exception is still needed", () => {
  const stale = [...ALLOWED.keys()].filter((k) => {
    const [from, to] = k.split(" -> ") as [string, string];
    return !fs.existsSync(path.join(ROOT, from)) || !rawSpecs(from).includes(to);
  });
  assert.deepEqual(stale, [], "remove these from ALLOWED: the import is gone");
});

// ─── Host names outside the hosts ─────────────────────────────────────────

/** The folders that must not know any host: what a host names comes in through its Host (hooks/core/host.ts). */
export const HOST_FREE = ["hooks/core", "hooks/io", "hooks/runner"];

/** A host's own names: Claude Code's variables and folder, and tool names as one host spells them. */
const HOST_NAMES: readonly { name: string; re: RegExp }[] = [
  { name: "CLAUDE_ variable", re: /\bCLAUDE_[A-Z_]+/ },
  { name: ".claude folder", re: /\.claude\b/ },
  { name: "tool name Bash", re: /\bBash\b/ },
  { name: "tool name Skill", re: /["'`]Skill["'`]|\bSkill tool\b/ },
  { name: "tool name MultiEdit/NotebookEdit", re: /\b(MultiEdit|NotebookEdit)\b/ },
];

/**
 * Names that stay, each with its reason: "file: name" exactly as reported. Keep it short; a stale entry fails
 * ("every host-name exception is still needed").
 */
export const HOST_NAMES_ALLOWED: ReadonlyMap<string, string> = new Map<string, string>([
  ["hooks/runner/context.ts: .claude folder", "`.claude-plugin` is a folder of skillgate's own package (its plugin manifest), protected under every host"],
  ["hooks/core/table/schema.ts: tool name Bash", "the table schema's description quotes a tool name a user's table may hold, as an example"],
]);

/** Host names in one source file's code (comments removed; string literals kept: they are what the code says). */
export function hostNamesIn(src: string): string[] {
  const code = stripComments(src);
  return HOST_NAMES.filter(({ re }) => re.test(code)).map(({ name }) => name);
}

/** "file: name" for every host name in the host-free folders under root, less the allowed ones. */
export function hostNameViolations(root = ROOT): string[] {
  const out: string[] = [];
  for (const dir of HOST_FREE) {
    if (!fs.existsSync(path.join(root, dir))) continue;
    for (const file of walk(path.join(root, dir))) {
      const rel = path.relative(root, file).split(path.sep).join("/");
      for (const name of hostNamesIn(fs.readFileSync(file, "utf8"))) out.push(`${rel}: ${name}`);
    }
  }
  return out.filter((v) => !HOST_NAMES_ALLOWED.has(v)).sort();
}

test("hooks/core, hooks/io and hooks/runner name no host (CLAUDE_ variables, .claude, one host's tool names)", () => {
  const v = hostNameViolations();
  assert.deepEqual(v, [], `host names outside hooks/hosts/ (take them from the Host instead):\n  ${v.join("\n  ")}`);
});

test("every host-name exception is still needed", () => {
  const all = new Set(
    HOST_FREE.flatMap((d) => walk(path.join(ROOT, d))).flatMap((f) =>
      hostNamesIn(fs.readFileSync(f, "utf8")).map((n) => `${path.relative(ROOT, f).split(path.sep).join("/")}: ${n}`),
    ),
  );
  const stale = [...HOST_NAMES_ALLOWED.keys()].filter((k) => !all.has(k));
  assert.deepEqual(stale, [], "remove these from HOST_NAMES_ALLOWED: the name is gone");
});

/** A throwaway tree with the given files (repo-relative path → source), for running a rule on planted violations. */
function plantedTree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "skillgate-arch-"));
  for (const [rel, src] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), src);
  }
  return root;
}

test("the runner↛hosts and hosts↛runner rules fail on planted files, and pass the entry that wires both", () => {
  const root = plantedTree({
    "hooks/runner/run.ts": `import { claudeCode } from "../hosts/claude-code/adapter.js";\nexport const h = claudeCode;\n`,
    "hooks/hosts/claude-code/adapter.ts": `export const claudeCode = {};\n`,
    "hooks/hosts/opencode/plugin.ts": `import { runEvent } from "../../runner/run.js";\nexport const r = runEvent;\n`,
    "hooks/entries/opencode.ts": `import { runEvent } from "../runner/run.js";\nimport { claudeCode } from "../hosts/claude-code/adapter.js";\n`,
    "hooks/io/store.ts": `import { main } from "../entries/opencode.js";\n`,
  });
  try {
    const v = layerViolations(importGraph(root));
    assert.deepEqual(v, [
      "hooks/hosts/opencode/plugin.ts -> hooks/runner/run.ts: hooks/hosts must not import hooks/runner (hooks/entries/ wires a host to the runner)",
      "hooks/io/store.ts -> hooks/entries/opencode.ts: hooks/io must not import hooks/entries",
      "hooks/runner/run.ts -> hooks/hosts/claude-code/adapter.ts: hooks/runner must not import hooks/hosts (the host is an argument: hooks/entries/ passes it)",
    ]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  assert.match(ruleBroken("hooks/runner/context.ts", "hooks/hosts/claude-code/adapter.ts"), /runner must not import hooks\/hosts/);
  assert.match(ruleBroken("hooks/hosts/codex/hook.ts", "hooks/runner/process.ts"), /hosts must not import hooks\/runner/);
  assert.match(ruleBroken("hooks/core/decide.ts", "hooks/entries/claude-code.ts"), /core must not import hooks\/entries|only hooks\/skillgate.ts/);
  assert.equal(ruleBroken("hooks/entries/codex.ts", "hooks/runner/process.ts"), "");
  assert.equal(ruleBroken("hooks/entries/codex.ts", "hooks/hosts/codex/hook.ts"), "");
  assert.equal(ruleBroken("hooks/skillgate.ts", "hooks/entries/claude-code.ts"), "");
  assert.equal(ruleBroken("cli/main.ts", "hooks/entries/claude-code.ts"), "");
});

test("the host-name scan fails on a planted file in each host-free folder, and not on a comment or a host's own folder", () => {
  const root = plantedTree({
    "hooks/io/where.ts": `export const dir = (env: Record<string, string>) => env.CLAUDE_PROJECT_DIR;\n`,
    "hooks/runner/table.ts": `import path from "node:path";\nexport const t = (d: string) => path.join(d, ".claude", "triggers.json");\n`,
    "hooks/core/say.ts": `export const say = (s: string) => \`call the Skill tool with skill "\${s}"\`;\nexport const shell = "Bash";\n`,
    "hooks/core/fine.ts": `// Claude Code calls its shell tool Bash and keeps settings in .claude/ (CLAUDE_PROJECT_DIR): a comment only.\nexport const skill = "skill";\n`,
    "hooks/hosts/claude-code/env.ts": `export const dir = (env: Record<string, string>) => env.CLAUDE_PROJECT_DIR + "/.claude";\n`,
  });
  try {
    assert.deepEqual(hostNameViolations(root), [
      "hooks/core/say.ts: tool name Bash",
      "hooks/core/say.ts: tool name Skill",
      "hooks/io/where.ts: CLAUDE_ variable",
      "hooks/runner/table.ts: .claude folder",
    ]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
