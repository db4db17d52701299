// The examples in examples/ are what the README, the docs and the TSDoc show (kept in step by
// scripts/sync-examples.mjs) and are type-checked with the package. These tests run them as
// written, with the SDK's own model provider hook answering for "gpt-5-mini" (a model that
// delegates) and a memory workspace in place of the directory.
import { setDefaultModelProvider } from "@openai/agents";
import { memoryWorkspace, type Workspace } from "@task-context/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CONTEXT, MEDIA_VIEW as MEDIA, sha256 } from "./test-support/fixtures.ts";
import { delegate, StandInModel } from "./test-support/stand-in-model.ts";

const standIn = vi.hoisted(() => ({ workspace: undefined as Workspace | undefined }));
vi.mock("@task-context/core/node", () => ({ nodeWorkspace: () => standIn.workspace }));

let model: StandInModel;
beforeEach(() => {
  standIn.workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT });
  model = new StandInModel(delegate);
  setDefaultModelProvider({ getModel: async () => model });
  vi.resetModules();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("the examples", () => {
  it("launch-team.ts prints each delivery's receipt, then the writer's answer", async () => {
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await import("../examples/launch-team.ts");
    expect(logged.mock.calls).toEqual([
      [`Writer (handoff): CONTEXT.md ${sha256(CONTEXT)}`],
      [`Illustrator (agent-tool): media ${sha256(MEDIA)}`],
      [`Received ${CONTEXT.length} characters of task context.`],
    ]);
  });

  it("handoff.ts hands over to the writer, who receives CONTEXT.md", async () => {
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await import("../examples/handoff.ts");
    expect(logged.mock.calls).toEqual([[`Received ${CONTEXT.length} characters of task context.`]]);
  });

  it("agent-tool.ts gives the illustrator the media view with its request", async () => {
    const logged = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await import("../examples/agent-tool.ts");
    const illustrated = model.requests.find((request) =>
      request.systemInstructions?.startsWith("You describe"),
    );
    expect(illustrated?.input).toEqual([
      expect.objectContaining({
        role: "user",
        content: `[Task Context]\n${MEDIA}\n\n[Request]\nWe need a hero image.`,
      }),
    ]);
    expect(logged.mock.calls).toEqual([["Received 0 characters of task context."]]);
  });
});
