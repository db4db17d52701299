// Whether a transaction whose connection was lost while its COMMIT was on its way committed: the
// store sends a group's writes and its COMMIT together (one round trip under the run's lock), so
// a loss before COMMIT's answer leaves it unknown. The transaction's id, taken in its first
// round trip, settles it on another connection: `pg_xact_status` says committed or aborted (a
// transaction cut by a crash reads aborted once the server is back); while it says in progress,
// the transaction's backend has not ended yet — it may still be committing, or sit idle in its
// transaction with the run's row locked until it notices its client is gone — so it is
// terminated (`pg_terminate_backend`, waiting for it to end), and asked again. The same doubt and
// the same remedy as pgjdbc's and pgx's commit on a broken connection, and CockroachDB's
// "ambiguous result" errors, which leave it to the application.
import postgres from "postgres";
import { isConnectionLost } from "./postgres-errors.ts";
import type { SessionPool } from "./session-pool.ts";

/** A transaction's id and its backend's pid, taken in its first round trip by {@link IDENTIFY}. */
export interface CommitIdentity {
  /** The transaction's id (`xid8`, as text). */
  xid: string;
  /** The pid of the backend that runs it. */
  pid: number;
}

/**
 * The statement that takes a transaction's {@link CommitIdentity}. It assigns the transaction
 * its id, which the run's row lock (`FOR UPDATE`) would assign anyway.
 */
export const IDENTIFY = "SELECT pg_current_xact_id()::text AS xid, pg_backend_pid() AS pid";

/**
 * How long the outcome is sought (a server restarting answers nothing until it is back) before
 * the operations are failed with {@link CommitOutcomeUnknownError}.
 */
const SETTLE_MS = 30_000;

/** The outcome of a COMMIT could not be learned: its operations may or may not have taken effect. */
export class CommitOutcomeUnknownError extends Error {
  constructor(xid: string, why: string, cause: unknown) {
    super(
      `the connection was lost while transaction ${xid} was committing, and whether it committed could not be learned (${why}): its operations may have taken effect; read their run again before retrying them`,
      { cause },
    );
    this.name = "CommitOutcomeUnknownError";
  }
}

/** One look at the transaction, on a session of its own: its status once not in progress. */
async function look(sessions: SessionPool, { xid, pid }: CommitIdentity): Promise<string | null> {
  const session = await sessions.acquire();
  try {
    const [row] = await session.unsafe<{ status: string | null }[]>(
      "SELECT pg_xact_status($1::xid8) AS status",
      [xid],
    );
    let status = row?.status ?? null;
    if (status === "in progress") {
      // Its backend has not ended: end it (once it has, the transaction's fate is sealed), unless
      // that pid now runs another transaction. Not allowed to (another role's backend), wait.
      await session
        .unsafe(
          "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE pid = $1 AND backend_xid = $2::xid8::xid",
          [pid, xid],
        )
        .catch((error: unknown) => {
          if (!(error instanceof postgres.PostgresError) || error.code !== "42501") throw error;
        });
      const [again] = await session.unsafe<{ status: string | null }[]>(
        "SELECT pg_xact_status($1::xid8) AS status",
        [xid],
      );
      status = again?.status ?? null;
    }
    sessions.release(session);
    return status;
  } catch (error) {
    if (isConnectionLost(error)) sessions.discard(session);
    else sessions.release(session);
    throw error;
  }
}

/**
 * Settles the outcome of the transaction `identity` whose connection was lost (with `loss`) once
 * its COMMIT was sent: answers when it committed, throws `loss` when it did not (the caller runs
 * its operations again), and {@link CommitOutcomeUnknownError} when PostgreSQL could not say
 * within {@link SETTLE_MS} (unreachable, or the id too old to be known).
 */
export async function settleCommit(
  sessions: SessionPool,
  identity: CommitIdentity,
  loss: unknown,
): Promise<void> {
  const deadline = Date.now() + SETTLE_MS;
  for (let attempt = 0; ; attempt++) {
    let why: string;
    try {
      const status = await look(sessions, identity);
      if (status === "committed") return;
      if (status === "aborted") throw loss;
      if (status === null) throw new CommitOutcomeUnknownError(identity.xid, "too old", loss);
      why = `still ${status}`;
    } catch (error) {
      if (error === loss || error instanceof CommitOutcomeUnknownError) throw error;
      why = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() >= deadline) throw new CommitOutcomeUnknownError(identity.xid, why, loss);
    await new Promise((resolve) => setTimeout(resolve, Math.min(10 * 2 ** attempt, 1000)));
  }
}
