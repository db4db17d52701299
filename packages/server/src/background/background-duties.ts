// The service's background duties, once for every runtime: what is due next for a run (its
// earliest lease expiry; at once, an A2A round when its A2A agents have work on offer) and how a
// round runs (expire the overdue leases, then the A2A round). A runtime gives a Scheduler — a
// timer on Node, the alarm on a Durable Object — and the store tells the duties of every run a
// commit changed, with its state as committed, so nothing is read to decide when to wake.
import {
  a2aWorkOnOffer,
  nextLeaseExpiry,
  type RunState,
  runEnded,
} from "../delivery/machine/run-state.ts";

/** Where a runtime keeps one wake-up per run: {@link BackgroundDuties.round} is called then. */
export interface Scheduler {
  /** Wakes the run's duties at `when` (milliseconds since the epoch, on the store's clock). */
  at(runId: string, when: number): void;
  /** The run has nothing due: no wake-up. */
  cancel(runId: string): void;
}

/** What the duties do with a run. */
export interface DutyPorts {
  /** The run's state once its overdue leases are expired (the store's `runState`). */
  runState(runId: string): Promise<RunState>;
  /**
   * One round of A2A attempts for the run (a Durable Object, from its alarm); without it, A2A
   * rounds are never due.
   */
  a2aRound?: (runId: string) => Promise<void>;
  /**
   * Starts delivering to the run's A2A agents, which then wait for offers themselves (Node's
   * dispatcher loops); called once a run shows A2A agents, again when it gets another.
   */
  a2aWatch?: (runId: string) => void;
}

/** Options of {@link BackgroundDuties}. */
export interface BackgroundDutiesOptions extends DutyPorts {
  scheduler: Scheduler;
  /** The store's clock (milliseconds since the epoch). */
  clock: () => number;
  /**
   * Told of an error of a round (the store could not expire the leases or read the run, or the
   * A2A round failed as a whole); the round is tried again later (see {@link retryDelay}).
   */
  onError: (error: unknown) => void;
}

/** The longest wait before a failed round is tried again. */
const MAX_RETRY_MS = 60_000;

/**
 * The wait before a run's round is tried again after `failures` failed rounds in a row: 1 s, 2 s,
 * 4 s … 60 s.
 */
export function retryDelay(failures: number): number {
  return Math.min(1000 * 2 ** Math.max(0, failures - 1), MAX_RETRY_MS);
}

/**
 * When the run's next duty is due, or undefined when none is: its earliest lease expiry, or now
 * when `a2aRounds` and its A2A agents have work on offer.
 */
export function nextDue(
  state: RunState,
  { now, a2aRounds }: { now: number; a2aRounds: boolean },
): number | undefined {
  const expiry = nextLeaseExpiry(state);
  if (!a2aRounds || !a2aWorkOnOffer(state)) return expiry;
  return expiry === undefined ? now : Math.min(expiry, now);
}

/** How many A2A agents a run has. */
function a2aAgentsOf(state: RunState): number {
  let count = 0;
  for (const agent of state.agents.values()) if (agent.a2a_stages !== null) count += 1;
  return count;
}

/**
 * The background duties of the runs of one store: scheduled from each committed change
 * ({@link runChanged}: give it to the store's `onRunChanged`), carried out in {@link round}.
 */
export class BackgroundDuties {
  readonly #options: BackgroundDutiesOptions;
  /** The wake-up each run has (undefined: none), as last given to the scheduler. */
  readonly #scheduled = new Map<string, number | undefined>();
  /** The runs whose A2A round is being carried out. */
  readonly #rounds = new Set<string>();
  /** How many A2A agents each watched run had when last watched. */
  readonly #watched = new Map<string, number>();
  /** How many rounds of each run failed in a row. */
  readonly #failures = new Map<string, number>();

  constructor(options: BackgroundDutiesOptions) {
    this.#options = options;
  }

  /** A commit changed the run: its next wake-up follows from its state. */
  runChanged(runId: string, state: RunState): void {
    const { a2aWatch } = this.#options;
    if (a2aWatch !== undefined) {
      const agents = a2aAgentsOf(state);
      if (agents > (this.#watched.get(runId) ?? 0)) {
        this.#watched.set(runId, agents);
        a2aWatch(runId);
      }
    }
    this.#schedule(runId, state);
  }

  /**
   * The run's wake-up: expires its overdue leases, carries out an A2A round when one is due, and
   * schedules the next wake-up. Never rejects: an error is told to `onError`, and a round that
   * could not read the run is tried again after {@link retryDelay}.
   */
  async round(runId: string): Promise<void> {
    // The wake-up that rings now is no longer set.
    this.#scheduled.delete(runId);
    const { a2aRound, runState, onError } = this.#options;
    try {
      let state = await runState(runId);
      if (a2aRound !== undefined && !this.#rounds.has(runId) && a2aWorkOnOffer(state)) {
        this.#rounds.add(runId);
        try {
          await a2aRound(runId);
        } catch (error) {
          // Each attempt records its own failure; this is the round's (it could not start).
          onError(error);
        } finally {
          this.#rounds.delete(runId);
        }
        state = await runState(runId);
      }
      this.#failures.delete(runId);
      this.#schedule(runId, state);
    } catch (error) {
      onError(error);
      const failures = (this.#failures.get(runId) ?? 0) + 1;
      this.#failures.set(runId, failures);
      this.#wake(runId, this.#options.clock() + retryDelay(failures));
    }
  }

  /**
   * Gives the scheduler the run's next wake-up when it differs from the one it has; forgets a
   * completed or canceled run (nothing is ever due for it again).
   */
  #schedule(runId: string, state: RunState): void {
    if (runEnded(state.run)) {
      // Unknown here (a Durable Object woken again) may still hold a wake-up: cancelled too.
      if (this.#scheduled.get(runId) !== undefined || !this.#scheduled.has(runId)) {
        this.#options.scheduler.cancel(runId);
      }
      for (const map of [this.#scheduled, this.#watched, this.#failures]) map.delete(runId);
      return;
    }
    const a2aRounds = this.#options.a2aRound !== undefined && !this.#rounds.has(runId);
    const due = nextDue(state, { now: this.#options.clock(), a2aRounds });
    if (this.#scheduled.has(runId) && this.#scheduled.get(runId) === due) return;
    this.#wake(runId, due);
  }

  #wake(runId: string, when: number | undefined): void {
    this.#scheduled.set(runId, when);
    if (when === undefined) this.#options.scheduler.cancel(runId);
    else this.#options.scheduler.at(runId, when);
  }
}
