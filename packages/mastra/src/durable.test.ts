import { createDurableAgent } from "@mastra/core/agent/durable";
import { injectTaskContext, memoryWorkspace } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { delegationRequest, taskContextDelegation } from "./task-context-delegation.ts";
import { CONTEXT, sha256, team } from "./test-support/fixtures.ts";
import { call, transcript } from "./test-support/stand-in-model.ts";

describe("taskContextDelegation in a durable agent", () => {
  it("delivers to the sub-agent of a durable supervisor: instructions, request context, receipt", async () => {
    const { supervisor, illustratorModel, seen } = team(
      call("agent-illustrator", { prompt: "A hero image." }),
    );
    const durable = createDurableAgent({ agent: supervisor });

    const result = await durable.generate("We need a hero image.", {
      delegation: taskContextDelegation({ workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT }) }),
    });

    expect(result.text).toBe("Done.");
    expect(transcript(illustratorModel.prompts()[0] ?? [])[0]).toEqual({
      role: "system",
      text: `You describe images.\n\n${injectTaskContext(delegationRequest("illustrator", "Supervisor"), CONTEXT)}`,
    });
    const receipt = {
      primitiveId: "illustrator",
      primitiveType: "agent",
      contextSha256: sha256(CONTEXT),
    };
    expect(seen).toEqual([{ content: CONTEXT, receipt }]);
    // What a durable run snapshots of its request context, for the process that resumes it.
    expect(JSON.parse(JSON.stringify(seen))).toEqual(seen);
  });
});
