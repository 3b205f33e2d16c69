// Claude Code's driver for the shared scenarios (e2e-shared/scenarios.ts).
import { join } from "node:path";
import { addBareOrigin, installAsUser, pinnedVersion, type Driver, type Step } from "../e2e-shared/scenarios.ts";
import { contentText, makeTempRepo, runClaude, tempDir, toolResults } from "./harness.ts";

interface Project {
  repo: string;
  state: string;
}

function toolUse(s: Step, repo: string) {
  if ("shell" in s) return { name: "Bash", input: { command: s.shell, description: "e2e" } };
  if ("load" in s) return { name: "Skill", input: { skill: s.load } };
  return { name: "Write", input: { file_path: join(repo, s.write.file), content: s.write.text } };
}

export const claudeDriver: Driver<Project> = {
  host: "claude-code",
  gitHooks: "run",
  version: pinnedVersion("e2e", "@anthropic-ai/claude-code"),
  async project() {
    const repo = makeTempRepo();
    addBareOrigin(repo, tempDir("origin"));
    const state = tempDir("state");
    installAsUser("claude-code", repo, { SKILLGATE_STATE: state });
    return { repo, state };
  },
  async play(p, prompt, steps) {
    const r = await runClaude({
      cwd: p.repo,
      prompt,
      env: { SKILLGATE_STATE: p.state },
      script: [...steps.map((s, i) => ({ toolUse: { ...toolUse(s, p.repo), id: `toolu_c${i}` } })), { text: "done" }],
    });
    if (r.timedOut || r.exitCode !== 0) throw new Error(`claude exited ${r.exitCode}${r.timedOut ? " (timed out)" : ""}: ${r.stderr.slice(-800)}`);
    const outputs = steps.map((_, i) => {
      for (const q of r.requests) {
        const b = toolResults(q.body).find((x) => x.tool_use_id === `toolu_c${i}`);
        if (b) return contentText(b.content);
      }
      throw new Error(`no tool_result for toolu_c${i} reached the model`);
    });
    return { outputs, fed: r.requests.map((q) => JSON.stringify(q.body)).join("\n") };
  },
};
