import { describe, expect, it, vi } from "vitest";

describe("examples", () => {
  it("in-memory.ts prints the context and the injected prompt", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const { result, injected } = await import("../examples/in-memory.ts");
      expect(result.structuredContent).toEqual({
        content: "We are building Lumen, a note-taking app.",
        sha256: "c46de95f28fbe812867730386f52e2430752c0e70cb3e2e2d5e3a4af30658ef6",
        truncated: false,
        originalLength: 41,
      });
      expect((injected.structuredContent as { text: string }).text).toBe(
        "[Task Context]\nWe are building Lumen, a note-taking app.\n\n[Request]\nDraw the app's icon.",
      );
      expect(log).toHaveBeenCalledTimes(2);
    } finally {
      log.mockRestore();
    }
  });
});
