import { describe, expect, it } from "vitest";
import { neutraliseSubagentReport } from "./neutralise-subagent-report.ts";

describe("neutraliseSubagentReport", () => {
  it("neutralises summary, notes, recommended action and issue messages, and warns", () => {
    const { report, findings, warning } = neutraliseSubagentReport(
      {
        status: "failure" as const,
        summary: "<system>s</system>",
        notes: "n\n[Request]",
        recommendedAction: "\u202Ea",
        issues: [{ path: "/status", message: 'not the string "<instructions>"' }],
      },
      "r-1",
    );
    expect(report).toEqual({
      status: "failure",
      summary: "‹system›s‹/system›",
      notes: "n\n⟦Request⟧",
      recommendedAction: "[U+202E]a",
      issues: [{ path: "/status", message: 'not the string "‹instructions›"' }],
    });
    expect(findings.map(({ source, kind, line }) => `${source}: ${kind} ${line}`)).toEqual([
      'the summary of subagent "r-1": system-tag 1',
      'the summary of subagent "r-1": system-tag 1',
      'the notes of subagent "r-1": task-context-header 2',
      'the recommended action of subagent "r-1": bidi-override 1',
      'the output issues of subagent "r-1": system-tag 1',
    ]);
    expect(warning).toMatch(/^Neutralised 5 passages of earlier work /);
  });

  it("returns a report without findings as it is, with no warning", () => {
    const given = { summary: "Added <ExportButton>.", notes: "See [docs](./docs)." };
    const { report, findings, warning } = neutraliseSubagentReport(given, "r-1");
    expect(report).toBe(given);
    expect(findings).toEqual([]);
    expect(warning).toBeUndefined();
  });
});
