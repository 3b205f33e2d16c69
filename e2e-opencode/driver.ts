// opencode's driver for the shared scenarios (e2e-shared/scenarios.ts).
import { join } from "node:path";
import { addBareOrigin, installAsUser, type Driver, type Step } from "../e2e-shared/scenarios.ts";
import { contentText, makeTempRepo, OPENCODE_VERSION, runOpencode, tempDir, toolResults } from "./harness.ts";

interface Project {
  repo: string;
  state: string;
}

function toolUse(s: Step, repo: string) {
  if ("shell" in s) return { name: "bash", input: { command: s.shell, description: "e2e" } };
  if ("load" in s) return { name: "skill", input: { name: s.load } };
  return { name: "write", input: { filePath: join(repo, s.write.file), content: s.write.text } };
}

export const opencodeDriver: Driver<Project> = {
  host: "opencode",
  gitHooks: "run",
  version: OPENCODE_VERSION,
  limits: { stop: { unitOnly: "opencode has no blocking stop hook and a headless run exits at idle" } },
  async project() {
    const repo = makeTempRepo();
    addBareOrigin(repo, tempDir("origin"));
    const state = tempDir("state");
    installAsUser("opencode", repo, { SKILLGATE_STATE: state });
    return { repo, state };
  },
  async play(p, prompt, steps) {
    const r = await runOpencode({
      cwd: p.repo,
      prompt,
      env: { SKILLGATE_STATE: p.state },
      script: [...steps.map((s, i) => ({ toolUse: { ...toolUse(s, p.repo), id: `toolu_c${i}` } })), { text: "done" }],
    });
    if (r.timedOut || r.exitCode !== 0) throw new Error(`opencode exited ${r.exitCode}${r.timedOut ? " (timed out)" : ""}: ${r.stderr.slice(-1500)}`);
    const outputs = steps.map((_, i) => {
      const id = `toolu_c${i}`;
      for (const q of r.requests) {
        const b = toolResults(q.body).find((x) => x.tool_use_id === id);
        if (b) return contentText(b.content);
      }
      throw new Error(`no tool_result for ${id} reached the model`);
    });
    return { outputs, fed: r.requests.map((q) => JSON.stringify(q.body)).join("\n") };
  },
};
