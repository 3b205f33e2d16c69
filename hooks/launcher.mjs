// skillgate launcher. `skillgate install` copies this file to
// <project>/.claude/hooks/skillgate.mjs; commit it with .claude/settings.json.
// It runs the project's installed skillgate (node_modules/skillgate/dist/hook.cjs).
// When that is missing (a fresh clone before `npm ci`, or skillgate uninstalled)
// it says so loudly instead of letting the client report "no usable answer" and
// run every tool call unchecked. No dependencies: it must work when nothing is installed.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const project = process.env.CLAUDE_PROJECT_DIR || path.resolve(here, "..", "..");

const isSkillgate = (dir) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).name === "skillgate";
  } catch {
    return false;
  }
};

/**
 * The skillgate package to run: the one this file sits in (the plugin route:
 * ${CLAUDE_PLUGIN_ROOT}/hooks/launcher.mjs), else node_modules/skillgate in the
 * project or a parent (hoisted workspaces), else the project itself when it is skillgate.
 */
function findPackage() {
  const own = path.resolve(here, "..");
  if (isSkillgate(own)) return own;
  for (let dir = project; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "node_modules", "skillgate");
    if (fs.existsSync(path.join(pkg, "package.json"))) return pkg;
    if (path.dirname(dir) === dir) break;
  }
  return isSkillgate(project) ? project : undefined;
}

const pkg = findPackage();
const hook = pkg && path.join(pkg, "dist", "hook.cjs");
const legacy = pkg && path.join(pkg, "dist", "hook.mjs");
if (hook && fs.existsSync(hook)) {
  await createRequire(import.meta.url)(hook).run();
} else if (legacy && fs.existsSync(legacy)) {
  await import(pathToFileURL(legacy).href); // a skillgate built before dist/hook.cjs
} else {
  missing();
}

function missing() {
  let event = {};
  let unreadable = "";
  try {
    event = JSON.parse(readStdin());
  } catch (e) {
    unreadable = `the hook event is not JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  const name = event && typeof event.hook_event_name === "string" ? event.hook_event_name : "";
  if (!name && !unreadable) unreadable = "the hook event has no hook_event_name";
  const what = !pkg
    ? `skillgate is registered but not installed: run npm ci (or npm install) in ${project}`
    : pkg.split(path.sep).includes("node_modules")
      ? `skillgate is installed but not built (${hook} is missing): run npm rebuild skillgate`
      : `skillgate at ${pkg} is not built (dist/hook.cjs is missing): run \`${buildCommand(pkg)}\``;
  const closed = failClosed();
  const message = `${what}. Until then its gates are ${closed ? "closed: gated tool calls are refused" : "OFF"}.`;
  let out;
  if (name === "PreToolUse" && closed && !isInstallCommand(event)) {
    // The project's table asks to fail closed: refuse, but let the install that fixes it through.
    out = { systemMessage: message, hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: message } };
  } else if (name === "SessionStart") {
    out = {
      systemMessage: message,
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: `${message} Tell the user before relying on the project's skill rules.` },
    };
  } else if (name === "UserPromptSubmit") {
    out = { systemMessage: message };
  } else if (unreadable) {
    // An event nobody can read: say both what is wrong with it and what is missing.
    out = { systemMessage: `${message} Also: ${unreadable}.` };
  }
  if (out) process.stdout.write(JSON.stringify(out) + "\n");
  process.exitCode = 0;
}

/**
 * What builds dist/ in a checkout: `npm run build` once its dependencies are installed;
 * else `npm ci`, which builds it too in a git clone (the prepare script), or both in a copy without .git.
 */
function buildCommand(dir) {
  const cd = `cd ${/^[\w@%+=:,./-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, "'\\''")}'`}`;
  if (fs.existsSync(path.join(dir, "node_modules"))) return `${cd} && npm run build`;
  if (fs.existsSync(path.join(dir, ".git"))) return `${cd} && npm ci`;
  return `${cd} && npm ci && npm run build`;
}

/** All of stdin; a non-blocking pipe (EAGAIN) is waited on, not mistaken for no input. */
function readStdin() {
  const chunks = [];
  const buf = Buffer.alloc(65536);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; waited < 5000; ) {
    let n;
    try {
      n = fs.readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      if (e.code === "EAGAIN") {
        Atomics.wait(pause, 0, 0, 5);
        waited += 5;
        continue;
      }
      if (e.code === "EOF") break;
      throw e;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The project's table (or $SKILLGATE_FAIL_MODE) says "closed". */
function failClosed() {
  if (process.env.SKILLGATE_FAIL_MODE === "closed") return true;
  try {
    return JSON.parse(fs.readFileSync(path.join(project, ".claude", "triggers.json"), "utf8")).failMode === "closed";
  } catch {
    return false;
  }
}

function isInstallCommand(event) {
  const cmd = event?.tool_input?.command;
  return (
    typeof cmd === "string" &&
    /^\s*(?:npm\s+(?:ci|install|i)|pnpm\s+(?:install|i)|yarn(?:\s+install)?|bun\s+install)(?:\s|$)/.test(cmd) &&
    !/[;&|`$<>]/.test(cmd)
  );
}
