// The statistics of an eval: Wilson intervals, Fisher's exact test, and the trial count the
// normal approximation for two proportions asks for. Checked against SciPy 1.17 in the tests.

/** z of the two-sided 95 % level, Φ⁻¹(0.975). */
const Z_95 = 1.959963984540054;
/** z of 80 % power, Φ⁻¹(0.8). */
const Z_POWER_80 = 0.8416212335729143;

/** A proportion's interval: `low` ≤ `high`, both in [0, 1]. */
export interface Interval {
  low: number;
  high: number;
}

/**
 * The Wilson score interval at 95 % of `passes` out of `trials` — sound at 0 and `trials`
 * passes and for the few trials an eval runs, where the normal ("Wald") interval is not.
 * `{ low: 0, high: 1 }` for no trials.
 */
export function wilsonInterval(passes: number, trials: number): Interval {
  if (trials === 0) return { low: 0, high: 1 };
  const p = passes / trials;
  const z2 = Z_95 * Z_95;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half =
    (Z_95 * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** ln(n!) for the hypergeometric probabilities, exact enough for tables of thousands. */
function logFactorial(n: number): number {
  let sum = 0;
  for (let k = 2; k <= n; k += 1) sum += Math.log(k);
  return sum;
}

/**
 * The two-sided p-value of Fisher's exact test of the 2 × 2 table `[[a, b], [c, d]]` (rows: the
 * two conditions; columns: passed, failed): the probability, with the margins fixed, of a table
 * at most as likely as the one observed — as R's `fisher.test` and SciPy's `fisher_exact`
 * compute it (with the same relative tolerance of 1e-7 for ties).
 */
export function fisherExactTest(a: number, b: number, c: number, d: number): number {
  const row1 = a + b;
  const column1 = a + c;
  const n = a + b + c + d;
  const minimum = Math.max(0, column1 - (n - row1));
  const maximum = Math.min(row1, column1);
  const logConstant =
    logFactorial(row1) +
    logFactorial(n - row1) +
    logFactorial(column1) +
    logFactorial(n - column1) -
    logFactorial(n);
  const probability = (x: number) =>
    Math.exp(
      logConstant -
        logFactorial(x) -
        logFactorial(row1 - x) -
        logFactorial(column1 - x) -
        logFactorial(n - row1 - column1 + x),
    );
  const observed = probability(a);
  let p = 0;
  for (let x = minimum; x <= maximum; x += 1) {
    const each = probability(x);
    if (each <= observed * (1 + 1e-7)) p += each;
  }
  return Math.min(1, p);
}

/**
 * Trials per condition needed to tell `p1` from `p2` with a two-sided test at α = 0.05 and 80 %
 * power, by the normal approximation for two proportions (without continuity correction, as
 * R's `power.prop.test` up to the opposite tail it adds): n = (z₀.₉₇₅·√(2p̄q̄) + z₀.₈·√(p₁q₁ + p₂q₂))² / (p₁ − p₂)²,
 * rounded up. `undefined` when the two are equal: no trial count detects no difference.
 */
export function trialsToDetect(p1: number, p2: number): number | undefined {
  if (p1 === p2) return undefined;
  const mean = (p1 + p2) / 2;
  const root =
    Z_95 * Math.sqrt(2 * mean * (1 - mean)) + Z_POWER_80 * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  return Math.ceil((root * root) / ((p1 - p2) * (p1 - p2)));
}

/** What a context condition does against no context, at α = 0.05. */
export type Verdict = "helps" | "hurts" | "no measurable difference";

/** The significance level of the verdicts. */
export const ALPHA = 0.05;

/** A context condition compared with the condition without context. */
export interface Comparison {
  /** Fisher's exact test, two-sided. */
  pValue: number;
  verdict: Verdict;
  /**
   * With no measurable difference, the trials per condition that would detect the observed
   * difference with 80 % power ({@link trialsToDetect}); absent when the rates are equal.
   */
  trialsNeeded?: number;
}

/** Compares `passes`/`trials` under a context condition with `basePasses`/`baseTrials` without. */
export function compareWithBaseline(
  passes: number,
  trials: number,
  basePasses: number,
  baseTrials: number,
): Comparison {
  const pValue = fisherExactTest(passes, trials - passes, basePasses, baseTrials - basePasses);
  const rate = trials === 0 ? 0 : passes / trials;
  const baseRate = baseTrials === 0 ? 0 : basePasses / baseTrials;
  if (pValue < ALPHA) return { pValue, verdict: rate > baseRate ? "helps" : "hurts" };
  const needed = trialsToDetect(rate, baseRate);
  return needed === undefined
    ? { pValue, verdict: "no measurable difference" }
    : { pValue, verdict: "no measurable difference", trialsNeeded: needed };
}
