// The background duties on Node: a timer at each run's next wake-up (timer-duties.ts) for
// the runs this instance changes, a sweep of every run's overdue leases every `sweepMs` for the
// others (changed by another instance on PostgreSQL, or before a restart), and the A2A
// dispatcher's loops for the runs with A2A agents, loaded with the first.
import type { A2aDispatcher, A2aDispatcherOptions } from "../a2a/a2a-dispatcher.ts";
import type { StepStore } from "../sql/step-store.ts";
import { startTimerDuties } from "./timer-duties.ts";

/** Options of {@link startNodeDuties}. */
export interface NodeDutiesOptions {
  store: StepStore;
  /** The store's clock (default `Date.now`). */
  clock?: (() => number) | undefined;
  /** How often every run's overdue leases are expired (default 1000 ms). */
  sweepMs?: number | undefined;
  /** The A2A dispatcher's options but its store and clock (the duties'). */
  a2a: Omit<A2aDispatcherOptions, "store" | "clock" | "onError">;
  /** Told of every error in the background (none escapes). */
  onError: (error: unknown) => void;
}

/** The duties of a running Node server; {@link NodeDuties.close} stops them. */
export interface NodeDuties {
  /** Stops the timers, the sweep and the A2A loops (attempts in flight end). */
  close(): Promise<void>;
}

/** Starts the background duties of a Node server's store. */
export function startNodeDuties(options: NodeDutiesOptions): NodeDuties {
  const { store, onError } = options;
  const clock = options.clock ?? Date.now;
  let dispatcher: Promise<A2aDispatcher> | undefined;
  const watch = (runId: string) => {
    dispatcher ??= import("../a2a/a2a-dispatcher.ts").then(
      ({ A2aDispatcher }) => new A2aDispatcher({ ...options.a2a, store, clock, onError }),
    );
    dispatcher.then((started) => started.watchRun(runId)).catch(onError);
  };
  const timers = startTimerDuties({ store, clock, a2aWatch: watch, onError });
  // Expiry is also evaluated by every query; the timers and the sweep only make expiries visible
  // on streams and to long polls of runs nobody touches.
  // And the tasks handed over to A2A push notifications that no attempt follows any more.
  let sweeping = false;
  const sweeper = setInterval(() => {
    store.expireAllLeases().catch(onError);
    const push = options.a2a.push?.receiver;
    if (push === undefined || sweeping) return;
    sweeping = true;
    push
      .sweep()
      .catch(onError)
      .finally(() => {
        sweeping = false;
      });
  }, options.sweepMs ?? 1000);
  sweeper.unref();
  // Runs whose A2A agents were added before this instance started (or on another instance).
  const a2aRuns = store.runsWithA2aAgents().then((runIds) => runIds.forEach(watch), onError);
  return {
    async close() {
      clearInterval(sweeper);
      timers.close();
      await a2aRuns;
      await (await dispatcher)?.close();
    },
  };
}
