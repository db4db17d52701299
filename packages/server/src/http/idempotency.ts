import { sha256Hex } from "@task-context/core/internal";
import type { IdempotencyKey } from "../delivery/delivery-store.ts";

/**
 * An idempotency key with a hash of what it is sent with: the operation (`complete`, `fail`),
 * the work item and the checked body (keys in schema order). Every entry (the HTTP header, the
 * MCP tools' `idempotency_key`, an A2A message's id) hashes the same way, so a retry over any
 * answers the first answer.
 */
export async function idempotencyKeyOf(
  key: string,
  operation: string,
  workItemId: string,
  body: unknown,
): Promise<IdempotencyKey> {
  return { key, requestHash: await sha256Hex(JSON.stringify([operation, workItemId, body])) };
}
