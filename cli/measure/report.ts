// Showing a measurement: the text table (main sessions and
// subagent sessions side by side), the comparison with an earlier snapshot, a
// bar chart (SVG, main sessions only), and the dated snapshot itself.
import fs from "node:fs";
import path from "node:path";
import type { Metrics } from "./metrics.js";
import type { RowCount } from "./replay.js";
import type { MeasureResult, Totals } from "./run.js";
import { RAW_REASONS, type BudgetResult } from "./budget.js";

const int = (n: number) => n.toLocaleString("en-US");
const pct = (a: number, b: number) => (b ? `${Math.round((a / b) * 100)}%` : "—");
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const day = (iso: string) => iso.slice(0, 16).replace("T", " ");

function table(head: string[], body: string[][], right: Set<number>): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => (right.has(i) ? c.padStart(w[i]!) : c.padEnd(w[i]!)))
      .join("  ")
      .trimEnd();
  return [fmt(head), w.map((x) => "-".repeat(x)).join("  "), ...body.map(fmt)];
}

/** A row's five figures: sessions with occasion, loaded before 1st, loaded at any time, occasions, opaque commands. */
function cells(x: RowCount | undefined, skill: boolean): string[] {
  if (!x) return ["—", "—", "—", "—", "—"];
  return [
    int(x.sessions),
    skill ? `${int(x.loadedBefore)} (${pct(x.loadedBefore, x.sessions)})` : "—",
    skill ? `${int(x.loadedAny)} (${pct(x.loadedAny, x.sessions)})` : "—",
    int(x.occasions),
    int(x.opaque ?? 0),
  ];
}

const totalCells = (t: Totals) => [
  int(t.sessions),
  `${int(t.loadedBefore)} (${pct(t.loadedBefore, t.sessions)})`,
  `${int(t.loadedAny)} (${pct(t.loadedAny, t.sessions)})`,
  "",
  "",
];
const loadList = (loads: Record<string, number>) => {
  const l = Object.entries(loads);
  return l.length ? l.map(([k, v]) => `${k} ${int(v)}`).join(", ") : "none";
};

/** Column heads over the given columns: a line with each label starting at its first column. */
function groupLine(underline: string, groups: [number, string][]): string {
  const starts: number[] = [0];
  for (const m of underline.matchAll(/ {2}(?=-)/g)) starts.push(m.index + 2);
  let line = "";
  for (const [col, label] of groups) line = line.padEnd(starts[col] ?? line.length) + label;
  return line;
}

export function renderText(r: MeasureResult): string {
  const out: string[] = [];
  // A format 1 snapshot (before subagents were read) has no subagent part.
  const sub = r.subagents;
  out.push(`skillgate measure: ${day(r.window.from)} → ${day(r.window.to)} UTC (--since ${r.window.since})`);
  const subRead = sub
    ? `; ${int(sub.read.sessions)} subagent sessions from ${int(sub.read.files)} files (${mb(sub.read.bytes)})${sub.read.inlineLines ? ` and ${int(sub.read.inlineLines)} inline sidechain lines` : ""}`
    : "";
  out.push(
    `${int(r.read.sessions)} main sessions from ${int(r.read.files)} files (${mb(r.read.bytes)})${subRead}; ${int(r.read.lines)} lines in ${r.read.seconds.toFixed(2)} s; table ${r.table}`,
  );
  out.push("");
  const subRows = new Map((sub?.rows ?? []).map((x) => [x.id, x]));
  const body = r.rows.map((x) => [x.id, x.kind, x.skill ?? "—", ...cells(x, !!x.skill), "│", ...cells(subRows.get(x.id), !!x.skill)]);
  body.push(["total (rows with a skill)", "", "", ...totalCells(r.totals), "│", ...(sub ? totalCells(sub.totals) : cells(undefined, true))]);
  const head = ["sessions", "before 1st", "any time", "occasions", "opaque"];
  const lines = table(["row", "kind", "skill", ...head, "│", ...head], body, new Set([3, 4, 5, 6, 7, 9, 10, 11, 12, 13]));
  out.push(
    groupLine(lines[1]!, [
      [3, "main sessions"],
      [9, "subagent sessions (own context each)"],
    ]),
    ...lines,
  );
  out.push(
    "sessions: sessions with occasion; before 1st / any time: the row's skill loaded before the first occasion / at any time of the session; opaque: commands not seen through",
  );
  if (sub) {
    const all = { sessions: r.totals.sessions + sub.totals.sessions, loadedBefore: r.totals.loadedBefore + sub.totals.loadedBefore };
    out.push(
      `main and subagent sessions together (what the seed counted first): ${int(all.sessions)} with an occasion, ${int(all.loadedBefore)} (${pct(all.loadedBefore, all.sessions)}) loaded before the first`,
    );
  }
  out.push("", `skills loaded (sessions): main ${loadList(r.loads)}; subagent ${sub ? loadList(sub.loads) : "—"}`);
  out.push("");
  out.push(...table(["session metric", "main sessions", "subagent sessions", "target"], metricRows(r.metrics, sub?.metrics), new Set()));
  // A snapshot saved before budget profiles were measured has none.
  if (r.budget) out.push("", ...budgetLines(r.budget, sub?.budget));
  out.push("");
  out.push(`left out: ${leftOut(r)}`);
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join("\n");
}

/** Per budget profile: long outputs as the hook would treat them (re-decided), and raw files read after a summary (seen). */
function budgetLines(b: BudgetResult, sub: BudgetResult | undefined): string[] {
  const profiles = Object.entries(b.profiles);
  const row = (name: string, p: BudgetResult["profiles"][keyof BudgetResult["profiles"]], kind: string) => [
    `${name}${name === b.defaultProfile ? " (default)" : ""}`,
    kind,
    int(p.sessions),
    int(p.summarized),
    int(p.capped),
    ...RAW_REASONS.map((k) => int(p.raw[k])),
    int(p.charsSaved),
    int(p.pointers),
    `${int(p.rawFallback)} (${pct(p.rawFallback, p.pointers)})`,
  ];
  const body = profiles.map(([name, p]) => row(name, p, "main"));
  // Subagent sessions only where they did anything beyond existing.
  for (const [name, p] of Object.entries(sub?.profiles ?? {}))
    if (p.summarized + p.capped + p.pointers + Object.values(p.raw).reduce((a, x) => a + x, 0) > 0) body.push(row(name, p, "subagent"));
  const lines = table(
    ["budget profile", "kind", "sessions", "summarized", "head cap", ...RAW_REASONS.map((k) => `raw ${k}`), "chars kept out", "summaries seen", "raw_fallback"],
    body,
    new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
  );
  return [
    ...lines,
    "long outputs re-decided as the hook would (the session's profile from the replay: table default, mode words, risk rows); summaries seen / raw_fallback: skillgate's raw-file pointers in the transcripts, and how many the model read afterwards",
    ...(b.noResponse + (sub?.noResponse ?? 0)
      ? [`not re-decided: ${int(b.noResponse + (sub?.noResponse ?? 0))} long outputs whose tool response the transcript does not hold`]
      : []),
  ];
}

function metricRows(m: Metrics, s: Metrics | undefined): string[][] {
  const each = (f: (x: Metrics) => string) => [f(m), s ? f(s) : "—"];
  const big = (x: Metrics) => {
    const b = x.bigResults.byTool;
    return `${int(b.Bash.over + b.WebFetch.over)} of ${int(b.Bash.calls + b.WebFetch.calls)} (${x.bigResults.share === null ? "—" : `${(x.bigResults.share * 100).toFixed(1)}%`}; Bash ${b.Bash.over}/${b.Bash.calls}, WebFetch ${b.WebFetch.over}/${b.WebFetch.calls})`;
  };
  return [
    ["prompt per request, median (tokens)", ...each((x) => (x.promptTokens.median === null ? "—" : int(Math.round(x.promptTokens.median)))), "≤ 150,000"],
    ["prompt per request, p90 (tokens)", ...each((x) => (x.promptTokens.p90 === null ? "—" : int(x.promptTokens.p90))), ""],
    ["requests (distinct message ids)", ...each((x) => int(x.requests)), ""],
    [
      "compactions per session",
      ...each((x) =>
        x.compactions.perSession === null
          ? "—"
          : `${x.compactions.perSession.toFixed(2)} (${x.compactions.total}: ${
              Object.entries(x.compactions.byTrigger)
                .map(([k, v]) => `${v} ${k}`)
                .join(", ") || "none"
            }; max ${x.compactions.max} in a session)`,
      ),
      "≤ 1",
    ],
    ["tool calls per request (toolsPerTurn)", ...each((x) => (x.toolsPerTurn === null ? "—" : x.toolsPerTurn.toFixed(2))), "≥ 2"],
    [`Bash/WebFetch results > ${int(m.bigResults.thresholdChars)} chars`, ...each(big), "< 5%"],
  ];
}

function leftOut(r: MeasureResult): string {
  const f = r.leftOut.files,
    l = r.leftOut.lines;
  const parts = [
    `${int(f.internalAgent)} files of the client's internal agents (compaction summaries, suggestions; ${mb(f.internalAgentBytes)})`,
    `${int(f.outsideWindow)} files outside the window (${mb(f.outsideWindowBytes)})`,
    `${int(l.progress)} progress lines (live updates; a subagent's messages are in its own file)`,
    `${int(l.duplicate)} duplicate lines (same uuid)`,
    `${int(l.summary)} summary lines (titles, not compactions)`,
    `${int(l.malformed)} malformed lines`,
  ];
  if (l.invalid) parts.push(`${int(l.invalid)} user/assistant lines without a message`);
  const unknown = Object.entries(r.leftOut.unknownTypes);
  if (unknown.length)
    parts.push(
      `${int(l.unknownType)} lines of unknown type (${unknown
        .slice(0, 5)
        .map(([k, v]) => `${k} ×${v}`)
        .join(", ")})`,
    );
  if (l.oversized) parts.push(`${int(l.oversized)} oversized lines`);
  if (f.truncated) parts.push(`${int(f.truncated)} files cut mid-line`);
  if (f.notJsonl) parts.push(`${int(f.notJsonl)} files that are not JSONL`);
  if (f.unreadable) parts.push(`${int(f.unreadable)} unreadable files`);
  parts.push(`${int(l.notNeeded)} lines of types measure does not need (attachments, snapshots, queue)`);
  return parts.join(", ");
}

interface Figure {
  label: string;
  before: number | null;
  now: number | null;
  /** Shares are compared in percentage points. */
  share?: boolean;
}

function figures(r: MeasureResult): Map<string, Figure> {
  const f = new Map<string, Figure>();
  const add = (label: string, v: number | null, share = false) => f.set(label, { label, before: null, now: v, share });
  add("sessions read", r.read.sessions);
  for (const x of r.rows) {
    add(`${x.id}: sessions with occasion`, x.sessions);
    if (!x.skill) continue;
    add(`${x.id}: loaded before 1st`, x.loadedBefore);
    add(`${x.id}: loaded at any time`, x.loadedAny);
    add(`${x.id}: share loaded before 1st`, x.sessions ? x.loadedBefore / x.sessions : null, true);
  }
  add("total: sessions with occasion", r.totals.sessions);
  add("total: loaded before 1st", r.totals.loadedBefore);
  add("total: share loaded before 1st", r.totals.sessions ? r.totals.loadedBefore / r.totals.sessions : null, true);
  // Subagent figures: absent from format 1 snapshots (shown as "—" there).
  const sub = r.subagents;
  if (sub) {
    add("subagent sessions read", sub.read.sessions);
    for (const x of sub.rows) {
      add(`${x.id}: subagent sessions with occasion`, x.sessions);
      if (!x.skill) continue;
      add(`${x.id}: subagent loaded before 1st`, x.loadedBefore);
      add(`${x.id}: subagent loaded at any time`, x.loadedAny);
      add(`${x.id}: subagent share loaded before 1st`, x.sessions ? x.loadedBefore / x.sessions : null, true);
    }
    add("subagent total: sessions with occasion", sub.totals.sessions);
    add("subagent total: loaded before 1st", sub.totals.loadedBefore);
    add("subagent total: share loaded before 1st", sub.totals.sessions ? sub.totals.loadedBefore / sub.totals.sessions : null, true);
  }
  const m = r.metrics;
  add("prompt per request, median", m.promptTokens.median);
  add("prompt per request, p90", m.promptTokens.p90);
  add("compactions per session", m.compactions.perSession);
  add("tool calls per request", m.toolsPerTurn);
  add("Bash/WebFetch results > 20k chars, share", m.bigResults.share, true);
  return f;
}

const show = (v: number | null, share?: boolean) => (v === null ? "—" : share ? `${(v * 100).toFixed(1)}%` : Number.isInteger(v) ? int(v) : v.toFixed(2));

export function renderCompare(now: MeasureResult, before: MeasureResult, beforeFile: string): string {
  const a = figures(before),
    b = figures(now);
  const empty = (v: number | null | undefined) => v === null || v === undefined || v === 0;
  // Figures that are nothing on both sides (rows without an occasion then and now) are left out.
  const labels = [...new Set([...b.keys(), ...a.keys()])].filter((l) => !(empty(a.get(l)?.now) && empty(b.get(l)?.now)));
  const body = labels.map((label) => {
    const was = a.get(label)?.now ?? null,
      is = b.get(label)?.now ?? null;
    const share = (b.get(label) ?? a.get(label))!.share;
    let change = "";
    if (was !== null && is !== null) {
      const d = is - was;
      change = share ? `${d >= 0 ? "+" : "−"}${Math.abs(d * 100).toFixed(1)} pt` : d === 0 ? "0" : `${d > 0 ? "+" : "−"}${show(Math.abs(d))}`;
    }
    return [label, show(was, share), show(is, share), change];
  });
  return [
    `compared with ${beforeFile} (${day(before.window.from)} → ${day(before.window.to)}, ${int(before.read.sessions)} sessions)`,
    "",
    ...table(["figure", "before", "now", "change"], body, new Set([1, 2, 3])),
    "(figures that are zero before and now are not shown)",
  ].join("\n");
}

const color = { sessions: "#9aa5b1", loadedBefore: "#2f7d32", loadedAny: "#8bc34a" } as const;
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Occasion vs loaded per row with a skill and an occasion, as horizontal bars: main sessions only (subagent figures are in the text and --json). */
export function renderSvg(r: MeasureResult): string {
  const withSkill = r.rows.filter((x) => x.skill);
  const rows = withSkill.filter((x) => x.sessions > 0);
  const idle = withSkill.filter((x) => x.sessions === 0).map((x) => x.id);
  const label = (x: (typeof rows)[number]) => `${x.id} (${x.skill})`;
  const max = Math.max(1, ...rows.map((x) => x.sessions));
  const left = 24 + Math.ceil(Math.max(10, ...rows.map((x) => label(x).length)) * 7);
  const barW = 520,
    bar = 11,
    group = bar * 3 + 14,
    top = 74;
  const foot = idle.length ? wrap(`no occasion: ${idle.join(", ")}`, Math.floor((left + barW) / 7)) : [];
  const width = left + barW + 60,
    height = top + rows.length * group + 16 + foot.length * 16;
  const scale = (n: number) => Math.round((n / max) * barW);
  const series: [keyof typeof color, string][] = [
    ["sessions", "sessions with an occasion"],
    ["loadedBefore", "skill loaded before the first occasion"],
    ["loadedAny", "skill loaded at any time"],
  ];
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="12" y="22" font-size="15" font-weight="bold">${esc(`skillgate measure: occasion vs loaded, ${r.read.sessions} main sessions (subagent sessions not shown)`)}</text>`,
    `<text x="12" y="40" fill="#555">${esc(`${day(r.window.from)} → ${day(r.window.to)} UTC; table ${path.basename(r.table)}`)}</text>`,
  ];
  series.forEach(([k, text], i) => {
    const x = 12 + i * 250;
    parts.push(`<rect x="${x}" y="50" width="12" height="12" fill="${color[k]}"/><text x="${x + 17}" y="60">${esc(text)}</text>`);
  });
  rows.forEach((x, i) => {
    const y = top + i * group;
    parts.push(`<text x="${left - 8}" y="${y + bar * 1.5 + 4}" text-anchor="end">${esc(label(x))}</text>`);
    series.forEach(([k], j) => {
      const v = x[k];
      const by = y + j * bar;
      parts.push(
        `<rect x="${left}" y="${by}" width="${Math.max(v ? 1 : 0, scale(v))}" height="${bar - 1}" fill="${color[k]}"><title>${esc(`${x.id}: ${v}`)}</title></rect>`,
      );
      parts.push(`<text x="${left + scale(v) + 4}" y="${by + bar - 2}" font-size="10" fill="#333">${v}</text>`);
    });
  });
  foot.forEach((line, i) => parts.push(`<text x="12" y="${top + rows.length * group + 12 + i * 16}" fill="#555">${esc(line)}</text>`));
  parts.push("</svg>");
  return parts.join("\n") + "\n";
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let cur = "";
  for (const w of text.split(" ")) {
    if (cur && cur.length + 1 + w.length > width) {
      lines.push(cur);
      cur = w;
    } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) lines.push(cur);
  return lines;
}

/** state/measure-YYYY-MM-DD.json (a second run the same day replaces it). */
export function saveSnapshot(r: MeasureResult, stateDir: string): string {
  fs.mkdirSync(stateDir, { recursive: true });
  const file = path.join(stateDir, `measure-${r.generatedAt.slice(0, 10)}.json`);
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(r, null, 2) + "\n");
  fs.renameSync(tmp, file);
  return file;
}
