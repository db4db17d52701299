// The delivery store on PostgreSQL: the operations of StepStore in transactions that lock their
// run's row first (the operations on a run that wait share one: a group commit), so the writes to
// one run are ordered across any number of instances (gap-free seqs, one claim per attempt) while
// different runs proceed in parallel. A commit that
// appends events notifies every instance (LISTEN/NOTIFY), whose long polls and streams wake; they
// look at the run again at least every `recheckMs` anyway, so a lost notification only delays.
// A connection lost mid-transaction (its backend terminated, the server restarting) fails its
// group, which runs again on a new session (session-pool.ts); lost once its COMMIT was on its way,
// the last event the group appended tells whether it committed (commit-doubt.ts).
import { channel } from "node:diagnostics_channel";
import { performance } from "node:perf_hooks";
import { requireWholeNumber } from "@task-context/core/internal";
import postgres, { type Options, type Sql } from "postgres";
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
import { type CommitIdentity, type CommitMark, IDENTIFY, settleCommit } from "./commit-doubt.ts";
import { CommitListener } from "./commit-listener.ts";
import { isConnectionLost, isTransactionAborted, mayRunStrictly } from "./postgres-errors.ts";
import { migratePostgres } from "./postgres-schema.ts";
import { decodeText, encodeText, postgresText } from "./postgres-sql.ts";
import { requirePostgresUrl } from "./postgres-url.ts";
import { SessionPool } from "./session-pool.ts";

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
  /** The last event of the operations that succeeded, whose row proves the commit. */
  mark: CommitMark | undefined;
}

/** The last event `statement` appends, when it is writes that append one. */
function lastEvent(statement: Statement | Writes): CommitMark | undefined {
  if (statement.kind !== "writes") return undefined;
  for (let index = statement.writes.length - 1; index >= 0; index--) {
    const write = statement.writes[index] as Writes["writes"][number];
    if (write.type === "insertEvent") {
      return { runId: statement.runId, seq: write.event.seq, eventId: write.event.id };
    }
  }
  return undefined;
}

/** What {@link lockHolds} publishes for each group commit that committed. */
export interface LockHold {
  /** The run whose row the group locked. */
  runId: string;
  /** How many operations the group held. */
  operations: number;
  /**
   * Milliseconds from the lock's answer (the first locking read's) to the COMMIT's answer, on
   * this process's clock: how long the run's row stayed locked, give or take the two answers'
   * way from PostgreSQL to the instance.
   */
  holdMs: number;
}

/**
 * The diagnostics channel on which every committed group publishes its {@link LockHold} (when
 * someone subscribes; nothing is measured otherwise): the benchmarks' lock hold times.
 */
export const lockHolds = channel("task-context:postgres:lock-hold");

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
 * any sent after it: `gone` rejects with the loss instead, and nothing more, not even a ROLLBACK,
 * goes to that connection: postgres.js 3.4.9 would write to a socket that is no more, a throw
 * nobody can catch, which ends the process. Once the transaction is given up (`abandon`, or the
 * loss), an answer still to come is never delivered either: the steps that asked for it stay
 * where they are, and cannot go on to change a run's state the store keeps.
 */
function pipeline(sql: Pick<Sql, "unsafe">, { strict }: { strict: boolean }) {
  let unsettled: Promise<unknown>[] = [];
  let lost = false;
  let abandoned = false;
  let onLost: (error: unknown) => void = () => {};
  /** Rejects with the loss once a statement found the connection gone. */
  const gone = new Promise<never>((_, reject) => {
    onLost = reject;
  });
  gone.catch(() => {});
  const held = new CoalescedWrites();
  /** When the first locking read answered (performance.now()), once it has. */
  let lockedAt: number | undefined;
  /** The last error PostgreSQL answered a statement with, but "transaction aborted". */
  let failure: unknown;
  // One reaction per answer, attached as each statement is sent: the reactions run in the order
  // PostgreSQL answered, so the statements that follow a failed one in the pipeline reject with
  // its error (a cancelled lock's 57014, say) rather than their own 25P02, whichever is awaited.
  const send = (statement: Statement): Promise<unknown> => {
    if (lost || abandoned) return NEVER;
    const answer = execute(sql, statement).then(
      (rows) => {
        if (statement.lock === true) lockedAt ??= performance.now();
        return lost || abandoned ? NEVER : rows;
      },
      (error: unknown) => {
        if (!isConnectionLost(error)) {
          if (!isTransactionAborted(error)) failure = error;
          throw isTransactionAborted(error) && failure !== undefined ? failure : error;
        }
        lost = true;
        onLost(error);
        return NEVER;
      },
    );
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
    gone,
    /** The transaction is given up: no answer still to come is delivered, nothing more is sent. */
    abandon(): void {
      abandoned = true;
    },
    /** Whether a statement found the connection gone: nothing more goes to it. */
    get lost(): boolean {
      return lost;
    },
    /** When the first locking read answered (performance.now()), once it has. */
    get lockedAt(): number | undefined {
      return lockedAt;
    },
    /** Forgets the writes held (their operation failed before they were sent). */
    discard(): void {
      held.take();
    },
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
 * How long a session that lost its connection is given to end before its connection is closed
 * (a connection lost in the middle of a statement keeps its client from ending until then).
 */
const RETIRE_MS = 2000;

/** How many times a group runs again on a new session after losing its connection. */
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
  readonly #sessions: SessionPool;
  /** The connection that listens for the commits of other instances, listened again when lost. */
  #listener: CommitListener | undefined;
  /** The operations waiting for their run's next group commit. */
  readonly #pending = new Map<string, Pending[]>();
  /** The runs whose group is being committed. */
  readonly #committing = new Set<string>();

  private constructor(sessions: SessionPool, clock: () => number) {
    super(clock);
    this.#sessions = sessions;
    // The rows carry the version that last wrote them (postgres-schema.ts, coalesced-writes.ts):
    // a run another instance changed is brought up to date with what changed, not read whole.
    this.states.versionedRows = true;
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
    const sessions = new SessionPool({
      create: () => postgres(url, { ...settings, max: 1 }),
      max: maxConnections,
      retireMs: RETIRE_MS,
    });
    try {
      const session = await sessions.acquire();
      await migratePostgres(session);
      sessions.release(session);
      const store = new PostgresStore(sessions, clock);
      store.#listener = await CommitListener.start(url, settings, CHANNEL, {
        notified: (runId) => store.waiters.wake(runId),
        // Commits made while it was not listening were not heard: every waiter looks again.
        listeningAgain: () => store.missedChanges(),
      });
      return store;
    } catch (error) {
      await sessions.end({ timeoutMs: 1000 });
      throw error;
    }
  }

  async changed(runId: string, after: number, options: ChangedOptions): Promise<boolean> {
    const lastSeq = await this.look(runId, (state) => done(state.run.last_seq));
    if (lastSeq > after) return true;
    return this.waiters.wait(runId, options);
  }

  protected async read<T>(steps: SqlSteps<T>): Promise<T> {
    const session = await this.#sessions.acquire();
    try {
      const value = await runStepsAsync((statement) => execute(session, statement), steps);
      this.#sessions.release(session);
      return value;
    } catch (error) {
      if (isConnectionLost(error)) this.#sessions.discard(session);
      else this.#sessions.release(session);
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
        try {
          committed = await this.#commitOperations(runId, group, { strict });
        } catch (error) {
          // The connection was lost and the group did not commit (its COMMIT, if sent, was
          // settled as not committed: commit-doubt.ts): again, on a new session.
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
   * locks its row and, when the state kept in memory is not the stored version (another instance
   * changed the run), reads the rows written since that version (asked for with the lock when
   * the last group found the run changed too): one round trip. The machine decides each
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
  ): Promise<Committed> {
    const transaction = this.newTransaction();
    try {
      const committed = await this.#writeOperations(runId, group, strict, transaction);
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
    transaction: RunTransaction,
  ): Promise<Committed> {
    return this.#inTransaction(runId, group.length, strict, async (statements) => {
      const outcomes: Outcome[] = [];
      let mark: CommitMark | undefined;
      for (const operation of group) {
        /** The last event of this operation's writes: the group's mark once it succeeds. */
        let own: CommitMark | undefined;
        const marking =
          (execute: (statement: Statement | Writes) => Promise<unknown>) =>
          (statement: Statement | Writes) => {
            own = lastEvent(statement) ?? own;
            return execute(statement);
          };
        // An operation that fails undoes its own writes only (a refused command wrote nothing).
        if (strict) {
          void statements.execute(control("SAVEPOINT operation"));
          try {
            const value = await runStepsAsync(
              marking(statements.execute),
              operation.body(transaction),
            );
            await statements.settle();
            void statements.execute(control("RELEASE SAVEPOINT operation"));
            outcomes.push({ value });
            mark = own ?? mark;
          } catch (error) {
            statements.discard();
            await statements.execute({
              ...control("ROLLBACK TO SAVEPOINT operation"),
              kind: "all",
            });
            void statements.execute(control("RELEASE SAVEPOINT operation"));
            // Its writes were undone with its savepoint, after the run's state took them.
            transaction.invalidate(runId);
            outcomes.push({ error });
          }
          continue;
        }
        const saved = operationSavepoint(statements);
        try {
          outcomes.push({
            value: await runStepsAsync(marking(saved.execute), operation.body(transaction)),
          });
          saved.done();
          mark = own ?? mark;
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
      return { appended, outcomes, mark };
    });
  }

  /**
   * Runs `body` in a transaction on a session of its own (session-pool.ts): `BEGIN` and the
   * transaction's id go out with the body's first statement (the run's lock: one round trip);
   * the body's writes and the `COMMIT` go out together (one more): the run's row stays locked
   * for one round trip after the lock's answer. A connection lost once the COMMIT is on its way
   * leaves the outcome in doubt until the last event the group appended (`mark`), found once the
   * transaction's backend has ended, says it (commit-doubt.ts): committed,
   * `body`'s result is the answer; not committed, the loss is thrown and the group runs again.
   * A session whose connection is lost is never lent again (see session-pool.ts).
   */
  async #inTransaction(
    runId: string,
    operations: number,
    strict: boolean,
    body: (statements: Pipeline) => Promise<Committed>,
  ): Promise<Committed> {
    const session = await this.#sessions.acquire();
    const statements = pipeline(session, { strict });
    /** Once the COMMIT is on its way: the transaction's id, and the body's result. */
    let sent: { identity: CommitIdentity; result: Committed } | undefined;
    try {
      void statements.execute(control("BEGIN"));
      const identity = statements.execute({ kind: "all", sql: IDENTIFY, params: [] });
      identity.catch(() => {});
      const result = await Promise.race([
        (async () => {
          const result = await body(statements);
          const [row] = (await identity) as CommitIdentity[];
          sent = { identity: row as CommitIdentity, result };
          // The writes and the COMMIT in one batch: a write PostgreSQL refuses aborts the
          // transaction, whose COMMIT then rolls it back (no doubt: it did not commit).
          const commit = statements.execute({ ...control("COMMIT"), kind: "all" });
          await statements.settle();
          await commit;
          return result;
        })(),
        statements.gone,
      ]);
      this.#sessions.release(session);
      this.#published(runId, operations, statements.lockedAt);
      return result;
    } catch (error) {
      statements.abandon();
      if (statements.lost) this.#sessions.discard(session);
      else await this.#rollBack(session);
      if (sent === undefined || !isConnectionLost(error)) throw error;
      await settleCommit(this.#sessions, sent.identity, sent.result.mark, error);
      return sent.result;
    }
  }

  /** Publishes a committed group's {@link LockHold} to whoever subscribed to {@link lockHolds}. */
  #published(runId: string, operations: number, lockedAt: number | undefined): void {
    if (lockedAt === undefined || !lockHolds.hasSubscribers) return;
    const hold: LockHold = { runId, operations, holdMs: performance.now() - lockedAt };
    lockHolds.publish(hold);
  }

  /** Rolls the session's transaction back and gives it back, or ends it when it is lost. */
  async #rollBack(session: Sql): Promise<void> {
    try {
      await session.unsafe("ROLLBACK");
    } catch (error) {
      if (isConnectionLost(error)) {
        this.#sessions.discard(session);
        return;
      }
    }
    this.#sessions.release(session);
  }

  /**
   * Ends every wait, stops listening and closes the connections once their queries are done
   * (waiting at most `timeoutMs`, default 5 000 ms).
   */
  async end({ timeoutMs = 5_000 }: { timeoutMs?: number } = {}): Promise<void> {
    this.close();
    await Promise.all([this.#sessions.end({ timeoutMs }), this.#listener?.end(timeoutMs)]);
  }
}
