import { describe, expect, it } from "vitest";
import * as onNode from "./index.node.ts";
import * as everywhere from "./index.ts";

describe("entry points", () => {
  it("the node condition exports exactly the names of the default one, which its types describe", () => {
    expect(Object.keys(onNode).sort()).toEqual(Object.keys(everywhere).sort());
  });

  it("loadTaskContext(directory) on a runtime without a file system says to pass a Workspace", async () => {
    await expect(everywhere.loadTaskContext("/srv/agents/run-42")).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message:
        "Invalid workspace: a directory path needs a file system, which this runtime does not offer through task-context. Pass a Workspace, such as memoryWorkspace().",
    });
  });
});
