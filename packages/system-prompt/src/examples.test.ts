// The examples in examples/ are what the README, the docs and the TSDoc show (kept in step by
// scripts/sync-examples.mjs) and are type-checked with the package. These tests run the ones that
// show an outcome and check that it is what their comments say.
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("examples/measure-system-prompt.ts", () => {
  it("logs the sections in prompt order, then the whole prompt's count and the tokenizer", async () => {
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await import("../examples/measure-system-prompt.ts");
    expect(logged).toHaveBeenCalledTimes(2);
    const [[sections], [tokens, tokenizer]] = logged.mock.calls as [[unknown], [unknown, unknown]];
    expect(sections).toEqual([
      { id: "base", tokens: 6 },
      { id: "task-context", tokens: expect.any(Number) },
      { id: "context-protocol", tokens: expect.any(Number) },
    ]);
    const sum = (sections as { tokens: number }[]).reduce((total, { tokens }) => total + tokens, 0);
    expect(tokens).toBeGreaterThanOrEqual(sum);
    expect(tokenizer).toBe("o200k_base");
  });
});

describe("examples/argument-errors.ts", () => {
  it("logs the option's name and the ArgumentError's message", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await import("../examples/argument-errors.ts");
    expect(logged.mock.calls).toEqual([
      [
        "maxContextChars",
        "Invalid maxContextChars: expected a whole number ≥ 1, got a number (0).",
      ],
    ]);
  });
});
