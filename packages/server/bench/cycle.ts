// What the benchmarks of the service are made of: a run of one task stage, and the body of a
// completion.

import type { CreateRunInput, RunView } from "@task-context/contract";
import type { createApp } from "../src/app.ts";

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

/** The admin's headers on the benchmarks' services. */
export const benchAdminHeaders = {
  Authorization: `Bearer ${benchAdminToken}`,
  "Content-Type": "application/json",
};

/**
 * Creates `run` through the app and adds one agent: the run's id and the agent's headers.
 */
export async function createBenchRun(
  app: ReturnType<typeof createApp>,
  run: CreateRunInput,
): Promise<{ runId: string; agentHeaders: Record<string, string> }> {
  const created = await app.request("/v1/runs", {
    method: "POST",
    headers: benchAdminHeaders,
    body: JSON.stringify(run),
  });
  const { run_id: runId } = (await created.json()) as RunView;
  const added = await app.request(`/v1/runs/${runId}/agents`, {
    method: "POST",
    headers: benchAdminHeaders,
    body: JSON.stringify({ tag: "agent" }),
  });
  const { token } = (await added.json()) as { token: string };
  return {
    runId,
    agentHeaders: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
  };
}
