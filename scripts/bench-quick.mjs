// A quick check of the hot path between full `npm run bench` runs: the hook process as install writes it
// (Bun: dist/hook.bun.cjs, Node: dist/hook.cjs) on a refused `git commit`, against each runtime's empty start,
// 21 alternating samples, medians. Usage: npm run build && node scripts/bench-quick.mjs
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const bun = path.join(root, "node_modules/.bin/bun");
const st = fs.mkdtempSync(path.join(os.tmpdir(), "qb-"));
const ev = JSON.stringify({
  ...JSON.parse(fs.readFileSync(path.join(root, "cases/fixtures/pre-tool-use-bash.json"), "utf8")),
  tool_input: { command: "cd x && git commit -m 'bench'", description: "b" },
});
const env = { ...process.env, SKILLGATE_STATE: st, SKILLGATE_TABLE: path.join(root, "triggers.json") };
const cmds = {
  "bun -e 0": [bun, ["-e", "0"]],
  "bun hook.bun.cjs": [bun, [path.join(root, "dist/hook.bun.cjs")]],
  "node -e 0": [process.execPath, ["-e", "0"]],
  "node hook.cjs": [process.execPath, [path.join(root, "dist/hook.cjs")]],
};
const t = Object.fromEntries(Object.keys(cmds).map((k) => [k, []]));
for (let i = 0; i < 21; i++)
  for (const [k, [exe, args]] of Object.entries(cmds)) {
    const s = performance.now();
    const r = spawnSync(exe, args, { input: k.includes("hook") ? ev : "", env });
    t[k].push(performance.now() - s);
    if (k.includes("hook") && !String(r.stdout).includes("deny")) throw new Error(k + " " + r.stdout + r.stderr);
  }
const med = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (const k of Object.keys(t)) console.log(k.padEnd(18), med(t[k]).toFixed(1), "ms");
console.log(
  "bun ratio",
  (med(t["bun hook.bun.cjs"]) / med(t["bun -e 0"])).toFixed(2),
  "node ratio",
  (med(t["node hook.cjs"]) / med(t["node -e 0"])).toFixed(2),
);
