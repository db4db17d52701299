import { describe, expect, it } from "vitest";
import * as onNode from "./index.node.ts";
import * as tools from "./index.ts";
import { requireSupportedNode } from "./require-supported-node.ts";

describe("the Node entry point", () => {
  it("exports every value the package exports, the same objects", () => {
    expect(Object.entries(onNode).sort()).toEqual(Object.entries(tools).sort());
  });
});

describe("requireSupportedNode", () => {
  it("refuses Node 20 with UNSUPPORTED_RUNTIME and a message that names the requirement", () => {
    let thrown: unknown;
    try {
      requireSupportedNode("20.20.2");
    } catch (error) {
      thrown = error;
    }
    expect(tools.UnsupportedRuntimeError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: "UNSUPPORTED_RUNTIME",
      nodeVersion: "20.20.2",
      message:
        "@task-context/media-tools needs Node 22 or later (the AI SDK 7 it builds on needs it), and this is Node 20.20.2. Run on Node 22 or later, then reinstall so that npm picks AI SDK 7 (on Node 20 it installs AI SDK 6, which lacks functions the tools use).",
    });
  });

  it("accepts Node 22 and later, and runtimes that report no Node version", () => {
    for (const version of ["22.0.0", "24.21.0", "26.3.0", undefined]) {
      expect(() => requireSupportedNode(version), String(version)).not.toThrow();
    }
  });
});
