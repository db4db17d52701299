// The delivery store on PostgreSQL: the operations of StepStore in transactions that lock their
// run's row first (the operations on a run that wait share one: a group commit), so the writes to
// one run are ordered across any number of instances (gap-free seqs, one claim per attempt) while
// different runs proceed in parallel. A commit that
// appends events notifies every instance (LISTEN/NOTIFY), whose long polls and streams wake; they
// look at the run again at least every `recheckMs` anyway, so a lost notification only delays.
// A connection lost mid-transaction (its backend terminated, the server restarting) fails its
// group, which runs again on a new pool (renewing-pool.ts) unless its COMMIT was on its way.
import { requireWholeNumber } from "@task-context/core/internal";
import postgres, { type Options, type Sql, type TransactionSql } from "postgres";
import type { ChangedOptions } from "../delivery/delivery-store.ts";
import type { RunTransaction } from "../sql/run-transaction.ts";
import {
  done,
  runStepsAsync,
  type SqlSteps,
  type Statement,
  type Writes,
} from "../sql/sql-steps.ts";
import { requireFunctions, StepStore } from "../sql/step-store.ts";
import { CoalescedWrites } from "./coalesced-writes.ts";
import { isConnectionLost, mayRunStrictly } from "./postgres-errors.ts";
import { migratePostgres } from "./postgres-schema.ts";
import { decodeText, encodeText, postgresText } from "./postgres-sql.ts";
import { requirePostgresUrl } from "./postgres-url.ts";
import { RenewingPool } from "./renewing-pool.ts";

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

/** How far a group commit got: once `committing`, it may have committed, so it never runs again. */
interface Progress {
  committing: boolean;
}

/** An operation waiting for its run's next group commit. */
interface Pending {
  body: (transaction: RunTransaction) => SqlSteps<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Runs one statement on `sql`: its rows. */
function execute(sql: Pick<Sql, "unsafe">, statement: Statement | Writes): Promise<unknown> {
  if (statement.kind === "writes") {
    // Outside a group commit (a read's steps never write): each write as its own statement.
    return Promise.all(statement.statements().map((each) => execute(sql, each)));
  }
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

/** What a statement on a lost connection answers: nothing, ever (see {@link pipeline}). */
const NEVER = new Promise<never>(() => {});

/** The pipelined statements of one transaction (see {@link pipeline}). */
type Pipeline = ReturnType<typeof pipeline>;

/**
 * The statements of one transaction, pipelined: a write (`run`) is sent on without waiting for its
 * answer; the machine's writes (`writes`) are held, folded with the others held
 * (coalesced-writes.ts), and sent as one statement per table and kind before the next statement
 * (read or write) goes out, or by `settle`, which waits for the writes sent so far. `strict`, a
 * read (`all`) first waits for the writes before it, so that their own failure surfaces there;
 * not strict, a read goes out at once (were a write before it refused, PostgreSQL refuses the read
 * too: the transaction is aborted).
 *
 * A statement that finds its connection gone ({@link isConnectionLost}) never answers, nor does
 * any sent after it: the transaction fails with the loss instead (postgres.js's `begin` answers
 * when the connection closes), and nothing more, not even a ROLLBACK, goes to that connection:
 * postgres.js 3.4.9 would write to a socket that is no more, a throw nobody can catch, which ends
 * the process.
 */
function pipeline(sql: Pick<Sql, "unsafe">, { strict }: { strict: boolean }) {
  let unsettled: Promise<unknown>[] = [];
  let lost = false;
  const held = new CoalescedWrites();
  const send = (statement: Statement): Promise<unknown> => {
    if (lost) return NEVER;
    const answer = execute(sql, statement).catch((error: unknown) => {
      if (!isConnectionLost(error)) throw error;
      lost = true;
      return NEVER;
    });
    answer.catch(() => {});
    return answer;
  };
  /** Sends the writes held. */
  const flush = () => {
    if (held.empty) return;
    for (const statement of held.take()) unsettled.push(send(statement));
  };
  const settle = async () => {
    flush();
    const sent = unsettled;
    unsettled = [];
    await Promise.all(sent);
  };
  return {
    settle,
    /** Holds a command's writes, to be sent with the next statement. */
    hold(writes: Writes): void {
      held.add(writes.runId, writes.writes);
    },
    async execute(statement: Statement | Writes): Promise<unknown> {
      if (statement.kind === "writes") {
        held.add(statement.runId, statement.writes);
        return undefined;
      }
      flush();
      const answer = send(statement);
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
 * The savepoint of one operation of a group that is not run strictly: a statement PostgreSQL
 * refuses fails the whole group (which runs again strictly), so the savepoint is only for an
 * operation that throws in JavaScript after its writes were sent. Its writes are held apart until
 * it ends (then with the group's: one statement per table for the whole group) or until it sends
 * a statement of its own (a read): only then is the savepoint set, before its writes go out, and
 * kept when it succeeds (nested, at most {@link GROUP_LIMIT}). An operation that throws with its
 * writes still held undoes them by forgetting them.
 */
function operationSavepoint(statements: Pipeline) {
  let set = false;
  let own: Writes[] = [];
  return {
    execute(statement: Statement | Writes): Promise<unknown> {
      if (statement.kind === "writes") {
        own.push(statement);
        return Promise.resolve(undefined);
      }
      if (own.length > 0) {
        if (!set) {
          set = true;
          void statements.execute(control("SAVEPOINT operation"));
        }
        for (const writes of own) statements.hold(writes);
        own = [];
      }
      return statements.execute(statement);
    },
    /** The operation succeeded: its writes go with the group's. */
    done() {
      for (const writes of own) statements.hold(writes);
      own = [];
    },
    async rollBack() {
      own = [];
      if (!set) return;
      await statements.execute({ ...control("ROLLBACK TO SAVEPOINT operation"), kind: "all" });
      void statements.execute(control("RELEASE SAVEPOINT operation"));
    },
  };
}

/**
 * The most operations one group commit holds: each is a savepoint (a subtransaction), and
 * PostgreSQL caches at most 64 of a transaction's before every snapshot gets slower.
 */
const GROUP_LIMIT = 32;

/**
 * How long a pool that lost a connection gives its other transactions before it closes their
 * connections (each such group then runs again on the new pool, unless it was committing): a
 * connection lost in the middle of a statement keeps its pool from ending until then.
 */
const RETIRE_MS = 2000;

/** How many times a group runs again on a new pool after losing its connection. */
const LOST_CONNECTION_RETRIES = 2;

/**
 * The delivery store on PostgreSQL. Open it with {@link PostgresStore.open} (which migrates the
 * schema once, however many instances start together) and close it with {@link end}.
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
  readonly #pool: RenewingPool;
  /** The connection that listens for the commits of other instances (postgres.js renews it). */
  readonly #listener: Sql;
  /** The operations waiting for their run's next group commit. */
  readonly #pending = new Map<string, Pending[]>();
  /** The runs whose group is being committed. */
  readonly #committing = new Set<string>();
  #unlisten: (() => Promise<void>) | undefined;

  private constructor(pool: RenewingPool, listener: Sql, clock: () => number) {
    super(clock);
    this.#pool = pool;
    this.#listener = listener;
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
    const settings: Options<Record<string, postgres.PostgresType>> = {
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
      // The schema has no array columns. Fetched, the array types are one more query on each
      // new connection, whose failure (the connection lost meanwhile) postgres.js 3.4.9 leaves
      // unhandled: a rejection that ends the process.
      fetch_types: false,
    };
    const pool = new RenewingPool(() => postgres(url, { ...settings, max: maxConnections }), {
      retireMs: RETIRE_MS,
    });
    const listener = postgres(url, { ...settings, max: 1 });
    try {
      await migratePostgres(pool.current);
      const store = new PostgresStore(pool, listener, clock);
      const { unlisten } = await listener.listen(CHANNEL, (runId) => store.waiters.wake(runId));
      store.#unlisten = unlisten;
      return store;
    } catch (error) {
      await Promise.all([pool.end({ timeoutMs: 1000 }), listener.end({ timeout: 1 })]);
      throw error;
    }
  }

  async changed(runId: string, after: number, options: ChangedOptions): Promise<boolean> {
    const lastSeq = await this.look(runId, (state) => done(state.run.last_seq));
    if (lastSeq > after) return true;
    return this.waiters.wait(runId, options);
  }

  protected async read<T>(steps: SqlSteps<T>): Promise<T> {
    const pool = this.#pool.current;
    try {
      return await runStepsAsync((statement) => execute(pool, statement), steps);
    } catch (error) {
      this.#pool.failed(pool, error);
      throw error;
    }
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
      let committed: Committed | undefined;
      let strict = false;
      for (let lost = 0; committed === undefined; ) {
        const progress: Progress = { committing: false };
        try {
          committed = await this.#commitOperations(runId, group, { strict }, progress);
        } catch (error) {
          // Never again once COMMIT was on its way: the group may have committed.
          if (progress.committing) throw error;
          // The connection was lost (the pool is a new one now): again.
          if (isConnectionLost(error) && lost++ < LOST_CONNECTION_RETRIES) continue;
          // A statement PostgreSQL refused, of an operation not known: again, each operation
          // in a savepoint of its own that is answered before the next, so that it fails alone.
          if (strict || !mayRunStrictly(error)) throw error;
          strict = true;
        }
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
   * Runs `group` in one transaction, each operation in a savepoint. The first command on the run
   * locks its row, and reads the rest of its state only when the state kept in memory is not the
   * stored version (another instance changed the run): one round trip. The machine decides each
   * operation in memory; not `strict`, its writes are sent without waiting for them (one round
   * trip for all of them, then the COMMIT): an operation that throws in JavaScript is undone
   * alone, but a write that PostgreSQL refuses rejects the whole transaction with its
   * PostgresError. `strict`, each operation runs in a savepoint whose statements are answered
   * before the next operation starts, so such a statement fails its own operation only. The
   * runs' states are kept once it committed, forgotten when it failed.
   */
  async #commitOperations(
    runId: string,
    group: readonly Pending[],
    { strict }: { strict: boolean },
    progress: Progress,
  ): Promise<Committed> {
    const transaction = this.newTransaction();
    try {
      const committed = await this.#writeOperations(runId, group, strict, progress, transaction);
      this.committed(transaction);
      return committed;
    } catch (error) {
      transaction.failed();
      throw error;
    }
  }

  /** The transaction of {@link #commitOperations}. */
  #writeOperations(
    runId: string,
    group: readonly Pending[],
    strict: boolean,
    progress: Progress,
    transaction: RunTransaction,
  ): Promise<Committed> {
    return this.#inTransaction(progress, async (sql) => {
      const statements = pipeline(sql, { strict });
      const outcomes: Outcome[] = [];
      for (const operation of group) {
        // An operation that fails undoes its own writes only (a refused command wrote nothing).
        if (strict) {
          try {
            const value = await sql.savepoint(async (savepoint) => {
              const own = pipeline(savepoint, { strict });
              const value = await runStepsAsync(own.execute, operation.body(transaction));
              await own.settle();
              return value;
            });
            outcomes.push({ value });
          } catch (error) {
            // Gone, its connection takes nothing more (see pipeline): begin answers the loss.
            if (isConnectionLost(error)) return NEVER;
            // Its writes were undone with its savepoint, after the run's state took them.
            transaction.invalidate(runId);
            outcomes.push({ error });
          }
          continue;
        }
        const saved = operationSavepoint(statements);
        try {
          outcomes.push({ value: await runStepsAsync(saved.execute, operation.body(transaction)) });
          saved.done();
        } catch (error) {
          if (error instanceof postgres.PostgresError) throw error;
          // An earlier operation's write may fail here: the whole group then fails.
          await statements.settle();
          await saved.rollBack();
          outcomes.push({ error });
        }
      }
      const appended = transaction.appended();
      // Delivered to every listening instance when (and only if) the transaction commits.
      for (const id of appended) void statements.execute(notify(id));
      // Answered before the COMMIT is sent: a connection lost until then leaves no doubt that
      // nothing was committed, and the group runs again (see #commitGroup).
      await statements.settle();
      return { appended, outcomes };
    });
  }

  /**
   * Runs `body` in a transaction of the pool (postgres.js's `begin`: `BEGIN`, the body's
   * statements on a connection of its own, `COMMIT` once it has returned — `progress` says when
   * — or `ROLLBACK` when it throws). A failure that means the pool lost a connection renews it.
   */
  async #inTransaction<T>(
    progress: Progress,
    body: (sql: TransactionSql<Record<string, unknown>>) => Promise<T>,
  ): Promise<T> {
    const pool = this.#pool.current;
    try {
      // Wrapped: begin would wait for the elements of an array it is given.
      const result = await pool.begin(async (sql) => {
        const result = await body(sql);
        progress.committing = true;
        return { result };
      });
      return result.result as T;
    } catch (error) {
      this.#pool.failed(pool, error);
      throw error;
    }
  }

  /**
   * Ends every wait, stops listening and closes the connections once their queries are done
   * (waiting at most `timeoutMs`, default 5 000 ms).
   */
  async end({ timeoutMs = 5_000 }: { timeoutMs?: number } = {}): Promise<void> {
    this.close();
    await this.#unlisten?.().catch(() => {});
    await Promise.all([
      this.#pool.end({ timeoutMs }),
      this.#listener.end({ timeout: timeoutMs / 1000 }),
    ]);
  }
}
