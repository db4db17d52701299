import { ArgumentError } from "@task-context/core";

/** How many requests one token, and one address, may send per window. */
export interface RateLimit {
  requests: number;
  windowMs: number;
}

/** The default: 1200 requests per minute per token and per address. */
export const defaultRateLimit: RateLimit = { requests: 1200, windowMs: 60_000 };

/**
 * Parses `<requests>/<seconds>` (`TASK_CONTEXT_RATE_LIMIT`), e.g. `1200/60`; `off` turns limiting
 * off. Undefined or empty → the default.
 */
export function parseRateLimit(text: string | undefined): RateLimit | false {
  if (text === undefined || text.trim() === "") return defaultRateLimit;
  if (text.trim() === "off") return false;
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const requests = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  if (match === null || requests < 1 || seconds < 1) {
    throw new ArgumentError({
      argument: "TASK_CONTEXT_RATE_LIMIT",
      message: `expected <requests>/<seconds> with both at least 1 (e.g. 1200/60), or "off", got "${text}".`,
    });
  }
  return { requests, windowMs: seconds * 1000 };
}

/**
 * Fixed-window counters in memory, one per key (a token, an address). Old windows are dropped as
 * new ones start, so memory stays bounded by the keys seen in one window.
 */
export function createRateLimiter({ requests, windowMs }: RateLimit, clock: () => number) {
  let windowStart = 0;
  let counts = new Map<string, number>();
  /** Counts a request for each key; the seconds to wait when one is over its limit. */
  return (keys: readonly string[]): number | undefined => {
    const now = clock();
    if (now >= windowStart + windowMs || now < windowStart) {
      windowStart = now;
      counts = new Map();
    }
    let over = false;
    for (const key of keys) {
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      if (count > requests) over = true;
    }
    return over ? Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) : undefined;
  };
}

/** What a request is counted as: its bearer token and its client's address, when known. */
export interface RateLimitKeys {
  token: string | undefined;
  address: string | undefined;
}

/**
 * Counts one request against the limit of its token and of its address; the seconds to wait
 * (`Retry-After`) when either is over, otherwise undefined.
 */
export type RateLimiter = (keys: RateLimitKeys) => Promise<number | undefined>;

/**
 * Makes the {@link RateLimiter} of an app from its limit and clock: where the counts live is the
 * runtime's choice (memory on Node; the run's Durable Object and the Rate Limiting binding on
 * Workers).
 */
export type RateLimiterFactory = (limit: RateLimit, clock: () => number) => RateLimiter;

/** Counts in this process's (or isolate's) memory, per token and per address: the default. */
export const memoryRateLimiter: RateLimiterFactory = (limit, clock) => {
  const limited = createRateLimiter(limit, clock);
  return async ({ token, address }) => {
    const keys = [
      ...(token === undefined ? [] : [`token:${token}`]),
      ...(address === undefined ? [] : [`address:${address}`]),
    ];
    return keys.length === 0 ? undefined : limited(keys);
  };
};
