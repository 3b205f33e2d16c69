// A real npm registry on loopback for the tests in this folder: verdaccio
// (pinned in registry/package.json), offline (no uplinks), its storage and
// config in a temp folder. skillgate is published to it from `npm pack` of this
// checkout, its dependencies from the copies the checkout's npm ci installed.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REGISTRY_DIR = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(REGISTRY_DIR, "..");

/** Every temp folder made here: removed when the process exits (SKILLGATE_REGISTRY_KEEP=1 keeps them). */
const made: string[] = [];
process.on("exit", () => {
  if (process.env.SKILLGATE_REGISTRY_KEEP) return;
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `skillgate-registry-${prefix}-`));
  made.push(dir);
  return dir;
}

export interface Registry {
  /** http://127.0.0.1:PORT/ */
  url: string;
  /** A user config (.npmrc) holding the publish token for this registry. */
  npmrc: string;
  stop(): Promise<void>;
}

/** Starts verdaccio (registry/serve.mjs) and makes a user that may publish. */
export async function startRegistry(): Promise<Registry> {
  const dir = tempDir("verdaccio");
  const config = path.join(dir, "config.yaml");
  // No `uplinks`: a package not published here is a 404, never a download.
  fs.writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(path.join(dir, "storage"))}`,
      "auth:",
      "  htpasswd:",
      `    file: ${JSON.stringify(path.join(dir, "htpasswd"))}`,
      "    max_users: 1",
      "packages:",
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "log: { type: stdout, format: json, level: warn }",
      "",
    ].join("\n"),
  );
  const child = spawn(process.execPath, [path.join(REGISTRY_DIR, "serve.mjs"), config], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  const url = await firstLine(child);
  const res = await fetch(new URL("-/user/org.couchdb.user:skillgate-test", url), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "skillgate-test", password: "skillgate-test-password" }),
  });
  const body = (await res.json()) as { token?: string };
  if (!res.ok || !body.token) throw new Error(`verdaccio: making the publishing user failed (${res.status}): ${JSON.stringify(body)}`);
  const npmrc = path.join(dir, "npmrc");
  fs.writeFileSync(npmrc, `registry=${url}\n//${new URL(url).host}/:_authToken=${body.token}\n`);
  return {
    url,
    npmrc,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** The URL serve.mjs prints once it listens; its stderr if it exits first. */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => fail(new Error(`verdaccio did not start within 60 s: ${err || out}`)), 60_000);
    const fail = (e: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(e);
    };
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith('{"url"'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    child.once("exit", (code) => fail(new Error(`verdaccio exited (${code}) before listening: ${err || out}`)));
  });
}

/** An environment for npm against the registry only: a temp HOME and cache, nothing from the outer npm config. */
export function npmEnv(reg: Registry, home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    LANG: "C.UTF-8",
    HOME: home,
    npm_config_registry: reg.url,
    npm_config_cache: path.join(home, ".npm"),
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    ...extra,
  };
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): string {
  const r = spawnSync(cmd, args, { cwd, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} (in ${cwd}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** `npm pack` of `dir` into `dest`; returns the tarball's path. */
function pack(dir: string, dest: string, env: NodeJS.ProcessEnv, ignoreScripts: boolean): string {
  const args = ["pack", dir, "--pack-destination", dest, "--json", ...(ignoreScripts ? ["--ignore-scripts"] : [])];
  const out = JSON.parse(run("npm", args, dest, env)) as { filename: string }[];
  return path.join(dest, out[0]!.filename);
}

/** The dependency closure of a package, each as the folder npm ci installed it in (root node_modules, hoisted). */
function installedDependencies(pkgDir: string, seen = new Map<string, string>()): Map<string, string> {
  const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {})) {
    if (seen.has(name)) continue;
    const nested = path.join(pkgDir, "node_modules", name);
    const dir = fs.existsSync(path.join(nested, "package.json")) ? nested : path.join(ROOT, "node_modules", name);
    if (!fs.existsSync(path.join(dir, "package.json"))) throw new Error(`dependency ${name} of ${pkgDir} is not installed (run npm ci at ${ROOT})`);
    seen.set(name, dir);
    installedDependencies(dir, seen);
  }
  return seen;
}

/** Packs this checkout (prepack builds dist/) and publishes it with its dependencies; returns skillgate's tarball. */
export function publishSkillgate(reg: Registry): string {
  const work = tempDir("publish");
  const env = npmEnv(reg, work, { npm_config_userconfig: reg.npmrc });
  const tarballs = [...installedDependencies(ROOT).values()].map((dir) => pack(dir, work, env, true));
  const own = pack(ROOT, work, env, false);
  for (const t of [...tarballs, own]) run("npm", ["publish", t, "--registry", reg.url, "--ignore-scripts"], work, env);
  return own;
}

/** A fresh git repository with one commit and a package.json, as a project that is about to add skillgate. */
export function freshProject(): string {
  const dir = tempDir("project");
  const git = (...a: string[]) => execFileSync("git", a, { cwd: dir, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("config", "user.name", "Registry Test");
  git("config", "user.email", "registry-test@example.invalid");
  git("config", "commit.gpgsign", "false");
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", private: true }, null, 2) + "\n");
  fs.writeFileSync(path.join(dir, "README.md"), "# app\n");
  git("add", ".");
  git("commit", "-q", "-m", "init");
  return dir;
}

/**
 * The README's install lines, word for word: every line of a ```sh block that
 * starts with `npm install --save-dev skillgate` or `npx skillgate`, taken from
 * the blocks that hold the `npm install --save-dev skillgate` line (the other
 * blocks show verbs one by one), with a trailing `# comment` removed.
 */
export function readmeInstallLines(readme: string): string[] {
  const blocks = [...readme.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1]!.split("\n"));
  const install = /^npm install --save-dev skillgate(\s|$)/;
  const lines: string[] = [];
  for (const block of blocks) {
    if (!block.some((l) => install.test(l))) continue;
    for (const l of block) {
      if (install.test(l) || /^npx skillgate(\s|$)/.test(l)) lines.push(l.replace(/\s+#.*$/, "").trimEnd());
    }
  }
  return lines;
}
