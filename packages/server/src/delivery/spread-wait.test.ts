import { describe, expect, it } from "vitest";
import { MAX_SPREAD_MS, spreadWait } from "./spread-wait.ts";

describe("spreadWait", () => {
  it("ends a wait up to 10 % sooner, at most 3 s, never later", () => {
    expect(spreadWait(30_000, () => 0)).toBe(30_000);
    expect(spreadWait(30_000, () => 0.5)).toBe(28_500);
    expect(spreadWait(30_000, () => 0.999_999)).toBe(27_001);
    expect(spreadWait(60_000, () => 0.999_999)).toBe(60_000 - MAX_SPREAD_MS + 1);
    expect(spreadWait(1_000, () => 0.5)).toBe(950);
    expect(spreadWait(0, () => 0.5)).toBe(0);
  });

  it("spreads waits that began together over the last tenth of their time", () => {
    let seed = 1;
    const random = () => {
      seed = (seed * 16_807) % 2_147_483_647;
      return (seed - 1) / 2_147_483_646;
    };
    const ends = Array.from({ length: 500 }, () => spreadWait(30_000, random));
    expect(Math.min(...ends)).toBeGreaterThanOrEqual(27_000);
    expect(Math.max(...ends)).toBeLessThanOrEqual(30_000);
    // Spread, not bunched: no 100 ms of the 3 s holds more than 10 % of them.
    const perSlot = new Map<number, number>();
    for (const end of ends)
      perSlot.set(Math.floor(end / 100), (perSlot.get(Math.floor(end / 100)) ?? 0) + 1);
    expect(Math.max(...perSlot.values())).toBeLessThanOrEqual(50);
  });
});
