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
   * Runs `operation` on the run's state in this transaction: loaded, and its overdue leases
   * expired, by the transaction's first operation on the run.
   */
  *apply<T>(runId: string, operation: (state: RunState) => SqlSteps<T>): SqlSteps<T> {
    let state = this.#loaded.get(runId)?.state;
    if (state === undefined) {
      state = yield* loadRunState(runId, this.#clock(), this.#definitions, { lock: true });
      this.#loaded.set(runId, { state, committedSeq: state.run.last_seq });
      yield* expireOverdueLeases(state);
    }
    return yield* operation(state);
  }

  /**
   * A savepoint of the runs' states: call the function returned when the operation that follows
   * fails and its writes are undone (its savepoint rolled back), and the states are as before it.
   */
  savepoint(): () => void {
    const saved = [...this.#loaded].map(
      ([runId, { state, committedSeq }]) => [runId, copyRunState(state), committedSeq] as const,
    );
    return () => {
      this.#loaded.clear();
      for (const [runId, state, committedSeq] of saved) {
        this.#loaded.set(runId, { state, committedSeq });
      }
    };
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
