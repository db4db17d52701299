import { sha256Hex } from "@task-context/core/internal";
import { parseAgentToken } from "../delivery/ids.ts";
import { createRateLimiter, type RateLimiterFactory } from "../http/rate-limit.ts";
import type { DurableObjectStore } from "./durable-object-store.ts";

/**
 * The Rate Limiting binding's period is configuration the Worker cannot read; a refused request
 * is told to wait the longest period a binding can have.
 */
const BINDING_RETRY_AFTER_SECONDS = 60;

/**
 * Where the Worker counts requests:
 * - an agent token in its run's Durable Object (`RunObject.hit`), exactly and by
 *   `TASK_CONTEXT_RATE_LIMIT`: every request of a token goes to that object anyway, and the
 *   object is what a runaway agent would overload;
 * - a client address, and any other token (the admin's), with the Rate Limiting binding when it
 *   is bound: no object owns an address, and the binding counts across the isolates of a
 *   location without a round trip; otherwise in this isolate's memory (a best effort: there are
 *   many isolates).
 */
export function workersRateLimiter(
  store: DurableObjectStore,
  binding: RateLimit | undefined,
): RateLimiterFactory {
  return (limit, clock) => {
    const memory = createRateLimiter(limit, clock);
    const count = async (key: string): Promise<number | undefined> => {
      if (binding === undefined) return memory([key]);
      const { success } = await binding.limit({ key });
      return success ? undefined : BINDING_RETRY_AFTER_SECONDS;
    };
    return async ({ token, address }) => {
      const agent = token === undefined ? undefined : parseAgentToken(token);
      const tokenKey = token === undefined ? undefined : `token:${await sha256Hex(token)}`;
      const waits = await Promise.all([
        tokenKey === undefined
          ? undefined
          : agent === undefined
            ? count(tokenKey)
            : store.object(agent.runId).hit(tokenKey, limit),
        address === undefined ? undefined : count(`address:${address}`),
      ]);
      const over = waits.filter((wait) => wait !== undefined);
      return over.length === 0 ? undefined : Math.max(...over);
    };
  };
}
