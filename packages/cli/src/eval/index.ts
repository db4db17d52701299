/**
 * `task-context eval` as a library: does the task context help each recipient, per view? Runs
 * tasks under no context, the full context and each view, and tests the difference.
 * See https://github.com/task-context/task-context/blob/main/docs/eval.md.
 *
 * @module
 */

export {
  type EvalCheck,
  type EvalSpec,
  type EvalTask,
  evalSpecSchema,
  parseEvalSpec,
  parseEvalSpecText,
} from "./eval-spec.ts";
export { EvaluationError, type EvaluationErrorCode } from "./evaluation-error.ts";
export { renderSummaryTable } from "./format-summary.ts";
export { loadRecipients } from "./load-recipients.ts";
export type { EvalClock } from "./rate-limiter.ts";
export type { Recipient, RecipientAnswer, RecipientInput, RecipientRequest } from "./recipient.ts";
export { escapeHtml, renderHtmlReport } from "./render-html-report.ts";
export { type EvalRun, type RunEvalOptions, runEval } from "./run-eval.ts";
export {
  createTranscriptionStandIn,
  createVisionStandIn,
  seededRandom,
  type VisionStandInOptions,
} from "./stand-ins.ts";
export {
  ALPHA,
  type Comparison,
  compareWithBaseline,
  fisherExactTest,
  type Interval,
  trialsToDetect,
  type Verdict,
  wilsonInterval,
} from "./statistics.ts";
export type { ConditionSummary } from "./summarize.ts";
export type { CheckOutcome, TrialRecord } from "./trial-record.ts";
