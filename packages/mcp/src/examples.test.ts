import { describe, expect, it, vi } from "vitest";

describe("examples", () => {
  it("in-memory.ts prints the context and the injected prompt", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await import("../examples/in-memory.ts");
      expect(log.mock.calls).toEqual([
        [
          {
            content: "We are building Lumen, a note-taking app.",
            sha256: "c46de95f28fbe812867730386f52e2430752c0e70cb3e2e2d5e3a4af30658ef6",
            truncated: false,
            originalLength: 41,
          },
        ],
        [
          "[Task Context]\nWe are building Lumen, a note-taking app.\n\n[Request]\nDraw the app's icon.",
        ],
      ]);
    } finally {
      log.mockRestore();
    }
  });
});
