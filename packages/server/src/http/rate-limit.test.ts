import { describe, expect, it } from "vitest";
import { manualClock } from "../../test/contract/harness.ts";
import {
  addressKey,
  createRateLimiter,
  memoryRateLimiter,
  overflowKey,
  tokenKey,
} from "./rate-limit.ts";

const limit = { requests: 3, windowMs: 10_000 };
const admin = (sha256: string) => ({ sha256, caller: { role: "admin" as const } });

describe("createRateLimiter", () => {
  it("lets `requests` through per key and window, then tells how long to wait", () => {
    const clock = manualClock();
    const limited = createRateLimiter(limit, clock.now);
    expect([limited(["a"]), limited(["a"]), limited(["a"])]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    clock.advance(2_500);
    expect(limited(["a"])).toBe(8);
    expect(limited(["b"])).toBeUndefined();
    clock.advance(7_500);
    expect(limited(["a"])).toBeUndefined();
  });

  it("counts a request for every key it names, and refuses it when any is over", () => {
    const limited = createRateLimiter(limit, manualClock().now);
    for (let index = 0; index < 3; index++) expect(limited(["a"])).toBeUndefined();
    expect(limited(["b", "a"])).toBe(10);
    expect([limited(["b"]), limited(["b"]), limited(["b"])]).toEqual([undefined, undefined, 10]);
  });

  it("counts every key beyond the cap in one overflow bucket with the same limit, until the window ends", () => {
    const clock = manualClock();
    const limited = createRateLimiter(limit, clock.now, 2);
    for (let index = 0; index < 3; index++) expect(limited(["a"])).toBeUndefined();
    expect(limited(["b"])).toBeUndefined();
    // The table is full: new keys share one count.
    expect([limited(["c"]), limited(["d"]), limited(["e"]), limited(["f"])]).toEqual([
      undefined,
      undefined,
      undefined,
      10,
    ]);
    expect(limited([overflowKey])).toBe(10);
    // Keys already counted keep their own counts: a flood of new keys neither resets nor frees them.
    expect(limited(["a"])).toBe(10);
    expect([limited(["b"]), limited(["b"]), limited(["b"])]).toEqual([undefined, undefined, 10]);
    clock.advance(10_000);
    expect([limited(["c"]), limited(["d"]), limited(["e"])]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("memoryRateLimiter", () => {
  it("keys a token by its SHA-256 and an address by itself, never by the token as sent", async () => {
    const sha256 = "a".repeat(64);
    expect(tokenKey(admin(sha256))).toBe(`token:${sha256}`);
    expect(addressKey("192.0.2.1")).toBe("address:192.0.2.1");
    const limited = memoryRateLimiter(limit, manualClock().now);
    for (let index = 0; index < 3; index++) {
      expect(await limited({ token: admin(sha256), address: undefined })).toBeUndefined();
    }
    expect(await limited({ token: admin(sha256), address: undefined })).toBe(10);
    expect(await limited({ token: admin("b".repeat(64)), address: undefined })).toBeUndefined();
    expect(await limited({ token: undefined, address: "192.0.2.1" })).toBeUndefined();
    expect(await limited({ token: undefined, address: undefined })).toBeUndefined();
  });
});
