// The JSON case format (cases/*.json). A case is a short session: an optional
// starting state, then events built from captured Claude Code payloads
// (cases/fixtures/*.json) with a few fields overridden, each with the verdict
// AND the rows that must decide it. Naming the row is what makes row-removal
// mutation meaningful.
import fs from "node:fs";
import path from "node:path";
import type { SessionState, Verdict } from "../../hooks/core/types.js";

export interface CaseStep {
  /** Name of a captured payload in cases/fixtures/ (without .json). */
  fixture: string;
  /** Fields deep-merged over the fixture (e.g. {"tool_input": {"command": "..."}}). */
  with?: Record<string, unknown>;
  expect: StepExpect;
}

export interface StepExpect {
  verdict: Verdict;
  /** Rows named in the output, in order. [] = no row decides. */
  rows: string[];
  /** Rows whose trigger matched (judgment rows, satisfied gates); checked when given. */
  matched?: string[];
  /** Text that must appear in the message the model gets. */
  says?: string;
  /** Text that must appear in the message only the user sees (systemMessage). */
  notice?: string;
}

export interface Case {
  id: string;
  description: string;
  /** Initial session state (merged over the empty state). */
  state?: Partial<SessionState>;
  steps: CaseStep[];
  /** Checked after the last step. */
  expectState?: Partial<Pick<SessionState, "loaded" | "hintsShown" | "compactions">>;
  /** Extra environment for the hook (e.g. a broken table for failure-policy cases). */
  table?: string;
}

export function loadCases(dir: string): Case[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => {
      const file = path.join(dir, f);
      const c = JSON.parse(fs.readFileSync(file, "utf8")) as Case;
      if (!c.id || !Array.isArray(c.steps) || c.steps.length === 0) throw new Error(`${file}: a case needs "id" and non-empty "steps"`);
      for (const [i, s] of c.steps.entries()) {
        if (!s.fixture || !s.expect?.verdict || !Array.isArray(s.expect.rows)) {
          throw new Error(`${file}: step ${i + 1} needs "fixture" and "expect": {"verdict", "rows"}`);
        }
      }
      return c;
    });
}

export function loadFixture(dir: string, name: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(dir, "fixtures", `${name}.json`), "utf8")) as Record<string, unknown>;
}

export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!over) return base;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    if (v === null) delete out[k];
    else if (v && typeof v === "object" && !Array.isArray(v) && b && typeof b === "object" && !Array.isArray(b)) {
      out[k] = deepMerge(b as Record<string, unknown>, v as Record<string, unknown>);
    } else out[k] = v;
  }
  return out;
}
