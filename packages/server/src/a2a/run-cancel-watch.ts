// Whether a run the dispatcher has attempts of was canceled: one watch per run while any of its
// attempts is in flight (not one per attempt: a run's every event would wake them all), so that
// an attempt of a canceled run is given up at once, its agent asked to cancel its task, rather
// than when its lease would have run out.
import type { DeliveryStore } from "../delivery/delivery-store.ts";

/** How long one wait for the run's next event lasts before it is renewed (real time). */
const WAIT_MS = 30_000;

/** One run's watch: its attempts in flight, and what aborts when it is canceled. */
interface Watch {
  users: number;
  canceled: AbortController;
  over: AbortController;
}

/** The runs the dispatcher has attempts of, each watched for its cancel. */
export class RunCancelWatches {
  readonly #store: DeliveryStore;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #watches = new Map<string, Watch>();

  constructor(store: DeliveryStore, onError?: (error: unknown) => void) {
    this.#store = store;
    this.#onError = onError;
  }

  /**
   * A signal that aborts once the run is canceled, for an attempt that starts now (call after
   * its claim: a cancel before it refused the claim); `release()` when the attempt is over.
   */
  acquire(runId: string): { signal: AbortSignal; release: () => void } {
    let watch = this.#watches.get(runId);
    if (watch === undefined) {
      const started: Watch = {
        users: 0,
        canceled: new AbortController(),
        over: new AbortController(),
      };
      watch = started;
      this.#watches.set(runId, started);
      void this.#watch(runId, started);
    }
    watch.users += 1;
    const held = watch;
    let released = false;
    return {
      signal: held.canceled.signal,
      release: () => {
        if (released) return;
        released = true;
        held.users -= 1;
        if (held.users > 0) return;
        held.over.abort();
        if (this.#watches.get(runId) === held) this.#watches.delete(runId);
      },
    };
  }

  /** Follows the run's events until `run.canceled` (then aborts `canceled`) or `over`. */
  async #watch(runId: string, watch: Watch): Promise<void> {
    const store = this.#store;
    const signal = watch.over.signal;
    try {
      // The run as it is now first: a cancel between the claim and this read is not missed.
      let seq = await store.lastSeq(runId);
      if ((await store.getRun(runId)).status === "canceled") {
        watch.canceled.abort();
        return;
      }
      while (!signal.aborted) {
        if (!(await store.changed(runId, seq, { timeoutMs: WAIT_MS, signal }))) continue;
        const page = await store.events(runId, seq, 100);
        if (page.events.some((event) => event.type === "run.canceled")) {
          watch.canceled.abort();
          return;
        }
        seq = page.next_after;
      }
    } catch (error) {
      // The attempts go on; their lease's end gives them up, as without a watch.
      if (!signal.aborted) this.#onError?.(error);
    } finally {
      if (this.#watches.get(runId) === watch && watch.canceled.signal.aborted) {
        this.#watches.delete(runId);
      }
    }
  }
}
