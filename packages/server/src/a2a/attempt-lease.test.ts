import { describe, expect, it } from "vitest";
import { AttemptLease, STUCK_LEASES } from "./attempt-lease.ts";

const start = Date.UTC(2026, 10, 20, 10, 0, 0);

/** A lease of 60 s claimed at `start`, on a clock the test moves. */
function lease(leaseMs = 60_000) {
  let now = start;
  const held = new AttemptLease(() => now, leaseMs, new Date(start + leaseMs).toISOString());
  return {
    held,
    at: (ms: number) => {
      now = start + ms;
    },
  };
}

const working = (said: string, streamed = false) => ({ said, working: true, streamed });

describe("AttemptLease", () => {
  it("gives a silent attempt up a quarter of the lease before its end, at most 5 s before", () => {
    expect(lease(60_000).held.giveUpAt()).toBe(start + 55_000);
    expect(lease(400).held.giveUpAt()).toBe(start + 300);
    const { held, at } = lease();
    at(54_999);
    expect(held.silent()).toBe(false);
    at(55_000);
    expect(held.silent()).toBe(true);
  });

  it("renews on any working, at most once per quarter of a lease; submitted renews nothing", () => {
    const { held, at } = lease();
    at(10_000);
    expect(held.observe(working("a"))).toBe("wait");
    at(15_000);
    expect(held.observe({ said: "s", working: false, streamed: false })).toBe("wait");
    expect(held.observe(working("a"))).toBe("beat");
    held.renewed(new Date(start + 75_000).toISOString());
    expect(held.giveUpAt()).toBe(start + 70_000);
    at(20_000);
    expect(held.observe(working("b", true))).toBe("wait");
    at(30_000);
    expect(held.observe(working("b", true))).toBe("beat");
  });

  it("gives a polled task up as stuck once it has said the same working for five leases", () => {
    const { held, at } = lease();
    expect(held.observe(working("same"))).toBe("wait");
    at(STUCK_LEASES * 60_000 - 1);
    expect(held.observe(working("same"))).toBe("beat");
    at(STUCK_LEASES * 60_000);
    expect([held.observe(working("same")), held.unchangedMs()]).toEqual(["stuck", 300_000]);
    expect(held.observe(working("news"))).toBe("beat");
  });

  it("never finds a streamed task stuck: each update is news", () => {
    const { held, at } = lease();
    at(10 * 60_000);
    expect(held.observe(working("same", true))).toBe("beat");
  });
});
