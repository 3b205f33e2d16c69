// Gemini CLI's driver for the shared scenarios (e2e-shared/scenarios.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { played, repoWithOrigin, installAsUser, pinnedVersion, type Driver, type Step } from "../e2e-shared/scenarios.ts";
import { buildHook, functionResponses, run, tempDir, type Project } from "./harness.ts";

function call(s: Step, repo: string) {
  if ("shell" in s) return { name: "run_shell_command", args: { command: s.shell, description: "e2e" } };
  if ("load" in s) return { name: "activate_skill", args: { name: s.load } };
  return { name: "write_file", args: { file_path: join(repo, s.write.file), content: s.write.text } };
}

export const geminiDriver: Driver<Project> = {
  host: "gemini",
  gitHooks: "off in the host's shell",
  version: pinnedVersion("e2e-gemini", "@google/gemini-cli"),
  limits: {
    "git-hook": { partial: "Gemini CLI turns git's hooks off in its shell (core.hooksPath set empty): the commit is taken back after the call, not aborted" },
  },
  async project() {
    await buildHook();
    const repo = repoWithOrigin(tempDir);
    const home = tempDir("home");
    mkdirSync(join(home, ".gemini"), { recursive: true });
    writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }, null, 2));
    const state = tempDir("state");
    installAsUser("gemini", repo, { HOME: home, SKILLGATE_STATE: state });
    return { repo, home, state };
  },
  async play(p, prompt, steps) {
    const r = await run(p, {
      prompt,
      script: [...steps.map((s) => ({ calls: call(s, p.repo), ...(s.promptTokens ? { promptTokens: s.promptTokens } : {}) })), { text: "done" }],
    });
    // Gemini sends the whole history each time: the last request holds every function response, in call order.
    const all = functionResponses(r.main.at(-1)?.body);
    return played("gemini", r, steps.length, (_, i) => all[i]?.response);
  },
};
