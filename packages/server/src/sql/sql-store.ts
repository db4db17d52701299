import type { ChangedOptions } from "../delivery/delivery-store.ts";
import type { RunTransaction } from "./run-transaction.ts";
import { migrate } from "./schema.ts";
import type { SqlDatabase } from "./sql-database.ts";
import {
  done,
  HeldWrites,
  runSteps,
  type SqlSteps,
  type WriteHold,
  type Writes,
} from "./sql-steps.ts";
import { requireFunctions, StepStore } from "./step-store.ts";

/** Options of {@link SqlStore}. */
export interface SqlStoreOptions {
  /** The time in milliseconds since the epoch; tests move it instead of sleeping. */
  clock?: () => number;
  /**
   * Group commit: the operations that arrive before `schedule` calls back share one transaction
   * (one that fails undoes only its own writes), their writes folded and written once, and each is
   * answered after that commit. On Node, `setImmediate`: the requests read in one turn of the
   * event loop commit together, which shares the commit's cost (its flush to disk, with
   * `durability: "machine"`) and writes each page they touch once. Without it, every operation
   * commits on its own (a Durable Object, whose storage coalesces writes itself).
   */
  schedule?: (flush: () => void) => void;
}

/** An operation waiting for the next group commit. */
interface Pending {
  body: (transaction: RunTransaction) => SqlSteps<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The delivery store over a synchronous SQL database (SQLite on Node, a Durable Object's storage):
 * the operations of {@link StepStore}, each in its own transaction, or each in its own savepoint of
 * a group commit. One store holds any number of runs (Node), or the one run of a Durable Object
 * (Workers).
 */
export class SqlStore extends StepStore {
  readonly #database: SqlDatabase;
  readonly #schedule: ((flush: () => void) => void) | undefined;
  #pending: Pending[] = [];

  constructor(database: SqlDatabase, { clock = Date.now, schedule }: SqlStoreOptions = {}) {
    requireFunctions({ "options.clock": clock, "options.schedule": schedule });
    super(clock);
    this.#database = database;
    this.#schedule = schedule;
    migrate(database);
  }

  async changed(runId: string, after: number, options: ChangedOptions): Promise<boolean> {
    // Looked at and waited for in one step, not in a group commit: a write in between would
    // wake no one.
    const lastSeq = this.#transaction((transaction) =>
      this.#run(
        transaction.execute(runId, { type: "expireLeases" }, (_, state) =>
          done(state.run.last_seq),
        ),
      ),
    );
    if (lastSeq > after) return true;
    return this.waiters.wait(runId, options);
  }

  protected async read<T>(steps: SqlSteps<T>): Promise<T> {
    return this.#run(steps);
  }

  #run<T>(steps: SqlSteps<T>): T {
    return runSteps(this.#database, steps);
  }

  /** Commits `body` in its own transaction, or queues it for the next group commit. */
  protected transact<T>(
    _runId: string,
    body: (transaction: RunTransaction) => SqlSteps<T>,
  ): Promise<T> {
    if (this.#schedule === undefined) {
      try {
        return Promise.resolve(this.#alone(body));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      if (this.#pending.length === 0) this.#schedule?.(() => this.#flush());
      this.#pending.push({ body, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Runs one operation in a transaction of its own. */
  #alone<T>(body: (transaction: RunTransaction) => SqlSteps<T>): T {
    return this.#transaction((transaction) => this.#run(body(transaction)));
  }

  /**
   * Runs `fn` in a transaction; once it has committed, keeps the runs' states and wakes the
   * waiters of the runs it appended events to (when it fails, forgets the states it changed).
   */
  #transaction<T>(fn: (transaction: RunTransaction) => T): T {
    const transaction = this.newTransaction();
    let result: T;
    try {
      result = this.#database.transaction(() => fn(transaction));
    } catch (error) {
      transaction.failed();
      throw error;
    }
    for (const runId of this.committed(transaction)) this.waiters.wake(runId);
    return result;
  }

  /**
   * One group commit: every pending operation in one transaction. The writes of the operations
   * are held, folded into the rows they leave, and written once before the next statement that
   * goes out or before the commit: a run row changed by thirty operations is written once. An
   * operation that fails with its writes still held undoes them by forgetting them; one that
   * sends a statement with writes of its own held runs on from there in a savepoint, which undoes
   * its writes alone should it fail.
   */
  #flush(): void {
    const pending = this.#pending;
    this.#pending = [];
    const outcomes: Array<{ value: unknown } | { error: unknown }> = [];
    let writing = false;
    try {
      this.#transaction((transaction) => {
        const group = new HeldWrites(this.#database);
        for (const operation of pending) {
          outcomes.push(this.#operation(group, operation.body(transaction)));
        }
        writing = true;
        group.write();
        writing = false;
      });
    } catch (error) {
      // Nothing of the group is written. When the commit failed, every operation fails with it;
      // when the database refused the group's held writes, which went out as one, each runs
      // again alone (in its own transaction, as without a group commit): an operation whose
      // write is refused fails by itself, and the others do not fail with it.
      if (!writing || pending.length === 1) {
        for (const operation of pending) operation.reject(error);
        return;
      }
      for (const operation of pending) {
        try {
          operation.resolve(this.#alone(operation.body));
        } catch (alone) {
          operation.reject(alone);
        }
      }
      return;
    }
    pending.forEach((operation, index) => {
      const outcome = outcomes[index] as { value: unknown } | { error: unknown };
      if ("error" in outcome) operation.reject(outcome.error);
      else operation.resolve(outcome.value);
    });
  }

  /** Runs one operation of a group commit whose writes `group` holds (see {@link #flush}). */
  #operation(group: HeldWrites, steps: SqlSteps<unknown>): { value: unknown } | { error: unknown } {
    let own: Writes[] = [];
    const hold: WriteHold = {
      add: (writes) => {
        own.push(writes);
      },
      write: () => {
        for (const writes of own) group.add(writes);
        own = [];
        group.write();
      },
      mustEnclose: () => {
        if (own.length === 0) return false;
        group.write();
        return true;
      },
    };
    try {
      const value = runSteps(this.#database, steps, hold);
      for (const writes of own) group.add(writes);
      return { value };
    } catch (error) {
      // A refused command wrote nothing; writes still held are forgotten.
      return { error };
    }
  }
}
