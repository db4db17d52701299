import {
  neutralisePosingText,
  type UntrustedFinding,
  untrustedContentWarning,
} from "@task-context/core";
import type { ValidationIssue } from "@task-context/protocols";

/** The texts of a subagent's report that go back to the parent. */
export interface SubagentReportTexts {
  summary: string;
  notes?: string | undefined;
  recommendedAction?: string | undefined;
  issues?: ValidationIssue[] | undefined;
}

/** A report with its texts neutralised, and the warning that says what was. */
export interface NeutralisedReport<Report extends SubagentReportTexts> {
  report: Report;
  findings: UntrustedFinding[];
  /** Core's `untrustedContentWarning` of `findings`; undefined when nothing was neutralised. */
  warning: string | undefined;
}

/**
 * A subagent's report as the parent gets it: its summary, notes (with the runner's log),
 * recommended action and the messages of validation issues (which quote the output) are earlier
 * work, so each is scanned with core's `neutralisePosingText` and returned with every passage
 * that poses as instructions or as a task-context format made inert — `<system-reminder>` becomes
 * `‹system-reminder›`, a bidi override `[U+202E]` — and a warning that names the kind, the text
 * and the line of each. Nothing is dropped; a report without findings comes back unchanged.
 */
export function neutraliseSubagentReport<Report extends SubagentReportTexts>(
  report: Report,
  id: string,
): NeutralisedReport<Report> {
  const findings: UntrustedFinding[] = [];
  const shown = JSON.stringify(id);
  const neutralise = (what: string, text: string): string => {
    const neutralised = neutralisePosingText(text);
    const source = `the ${what} of subagent ${shown}`;
    for (const { kind, line } of neutralised.findings) findings.push({ source, kind, line });
    return neutralised.text;
  };
  const result: Report = { ...report, summary: neutralise("summary", report.summary) };
  if (report.notes !== undefined) result.notes = neutralise("notes", report.notes);
  if (report.recommendedAction !== undefined) {
    result.recommendedAction = neutralise("recommended action", report.recommendedAction);
  }
  if (report.issues !== undefined) {
    result.issues = report.issues.map((issue) => ({
      ...issue,
      message: neutralise("output issues", issue.message),
    }));
  }
  return {
    report: findings.length === 0 ? report : result,
    findings,
    warning: untrustedContentWarning(findings),
  };
}
