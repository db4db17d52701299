import type { Context, MiddlewareHandler } from "hono";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { Authenticator } from "./auth.ts";
import type { RateLimiter } from "./rate-limit.ts";

/**
 * Counts every request against the limit of its client's address first — a request over it is
 * refused before its token is even checked — then, when its bearer token authenticates, against
 * the limit of that token. Over either: 429 `RATE_LIMITED` with `Retry-After`.
 */
export function rateLimitRequests(
  limited: RateLimiter,
  authenticator: Authenticator,
  clientAddress: ((c: Context) => string | undefined) | undefined,
): MiddlewareHandler {
  return async (c, next) => {
    const address = clientAddress?.(c);
    let retryAfter =
      address === undefined ? undefined : await limited({ token: undefined, address });
    if (retryAfter === undefined) {
      const token = await authenticator.authenticatedToken(c);
      if (token !== undefined) retryAfter = await limited({ token, address: undefined });
    }
    if (retryAfter !== undefined) {
      c.header("Retry-After", String(retryAfter));
      throw new DeliveryError({
        code: "RATE_LIMITED",
        message: `Too many requests from this token or address. Wait ${retryAfter} s (Retry-After) and slow down.`,
      });
    }
    await next();
  };
}
