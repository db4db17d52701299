// A run's events: read a page at a time, and waited for by long polls and event streams (the
// machine appends them, each with the run's next seq, in the transaction that makes the change).

import type * as Contract from "@task-context/contract";
import type { CollaborationEvent } from "@task-context/protocols";
import type { ChangedOptions } from "../delivery/delivery-store.ts";
import { all, type SqlSteps } from "./sql-steps.ts";

/** The run's events with `seq` greater than `after`, at most `limit`. */
export function* eventPage(
  runId: string,
  after: number,
  limit: number,
): SqlSteps<Contract.EventPage> {
  const rows = yield* all<{ seq: number; body: string }>(
    "SELECT seq, body FROM events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?",
    runId,
    after,
    limit,
  );
  const events = rows.map((row) => JSON.parse(row.body) as CollaborationEvent);
  return { events, next_after: rows.at(-1)?.seq ?? after };
}

/**
 * The long polls and event streams waiting for a run's next event, in this process: a write that
 * appends events wakes its run's waiters; closing wakes them all and refuses new waits.
 */
export class RunWaiters {
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #onWake: ((runId: string) => void) | undefined;
  #closed = false;

  /** `onWake` is told of every run woken (the claim-next line of the run matches then). */
  constructor(onWake?: (runId: string) => void) {
    this.#onWake = onWake;
  }

  /**
   * Resolves true when the run is woken, false when the wait times out, is aborted, or the
   * waiters are closed (at once when they already are, or the signal already aborted).
   */
  wait(runId: string, options: ChangedOptions): Promise<boolean> {
    if (this.#closed || options.signal?.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const waiters = this.#waiters.get(runId) ?? new Set<() => void>();
      this.#waiters.set(runId, waiters);
      const finish = (changed: boolean) => {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        waiters.delete(wake);
        if (waiters.size === 0) this.#waiters.delete(runId);
        resolve(changed);
      };
      const wake = () => finish(!this.#closed);
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), options.timeoutMs);
      options.signal?.addEventListener("abort", onAbort, { once: true });
      waiters.add(wake);
    });
  }

  /** Wakes every wait on the run. */
  wake(runId: string): void {
    this.#onWake?.(runId);
    const waiters = this.#waiters.get(runId);
    if (waiters !== undefined) for (const wake of [...waiters]) wake();
  }

  /**
   * Wakes every wait of every run, without telling `onWake`: changes may have been missed (the
   * store stopped hearing other instances' commits for a while), so each looks again.
   */
  wakeAll(): void {
    for (const waiters of [...this.#waiters.values()]) for (const wake of [...waiters]) wake();
  }

  /** Ends every wait (each resolves false) and refuses new ones. */
  close(): void {
    this.#closed = true;
    this.wakeAll();
  }
}
