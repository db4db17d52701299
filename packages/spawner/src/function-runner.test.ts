import { memoryWorkspace } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { functionRunner } from "./function-runner.ts";

describe("functionRunner", () => {
  it("passes the invocation to the function and its answer back as output", async () => {
    const controller = new AbortController();
    const invocation = {
      id: "a",
      subagentType: "fix" as const,
      prompt: "Fix it.",
      workspace: memoryWorkspace(),
      directory: "/tmp/a",
      contextFile: ".sage/context/a.xml",
      contextSha256: "0".repeat(64),
      signal: controller.signal,
    };
    const runner = functionRunner((received) => {
      expect(received).toBe(invocation);
      return { status: "success", summary: received.prompt, "files-modified": [] };
    });
    expect(runner.name).toBe("function");
    expect(await runner.run(invocation)).toEqual({
      output: { status: "success", summary: "Fix it.", "files-modified": [] },
    });
  });
});
