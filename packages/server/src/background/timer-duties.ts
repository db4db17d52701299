// The background duties of a store in this process, on timers: the one place that wakes a run at
// its next lease expiry, for the Node server (node-duties.ts, which adds the sweep and the A2A
// loops) and for an app composed with createApp alone. The expiry's events then wake the run's
// long polls and streams like any change.
import type { RunState } from "../delivery/machine/run-state.ts";
import { BackgroundDuties } from "./background-duties.ts";
import { TimerScheduler } from "./timer-scheduler.ts";

/** A store that tells of each committed change of a run and reads a run's state (`StepStore`). */
export interface DutyStore {
  /** One listener, told of every run a commit changed with its state as committed. */
  onRunChanged(listener: ((runId: string, state: RunState) => void) | undefined): void;
  /** The run's state once its overdue leases are expired. */
  runState(runId: string): Promise<RunState>;
}

/** Whether `store` reports its changes (SQLite and PostgreSQL stores do; the Workers router's does not). */
export function isDutyStore(store: object): store is DutyStore {
  const { onRunChanged, runState } = store as Partial<DutyStore>;
  return typeof onRunChanged === "function" && typeof runState === "function";
}

/** Options of {@link startTimerDuties}. */
export interface TimerDutiesOptions {
  store: DutyStore;
  /** The store's clock (milliseconds since the epoch). */
  clock: () => number;
  /** Told of every error of a round (none escapes). */
  onError: (error: unknown) => void;
  /** Starts delivering to a run's A2A agents (see `DutyPorts.a2aWatch`); none without it. */
  a2aWatch?: ((runId: string) => void) | undefined;
}

/** Duties running on timers; {@link TimerDuties.close} stops them. */
export interface TimerDuties {
  /** Stops listening to the store and clears every timer. */
  close(): void;
}

/**
 * Starts the store's background duties on timers: from each committed change, a timer at the
 * run's next lease expiry, whose round expires the overdue leases (their events wake the run's
 * waiters). The store's change listener is theirs until {@link TimerDuties.close}.
 */
export function startTimerDuties(options: TimerDutiesOptions): TimerDuties {
  const { store, clock, onError } = options;
  const timers = new TimerScheduler(clock, (runId) => void duties.round(runId));
  const duties = new BackgroundDuties({
    scheduler: timers,
    clock,
    runState: (runId) => store.runState(runId),
    ...(options.a2aWatch === undefined ? {} : { a2aWatch: options.a2aWatch }),
    onError,
  });
  store.onRunChanged((runId, state) => duties.runChanged(runId, state));
  return {
    close() {
      store.onRunChanged(undefined);
      timers.close();
    },
  };
}
