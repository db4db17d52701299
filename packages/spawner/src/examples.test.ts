// The examples in examples/ are what the README, the docs and the TSDoc show (kept in step by
// scripts/sync-examples.mjs) and are type-checked with the package. These tests run the ones that
// work without a model or a real directory, and check that they do what their comments say.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ContextReadOnlyError } from "./errors/context-read-only-error.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("examples/read-only-context.ts", () => {
  it("writes notes.md and logs the ContextReadOnlyError of the write to CONTEXT.md", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await import("../examples/read-only-context.ts");
    expect(logged).toHaveBeenCalledTimes(1);
    const error: unknown = logged.mock.calls[0]?.[0];
    expect(ContextReadOnlyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: "CONTEXT_READ_ONLY",
      path: "CONTEXT.md",
      message: expect.stringMatching(/^Refused to write "CONTEXT\.md": CONTEXT\.md is read-only /),
    });
  });
});
