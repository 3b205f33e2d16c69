// Where `npm run bench` puts its figures: the part of docs/performance.md between
// the two markers; the prose around them is kept as it is.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

export const START = "<!-- bench:start -->";
export const END = "<!-- bench:end -->";

/** The page with the text between its markers replaced by one run's output. */
export function withFigures(page: string, file: string, output: string[], commit: string): string {
  const a = page.indexOf(START);
  const b = page.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${file} has no ${START} … ${END} section to write the figures into`);
  const block = [
    START,
    `Output of one \`npm run bench\` run at commit ${commit} (the run's date is its first line):`,
    "",
    "```text",
    ...output,
    "```",
    "",
  ].join("\n");
  return page.slice(0, a) + block + page.slice(b);
}

/** Writes the run's output into `file` and says so on stderr. */
export function writeFigures(file: string, output: string[], root: string): void {
  const r = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" });
  const commit = r.status === 0 ? r.stdout.trim() : "unknown";
  const page = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : `# Performance\n\n${START}\n${END}\n`;
  fs.writeFileSync(file, withFigures(page, file, output, commit));
  process.stderr.write(`figures written to ${file}\n`);
}
