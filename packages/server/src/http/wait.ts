import type { DeliveryStore } from "../delivery/delivery-store.ts";
import { spreadWait } from "../delivery/spread-wait.ts";

/** How long waits last. */
export interface WaitTiming {
  /** At most this long (real time) between two looks at the run while waiting. */
  recheckMs: number;
  /** The service's clock, in milliseconds: deadlines are measured with it. */
  clock: () => number;
}

/**
 * Answers `look()` as soon as it finds something, or when `waitMs` have passed (long poll; up to
 * 10 % sooner, see `spreadWait`):
 * looks again on every new event of the run, and at least every `recheckMs` (a lease may expire
 * without an event until someone looks). Ends early when `signal` aborts.
 */
export async function waitFor<T>(
  store: DeliveryStore,
  runId: string,
  waitMs: number,
  timing: WaitTiming,
  signal: AbortSignal,
  look: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const deadline = timing.clock() + spreadWait(waitMs);
  for (;;) {
    const seq = waitMs > 0 ? await store.lastSeq(runId) : 0;
    const found = await look();
    const remaining = deadline - timing.clock();
    if (found !== undefined || remaining <= 0 || signal.aborted) return found;
    await store.changed(runId, seq, {
      timeoutMs: Math.min(remaining, timing.recheckMs),
      signal,
    });
  }
}

/** An AbortSignal that aborts when any of `signals` does. */
export function anySignal(signals: readonly (AbortSignal | undefined)[]): AbortSignal {
  return AbortSignal.any(signals.filter((signal) => signal !== undefined));
}
