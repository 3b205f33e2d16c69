// Showing a measurement: the text table (as in seed 003), the comparison with
// an earlier snapshot, a bar chart (SVG), and the dated snapshot itself.
import fs from "node:fs";
import path from "node:path";
import type { MeasureResult } from "./run.js";

const int = (n: number) => n.toLocaleString("en-US");
const pct = (a: number, b: number) => (b ? `${Math.round((a / b) * 100)}%` : "—");
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const day = (iso: string) => iso.slice(0, 16).replace("T", " ");

function table(head: string[], body: string[][], right: Set<number>): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => (right.has(i) ? c.padStart(w[i]!) : c.padEnd(w[i]!))).join("  ").trimEnd();
  return [fmt(head), w.map((x) => "-".repeat(x)).join("  "), ...body.map(fmt)];
}

export function renderText(r: MeasureResult): string {
  const out: string[] = [];
  out.push(`skillgate measure: ${day(r.window.from)} → ${day(r.window.to)} UTC (--since ${r.window.since})`);
  out.push(`${int(r.read.sessions)} main sessions from ${int(r.read.files)} files (${mb(r.read.bytes)}, ${int(r.read.lines)} lines) in ${r.read.seconds.toFixed(2)} s; table ${r.table}`);
  out.push("");
  const body = r.rows.map((x) => [
    x.id,
    x.kind,
    x.skill ?? "—",
    int(x.sessions),
    x.skill ? `${int(x.loadedBefore)} (${pct(x.loadedBefore, x.sessions)})` : "—",
    x.skill ? `${int(x.loadedAny)} (${pct(x.loadedAny, x.sessions)})` : "—",
    int(x.occasions),
    int(x.opaque ?? 0),
  ]);
  const t = r.totals;
  body.push(["total (rows with a skill)", "", "", int(t.sessions), `${int(t.loadedBefore)} (${pct(t.loadedBefore, t.sessions)})`, `${int(t.loadedAny)} (${pct(t.loadedAny, t.sessions)})`, "", ""]);
  out.push(...table(["row", "kind", "skill", "sessions with occasion", "loaded before 1st", "loaded at any time", "occasions", "opaque commands"], body, new Set([3, 4, 5, 6, 7])));
  const loads = Object.entries(r.loads);
  out.push("", `skills loaded (sessions): ${loads.length ? loads.map(([k, v]) => `${k} ${int(v)}`).join(", ") : "none"}`);
  out.push("");
  const m = r.metrics;
  const b = m.bigResults.byTool;
  const metrics: string[][] = [
    ["prompt per request, median (tokens)", m.promptTokens.median === null ? "—" : int(Math.round(m.promptTokens.median)), "≤ 150,000"],
    ["prompt per request, p90 (tokens)", m.promptTokens.p90 === null ? "—" : int(m.promptTokens.p90), ""],
    ["requests (distinct message ids)", int(m.requests), ""],
    ["compactions per session", m.compactions.perSession === null ? "—" : `${m.compactions.perSession.toFixed(2)} (${m.compactions.total}: ${Object.entries(m.compactions.byTrigger).map(([k, v]) => `${v} ${k}`).join(", ") || "none"}; max ${m.compactions.max} in a session)`, "≤ 1"],
    ["tool calls per request (toolsPerTurn)", m.toolsPerTurn === null ? "—" : m.toolsPerTurn.toFixed(2), "≥ 2"],
    [
      `Bash/WebFetch results > ${int(m.bigResults.thresholdChars)} chars`,
      `${int(b.Bash.over + b.WebFetch.over)} of ${int(b.Bash.calls + b.WebFetch.calls)} (${m.bigResults.share === null ? "—" : `${(m.bigResults.share * 100).toFixed(1)}%`}; Bash ${b.Bash.over}/${b.Bash.calls}, WebFetch ${b.WebFetch.over}/${b.WebFetch.calls})`,
      "< 5%",
    ],
  ];
  out.push(...table(["session metric", "value", "target"], metrics, new Set()));
  out.push("");
  out.push(`left out: ${leftOut(r)}`);
  for (const w of r.warnings) out.push(`warning: ${w}`);
  return out.join("\n");
}

function leftOut(r: MeasureResult): string {
  const f = r.leftOut.files, l = r.leftOut.lines;
  const parts = [
    `${int(f.subagent)} subagent files (${mb(f.subagentBytes)})`,
    `${int(f.outsideWindow)} files outside the window (${mb(f.outsideWindowBytes)})`,
    `${int(l.sidechain)} sidechain lines`,
    `${int(l.progress)} progress lines`,
    `${int(l.duplicate)} duplicate lines (same uuid)`,
    `${int(l.summary)} summary lines (titles, not compactions)`,
    `${int(l.malformed)} malformed lines`,
  ];
  if (l.invalid) parts.push(`${int(l.invalid)} user/assistant lines without a message`);
  const unknown = Object.entries(r.leftOut.unknownTypes);
  if (unknown.length) parts.push(`${int(l.unknownType)} lines of unknown type (${unknown.slice(0, 5).map(([k, v]) => `${k} ×${v}`).join(", ")})`);
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
  const a = figures(before), b = figures(now);
  const empty = (v: number | null | undefined) => v === null || v === undefined || v === 0;
  // Figures that are nothing on both sides (rows without an occasion then and now) are left out.
  const labels = [...new Set([...b.keys(), ...a.keys()])].filter((l) => !(empty(a.get(l)?.now) && empty(b.get(l)?.now)));
  const body = labels.map((label) => {
    const was = a.get(label)?.now ?? null, is = b.get(label)?.now ?? null;
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

/** Occasion vs loaded per row with a skill and an occasion, as horizontal bars. */
export function renderSvg(r: MeasureResult): string {
  const withSkill = r.rows.filter((x) => x.skill);
  const rows = withSkill.filter((x) => x.sessions > 0);
  const idle = withSkill.filter((x) => x.sessions === 0).map((x) => x.id);
  const label = (x: (typeof rows)[number]) => `${x.id} (${x.skill})`;
  const max = Math.max(1, ...rows.map((x) => x.sessions));
  const left = 24 + Math.ceil(Math.max(10, ...rows.map((x) => label(x).length)) * 7);
  const barW = 520, bar = 11, group = bar * 3 + 14, top = 74;
  const foot = idle.length ? wrap(`no occasion: ${idle.join(", ")}`, Math.floor((left + barW) / 7)) : [];
  const width = left + barW + 60, height = top + rows.length * group + 16 + foot.length * 16;
  const scale = (n: number) => Math.round((n / max) * barW);
  const series: [keyof typeof color, string][] = [["sessions", "sessions with an occasion"], ["loadedBefore", "skill loaded before the first occasion"], ["loadedAny", "skill loaded at any time"]];
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="12" y="22" font-size="15" font-weight="bold">${esc(`skillgate measure: occasion vs loaded, ${r.read.sessions} main sessions`)}</text>`,
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
      parts.push(`<rect x="${left}" y="${by}" width="${Math.max(v ? 1 : 0, scale(v))}" height="${bar - 1}" fill="${color[k]}"><title>${esc(`${x.id}: ${v}`)}</title></rect>`);
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
