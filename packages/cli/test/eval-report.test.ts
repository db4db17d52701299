import { describe, expect, it } from "vitest";
import { renderSummaryTable } from "../src/eval/format-summary.ts";
import { escapeHtml, renderHtmlReport } from "../src/eval/render-html-report.ts";
import type { EvalRun } from "../src/eval/run-eval.ts";
import { summarize } from "../src/eval/summarize.ts";
import type { TrialRecord } from "../src/eval/trial-record.ts";

/** `passes` passing and `fails` failing trials of a recipient under a condition. */
function trials(
  recipient: string,
  condition: string,
  passes: number,
  fails: number,
): TrialRecord[] {
  return Array.from({ length: passes + fails }, (_, trial) => ({
    version: 1 as const,
    key: "0".repeat(64),
    recipient,
    task: "t",
    condition,
    trial,
    pass: trial < passes,
    checks: [],
    tokens: 100 + trial,
    ms: 1500,
    answer: "",
    redactions: 0,
  }));
}

const hostile = '<script>alert("x")</script>';
const records = [
  ...trials(hostile, "none", 2, 8),
  ...trials(hostile, "full", 9, 1),
  ...trials(hostile, "view:brief", 5, 5),
];
const run: EvalRun = {
  records,
  ran: 30,
  resumed: 0,
  planned: 30,
  calls: 30,
  tokens: 3135,
  summary: summarize(records, [hostile], ["none", "full", "view:brief"]),
};

describe("renderSummaryTable", () => {
  it("prints one aligned row per recipient and condition, with the verdict", () => {
    const name = hostile.padEnd(27);
    expect(renderSummaryTable(run.summary)).toBe(
      [
        `${"recipient".padEnd(27)}  condition   pass rate   95% interval  tokens  time   verdict`,
        `${name}  none        20% (2/10)  6%–51%        105     1.5 s  baseline`,
        `${name}  full        90% (9/10)  60%–98%       105     1.5 s  helps (p = 0.0055)`,
        `${name}  view:brief  50% (5/10)  24%–76%       105     1.5 s  no measurable difference (p = 0.35; 39 trials each to detect)`,
        "",
      ].join("\n"),
    );
  });
});

describe("renderHtmlReport", () => {
  const html = renderHtmlReport(run, "Launch <eval>");

  it("escapes every text it shows", () => {
    expect(html).not.toContain("<script>");
    expect(html).toContain("<title>Launch &lt;eval&gt;</title>");
    expect(html).toContain(
      '<td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</td><td>full</td><td>90% (9/10)</td><td>60%–98%</td><td>105</td><td>1.5 s</td><td class="helps">helps (p = 0.0055)</td>',
    );
    expect(escapeHtml(`a&b<c>"d"'e'`)).toBe("a&amp;b&lt;c&gt;&quot;d&quot;&#39;e&#39;");
  });

  it("draws each pass rate as a bar with its interval, in inline SVG", () => {
    // 90 % of the 400-pixel bar, and the whisker over the Wilson interval (59.6 % to 98.2 %) after the 260-pixel labels.
    expect(html).toContain('<rect x="260" y="36" width="360.0" height="18" fill="#2da44e">');
    expect(html).toContain('<line x1="498.3" x2="652.8" y1="46" y2="46"');
    expect(html.match(/<rect /g)).toHaveLength(3);
    // Each rate is written beside its bar, so that 0 % shows too.
    expect(html).toContain('<text x="672" y="50">90%</text>');
  });

  it("is self-contained: no external script, style sheet, image or font", () => {
    expect(html).not.toMatch(/\b(src|href)=|url\(|@import/);
    expect(html.startsWith("<!doctype html>")).toBe(true);
  });
});
