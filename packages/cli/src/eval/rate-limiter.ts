/** The clock a run reads and waits on; tests pass one they move themselves. */
export interface EvalClock {
  /** Milliseconds, monotonic. */
  now(): number;
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}

/** The process's clock. */
export const systemClock: EvalClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Spaces the calls' starts at least `60 000 / callsPerMinute` ms apart, across all workers;
 * without a limit, `take` resolves at once.
 */
export function rateLimiter(clock: EvalClock, callsPerMinute?: number): { take(): Promise<void> } {
  if (callsPerMinute === undefined) return { take: async () => {} };
  const interval = 60_000 / callsPerMinute;
  let next = Number.NEGATIVE_INFINITY;
  return {
    async take() {
      const now = clock.now();
      const start = Math.max(now, next);
      next = start + interval;
      if (start > now) await clock.sleep(start - now);
    },
  };
}
