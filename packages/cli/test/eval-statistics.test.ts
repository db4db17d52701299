// Reference values from SciPy 1.17 (`scipy.stats.fisher_exact`, `norm.ppf`), the same as R's
// `fisher.test` and `power.prop.test` to the digits asserted.
import { describe, expect, it } from "vitest";
import {
  compareWithBaseline,
  fisherExactTest,
  trialsToDetect,
  wilsonInterval,
} from "../src/eval/statistics.ts";

describe("fisherExactTest", () => {
  it.each([
    [[3, 1, 1, 3], 0.48571428571428565],
    [[10, 0, 0, 10], 1.082508822446903e-5],
    [[6, 2, 1, 4], 0.10256410256410256],
    [[9, 1, 2, 8], 0.005477494641581328],
    [[18, 2, 11, 9], 0.030950305143853538],
    [[0, 5, 0, 5], 1],
  ])("gives SciPy's two-sided p-value for %j", (table, expected) => {
    const [a, b, c, d] = table as [number, number, number, number];
    expect(fisherExactTest(a, b, c, d)).toBeCloseTo(expected, 12);
    // The test is symmetric in the rows.
    expect(fisherExactTest(c, d, a, b)).toBeCloseTo(expected, 12);
  });
});

describe("wilsonInterval", () => {
  it.each([
    [0, 10, 0, 0.2775327998628892],
    [5, 10, 0.236593090512564, 0.7634069094874361],
    [9, 10, 0.5958499732047615, 0.9821237869049271],
    [10, 10, 0.7224672001371107, 1],
    [18, 20, 0.6989663547715128, 0.9721335187862319],
  ])("of %i passes in %i trials is [%f, %f]", (passes, trials, low, high) => {
    const interval = wilsonInterval(passes, trials);
    expect(interval.low).toBeCloseTo(low, 12);
    expect(interval.high).toBeCloseTo(high, 12);
  });

  it("is the whole range without trials", () => {
    expect(wilsonInterval(0, 0)).toStrictEqual({ low: 0, high: 1 });
  });
});

describe("trialsToDetect", () => {
  it.each([
    [0.5, 0.7, 93], // 92.9988 (R's power.prop.test: 92.99)
    [0.2, 0.5, 39], // 38.4800
    [0.9, 0.8, 199], // 198.9634
  ])("needs, to tell %f from %f, %i trials per condition", (p1, p2, trials) => {
    expect(trialsToDetect(p1, p2)).toBe(trials);
    expect(trialsToDetect(p2, p1)).toBe(trials);
  });

  it("has no answer for equal rates", () => {
    expect(trialsToDetect(0.4, 0.4)).toBeUndefined();
  });
});

describe("compareWithBaseline", () => {
  it("says the context helps when it passes significantly more", () => {
    expect(compareWithBaseline(9, 10, 2, 10)).toStrictEqual({
      pValue: fisherExactTest(9, 1, 2, 8),
      verdict: "helps",
    });
  });

  it("says the context hurts when it passes significantly less", () => {
    expect(compareWithBaseline(0, 10, 10, 10).verdict).toBe("hurts");
  });

  it("says how many trials a difference it cannot yet measure needs", () => {
    expect(compareWithBaseline(7, 10, 5, 10)).toStrictEqual({
      pValue: fisherExactTest(7, 3, 5, 5),
      verdict: "no measurable difference",
      trialsNeeded: 93,
    });
  });

  it("gives no trial count when the rates are the same", () => {
    expect(compareWithBaseline(5, 10, 5, 10)).toStrictEqual({
      pValue: 1,
      verdict: "no measurable difference",
    });
  });
});
