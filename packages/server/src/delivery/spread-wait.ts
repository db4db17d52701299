/** The most a long poll ends before its wait: 10 % of it, at most this many milliseconds. */
export const MAX_SPREAD_MS = 3000;

/**
 * How long a long poll of `waitMs` waits: up to 10 % (at most {@link MAX_SPREAD_MS}) less, at
 * random, so that waits that began together — agents started together, or all reconnecting after
 * a restart — end apart, and their next polls do not arrive as one burst that holds up the
 * wake-ups behind it. `random` is in [0, 1) (default `Math.random`).
 * (`spreadWait(30_000, () => 0.5)` is 28 500.)
 */
export function spreadWait(waitMs: number, random: () => number = Math.random): number {
  const spread = Math.min(waitMs / 10, MAX_SPREAD_MS);
  return Math.max(0, waitMs - Math.floor(spread * random()));
}
