import { ArgumentError, checkReceipt, loadTaskContext, memoryWorkspace } from "@task-context/core";
import { describe, expect, it } from "vitest";

const OLD = "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";
const CURRENT = "fc8d83d4670e8b81eed758493ffa4286e86252985bb99c302fb38a3784c713dc";

describe("checkReceipt", () => {
  it("is current when the quote is the current hash, in any case", () => {
    expect(
      checkReceipt({ quoted: CURRENT, current: CURRENT, recipient: "generate_image" }),
    ).toEqual({ status: "current", quoted: CURRENT, current: CURRENT });
    expect(
      checkReceipt({ quoted: CURRENT.toUpperCase(), current: CURRENT, recipient: "x" }),
    ).toEqual({ status: "current", quoted: CURRENT, current: CURRENT });
  });

  it("is stale with one warning sentence when the quote differs", () => {
    expect(
      checkReceipt({ quoted: OLD, current: CURRENT, recipient: 'subagent "review-1"' }),
    ).toEqual({
      status: "stale",
      quoted: OLD,
      current: CURRENT,
      warning:
        'Stale context: subagent "review-1" worked from context sha256 2c26b46b68ff…, but the current context is sha256 fc8d83d4670e…; check its result against the current context.',
    });
  });

  it("warns of nothing when the quote is absent or not a SHA-256 hash", () => {
    for (const quoted of [
      undefined,
      null,
      "",
      "abc",
      `${OLD}0`,
      42,
      { sha256: OLD },
      "g".repeat(64),
    ]) {
      expect(checkReceipt({ quoted, current: CURRENT, recipient: "x" })).toEqual({
        status: "unquoted",
        current: CURRENT,
      });
    }
  });

  it("compares with the hash loadTaskContext reports, as the documented example shows", async () => {
    const { sha256 } = await loadTaskContext(
      memoryWorkspace({ "CONTEXT.md": "Lumen: notes app. Tone: calm." }),
    );
    expect(sha256).toBe(CURRENT);
    expect(checkReceipt({ quoted: OLD, current: sha256, recipient: "x" }).status).toBe("stale");
  });

  it("refuses a current hash or recipient the caller got wrong", () => {
    expect(() => checkReceipt({ quoted: OLD, current: "not-a-hash", recipient: "x" })).toThrow(
      new ArgumentError({
        argument: "current",
        message:
          "expected a SHA-256 hex string (64 hexadecimal digits), got a string of 10 characters.",
      }),
    );
    expect(() => checkReceipt({ quoted: OLD, current: CURRENT, recipient: "" })).toThrow(
      "Invalid recipient: expected a non-empty string, got the empty string.",
    );
    expect(() => checkReceipt(undefined as never)).toThrow(ArgumentError);
  });
});
