import { describe, expect, it } from "vitest";
import { selfReviewWarnings } from "./self-review.ts";

const stages = [
  { id: "draft", kind: "task" as const, status: "active" as const },
  { id: "review", kind: "review" as const, reviews: "draft", status: "pending" as const },
];
const a2a = (tag: string, taken: string[]) => ({
  tag,
  a2a: {
    url: "http://agent.test",
    card: { name: tag, supportedInterfaces: [], skills: [] },
    stages: taken,
    concurrency: 1,
    service_url: "http://service.test",
  },
});

describe("selfReviewWarnings", () => {
  it("warns when the one A2A agent of a review stage takes the stage it reviews", () => {
    expect(selfReviewWarnings(stages, [a2a("both", ["draft", "review"])])).toEqual([
      'Stage "review" reviews stage "draft", and the only A2A agent that takes it, "both", takes stage "draft" too: an agent never reviews its own artifact, so the reviews of what "both" writes wait for another agent. Add an A2A agent for stage "review", or a polling agent.',
    ]);
  });

  it("is quiet with a second agent for the review, a reviewer of the review only, or the review done", () => {
    const both = a2a("both", ["draft", "review"]);
    expect(selfReviewWarnings(stages, [both, a2a("critic", ["review"])])).toEqual([]);
    expect(selfReviewWarnings(stages, [a2a("critic", ["review"])])).toEqual([]);
    const done = [stages[0], { ...stages[1], status: "completed" as const }];
    expect(selfReviewWarnings(done as typeof stages, [both])).toEqual([]);
  });
});
