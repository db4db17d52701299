// The OpenAPI document's examples quote run-context hashes: each must be the one the service
// would put on the item, runContextSha256 of the example's goal, constraints and stage context.
import { examples } from "@task-context/contract";
import { runContextSha256 } from "@task-context/protocols";
import { describe, expect, it } from "vitest";

const { completeExamples, createRunExample, workItemExample } = examples;

describe("the contract's receipt examples", () => {
  it("the work item example's context_sha256 is runContextSha256 of its run context", async () => {
    expect(await runContextSha256(workItemExample)).toBe(workItemExample.context_sha256);
  });

  it("the completion example quotes the draft item's context_sha256", async () => {
    const [draft] = createRunExample.stages;
    const { id: _id, ...stageContext } = draft ?? { id: "" };
    const quoted = completeExamples.find((example) => "context_sha256" in example);
    expect(quoted?.context_sha256).toBe(
      await runContextSha256({
        goal: createRunExample.goal,
        constraints: createRunExample.constraints,
        stage_context: stageContext as never,
      }),
    );
  });
});
