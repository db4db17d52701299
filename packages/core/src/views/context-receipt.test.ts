import { CONTEXT_VIEW_PRESETS, loadTaskContext, memoryWorkspace } from "@task-context/core";
import { contextReceipt } from "@task-context/core/internal";
import { describe, expect, it } from "vitest";

const workspace = memoryWorkspace({
  "CONTEXT.md": "## What we are building\nHarbor.\n\n## Other details\nCents.",
});

describe("contextReceipt", () => {
  it("is the hash alone for the whole file", async () => {
    const context = await loadTaskContext(workspace);
    expect(contextReceipt(context)).toStrictEqual({ contextSha256: context.sha256 });
  });

  it("names the view, its sections and the whole file's hash for a view", async () => {
    const whole = await loadTaskContext(workspace);
    const context = await loadTaskContext(workspace, { view: CONTEXT_VIEW_PRESETS.brief });
    const receipt = contextReceipt(context);
    expect(receipt).toStrictEqual({
      contextSha256: context.sha256,
      contextView: { name: "brief", sections: ["What we are building"], fileSha256: whole.sha256 },
    });
    expect(receipt.contextView?.sections).not.toBe(context.view?.sections);
  });
});
