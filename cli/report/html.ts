// The report as one self-contained HTML page: no script, no network; charts
// are inline SVG; colours follow the reader's light or dark preference. Every
// number carries a data-k key, so a test can read the page back against --json.
import { CHARS_PER_TOKEN, TARGETS, weekOf, type Cell, type ReportData } from "./aggregate.js";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const num = (k: string, v: number | null | string) => `<span data-k="${esc(k)}">${v === null ? "–" : esc(String(v))}</span>`;
const pct = (a: number, b: number) => (b ? `${Math.round((a / b) * 100)}%` : "–");

export function renderHtml(d: ReportData): string {
  const skillRows = d.rows.filter((r) => r.skill && r.total.main.sessions + r.total.subagent.sessions > 0);
  const quiet = d.rows.filter((r) => r.skill && !skillRows.includes(r)).map((r) => r.id);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>skillgate report</title>
<style>
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--mute:#59636e;--line:#d1d9e0;--ok:#1a7f37;--bad:#cf222e;--bar:#9ec5fe;--fill:#0969da}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--mute:#9198a1;--line:#3d444d;--ok:#3fb950;--bad:#f85149;--bar:#1f3a5f;--fill:#4493f8}}
body{background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid var(--line)}
table{border-collapse:collapse;margin:.5rem 0}td,th{border-bottom:1px solid var(--line);padding:.25rem .6rem;text-align:right}th:first-child,td:first-child{text-align:left}
.mute{color:var(--mute)}.pass{color:var(--ok);font-weight:600}.fail{color:var(--bad);font-weight:600}
.row{display:flex;gap:1.5rem;align-items:flex-start;flex-wrap:wrap}
svg text{fill:var(--mute);font-size:10px}
</style></head><body>
<h1>skillgate report</h1>
<p class="mute">${num("machines", d.machines.length)} machine(s) (${esc(d.machines.join(", "))}) · ${num("sessions.main", d.sessions.main)} main sessions · ${num("sessions.subagent", d.sessions.subagent)} subagent sessions · ${num("sessions.duplicates", d.sessions.duplicates)} duplicate records merged · weeks ${esc(d.weeks[0] ?? "–")} to ${esc(d.weeks.at(-1) ?? "–")}${d.installed.length ? ` · skillgate installed ${esc(d.installed.join(", "))}` : ""} · generated ${esc(d.generatedAt)}</p>

<h2>Skill loaded before the first occasion, per row and week</h2>
<p class="mute">Bar: sessions in which the row had an occasion; filled: the skill was already loaded at the first one. A dashed line marks the week skillgate was installed.</p>
${skillRows.map((r) => rowSection(r, d)).join("\n")}
${quiet.length ? `<p class="mute">Rows with no occasion in these sessions: ${esc(quiet.join(", "))}.</p>` : ""}

<h2>Refusals and what followed</h2>
<table><tr><th>row</th><th>skill</th><th>sessions refused</th><th>skill loaded afterwards</th><th>never loaded (worked around or gave up)</th></tr>
${
  d.rows
    .filter((r) => r.total.main.refused + r.total.subagent.refused > 0)
    .map((r) => {
      const t = add(r.total.main, r.total.subagent);
      return `<tr><td>${esc(r.id)}</td><td>${esc(r.skill ?? "–")}</td><td>${num(`refused.${r.id}`, t.refused)}</td><td>${num(`refused.${r.id}.loaded`, t.refusedThenLoaded)}</td><td>${num(`refused.${r.id}.not`, t.refused - t.refusedThenLoaded)}</td></tr>`;
    })
    .join("\n") || `<tr><td colspan="5" class="mute">no refusals replayed</td></tr>`
}
</table>

<h2>Per host</h2>
<table><tr><th>host</th><th>main sessions</th><th>occasions of skill rows</th><th>skill loaded before</th></tr>
${Object.entries(d.hosts)
  .map(
    ([h, v]) =>
      `<tr><td>${esc(h)}</td><td>${num(`host.${h}.sessions`, v.sessions)}</td><td>${num(`host.${h}.occasions`, v.occasions)}</td><td>${num(`host.${h}.loadedBefore`, v.loadedBefore)} (${pct(v.loadedBefore, v.occasions)})</td></tr>`,
  )
  .join("\n")}
</table>

<h2>Context budget targets, per week (main sessions)</h2>
<table><tr><th>week</th><th>sessions</th><th>median prompt ≤ ${TARGETS.medianPromptTokens.toLocaleString("en-US")}</th><th>compactions per session ≤ ${TARGETS.compactionsPerSession}</th><th>tool calls per request ≥ ${TARGETS.toolCallsPerRequest}</th><th>outputs over the cap &lt; ${TARGETS.cappedShare * 100}%</th></tr>
${d.budget.map((b) => `<tr><td>${esc(b.week)}</td><td>${num(`budget.${b.week}.sessions`, b.sessions)}</td><td>${num(`budget.${b.week}.prompt`, b.medianPromptTokens)} ${verdict(b.pass.prompt)}</td><td>${num(`budget.${b.week}.compactions`, b.maxCompactions)} ${verdict(b.pass.compactions)}</td><td>${num(`budget.${b.week}.toolCalls`, b.toolCallsPerRequest)} ${verdict(b.pass.toolCalls)}</td><td>${num(`budget.${b.week}.capped`, b.cappedShare === null ? null : `${Math.round(b.cappedShare * 1000) / 10}%`)} ${verdict(b.pass.capped)}</td></tr>`).join("\n")}
</table>
<p class="mute">Median prompt: the median of the sessions' median prompt sizes; compactions: the most any session of the week had.</p>

${tokensSection(d)}

${profilesSection(d)}

${hooksSection(d)}
</body></html>
`;
}

const NOT_RECORDED = "not recorded";

function tokensSection(d: ReportData): string {
  const cols = ["input", "output", "cacheRead", "cacheWrite"] as const;
  const rows = d.tokens.map(
    (t) =>
      `<tr><td>${esc(t.week)}</td><td>${esc(t.host)}</td><td>${num(`tokens.${t.week}.${t.host}.recorded`, t.recorded)} of ${num(`tokens.${t.week}.${t.host}.sessions`, t.sessions)}</td>${cols.map((c) => `<td>${num(`tokens.${t.week}.${t.host}.${c}`, t[c] ?? NOT_RECORDED)}</td>`).join("")}</tr>`,
  );
  return `<h2>Token usage, per week and host (main and subagent sessions)</h2>
<table><tr><th>week</th><th>host</th><th>sessions with usage</th><th>input</th><th>output</th><th>cache read</th><th>cache write</th></tr>
${rows.join("\n") || `<tr><td colspan="7" class="mute">no sessions</td></tr>`}
</table>
<p class="mute">Summed from each model response's usage, once per response. "${NOT_RECORDED}": the host's session files carry no usage.</p>`;
}

function profilesSection(d: ReportData): string {
  const rows = Object.entries(d.profiles).map(([name, p]) => {
    const k = (f: string) => `profile.${name}.${f}`;
    return `<tr><td>${esc(name)}</td><td>${num(k("outputs"), p.outputs)}</td><td>${num(k("summarized"), p.summarized)}</td><td>${num(k("capped"), p.capped)}</td><td>${num(k("charsSaved"), p.charsSaved)}</td><td>${num(k("tokensSaved"), p.tokensSaved)}</td><td>${num(k("rawFallback"), p.rawFallback)} of ${num(k("pointers"), p.pointers)} (${pct(p.rawFallback, p.pointers)})</td></tr>`;
  });
  return `<h2>Long outputs summarized or capped, per budget profile (main sessions)</h2>
<table><tr><th>profile</th><th>outputs</th><th>summarized</th><th>capped</th><th>characters kept out of context</th><th>≈ tokens (characters / ${CHARS_PER_TOKEN})</th><th>raw file read back</th></tr>
${rows.join("\n") || `<tr><td colspan="7" class="mute">no long output a cap row cuts</td></tr>`}
</table>
<p class="mute">Re-decided from the transcripts as the hook would (the same summaries and caps as <code>measure</code>); tokens are an estimate at ${CHARS_PER_TOKEN} characters each. Read back: of the summaries and caps the transcripts show, how many raw files the model then read or named in a command.</p>`;
}

function hooksSection(d: ReportData): string {
  if (!d.hooks.hosts.length) return `<h2>Slowest hook events</h2>\n<p class="mute" data-k="hooks.none">No host's session files record hook durations.</p>`;
  const rows = d.hooks.slowest.map(
    (h, i) =>
      `<tr><td>${num(`hook.${i}.event`, h.event)}</td><td>${num(`hook.${i}.tool`, h.tool ?? "–")}</td><td>${num(`hook.${i}.ms`, h.ms)}</td><td>${num(`hook.${i}.day`, h.day)}</td><td>${esc(h.host)}</td></tr>`,
  );
  return `<h2>Slowest hook events</h2>
<table><tr><th>event</th><th>tool</th><th>ms</th><th>session day</th><th>host</th></tr>
${rows.join("\n")}
</table>
<p class="mute">Timed by ${esc(d.hooks.hosts.join(", "))}: Claude Code writes a duration only for Stop hooks (its stop_hook_summary line); other events and hosts carry none.</p>`;
}

const verdict = (p: boolean | null) =>
  p === null ? `<span class="mute">no data</span>` : p ? `<span class="pass">pass</span>` : `<span class="fail">fail</span>`;

function add(a: Cell, b: Cell): Cell {
  return {
    sessions: a.sessions + b.sessions,
    loadedBefore: a.loadedBefore + b.loadedBefore,
    refused: a.refused + b.refused,
    refusedThenLoaded: a.refusedThenLoaded + b.refusedThenLoaded,
  };
}

function rowSection(r: ReportData["rows"][number], d: ReportData): string {
  const lines = d.weeks.map((w) => {
    const c = r.weeks[w];
    const m = c?.main ?? { sessions: 0, loadedBefore: 0 };
    const s = c?.subagent ?? { sessions: 0, loadedBefore: 0 };
    return `<tr><td>${esc(w)}</td><td>${num(`row.${r.id}.${w}.main.sessions`, m.sessions)}</td><td>${num(`row.${r.id}.${w}.main.loadedBefore`, m.loadedBefore)} (${pct(m.loadedBefore, m.sessions)})</td><td>${num(`row.${r.id}.${w}.subagent.sessions`, s.sessions)}</td><td>${num(`row.${r.id}.${w}.subagent.loadedBefore`, s.loadedBefore)}</td></tr>`;
  });
  return `<h3>${esc(r.id)} <span class="mute">(${esc(r.kind)}, skill ${esc(r.skill ?? "")})</span></h3>
<div class="row">${chart(r, d)}
<table><tr><th>week</th><th>main sessions</th><th>loaded before</th><th>subagent sessions</th><th>loaded before</th></tr>
${lines.join("\n")}</table></div>`;
}

function chart(r: ReportData["rows"][number], d: ReportData): string {
  const W = 28,
    H = 90,
    gap = 8,
    left = 24;
  const max = Math.max(1, ...d.weeks.map((w) => r.weeks[w]?.main.sessions ?? 0));
  const width = left + d.weeks.length * (W + gap) + gap;
  const installedWeeks = new Set(d.installed.map(weekOf));
  const bars = d.weeks.map((w, i) => {
    const c = r.weeks[w]?.main ?? { sessions: 0, loadedBefore: 0 };
    const x = left + gap + i * (W + gap);
    const h = (c.sessions / max) * H,
      f = (c.loadedBefore / max) * H;
    const mark = installedWeeks.has(w)
      ? `<line x1="${x - gap / 2}" x2="${x - gap / 2}" y1="4" y2="${H + 10}" stroke="var(--bad)" stroke-dasharray="3 2"/>`
      : "";
    return `${mark}<rect x="${x}" y="${10 + H - h}" width="${W}" height="${h}" fill="var(--bar)"><title>${esc(w)}: ${c.sessions} sessions</title></rect><rect x="${x}" y="${10 + H - f}" width="${W}" height="${f}" fill="var(--fill)"><title>${esc(w)}: loaded before in ${c.loadedBefore}</title></rect><text x="${x}" y="${H + 24}">${esc(w.slice(5))}</text>`;
  });
  return `<svg role="img" aria-label="${esc(r.id)} per week" width="${width}" height="${H + 30}" viewBox="0 0 ${width} ${H + 30}"><text x="0" y="14">${max}</text><text x="0" y="${H + 10}">0</text><line x1="${left}" x2="${width}" y1="${H + 10}" y2="${H + 10}" stroke="var(--line)"/>${bars.join("")}</svg>`;
}
