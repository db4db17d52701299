import type { Scheduler } from "../background/background-duties.ts";

/**
 * The {@link Scheduler} of a Durable Object: its one alarm (the object holds one run), set at the
 * run's next duty or at the time `also` asks for (a retry of the object's own), whichever comes
 * first. A time on the object's clock is set as the same delay in real time. The changes are made
 * in order; {@link AlarmScheduler.settled} resolves once the last one is made (a call answers
 * after it).
 */
export class AlarmScheduler implements Scheduler {
  readonly #storage: DurableObjectStorage;
  readonly #clock: () => number;
  readonly #also: () => number | undefined;
  /** The run's next duty (undefined: none). */
  #duty: number | undefined;
  /** The time the alarm is set for (undefined: none), or null when not known. */
  #set: number | undefined | null = null;
  #changed: Promise<void> = Promise.resolve();

  constructor(
    storage: DurableObjectStorage,
    clock: () => number,
    also: () => number | undefined = () => undefined,
  ) {
    this.#storage = storage;
    this.#clock = clock;
    this.#also = also;
  }

  at(_runId: string, when: number): void {
    this.#duty = when;
    this.refresh();
  }

  cancel(): void {
    this.#duty = undefined;
    this.refresh();
  }

  /** The alarm rang: it is no longer set. */
  rang(): void {
    this.#set = null;
  }

  /** Sets the alarm at the earliest of the duty and `also`'s time, or deletes it (when changed). */
  refresh(): void {
    const times = [this.#duty, this.#also()].filter((time) => time !== undefined);
    const next = times.length === 0 ? undefined : Math.min(...times);
    if (next === this.#set) return;
    this.#set = next;
    if (next === undefined) {
      this.#change(() => this.#storage.deleteAlarm());
      return;
    }
    const delay = Math.max(0, next - this.#clock());
    this.#change(() => this.#storage.setAlarm(Date.now() + delay));
  }

  /** Resolves once the alarm's last change is made; rejects when that change failed. */
  settled(): Promise<void> {
    return this.#changed;
  }

  #change(change: () => Promise<void>): void {
    // A failed change is told by settled() until the next one, which is made whatever it sets.
    this.#changed = this.#changed
      .catch(() => undefined)
      .then(change)
      .catch((error: unknown) => {
        this.#set = null;
        throw error;
      });
  }
}
