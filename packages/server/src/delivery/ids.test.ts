import fc from "fast-check";
import { decodeTime } from "ulid";
import { describe, expect, it, vi } from "vitest";
import { constantTimeEqual, isId, newAgentToken, newId, parseAgentToken } from "./ids.ts";

describe("ids and agent tokens", () => {
  it("makes random URL-safe ids with their prefix", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId("run")));
    expect(ids.size).toBe(1000);
    for (const id of ids) {
      expect(id).toMatch(/^run_[0-9a-hjkmnp-tv-z]{26}$/);
      expect(isId("run", id)).toBe(true);
      expect(isId("wi", id)).toBe(false);
    }
  });

  it("makes ids that carry their time, so that later ids sort after earlier ones", () => {
    const now = Date.UTC(2026, 10, 20, 10, 0, 0);
    vi.useFakeTimers({ toFake: ["Date"], now });
    try {
      const first = newId("art");
      vi.setSystemTime(now + 1);
      const second = newId("art");
      expect(first < second).toBe(true);
      expect(decodeTime(first.slice("art_".length).toUpperCase())).toBe(now);
      expect(decodeTime(second.slice("art_".length).toUpperCase())).toBe(now + 1);
    } finally {
      vi.useRealTimers();
    }
    // Within one millisecond, 80 random bits tell them apart.
    const sameMillisecond = Array.from({ length: 200 }, () => newId("wi"));
    expect(new Set(sameMillisecond.map((id) => id.slice(13))).size).toBe(200);
  });

  it("makes tokens that name their run and agent, and parses them back", () => {
    const runId = newId("run");
    const agentId = newId("agt");
    const token = newAgentToken(runId, agentId);
    expect(token).toMatch(/^tc_run_\w{26}_agt_\w{26}_[A-Za-z0-9_-]{43}$/);
    expect(parseAgentToken(token)).toEqual({ runId, agentId, secret: token.slice(-43) });
    expect(newAgentToken(runId, agentId)).not.toBe(token);
  });

  it("parses nothing from strings that are not tokens", () => {
    const runId = newId("run");
    const agentId = newId("agt");
    for (const value of [
      "",
      "tc_",
      `tc_${runId}_${agentId}_`,
      `tc_${runId}_${agentId}_${"a".repeat(42)}`,
      `tc_${runId}_${agentId}_${"a".repeat(44)}`,
      `tc_${runId}_${agentId}_${"a".repeat(42)}=`,
      `xx_${runId}_${agentId}_${"a".repeat(43)}`,
      `tc_${agentId}_${runId}_${"a".repeat(43)}`,
      `tc_${runId}_${agentId}_${"a".repeat(43)}\n`,
      "x".repeat(100_000),
    ]) {
      expect(parseAgentToken(value)).toBeUndefined();
    }
    fc.assert(
      fc.property(fc.string(), (value) => {
        const parsed = parseAgentToken(value);
        return (
          parsed === undefined || value === `tc_${parsed.runId}_${parsed.agentId}_${parsed.secret}`
        );
      }),
    );
  });

  it("compares strings exactly, whatever their lengths", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (left, right) => {
        expect(constantTimeEqual(left, right)).toBe(left === right);
        expect(constantTimeEqual(left, left)).toBe(true);
      }),
    );
    expect(constantTimeEqual("abc", "abc\u0000")).toBe(false);
    expect(constantTimeEqual("", "")).toBe(true);
  });
});
