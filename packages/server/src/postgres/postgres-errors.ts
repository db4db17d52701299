// What a failure from PostgreSQL or its driver means for the transaction that met it: whether its
// connection is gone, and whether its group of operations may run again.
import postgres from "postgres";

/** The `postgres` driver's own codes for a connection that is gone or never came. */
const LOST_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
]);

/**
 * Whether `error` means its connection is gone: PostgreSQL ended the session (a FATAL error:
 * terminated by an administrator, a shutdown, too many connections), the driver lost it, or its
 * socket failed (a Node system error). Nothing more may be sent on such a connection, and a
 * reserved one must not be released: postgres.js 3.4.9 would hand it, dead, to a later query, and
 * a write on it throws where nobody can catch it, ending the process.
 */
export function isConnectionLost(error: unknown): boolean {
  if (error instanceof postgres.PostgresError) {
    return error.severity === "FATAL" || error.severity === "PANIC";
  }
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown };
  return (typeof code === "string" && LOST_CODES.has(code)) || typeof syscall === "string";
}

/**
 * Whether a group commit that failed with `error` may run again strictly (each operation's writes
 * answered before the next starts): when PostgreSQL refused a statement of one of its operations,
 * on a connection still there. Not after a statement was cancelled (57014: `statement_timeout`
 * passed, e.g. waiting for a lock another session holds): it would wait as long again.
 */
export function mayRunStrictly(error: unknown): boolean {
  return (
    error instanceof postgres.PostgresError && !isConnectionLost(error) && error.code !== "57014"
  );
}

/**
 * Whether `error` is PostgreSQL's 25P02 (`in_failed_sql_transaction`): the statement was not run
 * because an earlier one of its transaction failed — the earlier error is the one that says why.
 */
export function isTransactionAborted(error: unknown): boolean {
  return error instanceof postgres.PostgresError && error.code === "25P02";
}
