// The store's SQL as steps: a store function is a generator that yields each statement it needs
// and receives its rows or its count of changes, so that one function runs on a synchronous
// database (SQLite on Node, a Durable Object's storage) and on an asynchronous one (PostgreSQL)
// alike. The statements are written for SQLite, with `?` placeholders; an asynchronous engine
// translates them once (see ../postgres/postgres-sql.ts).
import type { Write } from "../delivery/machine/writes.ts";
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
 * The machine's writes of one command on a run, none of which reads: a synchronous engine runs
 * `statements()` (one statement a row); an asynchronous one may hold them and send the writes of
 * many commands together, folded into one statement per table and kind (see
 * ../postgres/coalesced-writes.ts), before its next read or its commit.
 */
export interface Writes {
  kind: "writes";
  runId: string;
  writes: readonly Write[];
  /** One statement for each write, in order. */
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
 * Runs `steps` to their end on a synchronous database, each statement as it is yielded; a
 * statement that fails throws inside the steps (their `finally` blocks run).
 */
export function runSteps<T>(database: SqlDatabase, steps: SqlSteps<T>): T {
  const execute = ({ kind, sql, params }: Statement) =>
    kind === "all" ? database.all(sql, ...params) : database.run(sql, ...params);
  let step = steps.next();
  while (step.done !== true) {
    const value = step.value;
    let answer: unknown;
    try {
      if (value.kind === "batch") answer = value.statements.map(execute);
      else if (value.kind === "writes") value.statements().forEach(execute);
      else answer = execute(value);
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
