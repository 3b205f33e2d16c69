// Case events in the host-neutral vocabulary of hooks/core/types.ts (event
// kinds, tool kinds): what happened, not how one host spells it. A case step
// says {"event": {"kind": "tool-call", "tool": "shell", "command": "git
// commit -m x"}}; the host's case encoder (cli/cases/hosts/<host>.ts) turns it
// into that host's payload, which then goes through runHook like any event.
import { z } from "zod";

/** What the hook answers, as a case expects it. */
export const VERDICTS = ["allow", "deny", "block", "hint", "cap"] as const;
export type Verdict = (typeof VERDICTS)[number];

const text = z.string();
const name = z.string().min(1);
const inSubagent = z.boolean().optional().describe("The event comes from a subagent, not the main thread.");

const toolCall = z
  .strictObject({
    kind: z.literal("tool-call"),
    tool: z.enum(["shell", "write", "edit", "read", "subagent", "skill"]),
    command: text.optional().describe("shell: the command line."),
    path: name.optional().describe("write/edit/read: the file (relative paths are in the project folder)."),
    content: text.optional().describe("write: the content written."),
    subagentType: name.optional().describe("subagent: the subagent type."),
    skill: name.optional().describe("skill: the skill called."),
    inSubagent,
  })
  .describe("A tool call about to run (can be refused).");

const toolResult = z
  .strictObject({
    kind: z.literal("tool-result"),
    tool: z.enum(["shell", "read", "skill"]),
    command: text.optional().describe("shell: the command line."),
    output: text.optional().describe("shell: what it printed."),
    path: name.optional().describe("read: the file read (a whole SKILL.md read loads that skill)."),
    skill: name.optional().describe("skill: the skill loaded."),
    ok: z.boolean().optional().describe("skill: false = the call failed (nothing loaded). Default true."),
    inSubagent,
  })
  .describe("A tool call that has run.");

const toolFailure = z.strictObject({ kind: z.literal("tool-failure"), tool: z.literal("shell"), command: text, error: text.optional(), inSubagent });
const prompt = z.strictObject({ kind: z.literal("prompt"), text: text.describe("The user's prompt.") });
const promptExpansion = z.strictObject({
  kind: z.literal("prompt-expansion"),
  command: name.describe("A slash command the user typed, e.g. commit for /commit."),
});
const stop = z.strictObject({
  kind: z.literal("stop"),
  final: text.describe("The final answer."),
  continuing: z.boolean().optional().describe("The agent (or subagent) already goes on because of an earlier stop refusal: the loop guard lets it stop."),
  inSubagent: z.boolean().optional().describe("A subagent stops (not the main thread)."),
});
const sessionStart = z.strictObject({ kind: z.literal("session-start"), source: z.enum(["startup", "resume", "compact", "clear", "fork"]) });
const compaction = z.strictObject({ kind: z.literal("compaction"), phase: z.enum(["before", "after"]) });

/** What each tool needs said. */
const NEEDS: Record<string, Record<string, string>> = {
  "tool-call": { shell: "command", write: "path", edit: "path", read: "path", subagent: "subagentType", skill: "skill" },
  "tool-result": { shell: "command", read: "path", skill: "skill" },
};

export const caseEventSchema = z
  .discriminatedUnion("kind", [toolCall, toolResult, toolFailure, prompt, promptExpansion, stop, sessionStart, compaction])
  .superRefine((e, ctx) => {
    if (!("tool" in e)) return;
    const need = NEEDS[e.kind]?.[e.tool];
    if (need && (e as Record<string, unknown>)[need] === undefined)
      ctx.addIssue({ code: "custom", path: [need], message: `a ${e.kind} of a ${e.tool} tool needs "${need}"` });
  })
  .describe("The event, in skillgate's host-neutral words (instead of fixture + with).");

export type CaseEvent = z.infer<typeof caseEventSchema>;
