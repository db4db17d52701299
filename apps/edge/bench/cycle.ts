// What the benchmarks of the service are made of: a run of one task stage, and the body of a
// completion.
import type { CreateRunInput } from "../src/contract/schemas.ts";

/** The admin token of the benchmarks' services. */
export const benchAdminToken = "bench-admin-token-0123456789abcdef";

/** A run of one task stage of `items` items, with leases that outlast a benchmark. */
export function benchRun(items: number): CreateRunInput {
  return {
    goal: "Measure the delivery service",
    constraints: ["Answer fast"],
    stages: [
      {
        id: "work",
        stage_description: "Write a short result",
        expected_output: "Markdown",
        available_skills: ["write_file"],
        items,
      },
    ],
    lease_ms: 3_600_000,
  };
}

/** What a completion carries: a 512-character Markdown artifact. */
export const completeBody = (attempt: number) => ({
  attempt,
  artifact: {
    media_type: "text/markdown",
    title: "Result",
    content: "# Result\n\n".padEnd(512, "x"),
  },
});
