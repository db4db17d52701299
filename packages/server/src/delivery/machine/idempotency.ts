// Idempotency keys: a completion or failure sent again with the same `Idempotency-Key` and the
// same request answers the first answer again and changes nothing; with another request it is
// refused (`IDEMPOTENCY_KEY_REUSED`).
import { DeliveryError } from "../delivery-error.ts";
import type { AgentIdentity, IdempotencyKey } from "../delivery-store.ts";
import type { Draft } from "./draft.ts";
import { idempotencyKeyOf } from "./run-state.ts";

/**
 * The answer the run gave to this key of the agent, when it gave one to the same request;
 * undefined when the key is new (or there is none). `IDEMPOTENCY_KEY_REUSED` for the key of
 * another request.
 */
export function answered(
  draft: Draft,
  agent: AgentIdentity,
  idempotency: IdempotencyKey | undefined,
): unknown {
  if (idempotency === undefined) return undefined;
  const stored = draft.state.idempotency.get(idempotencyKeyOf(agent.agent_id, idempotency.key));
  if (stored === undefined) return undefined;
  if (stored.request_hash === idempotency.requestHash) return stored.response;
  throw new DeliveryError({
    code: "IDEMPOTENCY_KEY_REUSED",
    message: `Idempotency-Key "${idempotency.key}" was already used for another request. Use a new key for a new request, or resend the first request unchanged.`,
  });
}

/** Keeps the answer to the key (none: nothing to keep). */
export function rememberAnswer(
  draft: Draft,
  agent: AgentIdentity,
  idempotency: IdempotencyKey | undefined,
  response: unknown,
): void {
  if (idempotency === undefined) return;
  draft.write({
    type: "insertIdempotencyKey",
    agent_id: agent.agent_id,
    key: idempotency.key,
    request_hash: idempotency.requestHash,
    response,
  });
}
