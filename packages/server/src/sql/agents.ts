import { DeliveryError } from "../delivery/delivery-error.ts";
import type { StoredAgent } from "../delivery/delivery-store.ts";
import type { RunState } from "./run-state.ts";
import type { SqlDatabase } from "./sql-database.ts";

/** Adds an agent to the run; `AGENT_TAG_TAKEN` when another agent of the run has its tag. */
export function insertAgent(database: SqlDatabase, state: RunState, agent: StoredAgent): void {
  const runId = state.run.id;
  const taken = database.all("SELECT 1 FROM agents WHERE run_id = ? AND tag = ?", runId, agent.tag);
  if (taken.length > 0) {
    throw new DeliveryError({
      code: "AGENT_TAG_TAKEN",
      message: `The run already has an agent tagged "${agent.tag}". Choose another tag.`,
    });
  }
  database.run(
    "INSERT INTO agents (run_id, id, tag, token_hash, created_at) VALUES (?, ?, ?, ?, ?)",
    runId,
    agent.agent_id,
    agent.tag,
    agent.token_hash,
    state.now,
  );
}

/** The agent with that id in the run, or undefined. */
export function readAgent(
  database: SqlDatabase,
  runId: string,
  agentId: string,
): StoredAgent | undefined {
  const [agent] = database.all<StoredAgent>(
    "SELECT id AS agent_id, tag, token_hash FROM agents WHERE run_id = ? AND id = ?",
    runId,
    agentId,
  );
  return agent === undefined ? undefined : { ...agent };
}
