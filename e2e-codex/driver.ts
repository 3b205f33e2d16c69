// Codex CLI's driver for the shared scenarios (e2e-shared/scenarios.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { firstOutput, played, repoWithOrigin, installAsUser, pinnedVersion, type Driver, type Step } from "../e2e-shared/scenarios.ts";
import { buildHook, callOutput, run, tempDir, type Project } from "./harness.ts";

function call(s: Step, id: string) {
  if ("shell" in s) return { name: "exec_command", arguments: { cmd: s.shell }, callId: id };
  // Codex loads a skill by reading its SKILL.md whole (install --with-skills puts it in .agents/skills).
  if ("load" in s) return { name: "exec_command", arguments: { cmd: `cat .agents/skills/${s.load}/SKILL.md` }, callId: id };
  return {
    name: "apply_patch",
    input: `*** Begin Patch\n*** Add File: ${s.write.file}\n${s.write.text.replace(/^/gm, "+").replace(/\+$/, "")}*** End Patch\n`,
    callId: id,
  };
}

export const codexDriver: Driver<Project> = {
  host: "codex",
  gitHooks: "run",
  version: pinnedVersion("e2e-codex", "@openai/codex"),
  limits: { cap: { cannot: "Codex ignores a hook's replacement output (e2e-codex/FINDINGS.md)" } },
  async project() {
    await buildHook();
    const repo = repoWithOrigin(tempDir);
    const home = tempDir("home");
    const codexHome = join(home, ".codex");
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, "config.toml"), `[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n`);
    const state = tempDir("state");
    installAsUser("codex", repo, { HOME: home, CODEX_HOME: codexHome, SKILLGATE_STATE: state }, ["--trust"]);
    return { repo, codexHome, home, state };
  },
  async play(p, prompt, steps) {
    const ids = steps.map((_, i) => `c${i}`);
    const r = await run(p, {
      prompt,
      script: [...steps.map((s, i) => ({ calls: call(s, ids[i]!), ...(s.promptTokens ? { inputTokens: s.promptTokens } : {}) })), { text: "done" }],
    });
    return played("codex", r, steps.length, (requests, i) => firstOutput(requests, (body) => callOutput(body, ids[i] ?? "")));
  },
};
