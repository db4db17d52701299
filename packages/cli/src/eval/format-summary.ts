import type { ConditionSummary } from "./summarize.ts";

/** The cells of one summary row, as the terminal table and the HTML report print them. */
export interface SummaryCells {
  recipient: string;
  condition: string;
  /** `90% (18/20)`. */
  passRate: string;
  /** `70–97%`. */
  interval: string;
  /** Mean tokens per trial, `–` when unknown. */
  tokens: string;
  /** Mean time per trial, `12 ms` or `1.4 s`. */
  time: string;
  /** `baseline`, `helps (p = 0.0055)`, `no measurable difference (p = 0.49; 93 trials each to detect)`. */
  verdict: string;
}

const percent = (value: number) => `${Math.round(value * 100)}%`;

/** A p-value in two significant digits, `< 0.0001` below that. */
export function formatPValue(p: number): string {
  return p < 0.0001 ? "< 0.0001" : `= ${Number(p.toPrecision(2))}`;
}

function formatTime(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function verdictOf(summary: ConditionSummary): string {
  if (summary.condition === "none") return "baseline";
  const comparison = summary.comparison;
  if (comparison === undefined) return "–";
  const p = `p ${formatPValue(comparison.pValue)}`;
  if (comparison.verdict !== "no measurable difference") return `${comparison.verdict} (${p})`;
  return comparison.trialsNeeded === undefined
    ? `no measurable difference (${p}; same pass rate)`
    : `no measurable difference (${p}; ${comparison.trialsNeeded} trials each to detect)`;
}

/** A summary row's cells. */
export function summaryCells(summary: ConditionSummary): SummaryCells {
  const errors = summary.errors === 0 ? "" : `, ${summary.errors} errors`;
  return {
    recipient: summary.recipient,
    condition: summary.condition,
    passRate: `${percent(summary.passRate)} (${summary.passes}/${summary.trials}${errors})`,
    interval: `${percent(summary.interval.low)}–${percent(summary.interval.high)}`,
    tokens: summary.meanTokens === undefined ? "–" : `${Math.round(summary.meanTokens)}`,
    time: formatTime(summary.meanMs),
    verdict: verdictOf(summary),
  };
}

/** The table's header row. */
export const SUMMARY_HEADERS: SummaryCells = {
  recipient: "recipient",
  condition: "condition",
  passRate: "pass rate",
  interval: "95% interval",
  tokens: "tokens",
  time: "time",
  verdict: "verdict",
};

/** The summary as an aligned plain-text table, one line per recipient × condition. */
export function renderSummaryTable(summaries: readonly ConditionSummary[]): string {
  const rows = [SUMMARY_HEADERS, ...summaries.map(summaryCells)];
  const keys = Object.keys(SUMMARY_HEADERS) as Array<keyof SummaryCells>;
  const widths = keys.map((key) => Math.max(...rows.map((row) => row[key].length)));
  return rows
    .map((row) =>
      keys
        .map((key, index) =>
          index === keys.length - 1 ? row[key] : row[key].padEnd(widths[index] as number),
        )
        .join("  "),
    )
    .join("\n")
    .concat("\n");
}
