import {
  addressKey,
  createRateLimiter,
  type RateLimiterFactory,
  tokenKey,
} from "../http/rate-limit.ts";
import type { DurableObjectStore } from "./durable-object-store.ts";

/**
 * The Rate Limiting binding's period is configuration the Worker cannot read; a refused request
 * is told to wait the longest period a binding can have.
 */
const BINDING_RETRY_AFTER_SECONDS = 60;

/**
 * Where the Worker counts requests:
 * - an agent token (one that authenticated) in its run's Durable Object (`RunObject.hit`),
 *   exactly and by `TASK_CONTEXT_RATE_LIMIT`: every request of a token goes to that object
 *   anyway, and the object is what a runaway agent would overload;
 * - a client address, and the admin token, with the Rate Limiting binding when it is bound: no
 *   object owns an address, and the binding counts across the isolates of a location without a
 *   round trip; otherwise in this isolate's memory (a best effort: there are many isolates),
 *   bounded as on Node.
 * Tokens are counted by their SHA-256, never as sent, and only once they authenticate: a made-up
 * token counts as its address alone and reaches no run's object.
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
      const waits = await Promise.all([
        token === undefined
          ? undefined
          : token.caller.role === "agent"
            ? store.object(token.caller.runId).hit(tokenKey(token), limit)
            : count(tokenKey(token)),
        address === undefined ? undefined : count(addressKey(address)),
      ]);
      const over = waits.filter((wait) => wait !== undefined);
      return over.length === 0 ? undefined : Math.max(...over);
    };
  };
}
