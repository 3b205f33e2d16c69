// Claude Code's driver for the shared scenarios (e2e-shared/scenarios.ts).
import { join } from "node:path";
import { firstOutput, played, addBareOrigin, installAsUser, pinnedVersion, type Driver, type Step } from "../e2e-shared/scenarios.ts";
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

/** The text of the tool_result for `id` in an Anthropic-shaped request body. */
const toolResultText = (body: Parameters<typeof toolResults>[0], id: string): string | undefined => {
  const b = toolResults(body).find((x) => x.tool_use_id === id);
  return b ? contentText(b.content) : undefined;
};
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
      script: [
        ...steps.map((s, i) => ({
          toolUse: { ...toolUse(s, p.repo), id: `toolu_c${i}` },
          ...(s.promptTokens ? { usage: { input_tokens: s.promptTokens } } : {}),
        })),
        { text: "done" },
      ],
    });
    return played("claude", r, steps.length, (requests, i) => firstOutput(requests, (body) => toolResultText(body, `toolu_c${i}`)));
  },
};
