import { memoryWorkspace } from "@task-context/core";
import { describe, expect, it, vi } from "vitest";
import {
  contextViewExample,
  headingsExample,
  loadViewExample,
  selectExample,
} from "../../examples/views.ts";

describe("the views examples", () => {
  it("contextHeadings and selectContextView return what their comments say", () => {
    expect(contextViewExample().name).toBe("image-model");
    expect(headingsExample()).toStrictEqual([
      { level: 1, text: "Task context", line: 1 },
      { level: 2, text: "Key terminology", line: 3 },
    ]);
    expect(selectExample()).toStrictEqual({
      content: "## What we are building\nLumen, a notes app.",
      sections: ["What we are building"],
      unknownHeadings: ["Brand rules"],
    });
  });

  it("loads the media view and reports the view that selects nothing", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const { context, prompt } = await loadViewExample(
        memoryWorkspace({
          "CONTEXT.md":
            "# Task context\n\n## What we are building\nLumen.\n\n## Key terminology\nVault.\n\n## Visual and brand guidelines\nTeal.\n\n## Other details\nRun pnpm test.",
        }),
      );
      expect(context.view?.sections).toStrictEqual([
        "What we are building",
        "Key terminology",
        "Visual and brand guidelines",
      ]);
      expect(prompt).toBe(
        "[Task Context]\n## What we are building\nLumen.\n\n## Key terminology\nVault.\n\n## Visual and brand guidelines\nTeal.\n\n[Request]\nA hero image for the App Store page.",
      );
      expect(warn).not.toHaveBeenCalled();
      expect(error).toHaveBeenCalledWith(
        expect.stringMatching(
          /^View "ops" selects nothing of CONTEXT\.md: it includes "Deployment" /,
        ),
      );
    } finally {
      error.mockRestore();
      warn.mockRestore();
    }
  });
});
