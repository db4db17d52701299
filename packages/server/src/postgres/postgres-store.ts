// The delivery store on PostgreSQL: the operations of StepStore, each in its own transaction that
// locks its run's row first, so the writes to one run are ordered across any number of instances
// (gap-free seqs, one claim per item) while different runs proceed in parallel. A commit that
// appends events notifies every instance (LISTEN/NOTIFY), whose long polls and streams wake; they
// look at the run again at least every `recheckMs` anyway, so a lost notification only delays.
import { ArgumentError } from "@task-context/core";
import postgres, { type Sql } from "postgres";
import type { ChangedOptions } from "../delivery/delivery-store.ts";
import type { RunTransaction } from "../sql/run-transaction.ts";
import { done, runStepsAsync, type SqlSteps, type Statement } from "../sql/sql-steps.ts";
import { requireFunctions, StepStore } from "../sql/step-store.ts";
import { migratePostgres } from "./postgres-schema.ts";
import { decodeText, encodeText, postgresText } from "./postgres-sql.ts";

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

/** Runs one statement of the steps on `sql`: its rows, or its count of changes. */
async function execute(sql: Pick<Sql, "unsafe">, statement: Statement): Promise<unknown> {
  const params = statement.params.map((value) =>
    typeof value === "string" ? encodeText(value) : value,
  );
  const rows = await sql.unsafe(postgresText(statement), params as never[], { prepare: true });
  return statement.kind === "all" ? rows : { changes: rows.count };
}

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
    if (typeof url !== "string" || !/^postgres(ql)?:\/\//.test(url)) {
      throw new ArgumentError({
        argument: "url",
        message: "expected a PostgreSQL URL such as postgres://user:password@host:5432/database.",
      });
    }
    const { clock = Date.now, maxConnections = 10, statementTimeoutMs = 30_000 } = options;
    requireFunctions({ "options.clock": clock });
    for (const [argument, value] of [
      ["options.maxConnections", maxConnections],
      ["options.statementTimeoutMs", statementTimeoutMs],
    ] as const) {
      if (!Number.isInteger(value) || value < 1) {
        throw new ArgumentError({
          argument,
          message: `expected a whole number ≥ 1, got ${value}.`,
        });
      }
    }
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

  protected async transact<T>(body: (transaction: RunTransaction) => SqlSteps<T>): Promise<T> {
    const transaction = this.newTransaction();
    const { result, appended } = await this.#sql.begin(async (sql) => {
      const run = (statement: Statement) => execute(sql, statement);
      const result = await runStepsAsync(run, body(transaction));
      const appended = await runStepsAsync(run, transaction.finish());
      // Delivered to every listening instance when (and only if) the transaction commits.
      for (const runId of appended) await sql`SELECT pg_notify(${CHANNEL}, ${runId})`;
      return { result, appended };
    });
    for (const runId of appended) this.waiters.wake(runId);
    return result as T;
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
