import type { Scheduler } from "./background-duties.ts";

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
