import { ArgumentError } from "@task-context/core";
import type { Caller } from "./auth.ts";

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
 * The most keys one limiter counts in a window (about 2 MB of memory). Keys are fixed-size
 * hashes of tokens and client addresses, so the table is bounded in keys and in bytes.
 */
export const defaultMaxKeys = 10_000;

/** The key every new key counts under once the table is full, until the window ends. */
export const overflowKey = "overflow";

/**
 * Fixed-window counters in memory, one per key (a token's hash, an address), at most `maxKeys`
 * of them: once that many keys are counted in a window, every new key counts in one shared
 * overflow bucket with the same limit until the window ends. A flood of new keys is thus limited
 * as one client, and never resets or bypasses the count of a key already counted. Old windows
 * are dropped as new ones start.
 */
export function createRateLimiter(
  { requests, windowMs }: RateLimit,
  clock: () => number,
  maxKeys = defaultMaxKeys,
) {
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
      const counted = counts.has(key) || counts.size < maxKeys ? key : overflowKey;
      const count = (counts.get(counted) ?? 0) + 1;
      counts.set(counted, count);
      if (count > requests) over = true;
    }
    return over ? Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) : undefined;
  };
}

/** A bearer token that authenticated: its SHA-256 (hex), never the token itself, and whose it is. */
export interface AuthenticatedToken {
  sha256: string;
  caller: Caller;
}

/**
 * What a request is counted as: its client's address (when known), and its bearer token only
 * once the token has authenticated — a token that does not authenticate counts as its address
 * alone, so made-up tokens never create keys.
 */
export interface RateLimitKeys {
  token: AuthenticatedToken | undefined;
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

/** The key of an authenticated token: fixed-size, whatever the token's length. */
export const tokenKey = (token: AuthenticatedToken) => `token:${token.sha256}`;

/** The key of a client address. */
export const addressKey = (address: string) => `address:${address}`;

/** Counts in this process's (or isolate's) memory, per token and per address: the default. */
export const memoryRateLimiter: RateLimiterFactory = (limit, clock) => {
  const limited = createRateLimiter(limit, clock);
  return async ({ token, address }) => {
    const keys = [
      ...(token === undefined ? [] : [tokenKey(token)]),
      ...(address === undefined ? [] : [addressKey(address)]),
    ];
    return keys.length === 0 ? undefined : limited(keys);
  };
};
