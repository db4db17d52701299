import { SUMMARY_HEADERS, type SummaryCells, summaryCells } from "./format-summary.ts";
import type { EvalRun } from "./run-eval.ts";
import { ALPHA } from "./statistics.ts";
import type { ConditionSummary } from "./summarize.ts";

/** Text made safe for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

const STYLE = `
body{font:14px/1.5 system-ui,sans-serif;margin:2rem;color:#1b1f24;max-width:70rem}
h1{font-size:1.4rem}table{border-collapse:collapse;margin:1rem 0}
th,td{border-bottom:1px solid #d0d7de;padding:.3rem .7rem;text-align:left;vertical-align:top}
th{background:#f6f8fa;white-space:nowrap}td{white-space:nowrap}td:last-child{white-space:normal}
th:nth-child(5),td:nth-child(5),th:nth-child(6),td:nth-child(6){text-align:right}
td.helps{color:#1a7f37;font-weight:600}td.hurts{color:#cf222e;font-weight:600}
p.note{color:#57606a}svg text{font:12px system-ui,sans-serif;fill:#1b1f24}
.key{display:inline-block;width:.8em;height:.8em;margin:0 .3em 0 .8em;vertical-align:-.05em}`;

/** The bars' colours: the context helps, hurts, or makes no measurable difference. */
const HELPS = "#2da44e";
const HURTS = "#cf222e";
const NEUTRAL = "#8c959f";

const ROW_HEIGHT = 26;
const LABEL_WIDTH = 260;
const BAR_WIDTH = 400;
/** Room right of the bars for each row's pass rate, so a rate of 0 % still shows. */
const RATE_WIDTH = 60;

/** An SVG bar chart of the pass rates, each with its 95 % interval as a whisker. */
export function renderPassRateChart(summaries: readonly ConditionSummary[]): string {
  const height = summaries.length * ROW_HEIGHT + 30;
  const x = (rate: number) => LABEL_WIDTH + rate * BAR_WIDTH;
  const bars = summaries.map((summary, index) => {
    const y = 10 + index * ROW_HEIGHT;
    const middle = y + ROW_HEIGHT / 2 - 3;
    const label = escapeHtml(`${summary.recipient} · ${summary.condition}`);
    const colour =
      summary.comparison?.verdict === "helps"
        ? HELPS
        : summary.comparison?.verdict === "hurts"
          ? HURTS
          : NEUTRAL;
    return [
      `<text x="${LABEL_WIDTH - 8}" y="${middle + 4}" text-anchor="end">${label}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y}" width="${(summary.passRate * BAR_WIDTH).toFixed(1)}" height="${ROW_HEIGHT - 8}" fill="${colour}"><title>${escapeHtml(summaryCells(summary).passRate)}</title></rect>`,
      `<line x1="${x(summary.interval.low).toFixed(1)}" x2="${x(summary.interval.high).toFixed(1)}" y1="${middle}" y2="${middle}" stroke="#1b1f24" stroke-width="1.5"/>`,
      `<line x1="${x(summary.interval.low).toFixed(1)}" x2="${x(summary.interval.low).toFixed(1)}" y1="${middle - 5}" y2="${middle + 5}" stroke="#1b1f24"/>`,
      `<line x1="${x(summary.interval.high).toFixed(1)}" x2="${x(summary.interval.high).toFixed(1)}" y1="${middle - 5}" y2="${middle + 5}" stroke="#1b1f24"/>`,
      `<text x="${LABEL_WIDTH + BAR_WIDTH + 12}" y="${middle + 4}">${Math.round(summary.passRate * 100)}%</text>`,
    ].join("");
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const axis = ticks
    .map(
      (tick) => `<text x="${x(tick)}" y="${height - 4}" text-anchor="middle">${tick * 100}%</text>`,
    )
    .join("");
  // Faint lines at the ticks, drawn first so that the bars lie over them.
  const grid = ticks
    .map(
      (tick) =>
        `<line x1="${x(tick)}" x2="${x(tick)}" y1="6" y2="${height - 18}" stroke="#d0d7de" stroke-width="1"/>`,
    )
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Pass rate per recipient and condition, with 95% intervals" width="${LABEL_WIDTH + BAR_WIDTH + RATE_WIDTH}" height="${height}" viewBox="0 0 ${LABEL_WIDTH + BAR_WIDTH + RATE_WIDTH} ${height}">${grid}${bars.join("")}${axis}</svg>`;
}

/**
 * The run's report as one self-contained HTML page: the summary table, a bar chart of the pass
 * rates with their intervals (inline SVG), and how the verdicts were reached. Inline CSS, no
 * external assets; every text is escaped.
 */
export function renderHtmlReport(run: EvalRun, title = "task-context eval"): string {
  const keys = Object.keys(SUMMARY_HEADERS) as Array<keyof SummaryCells>;
  const header = keys.map((key) => `<th>${escapeHtml(SUMMARY_HEADERS[key])}</th>`).join("");
  const rows = run.summary
    .map((summary) => {
      const cells = summaryCells(summary);
      const verdictClass = summary.comparison?.verdict ?? "";
      return `<tr>${keys
        .map((key) =>
          key === "verdict" && verdictClass !== "no measurable difference" && verdictClass !== ""
            ? `<td class="${verdictClass}">${escapeHtml(cells[key])}</td>`
            : `<td>${escapeHtml(cells[key])}</td>`,
        )
        .join("")}</tr>`;
    })
    .join("\n");
  const stopped =
    run.stopped === undefined
      ? ""
      : `<p class="note">The run stopped at ${escapeHtml(run.stopped)}: ${run.records.length} of ${run.planned} trials recorded.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>${run.records.length} of ${run.planned} trials recorded (${run.ran} run now, ${run.resumed} from the results file).</p>
${stopped}
<table>
<thead><tr>${header}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
${renderPassRateChart(run.summary)}
<p class="note">Bars:<span class="key" style="background:${HELPS}"></span>the context helps<span class="key" style="background:${HURTS}"></span>it hurts<span class="key" style="background:${NEUTRAL}"></span>no measurable difference, or the baseline (<code>none</code>). Whiskers: the 95% interval.</p>
<p class="note">Pass rates with Wilson 95% intervals. Each context condition is compared with <code>none</code> by Fisher's exact test (two-sided, α = ${ALPHA}). When no difference is measurable, the trials per condition that would detect the observed difference with 80% power (normal approximation for two proportions). Trials whose recipient failed with an error are not counted.</p>
</body>
</html>
`;
}
