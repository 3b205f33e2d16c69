// `skillgate cases --new ROW`: a starter case for one row of the table.
// What it writes: an event built from the row's own trigger (a command, a
// written path, a subagent type, a prompt or final answer, a long output),
// with what the row's kind must do to it — for a gate: refused, the skill
// loaded, the same event allowed; a block: refused; a hint: shown once; a
// judgment: matched but allowed; a cap: capped; a compaction hint: shown after
// that compaction; a budget row: reminded once past its first level. The
// caller runs it: where the trigger allowed a matching event to be generated
// the case passes as written; where it did not (a budget level above every
// captured transcript, a pattern too clever to sample) it is written anyway,
// marked TODO, and fails until the user fills in the event.
import type { CaseData } from "./format.js";
import type { CaseEvent } from "./events.js";

/** The row as the starter needs it (loosely typed: rows change shape more often than this needs). */
export interface StarterRow {
  id: string;
  kind: string;
  skill?: string;
  when: {
    command?: { name: string; sub?: string[]; args?: string[] };
    writes?: string[];
    subagent?: string[];
    prompt?: { words?: string[]; pattern?: string };
    final?: { words?: string[]; pattern?: string };
    output?: { tools: string[]; maxChars?: number };
    context?: { levels: number[] };
    compactions?: { max: number };
  };
}

type Step = CaseData["steps"][number];

export interface Starter {
  data: CaseData;
  /** False when no matching event could be made: the case is a TODO that fails until filled in. */
  generated: boolean;
}

const BIG_BASH_OUTPUT = { fixture: "post-tool-use-bash-seq-30000", chars: 168_893 };

export function starterCase(row: StarterRow, schemaRef: string): Starter {
  const special = compactionStarter(row, schemaRef) ?? budgetStarter(row, schemaRef);
  if (special) return { generated: true, data: special };
  const ev = eventFor(row);
  if (!ev) {
    return {
      generated: false,
      data: {
        $schema: schemaRef,
        id: row.id,
        description: `TODO: an event that row ${row.id} (${row.kind}) must decide — set "fixture" and "with" (see docs/cases.md); this case fails until then.`,
        steps: [{ event: { kind: "prompt", text: "TODO" }, expect: { verdict: firstVerdict(row.kind, "prompt"), rows: [row.id] } }],
      },
    };
  }
  const on = "event" in ev ? { event: ev.event } : { fixture: ev.fixture };
  const first: Step = { ...on, expect: { verdict: firstVerdict(row.kind, ev.kind), rows: [row.id] } };
  const again: Step = { ...on, expect: { verdict: "allow", rows: [] } };
  let steps: Step[];
  let description: string;
  if (row.kind === "gate" && row.skill) {
    const load: Step = { event: { kind: "tool-result", tool: "skill", skill: row.skill }, expect: { verdict: "allow", rows: [] } };
    steps = [first, load, { ...again, expect: { verdict: "allow", rows: [], matched: [row.id] } }];
    description = `${ev.what} is refused until skill "${row.skill}" is loaded, then allowed.`;
  } else if (row.kind === "hint") {
    steps = [first, again];
    description = `${ev.what} gets the hint to load skill "${row.skill ?? "?"}", once per session.`;
  } else if (row.kind === "judgment") {
    steps = [{ ...again, expect: { verdict: "allow", rows: [], matched: [row.id] } }];
    description = `${ev.what} matches the judgment row and is allowed.`;
  } else {
    steps = [first];
    description = `${ev.what} is ${row.kind === "cap" ? "capped" : "refused"}.`;
  }
  return { generated: true, data: { $schema: schemaRef, id: row.id, description, steps } };
}

/** A hint after the session's max-th compaction: start one compaction short of it, compact, resume. */
function compactionStarter(row: StarterRow, schemaRef: string): CaseData | undefined {
  const max = row.when.compactions?.max;
  if (row.kind !== "hint" || max === undefined || max < 1) return undefined;
  return {
    $schema: schemaRef,
    id: row.id,
    description: `After compaction number ${max} the session is reminded to load skill "${row.skill ?? "?"}", once.`,
    ...(max > 1 ? { state: { compactions: max - 1 } } : {}),
    steps: [
      { event: { kind: "compaction", phase: "before" }, expect: { verdict: "allow", rows: [] } },
      { event: { kind: "session-start", source: "compact" }, expect: { verdict: "hint", rows: [row.id] } },
      { event: { kind: "session-start", source: "resume" }, expect: { verdict: "allow", rows: [] } },
    ],
    expectState: { compactions: max },
  };
}

/** Captured transcripts whose last request had about this many prompt tokens (cases/fixtures/transcript-*.jsonl). */
const TRANSCRIPTS = [40_000, 120_000, 160_000];

/** A budget row: a prompt whose transcript is past the first level gets the reminder, the next one at the same level none. */
function budgetStarter(row: StarterRow, schemaRef: string): CaseData | undefined {
  const level = row.when.context?.levels[0];
  if (row.kind !== "budget" || level === undefined) return undefined;
  const tokens = TRANSCRIPTS.find((t) => t > level);
  if (tokens === undefined) return undefined;
  const on = { fixture: "user-prompt-submit", with: { prompt: "continue", transcript_path: `fixtures/transcript-${tokens / 1000}k.jsonl` } };
  return {
    $schema: schemaRef,
    id: row.id,
    description: `A prompt at about ${tokens.toLocaleString("en")} tokens, past ${level.toLocaleString("en")}, gets one reminder; the next prompt at that size none.`,
    steps: [
      { ...on, expect: { verdict: "hint", rows: [row.id] } },
      { ...on, expect: { verdict: "allow", rows: [] } },
    ],
  };
}

/** What the row's kind answers on the event it fires on. */
function firstVerdict(kind: string, eventKind: string): CaseData["steps"][number]["expect"]["verdict"] {
  if (kind === "cap") return "cap";
  if (kind === "hint" || kind === "budget") return "hint";
  if (kind === "judgment") return "allow";
  return eventKind === "stop" ? "block" : "deny";
}

/** The step's event: host-neutral where it can be said so, else a captured payload. */
type GeneratedEvent = ({ event: CaseEvent } | { fixture: string }) & { kind: string; what: string };

function eventFor(row: StarterRow): GeneratedEvent | undefined {
  const w = row.when;
  if (w.command) {
    const command = [w.command.name, w.command.sub?.[0], w.command.args?.[0]].filter(Boolean).join(" ");
    return { event: { kind: "tool-call", tool: "shell", command }, kind: "tool-call", what: `\`${command}\`` };
  }
  const glob = w.writes?.[0];
  if (glob) {
    const p = sampleGlob(glob);
    if (p === undefined) return undefined;
    return { event: { kind: "tool-call", tool: "write", path: p, content: "x\n" }, kind: "tool-call", what: `Writing ${p}` };
  }
  const type = w.subagent?.[0];
  if (type) return { event: { kind: "tool-call", tool: "subagent", subagentType: type }, kind: "tool-call", what: `A ${type} subagent` };
  if (w.prompt) {
    const text = sampleText(w.prompt);
    if (text === undefined) return undefined;
    return { event: { kind: "prompt", text: `please look at the ${text}` }, kind: "prompt", what: `A prompt with "${text}"` };
  }
  if (w.final) {
    const text = sampleText(w.final);
    if (text === undefined) return undefined;
    return { event: { kind: "stop", final: text }, kind: "stop", what: `A final answer "${text}"` };
  }
  if (w.output && (w.output.tools.includes("Bash") || w.output.tools.includes("shell")) && (w.output.maxChars ?? 20_000) < BIG_BASH_OUTPUT.chars) {
    // A captured payload: a case file with a 20,000-character string in it would be unreadable.
    return { fixture: BIG_BASH_OUTPUT.fixture, kind: "tool-result", what: `A ${BIG_BASH_OUTPUT.chars}-character Bash output` };
  }
  return undefined;
}

function sampleText(t: { words?: string[]; pattern?: string }): string | undefined {
  const src = t.words?.[0] ?? t.pattern;
  return src === undefined ? undefined : sampleRegex(src);
}

/**
 * One string a simple regex matches: a class gives its first character, an
 * optional or starred atom is left out, a group gives its first alternative.
 * Undefined for what it does not follow (lookarounds, backreferences): then
 * the case is a TODO rather than a guess.
 */
export function sampleRegex(re: string): string | undefined {
  let out = "";
  let i = 0;
  const atoms: string[] = [];
  const push = (s: string) => atoms.push(s);
  while (i < re.length) {
    const c = re[i] ?? "";
    if (c === "^" || c === "$") {
      i++;
      continue;
    }
    if (c === "\\") {
      const n = re[i + 1] ?? "";
      if ("bB".includes(n)) push("");
      else if (n === "d") push("1");
      else if (n === "w") push("a");
      else if (n === "s") push(" ");
      else if (/[0-9kpPu]/.test(n)) return undefined;
      else push(n);
      i += 2;
    } else if (c === "[") {
      const end = re.indexOf("]", i + 2);
      if (end < 0 || re[i + 1] === "^") return undefined;
      push(re[i + 1] === "\\" ? (re[i + 2] ?? "") : (re[i + 1] ?? ""));
      i = end + 1;
    } else if (c === "(") {
      let depth = 0;
      let j = i;
      for (; j < re.length; j++) {
        if (re[j] === "\\") j++;
        else if (re[j] === "(") depth++;
        else if (re[j] === ")" && --depth === 0) break;
      }
      if (j >= re.length) return undefined;
      let inner = re.slice(i + 1, j);
      if (inner.startsWith("?:")) inner = inner.slice(2);
      else if (inner.startsWith("?")) return undefined;
      const alt = sampleRegex(splitTop(inner)[0] ?? "");
      if (alt === undefined) return undefined;
      push(alt);
      i = j + 1;
    } else if (c === "|") {
      break; // the first alternative is enough
    } else if (c === "?" || c === "*") {
      atoms.pop();
      i++;
    } else if (c === "+") {
      i++;
    } else if (c === "{") {
      const m = /^\{(\d+)(,\d*)?\}/.exec(re.slice(i));
      if (!m) return undefined;
      const last = atoms.pop() ?? "";
      push(last.repeat(Number(m[1])));
      i += m[0].length;
    } else if (c === ".") {
      push("x");
      i++;
    } else {
      push(c);
      i++;
    }
  }
  out = atoms.join("");
  return out.trim() === "" ? undefined : out;
}

function splitTop(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === "(" || s[i] === "[") depth++;
    else if (s[i] === ")" || s[i] === "]") depth--;
    else if (s[i] === "|" && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

/** A path a glob matches: `**` and `*` become names, `?` a letter, {a,b} its first, [ab] its first. */
export function sampleGlob(glob: string): string | undefined {
  let p = glob.replace(/\\/g, "/");
  if (p.startsWith("!")) return undefined;
  p = p.replace(/\{([^},]*)[^}]*\}/g, "$1");
  p = p.replace(/\[!?([^\]])[^\]]*\]/g, (m, c: string) => (m.startsWith("[!") ? "z" : c));
  p = p
    .replace(/^\*\*\//, "src/")
    .replace(/\/\*\*$/, "/example.txt")
    .replace(/\/\*\*\//g, "/src/")
    .replace(/\*\*/g, "src");
  p = p.replace(/\*/g, "example").replace(/\?/g, "x");
  return p === "" ? undefined : p;
}
