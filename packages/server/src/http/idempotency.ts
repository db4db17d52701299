import { sha256Hex } from "@task-context/core/internal";
import type { IdempotencyKey } from "../delivery/delivery-store.ts";

/** What an idempotency key may be: 1 to 255 visible ASCII characters (a UUID is a good choice). */
export const idempotencyKeyPattern = /^[\x21-\x7e]{1,255}$/;

/**
 * An idempotency key with a hash of what it is sent with: the operation (`complete`, `fail`),
 * the work item and the validated body (keys in schema order). The HTTP header and the MCP
 * tools' `idempotency_key` hash the same way, so a retry over either answers the first answer.
 */
export async function idempotencyKeyOf(
  key: string,
  operation: string,
  workItemId: string,
  body: unknown,
): Promise<IdempotencyKey> {
  return { key, requestHash: await sha256Hex(JSON.stringify([operation, workItemId, body])) };
}
