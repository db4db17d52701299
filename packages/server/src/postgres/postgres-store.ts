// The delivery store on PostgreSQL: the operations of StepStore in transactions that lock their
// run's row first (the operations on a run that wait share one: a group commit), so the writes to
// one run are ordered across any number of instances (gap-free seqs, one claim per attempt) while
// different runs proceed in parallel. A commit that
// appends events notifies every instance (LISTEN/NOTIFY), whose long polls and streams wake; they
// look at the run again at least every `recheckMs` anyway, so a lost notification only delays.
import { requireWholeNumber } from "@task-context/core/internal";
import postgres, { type Sql } from "postgres";
import type { ChangedOptions } from "../delivery/delivery-store.ts";
import type { RunTransaction } from "../sql/run-transaction.ts";
import { done, runStepsAsync, type SqlSteps, type Statement } from "../sql/sql-steps.ts";
import { requireFunctions, StepStore } from "../sql/step-store.ts";
import { migratePostgres } from "./postgres-schema.ts";
import { decodeText, encodeText, postgresText } from "./postgres-sql.ts";
import { requirePostgresUrl } from "./postgres-url.ts";

/** The channel a commit notifies with the id of each run it appended events to. */
const CHANNEL = "task_context_runs";

/** Options of {@link PostgresStore.open}. */
export interface PostgresStoreOptions {
  /** The time in milliseconds since the epoch; tests move it instead of sleeping. */
  clock?: () => number;
  /** The most connections this instance opens (default 10), besides the one that listens. */
  maxConnections?: number;
  /** A statement that runs longer than this is cancelled (default 30 000 ms). */
  statementTimeoutMs?: number;
}

/** BIGINT (times in milliseconds, counts, seqs) as JavaScript numbers: all stay below 2^53. */
const bigintAsNumber = {
  to: 20,
  from: [20],
  serialize: (value: number) => String(value),
  parse: (value: string) => Number(value),
};

/** How one operation of a group ended. */
type Outcome = { value: unknown } | { error: unknown };

/** A group commit's outcome: each operation's, and the runs it appended events to. */
interface Committed {
  outcomes: Outcome[];
  appended: string[];
}

/** An operation waiting for its run's next group commit. */
interface Pending {
  body: (transaction: RunTransaction) => SqlSteps<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Runs one statement on `sql`: its rows. */
function execute(sql: Pick<Sql, "unsafe">, statement: Statement): Promise<unknown> {
  const params = statement.params.map((value) =>
    typeof value === "string" ? encodeText(value) : value,
  );
  return sql.unsafe(postgresText(statement), params as never[], { prepare: true });
}

/** `SELECT pg_notify(channel, runId)`, as a write nobody waits for. */
const notify = (runId: string): Statement => ({
  kind: "run",
  sql: "SELECT pg_notify(?, ?)",
  params: [CHANNEL, runId],
});

/** A statement with no parameters (a transaction's control), sent without waiting for it. */
const control = (sql: string): Statement => ({ kind: "run", sql, params: [] });

/**
 * The savepoint of one operation of a group. `strict`, set before the operation's first statement
 * and released after its last: any statement of it may fail and be undone alone. Not strict, a
 * statement PostgreSQL refuses fails the whole group (which runs again strictly), so the savepoint
 * is only for an operation that throws in JavaScript after it wrote: set before its first write,
 * and kept when it succeeds (nested, at most {@link GROUP_LIMIT}) — one statement less for each.
 */
function savepoints(statements: Pipeline, { strict }: { strict: boolean }) {
  let set = false;
  const setSavepoint = () => {
    set = true;
    void statements.execute(control("SAVEPOINT operation"));
  };
  if (strict) setSavepoint();
  return {
    execute(statement: Statement): Promise<unknown> {
      if (!set && statement.kind === "run") setSavepoint();
      return statements.execute(statement);
    },
    release() {
      if (strict) void statements.execute(control("RELEASE SAVEPOINT operation"));
    },
    async rollBack(connection: Pick<Sql, "unsafe">) {
      if (!set) return;
      await execute(connection, control("ROLLBACK TO SAVEPOINT operation"));
      void statements.execute(control("RELEASE SAVEPOINT operation"));
    },
  };
}

/** The pipelined statements of one transaction (see {@link pipeline}). */
type Pipeline = ReturnType<typeof pipeline>;

/**
 * The statements of one transaction, pipelined: a write (`run`) is sent on without waiting for its
 * answer; `settle` waits for the writes sent so far. `strict`, a read (`all`) first waits for the
 * writes before it, so that their own failure surfaces there; not strict, a read goes out at once
 * (were a write before it refused, PostgreSQL refuses the read too: the transaction is aborted).
 */
function pipeline(sql: Pick<Sql, "unsafe">, { strict }: { strict: boolean }) {
  let unsettled: Promise<unknown>[] = [];
  const settle = async () => {
    const sent = unsettled;
    unsettled = [];
    await Promise.all(sent);
  };
  return {
    settle,
    async execute(statement: Statement): Promise<unknown> {
      const answer = execute(sql, statement);
      answer.catch(() => {});
      if (statement.kind === "run") {
        unsettled.push(answer);
        return undefined;
      }
      if (strict) await settle();
      return answer;
    },
  };
}

/**
 * The most operations one group commit holds: each is a savepoint (a subtransaction), and
 * PostgreSQL caches at most 64 of a transaction's before every snapshot gets slower.
 */
const GROUP_LIMIT = 32;

/**
 * The delivery store on PostgreSQL. Open it with {@link PostgresStore.open} (which migrates the
 * schema once, however many instances start together) and close it with {@link close}.
 *
 * @example
 * ```ts source="../../examples/postgres-store.ts#PostgresStore"
 * const store = await PostgresStore.open(process.env.TASK_CONTEXT_DATABASE_URL ?? "", {
 *   maxConnections: 10,
 * });
 * const adminToken = process.env.TASK_CONTEXT_ADMIN_TOKEN ?? "a-long-random-secret-0123456789";
 * const app = createApp({ store, auth: { adminToken } });
 * ```
 */
export class PostgresStore extends StepStore {
  readonly #sql: Sql;
  /** The operations waiting for their run's next group commit. */
  readonly #pending = new Map<string, Pending[]>();
  /** The runs whose group is being committed. */
  readonly #committing = new Set<string>();
  #unlisten: (() => Promise<void>) | undefined;

  private constructor(sql: Sql, clock: () => number) {
    super(clock);
    this.#sql = sql;
  }

  /**
   * Connects to `url` (`postgres://user:password@host:port/database`), brings the schema up to
   * date and listens for the commits of other instances.
   */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    requirePostgresUrl("url", url);
    const { clock = Date.now, maxConnections = 10, statementTimeoutMs = 30_000 } = options;
    requireFunctions({ "options.clock": clock });
    requireWholeNumber("options.maxConnections", maxConnections, 1);
    requireWholeNumber("options.statementTimeoutMs", statementTimeoutMs, 1);
    const sql = postgres(url, {
      max: maxConnections,
      types: { bigint: bigintAsNumber },
      transform: {
        value: {
          from: (value: unknown) => (typeof value === "string" ? decodeText(value) : value),
        },
      },
      connection: {
        application_name: "task-context-server",
        statement_timeout: statementTimeoutMs,
      },
      onnotice: () => {},
    });
    try {
      await migratePostgres(sql);
      const store = new PostgresStore(sql, clock);
      const { unlisten } = await sql.listen(CHANNEL, (runId) => store.waiters.wake(runId));
      store.#unlisten = unlisten;
      return store;
    } catch (error) {
      await sql.end({ timeout: 1 });
      throw error;
    }
  }

  async changed(runId: string, after: number, options: ChangedOptions): Promise<boolean> {
    const lastSeq = await this.write(runId, (state) => done(state.run.last_seq));
    if (lastSeq > after) return true;
    return this.waiters.wait(runId, options);
  }

  protected read<T>(steps: SqlSteps<T>): Promise<T> {
    return runStepsAsync((statement) => execute(this.#sql, statement), steps);
  }

  /**
   * Group commit, per run: the operations on a run that arrive while its last group is being
   * committed (or in the same turn of the event loop) share one transaction — one lock of the
   * run's row, one flush to disk — each in its own savepoint, each answered after the commit.
   * Groups of different runs commit in parallel, each on its own connection.
   */
  protected transact<T>(
    runId: string,
    body: (transaction: RunTransaction) => SqlSteps<T>,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let queue = this.#pending.get(runId);
      if (queue === undefined) {
        queue = [];
        this.#pending.set(runId, queue);
        if (!this.#committing.has(runId)) setImmediate(() => void this.#commitGroup(runId));
      }
      queue.push({ body, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Commits the operations waiting on `runId` in one transaction, then the next group, if any. */
  async #commitGroup(runId: string): Promise<void> {
    const waiting = this.#pending.get(runId) ?? [];
    const group = waiting.splice(0, GROUP_LIMIT);
    if (waiting.length === 0) this.#pending.delete(runId);
    this.#committing.add(runId);
    try {
      let committed: Committed;
      try {
        committed = await this.#commitOperations(group, { strict: false });
      } catch (error) {
        if (!(error instanceof postgres.PostgresError)) throw error;
        // A write failed in PostgreSQL, and which operation it belonged to is not known: again,
        // each operation's writes answered before the next operation starts.
        committed = await this.#commitOperations(group, { strict: true });
      }
      for (const id of committed.appended) this.waiters.wake(id);
      group.forEach((operation, index) => {
        const outcome = committed.outcomes[index] as Outcome;
        if ("error" in outcome) operation.reject(outcome.error);
        else operation.resolve(outcome.value);
      });
    } catch (error) {
      // The transaction failed as a whole: nothing of the group is written.
      for (const operation of group) operation.reject(error);
    } finally {
      this.#committing.delete(runId);
      if (this.#pending.has(runId)) void this.#commitGroup(runId);
    }
  }

  /**
   * Runs `group` in one transaction, each operation in its own savepoint. Not `strict`, the
   * writes of an operation may still be on their way when the next starts (one round trip less
   * each): an operation that throws in JavaScript is undone alone, but a write or read that
   * PostgreSQL refuses rejects the whole transaction with its PostgresError. `strict`, each
   * operation's writes are answered before the next starts, so such a statement fails its own
   * operation only.
   */
  #commitOperations(
    group: readonly Pending[],
    { strict }: { strict: boolean },
  ): Promise<Committed> {
    return this.#inTransaction({ strict }, async (statements, connection) => {
      const transaction = this.newTransaction();
      const outcomes: Outcome[] = [];
      for (const operation of group) {
        // An operation that fails undoes its own writes and state only.
        const undo = transaction.savepoint();
        const saved = savepoints(statements, { strict });
        try {
          const value = await runStepsAsync(saved.execute, operation.body(transaction));
          if (strict) await statements.settle();
          saved.release();
          outcomes.push({ value });
        } catch (error) {
          if (!strict && error instanceof postgres.PostgresError) throw error;
          undo();
          // Not strict, an earlier operation's write may fail here: the whole group then fails.
          if (strict) await statements.settle().catch(() => {});
          else await statements.settle();
          await saved.rollBack(connection);
          outcomes.push({ error });
        }
      }
      const appended = await runStepsAsync(statements.execute, transaction.finish());
      // Delivered to every listening instance when (and only if) the transaction commits.
      for (const id of appended) void statements.execute(notify(id));
      return { appended, outcomes };
    });
  }

  /**
   * Runs `body` in a transaction on a connection of its own, its statements pipelined: `BEGIN`
   * is sent with the first of them, `COMMIT` once every write has been answered; a failure rolls
   * everything back.
   */
  async #inTransaction<T>(
    { strict }: { strict: boolean },
    body: (statements: Pipeline, connection: Pick<Sql, "unsafe">) => Promise<T>,
  ): Promise<T> {
    const connection = await this.#sql.reserve();
    try {
      const statements = pipeline(connection, { strict });
      void statements.execute(control("BEGIN"));
      const result = await body(statements, connection);
      await statements.settle();
      await execute(connection, control("COMMIT"));
      return result;
    } catch (error) {
      await connection.unsafe("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      connection.release();
    }
  }

  /**
   * Ends every wait, stops listening and closes the connections once their queries are done
   * (waiting at most `timeoutMs`, default 5 000 ms).
   */
  async end({ timeoutMs = 5_000 }: { timeoutMs?: number } = {}): Promise<void> {
    this.close();
    await this.#unlisten?.().catch(() => {});
    await this.#sql.end({ timeout: timeoutMs / 1000 });
  }
}
