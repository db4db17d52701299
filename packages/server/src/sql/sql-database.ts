/** A value SQLite binds or returns. */
export type SqlValue = string | number | bigint | null | Uint8Array;

/**
 * The small synchronous SQL interface the store runs on: `node:sqlite` on Node, a Durable
 * Object's `ctx.storage.sql` on Workers. Synchronous, as both engines are: a transaction never
 * spans an `await`, so no other request interleaves with it.
 */
export interface SqlDatabase {
  /** Runs statements that bind nothing (schema changes). */
  exec(sql: string): void;
  /**
   * Runs one statement; `changes` is the number of rows it inserted, updated or deleted (read it
   * before the next statement: a Durable Object asks SQLite for it when it is read).
   */
  run(sql: string, ...params: SqlValue[]): { changes: number };
  /** Runs one query and returns every row as a plain object. */
  all<Row>(sql: string, ...params: SqlValue[]): Row[];
  /**
   * Runs `fn` in a transaction: all of its writes, or none when it throws. Called inside another
   * transaction, it is a savepoint: when `fn` throws, its writes are undone and the outer
   * transaction goes on.
   */
  transaction<T>(fn: () => T): T;
}
