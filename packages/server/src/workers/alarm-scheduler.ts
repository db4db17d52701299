import type { Scheduler } from "../background/background-duties.ts";

/**
 * The {@link Scheduler} of a Durable Object: its one alarm (the object holds one run). A time
 * on the object's clock is set as the same delay in real time. The changes are made in order;
 * {@link AlarmScheduler.settled} resolves once the last one is made (a call answers after it).
 */
export class AlarmScheduler implements Scheduler {
  readonly #storage: DurableObjectStorage;
  readonly #clock: () => number;
  #changed: Promise<void> = Promise.resolve();

  constructor(storage: DurableObjectStorage, clock: () => number) {
    this.#storage = storage;
    this.#clock = clock;
  }

  at(_runId: string, when: number): void {
    const delay = Math.max(0, when - this.#clock());
    this.#change(() => this.#storage.setAlarm(Date.now() + delay));
  }

  cancel(): void {
    this.#change(() => this.#storage.deleteAlarm());
  }

  /** Resolves once the alarm's last change is made; rejects when that change failed. */
  settled(): Promise<void> {
    return this.#changed;
  }

  #change(change: () => Promise<void>): void {
    // A failed change is told by settled() until the next one.
    this.#changed = this.#changed.catch(() => undefined).then(change);
  }
}
