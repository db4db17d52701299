import type { WorkItem } from "@task-context/protocols";
import type { OfferWatch } from "../delivery/claim-waiters.ts";
import type { AgentIdentity, ChangedOptions, DeliveryStore } from "../delivery/delivery-store.ts";
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
  let seq = 0;
  const lookAfterSeq = async () => {
    seq = waitMs > 0 ? await store.lastSeq(runId) : 0;
    return look();
  };
  const changed = (timeoutMs: number) => store.changed(runId, seq, { timeoutMs, signal });
  return lookUntil(waitMs, timing, signal, lookAfterSeq, changed);
}

/**
 * Answers `look()` as soon as it finds something, or when `waitMs` have passed (up to 10 % sooner,
 * see `spreadWait`), looking again whenever `changed` (given at most `recheckMs`) resolves.
 */
async function lookUntil<T>(
  waitMs: number,
  timing: WaitTiming,
  signal: AbortSignal,
  look: () => Promise<T | undefined>,
  changed: (timeoutMs: number) => Promise<unknown>,
): Promise<T | undefined> {
  const deadline = timing.clock() + spreadWait(waitMs);
  for (;;) {
    const found = await look();
    const remaining = deadline - timing.clock();
    if (found !== undefined || remaining <= 0 || signal.aborted) return found;
    await changed(Math.min(remaining, timing.recheckMs));
  }
}

/**
 * A store that waits for a caller's offers where the run lives (a run's Durable Object): it
 * answers once offers the agent may take exist, or after `timeoutMs` — so that the run's other
 * changes wake no one outside it.
 */
export interface OfferWaits {
  /** `recheckMs`: the safety recheck, looking at the run on its own at least this often. */
  waitForOffers(
    runId: string,
    agent: AgentIdentity,
    wait: { limit: number; recheckMs: number },
    options: ChangedOptions,
  ): Promise<WorkItem[]>;
}

/**
 * A store whose process knows its runs' changes (the claim-next lines): a poll watches for the
 * changes that may offer its agent something, and looks at the run only then.
 */
export interface OfferWatches {
  /** Enters a watch of the run's offers to `agent`: call before the first look. */
  watchOffers(runId: string, agent: AgentIdentity): OfferWatch;
}

/**
 * The run's offers to `agent` (at most `limit`), waiting up to `waitMs` for one (`poll` with
 * `wait`): in the store when it waits for offers itself ({@link OfferWaits}); else here, looking
 * again after each change that may offer the agent something when the store watches offers
 * ({@link OfferWatches}), or after each event of the run.
 */
export async function waitForOffers(
  store: DeliveryStore & Partial<OfferWaits> & Partial<OfferWatches>,
  runId: string,
  agent: AgentIdentity,
  { limit, waitMs }: { limit: number; waitMs: number },
  timing: WaitTiming,
  signal: AbortSignal,
): Promise<WorkItem[]> {
  if (waitMs > 0 && typeof store.waitForOffers === "function") {
    const wait = { limit, recheckMs: timing.recheckMs };
    return store.waitForOffers(runId, agent, wait, { timeoutMs: waitMs, signal });
  }
  const look = async () => {
    const found = await store.offers(runId, agent, limit);
    return found.length > 0 ? found : undefined;
  };
  if (waitMs > 0 && typeof store.watchOffers === "function") {
    const watch = store.watchOffers(runId, agent);
    try {
      const changed = (timeoutMs: number) => watch.next(timeoutMs, signal);
      return (await lookUntil(waitMs, timing, signal, look, changed)) ?? [];
    } finally {
      watch.leave();
    }
  }
  return (await waitFor(store, runId, waitMs, timing, signal, look)) ?? [];
}

/** An AbortSignal that aborts when any of `signals` does. */
export function anySignal(signals: readonly (AbortSignal | undefined)[]): AbortSignal {
  return AbortSignal.any(signals.filter((signal) => signal !== undefined));
}
