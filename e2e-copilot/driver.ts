// Copilot CLI's driver for the shared scenarios (e2e-shared/scenarios.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { firstOutput, played, repoWithOrigin, installAsUser, pinnedVersion, type Driver, type Step } from "../e2e-shared/scenarios.ts";
import { buildHook, callOutput, ROOT, run, tempDir, type Project } from "./harness.ts";

function call(s: Step, id: string) {
  if ("shell" in s) return { name: "bash", arguments: { command: s.shell, description: "run" }, callId: id };
  if ("load" in s) return { name: "skill", arguments: { skill: s.load }, callId: id };
  return {
    name: "apply_patch",
    input: `*** Begin Patch\n*** Add File: ${s.write.file}\n${s.write.text.replace(/^/gm, "+").replace(/\+$/, "")}*** End Patch\n`,
    callId: id,
  };
}

export const copilotDriver: Driver<Project> = {
  host: "copilot",
  gitHooks: "run",
  version: pinnedVersion("e2e-copilot", "@github/copilot"),
  limits: {
    cap: { partial: "Copilot spills outputs over ~9–23 KB itself, so the shipped 20,000-character row never fires; proven with a 2,000-character row" },
  },
  async project() {
    await buildHook();
    const repo = repoWithOrigin(tempDir, readFileSync(join(ROOT, "README.md"), "utf8"));
    const state = tempDir("state");
    installAsUser("copilot", repo, { SKILLGATE_STATE: state });
    return { repo, state };
  },
  async play(p, prompt, steps) {
    const ids = steps.map((_, i) => `c${i}`);
    const r = await run(p, {
      prompt,
      script: [...steps.map((s, i) => ({ calls: call(s, ids[i]!), ...(s.promptTokens ? { inputTokens: s.promptTokens } : {}) })), { text: "done" }],
    });
    return played("copilot", r, steps.length, (requests, i) => firstOutput(requests, (body) => callOutput(body, ids[i] ?? "")));
  },
};
