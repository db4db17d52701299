// A run's agents as the database holds them: read by the agent requests' authentication and by
// the A2A dispatcher.

import type { AgentCredential } from "../a2a/card-credentials.ts";
import type {
  A2aAgent,
  A2aEndpoint,
  AgentIdentity,
  StoredAgent,
} from "../delivery/delivery-store.ts";
import { all, type SqlSteps } from "./sql-steps.ts";

/**
 * An A2A agent's columns: its endpoint, and its credentials apart (only {@link readA2aAgents}
 * reads them back); both NULL for an agent that polls.
 */
export function a2aColumns(endpoint: A2aEndpoint | undefined): {
  a2a_endpoint: string | null;
  a2a_credentials: string | null;
} {
  if (endpoint === undefined) return { a2a_endpoint: null, a2a_credentials: null };
  const { credentials, ...shown } = endpoint;
  return {
    a2a_endpoint: JSON.stringify(shown),
    a2a_credentials:
      credentials === undefined || credentials.length === 0 ? null : JSON.stringify(credentials),
  };
}

/** The run's A2A agents, oldest first, with their credentials: the dispatcher's read. */
export function* readA2aAgents(runId: string): SqlSteps<A2aAgent[]> {
  const rows = yield* all<AgentIdentity & { a2a_endpoint: string; a2a_credentials: string | null }>(
    "SELECT id AS agent_id, tag, a2a_endpoint, a2a_credentials FROM agents WHERE run_id = ? AND a2a_endpoint IS NOT NULL ORDER BY created_at, id",
    runId,
  );
  return rows.map(({ agent_id, tag, a2a_endpoint, a2a_credentials }) => ({
    agent_id,
    tag,
    a2a: {
      ...(JSON.parse(a2a_endpoint) as A2aEndpoint),
      ...(a2a_credentials === null
        ? {}
        : { credentials: JSON.parse(a2a_credentials) as AgentCredential[] }),
    },
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
