// A run's agents as the database holds them: read by the agent requests' authentication and by
// the A2A dispatcher.
import type {
  A2aAgent,
  A2aEndpoint,
  AgentIdentity,
  StoredAgent,
} from "../delivery/delivery-store.ts";
import { all, type SqlSteps } from "./sql-steps.ts";

/** The run's A2A agents, oldest first. */
export function* readA2aAgents(runId: string): SqlSteps<A2aAgent[]> {
  const rows = yield* all<AgentIdentity & { a2a_endpoint: string }>(
    "SELECT id AS agent_id, tag, a2a_endpoint FROM agents WHERE run_id = ? AND a2a_endpoint IS NOT NULL ORDER BY created_at, id",
    runId,
  );
  return rows.map(({ agent_id, tag, a2a_endpoint }) => ({
    agent_id,
    tag,
    a2a: JSON.parse(a2a_endpoint) as A2aEndpoint,
  }));
}

/** The agent with that id in the run, or undefined. */
export function* readAgent(runId: string, agentId: string): SqlSteps<StoredAgent | undefined> {
  const [agent] = yield* all<StoredAgent>(
    "SELECT id AS agent_id, tag, token_hash FROM agents WHERE run_id = ? AND id = ?",
    runId,
    agentId,
  );
  return agent === undefined ? undefined : { ...agent };
}
