// opencode's driver for the shared scenarios (e2e-shared/scenarios.ts).
import { join } from "node:path";
import { firstOutput, played, addBareOrigin, installAsUser, type Driver, type Step } from "../e2e-shared/scenarios.ts";
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

/** The text of the tool_result for `id` in an Anthropic-shaped request body. */
const toolResultText = (body: Parameters<typeof toolResults>[0], id: string): string | undefined => {
  const b = toolResults(body).find((x) => x.tool_use_id === id);
  return b ? contentText(b.content) : undefined;
};
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
      script: [
        ...steps.map((s, i) => ({
          toolUse: { ...toolUse(s, p.repo), id: `toolu_c${i}` },
          ...(s.promptTokens ? { usage: { input_tokens: s.promptTokens } } : {}),
        })),
        { text: "done" },
      ],
    });
    return played("opencode", r, steps.length, (requests, i) => firstOutput(requests, (body) => toolResultText(body, `toolu_c${i}`)));
  },
};
