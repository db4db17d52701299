// The moment a store's wait on a run is in place: a change after it must wake it. Tests wait for
// that moment instead of sleeping and hoping it has come.
import { vi } from "vitest";
import { RunWaiters } from "../../src/sql/events.ts";

/** Resolves once a store of this process waits for `runId`'s next event (RunWaiters.wait). */
export function waitArmed(runId: string): Promise<void> {
  const wait = RunWaiters.prototype.wait;
  return new Promise<void>((resolve) => {
    const spy = vi.spyOn(RunWaiters.prototype, "wait").mockImplementation(function (
      this: RunWaiters,
      ...parameters: Parameters<RunWaiters["wait"]>
    ) {
      // The waiter is in place once wait() has returned.
      const waiting = wait.apply(this, parameters);
      if (parameters[0] === runId) {
        spy.mockRestore();
        resolve();
      }
      return waiting;
    });
  });
}
