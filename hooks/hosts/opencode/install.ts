// `skillgate install | uninstall | doctor --host opencode`: opencode loads every
// .js/.ts file in <project>/.opencode/plugins/ and ~/.config/opencode/plugins/
// (1.18.33: "{plugin,plugins}/*.{ts,js}" in each config dir). We put one small
// file there that re-exports the bundled plugin (dist/opencode-plugin.mjs),
// marked so uninstall removes only our own file: by a path relative to the file
// when skillgate is the project's dependency (every clone has it there), else
// by absolute URL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadTable } from "../../io/table-load.js";
import { tableFileOf } from "./paths.js";
import { makeDir } from "../../io/make-dir.js";
import {
  ensureSkills,
  type DoctorCheck,
  type FileChange,
  type HostInstaller,
  type InstallPlan,
  type InstallTarget,
  type SkillsTarget,
} from "../../io/hook-install.js";
import { absolutePathsProblem, packageDirInProject } from "../../io/project-package.js";
import { skillRootsOf } from "./adapter.js";

export const PLUGIN_FILE = "skillgate.js";
const MARKER = "// skillgate opencode plugin: written by `skillgate install --host opencode`";

export interface OpencodeTarget {
  /** A project folder: the plugin goes to <DIR>/.opencode/plugins/. */
  project?: string;
  /** Install for the user: $XDG_CONFIG_HOME/opencode/plugins/ (default ~/.config/opencode/plugins/). */
  user?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** The plugin file for a target: --project DIR, --user, or (neither) the current directory's project. */
export function pluginFileOf(t: OpencodeTarget): string {
  const env = t.env ?? process.env;
  if (t.project !== undefined && t.user) throw new Error("give --project DIR or --user, not both");
  if (t.user) {
    const config = env.XDG_CONFIG_HOME ?? path.join(env.HOME ?? os.homedir(), ".config");
    return path.join(config, "opencode", "plugins", PLUGIN_FILE);
  }
  return path.join(path.resolve(t.project ?? "."), ".opencode", "plugins", PLUGIN_FILE);
}

/** The bundle the plugin file points at. */
export function bundleOf(packageRoot: string): string {
  return path.join(packageRoot, "dist", "opencode-plugin.mjs");
}

/**
 * What the plugin file imports the bundle by: for a project with skillgate as its
 * dependency a path relative to .opencode/plugins/ (portable), else the bundle's file URL.
 */
export function bundleSpecifier(t: OpencodeTarget, packageRoot: string): { specifier: string; portable: boolean } {
  const pkgDir = t.user ? undefined : packageDirInProject(path.resolve(t.project ?? "."), packageRoot);
  if (pkgDir === undefined) return { specifier: pathToFileURL(bundleOf(packageRoot)).href, portable: false };
  return { specifier: path.posix.join(path.posix.relative(".opencode/plugins", pkgDir), "dist", "opencode-plugin.mjs"), portable: true };
}

export function pluginSource(packageRoot: string, specifier = pathToFileURL(bundleOf(packageRoot)).href): string {
  return `${MARKER}\n// Remove with \`skillgate uninstall --host opencode\`.\nexport { SkillgatePlugin } from ${JSON.stringify(specifier)};\n`;
}

/** The plugin file's text for a target. */
const pluginSourceFor = (t: OpencodeTarget, packageRoot: string): string => pluginSource(packageRoot, bundleSpecifier(t, packageRoot).specifier);

export interface InstallResult {
  file: string;
  action: "installed" | "updated" | "unchanged" | "removed" | "absent";
}

/** Write (or refresh) the plugin file. Refuses to overwrite a skillgate.js that is not ours. */
export function installOpencode(t: OpencodeTarget, packageRoot: string, dryRun = false): InstallResult {
  const file = pluginFileOf(t);
  if (!fs.existsSync(bundleOf(packageRoot))) throw new Error(`${bundleOf(packageRoot)} is missing: run \`npm run build\` in ${packageRoot} first`);
  const text = pluginSourceFor(t, packageRoot);
  const old = readIfExists(file);
  if (old !== undefined && !old.startsWith(MARKER)) throw new Error(`${file} exists and was not written by skillgate; not touching it`);
  if (old === text) return { file, action: "unchanged" };
  if (!dryRun) {
    makeDir(path.dirname(file));
    fs.writeFileSync(file, text);
  }
  return { file, action: old === undefined ? "installed" : "updated" };
}

/**
 * Where opencode 1.18.33's `skill` tool loads the table's skills from (the table's skillsDir is loadable
 * through the plugin, which adds it to the skill paths: plugin.ts `config`), and where --with-skills
 * copies a missing one: the project's .opencode/skills (--user: $XDG_CONFIG_HOME/opencode/skills).
 */
export function opencodeSkillsTarget(t: OpencodeTarget, packageRoot: string, withSkills: boolean): SkillsTarget {
  const env = t.env ?? process.env;
  const directory = t.user ? undefined : path.resolve(t.project ?? ".");
  const config = env.XDG_CONFIG_HOME ?? path.join(env.HOME ?? os.homedir(), ".config");
  const dest = directory ? path.join(directory, ".opencode", "skills") : path.join(config, "opencode", "skills");
  const tableFile = tableFileOf(env, directory ?? path.resolve("."), packageRoot);
  return { host: "opencode", tableFile, roots: skillRootsOf(env, directory), dest, loadsSkillsDir: true, withSkills, packageRoot, env };
}

/** The skills check alone (opencodeSkillsTarget): what to print, or an Error naming the missing skills and the flag. */
export async function opencodeSkills(t: OpencodeTarget, packageRoot: string, withSkills: boolean, dryRun = false): Promise<string[]> {
  const r = await ensureSkills(opencodeSkillsTarget(t, packageRoot, withSkills), dryRun);
  if (!r.ok) throw new Error(r.error);
  return r.lines;
}

/** Remove exactly our plugin file; a foreign file of the same name is left alone (and said so). */
export function uninstallOpencode(t: OpencodeTarget, dryRun = false): InstallResult {
  const file = pluginFileOf(t);
  const old = readIfExists(file);
  if (old === undefined) return { file, action: "absent" };
  if (!old.startsWith(MARKER)) throw new Error(`${file} was not written by skillgate; not removing it`);
  if (!dryRun) fs.rmSync(file);
  return { file, action: "removed" };
}

export interface DoctorReport {
  ok: boolean;
  lines: string[];
}

/** Is the plugin file there, ours, pointing at a bundle that exists and loads as an opencode plugin module? */
export async function doctorOpencode(t: OpencodeTarget, packageRoot: string): Promise<DoctorReport> {
  const file = pluginFileOf(t);
  const lines: string[] = [];
  let ok = true;
  const bad = (l: string) => {
    ok = false;
    lines.push(`✗ ${l}`);
  };
  const text = readIfExists(file);
  if (text === undefined) bad(`no plugin file at ${file} (run \`skillgate install --host opencode\`)`);
  else if (!text.startsWith(MARKER)) bad(`${file} was not written by skillgate`);
  else {
    lines.push(`✓ plugin file ${file}`);
    const target = text.match(/from "([^"]+)"/)?.[1];
    if (!target) bad(`${file} names no bundle`);
    else {
      // A relative specifier resolves against the plugin file, as opencode's import does.
      const bundle = new URL(target, pathToFileURL(file));
      const shown = fileURLToPath(bundle);
      // A project's plugin file is committed: it must load on every clone.
      if (!t.user && target.startsWith("file:")) bad(absolutePathsProblem(file, [shown], "opencode"));
      if (!fs.existsSync(bundle)) bad(`bundle ${shown} is missing (moved or not built)`);
      else {
        try {
          const mod = (await import(bundle.href)) as Record<string, unknown>;
          const fns = Object.entries(mod)
            .filter(([, v]) => typeof v === "function")
            .map(([k]) => k);
          if (fns.length === 1 && fns[0] === "SkillgatePlugin") lines.push(`✓ bundle ${shown} exports the plugin`);
          else bad(`bundle ${shown} exports ${fns.join(", ") || "no function"}; opencode would run each as a plugin`);
        } catch (e) {
          bad(`bundle ${shown} does not load: ${(e as Error).message}`);
        }
      }
    }
  }
  if (text !== undefined && text !== pluginSourceFor(t, packageRoot) && text.startsWith(MARKER))
    lines.push(`! ${file} points at another skillgate install than ${packageRoot}`);
  // The table the plugin will load for this project (for --user: the one for the current directory).
  const env = t.env ?? process.env;
  const tableFile = tableFileOf(env, path.resolve(t.project ?? "."), packageRoot);
  const table = await loadTable(tableFile, undefined, env);
  if (table.ok) lines.push(`✓ table ${tableFile}: ${table.compiled.rows.length} rows, failMode ${table.compiled.table.failMode}`);
  else bad(`table ${tableFile} is unusable (${table.failMode === "closed" ? "every tool call would be refused" : "gates would be OFF"}): ${table.error}`);
  return { ok, lines };
}

const targetOf = (t: InstallTarget): OpencodeTarget => ({ ...(t.project !== undefined ? { project: t.project } : {}), user: t.user, env: t.env });

/** `skillgate install | uninstall --host opencode`: the plugin file (ours only) and the skills to check. */
export function opencodePlan(verb: "install" | "uninstall", t: InstallTarget, root: string): InstallPlan {
  const file = pluginFileOf(targetOf(t));
  const old = readIfExists(file) ?? null;
  if (old !== null && !old.startsWith(MARKER))
    throw new Error(`${file} ${verb === "install" ? "exists and " : ""}was not written by skillgate; not touching it`);
  if (verb === "uninstall") return { changes: old === null ? [] : [{ file, before: old, after: null }], notes: [] };
  if (!fs.existsSync(bundleOf(root))) throw new Error(`${bundleOf(root)} is missing: run \`npm run build\` in ${root} first`);
  const skills = opencodeSkillsTarget(targetOf(t), root, t.withSkills);
  const { specifier, portable } = bundleSpecifier(targetOf(t), root);
  const form = portable ? `portable: imports ${specifier}` : `absolute path, this machine only: imports ${specifier}`;
  const change: FileChange = { file, before: old, after: pluginSource(root, specifier), fresh: old === null, says: `plugin written (${form})` };
  return { changes: [change], notes: [], skills: t.table ? { ...skills, tableFile: t.table } : skills };
}

/** doctorOpencode's lines as checks (a "!" line is a note, not a problem). */
async function opencodeDoctorChecks(t: InstallTarget, root: string): Promise<DoctorCheck[]> {
  const d = await doctorOpencode(targetOf(t), root);
  return d.lines.map((l) => ({ ok: !l.startsWith("✗"), text: l.replace(/^[✓✗!] /, "") }));
}

export const opencodeInstaller: HostInstaller = {
  id: "opencode",
  label: "opencode",
  binary: "opencode",
  markers: ["opencode.json", "opencode.jsonc", ".opencode"],
  skillsHelp: "opencode: .opencode/skills ($XDG_CONFIG_HOME/opencode/skills with --user); the table's own skills folder loads through the plugin",
  plan: opencodePlan,
  doctor: opencodeDoctorChecks,
};

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}
