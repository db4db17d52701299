import {
  type Comparison,
  compareWithBaseline,
  type Interval,
  wilsonInterval,
} from "./statistics.ts";
import type { TrialRecord } from "./trial-record.ts";

/** A recipient's results under one condition. */
export interface ConditionSummary {
  recipient: string;
  condition: string;
  /** Trials that answered (errors not counted). */
  trials: number;
  passes: number;
  /** passes / trials (0 without trials). */
  passRate: number;
  /** Wilson 95 % interval of the pass rate. */
  interval: Interval;
  /** Mean tokens per trial, of the trials that reported tokens; absent when none did. */
  meanTokens?: number;
  /** Mean milliseconds per trial. */
  meanMs: number;
  /** Trials whose recipient or judge threw. */
  errors: number;
  /** Against `none` for the same recipient; absent for `none` itself, or without `none`. */
  comparison?: Comparison;
}

const mean = (values: readonly number[]) =>
  values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * Per recipient × condition, in the given orders: pass rate with its interval, tokens, time, and
 * each context condition tested against `none` (Fisher's exact test, α = 0.05).
 */
export function summarize(
  records: readonly TrialRecord[],
  recipients: readonly string[],
  conditions: readonly string[],
): ConditionSummary[] {
  const summaries: ConditionSummary[] = [];
  for (const recipient of recipients) {
    const row: ConditionSummary[] = conditions.map((condition) => {
      const all = records.filter(
        (record) => record.recipient === recipient && record.condition === condition,
      );
      const answered = all.filter((record) => record.error === undefined);
      const passes = answered.filter((record) => record.pass).length;
      const tokens = answered.flatMap((record) =>
        record.tokens === undefined ? [] : [record.tokens],
      );
      const summary: ConditionSummary = {
        recipient,
        condition,
        trials: answered.length,
        passes,
        passRate: answered.length === 0 ? 0 : passes / answered.length,
        interval: wilsonInterval(passes, answered.length),
        meanMs: answered.length === 0 ? 0 : mean(answered.map((record) => record.ms)),
        errors: all.length - answered.length,
      };
      if (tokens.length > 0) summary.meanTokens = mean(tokens);
      return summary;
    });
    const baseline = row.find((summary) => summary.condition === "none");
    for (const summary of row) {
      if (
        baseline !== undefined &&
        summary !== baseline &&
        summary.trials > 0 &&
        baseline.trials > 0
      ) {
        summary.comparison = compareWithBaseline(
          summary.passes,
          summary.trials,
          baseline.passes,
          baseline.trials,
        );
      }
      summaries.push(summary);
    }
  }
  return summaries;
}
