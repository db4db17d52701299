// The service's background duties, once for every runtime: what is due next for a run (its
// earliest lease expiry; at once, an A2A round when its A2A agents have work on offer) and how a
// round runs (expire the overdue leases, then the A2A round). A runtime gives a Scheduler — a
// timer on Node, the alarm on a Durable Object — and the store tells the duties of every run a
// commit changed, so nothing is read to decide when to wake.
import { a2aWorkOnOffer, nextLeaseExpiry, type RunState } from "./machine/run-state.ts";

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
   * schedules the next wake-up. Rejects when the run's state cannot be read (nothing is
   * scheduled then: the next change, or the runtime's retry, schedules again).
   */
  async round(runId: string): Promise<void> {
    // The wake-up that rings now is no longer set.
    this.#scheduled.delete(runId);
    let state = await this.#options.runState(runId);
    const { a2aRound } = this.#options;
    if (a2aRound !== undefined && !this.#rounds.has(runId) && a2aWorkOnOffer(state)) {
      this.#rounds.add(runId);
      try {
        await a2aRound(runId);
      } finally {
        this.#rounds.delete(runId);
      }
      state = await this.#options.runState(runId);
    }
    this.#schedule(runId, state);
  }

  /** Gives the scheduler the run's next wake-up when it differs from the one it has. */
  #schedule(runId: string, state: RunState): void {
    const a2aRounds = this.#options.a2aRound !== undefined && !this.#rounds.has(runId);
    const due = nextDue(state, { now: this.#options.clock(), a2aRounds });
    if (this.#scheduled.has(runId) && this.#scheduled.get(runId) === due) return;
    this.#scheduled.set(runId, due);
    if (due === undefined) this.#options.scheduler.cancel(runId);
    else this.#options.scheduler.at(runId, due);
  }
}

/**
 * A {@link Scheduler} of timers (Node): `due` is called for the run at its time, measured with
 * `clock` and waited in real time. {@link TimerScheduler.close} clears them all.
 */
export class TimerScheduler implements Scheduler {
  readonly #clock: () => number;
  readonly #due: (runId: string) => void;
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(clock: () => number, due: (runId: string) => void) {
    this.#clock = clock;
    this.#due = due;
  }

  at(runId: string, when: number): void {
    this.cancel(runId);
    // setTimeout's longest wait is 2^31 - 1 ms; a later wake-up comes early and sets itself again.
    const delay = Math.min(Math.max(0, when - this.#clock()), 2 ** 31 - 1);
    const timer = setTimeout(() => {
      this.#timers.delete(runId);
      this.#due(runId);
    }, delay);
    // A timer does not keep the process alive (Node); other runtimes have no unref.
    (timer as { unref?: () => void }).unref?.();
    this.#timers.set(runId, timer);
  }

  cancel(runId: string): void {
    const timer = this.#timers.get(runId);
    if (timer !== undefined) clearTimeout(timer);
    this.#timers.delete(runId);
  }

  /** Clears every timer. */
  close(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }
}
