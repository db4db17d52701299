// What one transaction knows of the runs it works on: each run's state, loaded (and its overdue
// leases expired) by the transaction's first operation on it and shared by the others, and the
// `last_seq` each run had when loaded, written once before the commit.
import { saveLastSeq } from "./events.ts";
import { loadRunState, type RunState, type StageDefinitions } from "./runs.ts";
import type { SqlSteps } from "./sql-steps.ts";
import { expireOverdueLeases } from "./work-items.ts";

/** A copy of a run's state that the operations on the original do not change. */
function copyRunState(state: RunState): RunState {
  return {
    run: { ...state.run },
    stages: state.stages.map((stage) => ({ ...stage })),
    now: state.now,
  };
}

/**
 * The runs of one transaction. On SQLite every operation of a group commit shares one (each in
 * its own savepoint); on PostgreSQL each operation has its own, and its first read of a run locks
 * the run's row until the commit.
 */
export class RunTransaction {
  readonly #clock: () => number;
  readonly #definitions: StageDefinitions;
  /** The runs loaded so far, with the `last_seq` each had then. */
  readonly #loaded = new Map<string, { state: RunState; committedSeq: number }>();

  constructor(clock: () => number, definitions: StageDefinitions) {
    this.#clock = clock;
    this.#definitions = definitions;
  }

  /**
   * Runs `operation` on the run's state in this transaction. When `operation` throws, the state
   * is as it was before it (its savepoint, or its transaction, undoes its writes).
   */
  *apply<T>(runId: string, operation: (state: RunState) => SqlSteps<T>): SqlSteps<T> {
    const loaded = this.#loaded.get(runId);
    const before = loaded === undefined ? undefined : copyRunState(loaded.state);
    try {
      let state = loaded?.state;
      if (state === undefined) {
        state = yield* loadRunState(runId, this.#clock(), this.#definitions, { lock: true });
        this.#loaded.set(runId, { state, committedSeq: state.run.last_seq });
        yield* expireOverdueLeases(state);
      }
      return yield* operation(state);
    } catch (error) {
      if (loaded === undefined) this.#loaded.delete(runId);
      else loaded.state = before as RunState;
      throw error;
    }
  }

  /**
   * Before the commit: writes each loaded run's `last_seq` once; answers the runs that got
   * events, whose waiters are woken once the commit is done.
   */
  *finish(): SqlSteps<string[]> {
    const appended: string[] = [];
    for (const [runId, { state, committedSeq }] of this.#loaded) {
      yield* saveLastSeq(state, committedSeq);
      if (state.run.last_seq > committedSeq) appended.push(runId);
    }
    return appended;
  }
}
