// The documented shape of triggers.json, as zod. Loaded only when the table
// changed since the last validated copy (see table/load.ts): zod is the
// biggest module in the bundle and the hot path does not need it.
import { z } from "zod";
import { PROFILE_NAMES } from "../summaries/profiles.js";

const PROFILE_NAMES_TUPLE = PROFILE_NAMES as unknown as readonly ["fast", "balanced", "precision", "audit"];

const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "use lowercase letters, digits and dashes");
const nonEmpty = z.array(z.string().min(1)).min(1);

const textTrigger = z
  .strictObject({
    words: nonEmpty.optional().describe("Whole words or short regex alternatives; word boundaries are Unicode-aware."),
    pattern: z.string().min(1).optional().describe("A raw JavaScript regex (flags iu). Prefer `words`: \\b does not work for Cyrillic."),
  })
  .refine((t) => t.words || t.pattern, "give `words` or `pattern`");

export const triggerSchema = z
  .strictObject({
    command: z
      .strictObject({
        name: z.string().min(1).describe("Program name, e.g. git (matched on the basename, after unwrapping sudo/env/bash -c...)."),
        sub: nonEmpty.optional().describe('Subcommands, e.g. ["commit"] (git global options such as -C are skipped).'),
        args: nonEmpty
          .optional()
          .describe(
            "Literal words; the row fires when any of them appears among the arguments (a one-letter option such as -f also inside a cluster such as -uf).",
          ),
      })
      .optional(),
    writes: nonEmpty.optional().describe("Globs of written paths; a glob without / matches the file name."),
    subagent: nonEmpty.optional().describe("Subagent types of an Agent/Task call."),
    prompt: textTrigger.optional().describe("The user's prompt."),
    final: textTrigger.optional().describe("The final answer (Stop)."),
    output: z
      .strictObject({
        tools: nonEmpty.describe('Tools whose output is capped, e.g. ["Bash", "WebFetch"]. Read/Write/Edit are never capped.'),
        maxChars: z.number().int().positive().optional().describe("Outputs longer than this go to a file (default 20000)."),
        headChars: z.number().int().nonnegative().optional().describe("Characters the model still sees (default 4000)."),
      })
      .optional()
      .describe("cap rows: tool outputs saved whole to a private file; the model gets the head and the path."),
    context: z
      .strictObject({ levels: z.array(z.number().int().positive()).min(1).describe("Prompt sizes in tokens, e.g. [100000, 150000].") })
      .optional()
      .describe("budget rows: one reminder each time the prompt size crosses a level upwards."),
    compactions: z
      .strictObject({ max: z.number().int().nonnegative().describe("Remind once when the session has been compacted this many times; 0 turns it off.") })
      .optional()
      .describe("hint rows: a reminder after compactions (e.g. write the handoff and start a new session)."),
  })
  .refine((t) => Object.keys(t).length > 0, "a trigger needs at least one of command, writes, subagent, prompt, final");

export const rowSchema = z
  .strictObject({
    id,
    kind: z.enum(["gate", "block", "hint", "judgment", "cap", "budget", "evidence", "mode", "risk"]),
    skill: z.string().min(1).optional().describe("The skill this row is about (required for gate rows without `require`, hint and judgment rows)."),
    scope: z.enum(["main", "subagent", "all"]).optional().describe("Default: main for gate/hint, all for block."),
    when: triggerSchema,
    why: z.string().optional(),
    require: z
      .strictObject({ evidence: id.describe("The id of an evidence row whose check must have passed on the current tree.") })
      .optional()
      .describe("gate rows: also refuse unless this evidence is fresh."),
    paths: z
      .array(
        z
          .string()
          .min(1)
          .refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), "a workspace-relative path without .."),
      )
      .min(1)
      .optional()
      .describe(
        "evidence rows: workspace-relative files and folders the check's result depends on (its fingerprint scope; named `paths` because `scope` is the row's main/subagent scope).",
      ),
    full: nonEmpty.optional().describe("evidence rows: the exact command lines that are a full run (other matching commands are partial and open no gate)."),
    reuse: z.boolean().optional().describe("evidence rows: answer a repeated identical run from its fresh record instead of running it (off by default)."),
    profile: z.enum(PROFILE_NAMES_TUPLE).optional().describe("mode rows: the budget profile the user's words switch the session to."),
  })
  .refine((r) => !["gate", "hint", "judgment"].includes(r.kind) || r.skill || (r.kind === "gate" && r.require), {
    message: "gate (without require), hint and judgment rows name a skill",
    path: ["skill"],
  })
  .refine((r) => !r.require || r.kind === "gate", { message: "only gate rows use require", path: ["require"] })
  .refine((r) => (r.kind === "evidence") === !!r.paths, { message: "evidence rows (and only they) list paths", path: ["paths"] })
  .refine((r) => r.kind === "evidence" || (r.full === undefined && r.reuse === undefined), { message: "full and reuse are for evidence rows", path: ["kind"] })
  .refine((r) => r.kind !== "evidence" || (!!r.when.command && Object.keys(r.when).length === 1), {
    message: "evidence rows are triggered by when.command only",
    path: ["when"],
  })
  .refine((r) => r.kind !== "evidence" || !r.skill, { message: "evidence rows name no skill", path: ["skill"] })
  .refine((r) => (r.kind === "mode") === !!r.profile, { message: "mode rows (and only they) name a profile", path: ["profile"] })
  .refine((r) => r.kind !== "mode" || (!!r.when.prompt && Object.keys(r.when).length === 1), {
    message: "mode rows are triggered by when.prompt only",
    path: ["when"],
  })
  .refine((r) => r.kind !== "risk" || (!!(r.when.writes || r.when.command) && !r.when.prompt && !r.when.final && !r.when.subagent), {
    message: "risk rows are triggered by when.writes or when.command",
    path: ["when"],
  })
  .refine((r) => !(r.kind === "mode" || r.kind === "risk") || !r.skill, { message: "mode and risk rows name no skill", path: ["skill"] })
  .refine((r) => (r.kind === "cap") === !!r.when.output, { message: "cap rows (and only they) use when.output", path: ["when", "output"] })
  .refine((r) => (r.kind === "budget") === !!r.when.context, { message: "budget rows (and only they) use when.context", path: ["when", "context"] })
  .refine((r) => !r.when.compactions || r.kind === "hint", { message: "when.compactions is for hint rows", path: ["when", "compactions"] })
  // A gate or block on something it cannot refuse would be a silently dead row.
  .refine((r) => (r.kind !== "gate" && r.kind !== "block") || !!(r.when.command || r.when.writes || r.when.subagent || r.when.final), {
    message: "gate and block rows need a trigger they can refuse: command, writes, subagent or final",
    path: ["when"],
  })
  .refine((r) => !r.when.output?.tools.some((t) => t.startsWith("mcp__")), {
    message: "MCP tool outputs are not capped (they need updatedMCPToolOutput)",
    path: ["when", "output", "tools"],
  })
  .refine((r) => r.kind !== "hint" || !r.when.final, {
    message: "a hint cannot fire on the final answer (it would restart the turn)",
    path: ["when", "final"],
  });

export const tableSchema = z.strictObject({
  $schema: z.string().optional(),
  extends: z
    .literal("default")
    .optional()
    .describe("Add these rows to skillgate's default table (a row with the same id replaces the default one) instead of replacing it."),
  version: z.literal(1),
  skillsDir: z.string().default("skills"),
  failMode: z.enum(["open", "closed"]).default("open"),
  budgetProfile: z
    .enum(PROFILE_NAMES_TUPLE)
    .optional()
    .describe(
      "The budget profile sessions start in (default balanced): how long read-only outputs are summarized. mode rows switch it, risk rows raise it to audit.",
    ),
  outputDir: z
    .string()
    .refine((p) => p.startsWith("/"), "outputDir must be an absolute path")
    .optional()
    .describe("Folder for capped outputs (default: a private folder under the system temp dir, random name per installation)."),
  outputMaxAgeDays: z.number().positive().default(7).describe("Capped-output files older than this are deleted."),
  stateMaxAgeDays: z.number().positive().default(30).describe("Session state files untouched this long are deleted (at session start)."),
  rows: z
    .array(rowSchema)
    .min(1)
    .refine((rows) => rows.filter((r) => r.kind === "budget").length <= 1, "at most one budget row (put all levels in it)")
    .superRefine((rows, ctx) => {
      // A gate that requires a check nobody defines could never open.
      const checks = new Set(rows.filter((r) => r.kind === "evidence").map((r) => r.id));
      rows.forEach((r, i) => {
        if (r.require && !checks.has(r.require.evidence))
          ctx.addIssue({
            code: "custom",
            message: `require.evidence names "${r.require.evidence}", which is not an evidence row`,
            path: [i, "require", "evidence"],
          });
      });
    }),
});

export type TableInput = z.input<typeof tableSchema>;

/** Validate parsed JSON; the error names the row id and the field. */
export function validateTable(raw: unknown, file: string): { ok: true; table: z.output<typeof tableSchema> } | { ok: false; error: string } {
  const r = tableSchema.safeParse(raw);
  if (r.success) {
    const dup = firstDuplicate(r.data.rows.map((x) => x.id));
    if (dup) return { ok: false, error: `${file}: row "${dup}" is defined twice (ids must be unique)` };
    return { ok: true, table: r.data };
  }
  const rows = (raw as { rows?: { id?: unknown }[] } | null)?.rows;
  const issues = r.error.issues.slice(0, 5).map((issue) => {
    const [head, index, ...rest] = issue.path;
    const where =
      head === "rows" && typeof index === "number"
        ? `row ${typeof rows?.[index]?.id === "string" ? `"${rows[index]?.id}"` : `#${index + 1}`}${rest.length ? `, field ${rest.join(".")}` : ""}`
        : issue.path.length
          ? `field ${issue.path.join(".")}`
          : "top level";
    return `${file}: ${where}: ${issue.message}`;
  });
  return { ok: false, error: issues.join("\n") };
}

export interface DisabledRow {
  /** The row's id, or `#N` when it has none. */
  id: string;
  error: string;
  /** What the row could still be seen to govern, for failMode closed (refuse those calls). */
  governs: { program?: string; writes: boolean; subagent: boolean; final: boolean };
}

/**
 * One bad row is not every row: when the table as a whole is fine but some
 * rows are not, those rows are disabled (named with their error) and the rest
 * stay in force. Returns undefined when the problem is not in single rows.
 */
export function validateRowsApart(raw: unknown, file: string): { table: z.output<typeof tableSchema>; disabled: DisabledRow[] } | undefined {
  if (!raw || typeof raw !== "object" || !Array.isArray((raw as { rows?: unknown }).rows)) return undefined;
  const rows = (raw as { rows: unknown[] }).rows;
  const good: unknown[] = [];
  const disabled: DisabledRow[] = [];
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const r = rowSchema.safeParse(row);
    const id = typeof (row as { id?: unknown })?.id === "string" ? String((row as { id: string }).id) : `#${i + 1}`;
    const dup = r.success && seen.has(r.data.id);
    if (r.success && !dup) {
      seen.add(r.data.id);
      good.push(row);
      return;
    }
    const issue = r.success ? undefined : r.error.issues[0];
    const error = dup ? "defined twice (ids must be unique)" : `${issue?.path.length ? `field ${issue.path.join(".")}: ` : ""}${issue?.message ?? "invalid"}`;
    disabled.push({ id, error: `${file}: row ${JSON.stringify(id)}: ${error}`, governs: governsOf(row) });
  });
  if (disabled.length === 0 || good.length === 0) return undefined;
  const t = tableSchema.safeParse({ ...(raw as object), rows: good });
  return t.success ? { table: t.data, disabled } : undefined;
}

function governsOf(row: unknown): DisabledRow["governs"] {
  const r = (row ?? {}) as { kind?: unknown; when?: Record<string, unknown> };
  const refusing = r.kind === "gate" || r.kind === "block" || r.kind === undefined;
  const w = r.when && typeof r.when === "object" ? r.when : {};
  const cmd = w.command as { name?: unknown } | undefined;
  return {
    ...(refusing && typeof cmd?.name === "string" && cmd.name ? { program: cmd.name } : {}),
    writes: refusing && w.writes !== undefined,
    subagent: refusing && w.subagent !== undefined,
    final: refusing && w.final !== undefined,
  };
}

function firstDuplicate(xs: string[]): string | undefined {
  const seen = new Set<string>();
  for (const x of xs) {
    if (seen.has(x)) return x;
    seen.add(x);
  }
  return undefined;
}

export function tableJsonSchema(): unknown {
  return z.toJSONSchema(tableSchema, { io: "input" });
}
