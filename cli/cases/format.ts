// The JSON case format (cases/*.json, a project's .claude/skillgate/cases/*.json).
// A case is a short session: an optional starting state, then events built
// from captured payloads (fixtures) with a few fields overridden, each with
// the verdict AND the rows that must decide it. Naming the row is what makes
// row-removal mutation meaningful. Documented for users in docs/cases.md.
//
// The schema is strict: a typo ("say" for "expect", "tool_imput") is an
// error naming the file, the step and the field, never a silently passing case.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { caseEventSchema, VERDICTS, type CaseEvent } from "./events.js";
import { claudeCodeEvent } from "./hosts/claude-code.js";

/** The hosts a case runs on (cli/cases/hosts/index.ts lists their encoders). */
export const HOST_NAMES = ["claude-code", "codex", "gemini", "copilot", "opencode", "cursor"] as const;
import { suggest } from "./suggest.js";

export { VERDICTS, type Verdict } from "./events.js";

const rowId = z.string().min(1);
const someText = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const skills = z.array(z.string().min(1));

/** The parts of session state a case may set up and check (the rest is bookkeeping). */
const stateFields = {
  loaded: skills.optional().describe("Skills loaded in this session."),
  hintsShown: z.array(rowId).optional().describe("Ids of the hint rows already shown in this session."),
  compactions: z.number().int().nonnegative().optional().describe("How many times the session was compacted."),
  remindersShown: z.array(z.string().min(1)).optional().describe("One-time reminders already given (e.g. a handoff hint after compaction)."),
  budgetLevel: z.number().int().nonnegative().optional().describe("Index of the highest context-budget level crossed (0 = below all)."),
};
export const STATE_KEYS = Object.keys(stateFields) as (keyof typeof stateFields)[];

const expectSchema = z
  .strictObject({
    verdict: z.enum(VERDICTS).describe("What the hook answers: allow, deny (a refused tool call), block (a refused Stop), hint, cap."),
    rows: z.array(rowId).describe("Ids of the rows that decide, in table order. [] = no row decides."),
    matched: z.array(rowId).optional().describe("Ids of the rows whose trigger matched (also judgment rows and satisfied gates); checked when given."),
    messageIncludes: someText.optional().describe("Text (or texts) the message the model gets must contain."),
    noticeIncludes: someText.optional().describe("Text (or texts) the message only the user sees must contain."),
  })
  .describe("What this event must produce, checked against the hook's structured trace.");

const stepSchema = z
  .strictObject({
    event: caseEventSchema.optional(),
    fixture: z
      .string()
      .min(1)
      .optional()
      .describe("Instead of event: a captured payload (cases/fixtures/<name>.json of skillgate, or fixtures/ beside the cases)."),
    with: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('With fixture: fields deep-merged over it, e.g. {"tool_input": {"command": "git commit -m x"}}; null deletes a field.'),
    expect: expectSchema,
  })
  .superRefine((s, ctx) => {
    if ((s.event === undefined) === (s.fixture === undefined))
      ctx.addIssue({ code: "custom", path: [], message: 'give "event" (host-neutral) or "fixture" (a captured payload): one of them' });
    else if (s.event && s.with) ctx.addIssue({ code: "custom", path: ["with"], message: '"with" changes a fixture; with "event", say it in the event' });
  });

export const caseSchema = z.strictObject({
  $schema: z.string().optional(),
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]*$/, "use lowercase letters, digits, dots and dashes")
    .describe("The file name without .json."),
  description: z.string().min(1).describe("What the case proves, in a sentence."),
  table: z.string().min(1).optional().describe("A table of this case's own, relative to the case file (e.g. a broken table); default: the table under test."),
  state: z.strictObject(stateFields).optional().describe("Session state before the first step."),
  steps: z.array(stepSchema).min(1),
  expectState: z.strictObject(stateFields).optional().describe("Session state after the last step (only the fields given)."),
  notOn: z
    .partialRecord(z.enum(HOST_NAMES), z.string().min(1))
    .optional()
    .describe("Hosts on which what this case proves does not hold by design, each with the reason (the case is reported as skipped there)."),
});

export type CaseData = z.infer<typeof caseSchema>;
export type StepExpect = z.infer<typeof expectSchema>;

export interface CaseStep {
  /** The captured payload the event is built from. */
  fixture: string;
  /** How the step is named in messages: its event ("tool-call shell") or its fixture. */
  label: string;
  expect: StepExpect;
  /** The event sent: the fixture with `with` merged over it. */
  payload: Record<string, unknown>;
  /** The step sets session_id itself (else the runner gives each case a session of its own). */
  ownSession: boolean;
}

export interface Case extends Omit<CaseData, "steps" | "table"> {
  /** The case file. */
  file: string;
  /** Absolute path of the case's own table, when it has one. */
  table?: string;
  steps: CaseStep[];
}

/** Every problem in a set of case files, each one line naming file, step and field. */
export class CaseFormatError extends Error {
  constructor(readonly problems: string[]) {
    super(`${problems.length} problem${problems.length === 1 ? "" : "s"} in the case files:\n  ${problems.join("\n  ")}`);
  }
}

/** Keys renamed since the first format: said plainly instead of "did you mean". */
const RENAMED: Record<string, string> = { says: "messageIncludes", notice: "noticeIncludes" };

export interface LoadOptions {
  /** Folders searched for fixtures, first match wins (the cases' own fixtures/, then skillgate's). */
  fixtureDirs: string[];
  /** Row ids of the table under test; every row an expectation names must be one of them. */
  tableRows: ReadonlySet<string>;
}

export interface Fixture {
  name: string;
  file: string;
  payload: Record<string, unknown>;
}

/** The fixtures visible from a cases folder, by name. */
export function fixturesIn(dirs: string[]): Map<string, Fixture> {
  const out = new Map<string, Fixture>();
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) continue;
    for (const f of fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .sort()) {
      const name = f.slice(0, -5);
      if (out.has(name)) continue;
      const file = path.join(dir, f);
      let payload: unknown;
      try {
        payload = JSON.parse(fs.readFileSync(file, "utf8"));
      } catch (e) {
        throw new CaseFormatError([`${file}: a fixture that is not valid JSON: ${(e as Error).message}`]);
      }
      // A table kept among the fixtures (for failure-policy cases) is not an event.
      if (payload && typeof payload === "object" && !Array.isArray(payload) && "hook_event_name" in payload)
        out.set(name, { name, file, payload: payload as Record<string, unknown> });
    }
  }
  return out;
}

/** One fixture's payload by name, from skillgate's cases/fixtures (for the demo). */
export function loadFixture(casesDir: string, name: string): Record<string, unknown> {
  const fx = fixturesIn([path.join(casesDir, "fixtures")]).get(name);
  if (!fx) throw new Error(`no fixture "${name}" in ${casesDir}/fixtures`);
  return fx.payload;
}

/** Top-level payload fields a step's `with` may set: any fixture's, plus the ones only some events carry. */
function payloadKeys(fixtures: Map<string, Fixture>): Set<string> {
  const keys = new Set(["agent_id", "agent_type", "tool_response", "tool_input", "prompt", "last_assistant_message", "stop_hook_active", "source", "trigger"]);
  for (const f of fixtures.values()) for (const k of Object.keys(f.payload)) keys.add(k);
  return keys;
}

/** Load and check every *.json in `dir`. Throws CaseFormatError listing every problem found. */
export function loadCases(dir: string, opts: LoadOptions): Case[] {
  if (!fs.existsSync(dir)) throw new CaseFormatError([`${dir}: no such cases folder`]);
  const ctx = parseContext(opts);
  const problems: string[] = [];
  const cases: Case[] = [];
  const seen = new Map<string, string>();
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json") && f !== "case.schema.json")
    .sort();
  for (const f of files) {
    const file = path.join(dir, f);
    const text = fs.readFileSync(file, "utf8");
    const c = parseCase(file, text, ctx, problems);
    const id = c?.id ?? idOf(text);
    if (id !== undefined) {
      const other = seen.get(id);
      if (other) problems.push(`${file}: id "${id}" is also the id of ${other}`);
      else seen.set(id, file);
    }
    if (c) cases.push(c);
  }
  if (problems.length) throw new CaseFormatError(problems);
  return cases;
}

/** The id of a case file that may not be valid otherwise (for the duplicate check). */
function idOf(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as { id?: unknown }).id;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

export interface ParseContext {
  fixtures: Map<string, Fixture>;
  keys: Set<string>;
  tableRows: ReadonlySet<string>;
}

export function parseContext(opts: LoadOptions): ParseContext {
  const fixtures = fixturesIn(opts.fixtureDirs);
  return { fixtures, keys: payloadKeys(fixtures), tableRows: opts.tableRows };
}

/** One case file; problems are pushed (each naming the file), undefined when the case cannot be run. */
export function parseCase(file: string, text: string, ctx: ParseContext, problems: string[]): Case | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    problems.push(`${file}: not valid JSON: ${(e as Error).message}`);
    return undefined;
  }
  const r = caseSchema.safeParse(raw);
  if (!r.success) {
    for (const issue of r.error.issues) for (const p of describeIssue(issue, raw)) problems.push(`${file}: ${p}`);
    return undefined;
  }
  const data = r.data;
  const before = problems.length;
  const say = (where: string, what: string) => problems.push(`${file}: ${where}${what}`);
  const expected = path.basename(file, ".json");
  if (data.id !== expected) say("", `id is "${data.id}" but the file is ${expected}.json: they must be the same`);

  let table: string | undefined;
  let rows = ctx.tableRows;
  if (data.table) {
    table = path.resolve(path.dirname(file), data.table);
    const own = rowIdsOfRaw(table);
    if (own === undefined) say("table: ", `${data.table} cannot be read`);
    rows = own ?? new Set();
  }
  const steps: CaseStep[] = [];
  for (const [i, s] of data.steps.entries()) {
    // A host-neutral event is played as the host's captured payload with a few fields set.
    const played = s.event ? claudeCodeEvent(s.event) : { fixture: s.fixture ?? "", with: s.with };
    const label = s.event ? eventLabel(s.event) : played.fixture;
    const where = `step ${i + 1} (${label}), `;
    const fx = ctx.fixtures.get(played.fixture);
    if (!fx) say(where, `fixture: no fixture "${played.fixture}"${suggest(played.fixture, [...ctx.fixtures.keys()])}`);
    for (const k of Object.keys(s.with ?? {})) if (!ctx.keys.has(k)) say(where, `with.${k}: not a field of any event${suggest(k, [...ctx.keys])}`);
    for (const field of ["rows", "matched"] as const) {
      for (const id of s.expect[field] ?? []) {
        if (!rows.has(id)) say(where, `expect.${field}: no row "${id}" in the table${data.table ? ` ${data.table}` : " under test"}${suggest(id, [...rows])}`);
      }
    }
    if (fx)
      steps.push({
        fixture: played.fixture,
        label,
        expect: s.expect,
        payload: eventOf(fx, played.with),
        ownSession: s.with !== undefined && "session_id" in s.with,
      });
  }
  if (problems.length > before) return undefined;
  const { table: _t, steps: _s, ...rest } = data;
  return { ...rest, file, table, steps };
}

/** "tool-call shell", "prompt", "session-start compact". */
export function eventLabel(e: CaseEvent): string {
  if ("tool" in e) return `${e.kind} ${e.tool}`;
  if (e.kind === "session-start") return `${e.kind} ${e.source}`;
  if (e.kind === "compaction") return `${e.kind} ${e.phase}`;
  return e.kind;
}

/** Row ids of a table file read as plain JSON (a case's own table may be deliberately invalid). */
function rowIdsOfRaw(file: string): Set<string> | undefined {
  try {
    const t = JSON.parse(fs.readFileSync(file, "utf8")) as { rows?: { id?: unknown }[] };
    return new Set((Array.isArray(t.rows) ? t.rows : []).map((r) => r?.id).filter((id): id is string => typeof id === "string"));
  } catch {
    return undefined;
  }
}

/** The event a step sends: fixture, then `with`; a transcript named fixtures/… is found beside the fixture. */
function eventOf(fx: Fixture, over: Record<string, unknown> | undefined): Record<string, unknown> {
  const payload = deepMerge(structuredClone(fx.payload), over);
  if (typeof payload.transcript_path === "string" && payload.transcript_path.startsWith("fixtures/")) {
    payload.transcript_path = path.join(path.dirname(fx.file), payload.transcript_path.slice("fixtures/".length));
  }
  return payload;
}

/** "step 3 (pre-tool-use-bash), expect: unknown key "say"" from a zod issue. */
function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string[] {
  const p = issue.path;
  let where = "";
  let rest = p;
  if (p[0] === "steps" && typeof p[1] === "number") {
    const step = (raw as { steps?: { fixture?: unknown; event?: { kind?: unknown; tool?: unknown } }[] }).steps?.[p[1]];
    const ev = step?.event;
    const label =
      typeof step?.fixture === "string"
        ? step.fixture
        : typeof ev?.kind === "string"
          ? [ev.kind, ev.tool].filter((x) => typeof x === "string").join(" ")
          : undefined;
    where = `step ${p[1] + 1}${label ? ` (${label})` : ""}, `;
    rest = p.slice(2);
  }
  const field = rest.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((k) => {
      const hint = RENAMED[k] ? ` (renamed: use "${RENAMED[k]}")` : suggest(k, knownKeysAt(where !== "", rest));
      return `${where}${field ? `${field}: ` : ""}unknown key "${k}"${hint}`;
    });
  }
  return [`${where}${field || "(top)"}: ${issue.message}`];
}

const EVENT_KEYS = [
  "kind",
  "tool",
  "command",
  "path",
  "content",
  "subagentType",
  "skill",
  "output",
  "ok",
  "inSubagent",
  "error",
  "text",
  "final",
  "continuing",
  "source",
  "phase",
];

/** The keys the schema allows at a path, inside a step or not (for "did you mean"). */
function knownKeysAt(inStep: boolean, p: PropertyKey[]): string[] {
  const key = p.filter((x) => typeof x === "string").join(".");
  if (inStep) return key === "expect" ? Object.keys(expectSchema.shape) : key === "event" ? EVENT_KEYS : Object.keys(stepSchema.shape);
  if (key === "state" || key === "expectState") return STATE_KEYS;
  return Object.keys(caseSchema.shape);
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

/** The JSON Schema of a case file, for editors (cases/case.schema.json). Fixture names are skillgate's own. */
export function caseJsonSchema(fixtureNames: string[]): Record<string, unknown> {
  const schema = z.toJSONSchema(caseSchema, { io: "input" }) as Record<string, any>;
  const fixture = schema.properties?.steps?.items?.properties?.fixture;
  if (fixture && fixtureNames.length) fixture.examples = fixtureNames;
  return { ...schema, title: "skillgate case", description: "A short session of hook events and what each must produce. See docs/cases.md." };
}
