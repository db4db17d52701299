import { DeliveryError } from "../delivery/delivery-error.ts";
import type { AgentIdentity, IdempotencyKey } from "../delivery/delivery-store.ts";
import type { RunState } from "./run-state.ts";
import type { SqlDatabase } from "./sql-database.ts";

/**
 * Runs `operation` once per idempotency key of the agent in the run: the same key and request
 * answer the stored answer; the same key with another request is refused
 * (`IDEMPOTENCY_KEY_REUSED`). Without a key, it just runs.
 */
export function runIdempotent<T>(
  database: SqlDatabase,
  state: RunState,
  agent: AgentIdentity,
  idempotency: IdempotencyKey | undefined,
  operation: () => T,
): T {
  if (idempotency === undefined) return operation();
  const [stored] = database.all<{ request_hash: string; response: string }>(
    "SELECT request_hash, response FROM idempotency_keys WHERE run_id = ? AND agent_id = ? AND key = ?",
    state.run.id,
    agent.agent_id,
    idempotency.key,
  );
  if (stored !== undefined) {
    if (stored.request_hash === idempotency.requestHash) return JSON.parse(stored.response) as T;
    throw new DeliveryError({
      code: "IDEMPOTENCY_KEY_REUSED",
      message: `Idempotency-Key "${idempotency.key}" was already used for another request. Use a new key for a new request, or resend the first request unchanged.`,
    });
  }
  const response = operation();
  database.run(
    "INSERT INTO idempotency_keys (run_id, agent_id, key, request_hash, response) VALUES (?, ?, ?, ?, ?)",
    state.run.id,
    agent.agent_id,
    idempotency.key,
    idempotency.requestHash,
    JSON.stringify(response),
  );
  return response;
}
