// A run's agents as GET /v1/runs/{run_id}/agents shows them: each with the stages it may take,
// and an A2A agent with its card's endpoint and its last failed attempts (the reasons the A2A
// dispatcher recorded with each failure), read in one batch.
import type { A2aEndpoint, AgentFailure, AgentListing } from "../../delivery/delivery-store.ts";
import { defineRunRead } from "../define-read.ts";
import { batch } from "../sql-steps.ts";

interface FailureRow {
  agent_id: string;
  work_item_id: string;
  attempt: number;
  ended_at: number;
  reason: string | null;
}

/**
 * The agents of the run, in the order they were added, each A2A agent with its last `failures`
 * failed attempts, newest first.
 */
export const agentList = defineRunRead(function* (state, { failures }: { failures: number }) {
  const runId = state.run.id;
  const [endpoints, failed] = yield* batch<unknown>([
    {
      kind: "all",
      sql: "SELECT id AS agent_id, a2a_endpoint FROM agents WHERE run_id = ? AND a2a_endpoint IS NOT NULL",
      params: [runId],
    },
    {
      kind: "all",
      sql: `SELECT agent_id, work_item_id, attempt, ended_at, reason FROM (
          SELECT agent_id, work_item_id, attempt, ended_at, reason, ROW_NUMBER() OVER (
            PARTITION BY agent_id ORDER BY ended_at DESC, work_item_id DESC, attempt DESC) AS recent
          FROM attempts WHERE run_id = ? AND outcome = 'failed'
        ) AS failures WHERE recent <= ? ORDER BY agent_id, recent`,
      params: [runId, failures],
    },
  ]);
  const endpointOf = new Map(
    (endpoints as { agent_id: string; a2a_endpoint: string }[]).map((row) => [
      row.agent_id,
      JSON.parse(row.a2a_endpoint) as A2aEndpoint,
    ]),
  );
  const failuresOf = new Map<string, AgentFailure[]>();
  for (const row of failed as FailureRow[]) {
    const list = failuresOf.get(row.agent_id) ?? [];
    list.push({
      at: Number(row.ended_at),
      work_item_id: row.work_item_id,
      attempt: Number(row.attempt),
      reason: row.reason ?? "",
    });
    failuresOf.set(row.agent_id, list);
  }
  const everyStage = state.stages.map(({ id }) => id);
  return [...state.agents.values()].map(({ agent_id, tag, a2a_stages }): AgentListing => {
    const endpoint = endpointOf.get(agent_id);
    return {
      agent_id,
      tag,
      stages: [...(a2a_stages ?? everyStage)],
      ...(endpoint === undefined
        ? {}
        : { a2a: { endpoint, failures: failuresOf.get(agent_id) ?? [] } }),
    };
  });
});
