// The store's SQL as steps: a store function is a generator that yields each statement it needs
// and receives its rows or its count of changes, so that one function runs on a synchronous
// database (SQLite on Node, a Durable Object's storage) and on an asynchronous one (PostgreSQL)
// alike. The statements are written for SQLite, with `?` placeholders; an asynchronous engine
// translates them once (see ../postgres/postgres-sql.ts).
import type { Write } from "../delivery/machine/writes.ts";
import { FoldedWrites } from "./folded-writes.ts";
import { rowStatements } from "./persist-writes.ts";
import type { SqlDatabase, SqlValue } from "./sql-database.ts";

/** One statement for the engine to run: `all` answers its rows, `run` nothing. */
export interface Statement {
  kind: "all" | "run";
  sql: string;
  params: SqlValue[];
  /**
   * The rows it reads stay locked until the transaction ends: `FOR UPDATE` on PostgreSQL; SQLite
   * needs nothing (its one writer holds the whole database).
   */
  lock?: true;
}

/** Queries sent together (pipelined on PostgreSQL): their answers, each query's rows, in order. */
export interface Batch {
  kind: "batch";
  statements: Statement[];
}

/**
 * The machine's writes of one command on a run, none of which reads: an engine may hold them and
 * write those of many commands together, folded into the rows they leave (folded-writes.ts),
 * before its next statement or its commit: one statement a row on a synchronous engine
 * ({@link HeldWrites}), one per table and kind on PostgreSQL (../postgres/coalesced-writes.ts).
 */
export interface Writes {
  kind: "writes";
  runId: string;
  writes: readonly Write[];
  /** The statements of these writes alone: one a row they leave. */
  statements(): Statement[];
}

/** What a store function yields: one statement, a batch of queries, or a command's writes. */
export type Step = Statement | Batch | Writes;

/** A store function in steps: it yields statements and returns `T`. */
export type SqlSteps<T> = Generator<Step, T, unknown>;

/** The rows of one query. */
export function* all<Row>(sql: string, ...params: SqlValue[]): SqlSteps<Row[]> {
  return (yield { kind: "all", sql, params }) as Row[];
}

/** The rows of one query, locked against other writers until the transaction ends. */
export function* lockedRows<Row>(sql: string, ...params: SqlValue[]): SqlSteps<Row[]> {
  return (yield { kind: "all", sql, params, lock: true }) as Row[];
}

/**
 * The rows of each query of `statements`, sent together: one round trip on an asynchronous
 * engine, where {@link all} after {@link all} takes one each.
 */
export function* batch<Rows = unknown[]>(statements: Statement[]): SqlSteps<Rows[]> {
  return (yield { kind: "batch", statements }) as Rows[];
}

/** Steps that need no statement: they return `value`. */
// biome-ignore lint/correctness/useYield: the steps of a value run no statement.
export function* done<T>(value: T): SqlSteps<T> {
  return value;
}

/**
 * Runs one statement whose answer the store does not read (a write). An asynchronous engine may
 * send it on without waiting for it (pipelined): a failure then surfaces at the next statement
 * whose rows are read, or at the end of the operation.
 */
export function* run(sql: string, ...params: SqlValue[]): SqlSteps<void> {
  yield { kind: "run", sql, params };
}

/**
 * Where a synchronous engine keeps the commands' writes of its steps: held (folded) until a
 * statement of the steps goes out, or until the steps end.
 */
export interface WriteHold {
  /** Holds one command's writes. */
  add(writes: Writes): void;
  /** Writes what is held: before each statement of the steps. */
  write(): void;
  /**
   * Before a statement of steps that run outside a savepoint: whether writes held of these steps
   * must be undone alone should the steps fail once they are written. The rest of the steps then
   * runs in a savepoint (a nested transaction); a hold writes the writes it holds of others
   * before it answers true, so that they stay outside.
   */
  mustEnclose?(): boolean;
}

/** A hold that folds the writes (folded-writes.ts) and writes them, one statement a row. */
export class HeldWrites implements WriteHold {
  readonly #database: SqlDatabase;
  readonly #folded = new FoldedWrites();

  constructor(database: SqlDatabase) {
    this.#database = database;
  }

  add(writes: Writes): void {
    this.#folded.add(writes.runId, writes.writes);
  }

  write(): void {
    if (this.#folded.empty) return;
    for (const { sql, params } of rowStatements(this.#folded.take())) {
      this.#database.run(sql, ...params);
    }
  }
}

/**
 * Runs `steps` to their end on a synchronous database, each statement as it is yielded; the
 * commands' writes go to `hold` (by default held until the next statement, or the end, and then
 * written); a statement that fails throws inside the steps (their `finally` blocks run).
 */
export function runSteps<T>(database: SqlDatabase, steps: SqlSteps<T>, hold?: WriteHold): T {
  const held = hold ?? new HeldWrites(database);
  const result = continueSteps(database, steps, held, steps.next(), false);
  if (hold === undefined) held.write();
  return result;
}

/** Runs `steps` on from `step` (see {@link runSteps}), inside a savepoint once `enclosed`. */
function continueSteps<T>(
  database: SqlDatabase,
  steps: SqlSteps<T>,
  hold: WriteHold,
  first: IteratorResult<Step, T>,
  enclosed: boolean,
): T {
  const execute = ({ kind, sql, params }: Statement) =>
    kind === "all" ? database.all(sql, ...params) : database.run(sql, ...params);
  let step = first;
  while (step.done !== true) {
    const value = step.value;
    if (value.kind === "writes") {
      hold.add(value);
      step = steps.next(undefined);
      continue;
    }
    if (!enclosed && hold.mustEnclose?.() === true) {
      // Once at most: the rest of the steps in a savepoint, undone alone should they fail.
      const current = step;
      return database.transaction(() => continueSteps(database, steps, hold, current, true));
    }
    let answer: unknown;
    try {
      hold.write();
      answer = value.kind === "batch" ? value.statements.map(execute) : execute(value);
    } catch (error) {
      step = steps.throw(error);
      continue;
    }
    step = steps.next(answer);
  }
  return step.value;
}

/**
 * Runs `steps` to their end on an asynchronous engine: `execute` answers each `all` statement's
 * rows (and may answer a `run` statement, or hold a command's writes, before they are done: see
 * {@link run}); a batch's queries are all sent before the first answer is awaited.
 */
export async function runStepsAsync<T>(
  execute: (statement: Statement | Writes) => Promise<unknown>,
  steps: SqlSteps<T>,
): Promise<T> {
  let step = steps.next();
  while (step.done !== true) {
    const value = step.value;
    let answer: unknown;
    try {
      answer =
        value.kind === "batch"
          ? await Promise.all(value.statements.map((statement) => execute(statement)))
          : await execute(value);
    } catch (error) {
      step = steps.throw(error);
      continue;
    }
    step = steps.next(answer);
  }
  return step.value;
}
