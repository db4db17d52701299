// Whether a transaction whose connection was lost while its COMMIT was on its way committed: the
// store sends a group's writes and its COMMIT together (one round trip under the run's lock), so
// a loss before COMMIT's answer leaves it unknown. The transaction's id and its backend's pid,
// taken in its first round trip, find the transaction while it runs: its backend is terminated
// (`pg_terminate_backend`, waiting for it to end), after which its fate is sealed. Then the last
// event it appended says it: events have unique ids, and the row is there if, and only if, the
// transaction committed. The id's status (`pg_xact_status`) is not enough: after a crash (an
// immediate shutdown), an id handed out but never written to the WAL is handed out again, so a
// later transaction that commits with it makes it read "committed" for one that never did
// (test/postgres/commit-doubt-crash.test.ts). It settles a group that appended no event only
// while the server has not restarted since the transaction began. The same doubt and the same
// remedy as pgjdbc's and pgx's commit on a broken connection, and CockroachDB's "ambiguous
// result" errors, which leave it to the application.
import postgres, { type Sql } from "postgres";
import { isConnectionLost } from "./postgres-errors.ts";
import { encodeText } from "./postgres-sql.ts";
import type { SessionPool } from "./session-pool.ts";

/** A transaction's id and its backend's pid, taken in its first round trip by {@link IDENTIFY}. */
export interface CommitIdentity {
  /** The transaction's id (`xid8`, as text). */
  xid: string;
  /** The pid of the backend that runs it. */
  pid: number;
  /** When the server started (`pg_postmaster_start_time()`, as text): a restart changes it. */
  started: string;
}

/**
 * The statement that takes a transaction's {@link CommitIdentity}. It assigns the transaction
 * its id, which the run's row lock (`FOR UPDATE`) would assign anyway.
 */
export const IDENTIFY =
  "SELECT pg_current_xact_id()::text AS xid, pg_backend_pid() AS pid, pg_postmaster_start_time()::text AS started";

/** An event the transaction appended (in an operation that succeeded): there once it committed. */
export interface CommitMark {
  runId: string;
  seq: number;
  /** The event's id (unique: another transaction that took the same seq has another). */
  eventId: string;
}

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

/** What one {@link look} learned: the outcome, or why it is not known (yet). */
type Seen = { committed: boolean } | { unknown: string } | { again: string };

/** `pg_xact_status`'s answer for an id this server has not handed out (22023: "in the future"). */
const FUTURE = "22023";

/**
 * One look at the transaction, on a session of its own. While its backend still runs it (the
 * same server, the same pid with the same transaction id), the backend is terminated first.
 * Once it has ended: `mark`'s row is there or not; without a mark, the id's status, trusted
 * only on the server it was taken on (a restart may have handed it out again).
 */
async function look(
  sessions: SessionPool,
  { xid, pid, started }: CommitIdentity,
  mark: CommitMark | undefined,
): Promise<Seen> {
  const session = await sessions.acquire();
  try {
    // Compared as text: postgres.js would send a timestamptz parameter to the millisecond.
    const [server] = await session.unsafe<{ same: boolean; running: boolean }[]>(
      `SELECT pg_postmaster_start_time()::text = $1 AS same,
        EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $2 AND backend_xid = $3::xid8::xid) AS running`,
      [started, pid, xid],
    );
    const same = server?.same === true;
    if (same && server?.running === true) {
      // Its backend has not ended: end it (once it has, the transaction's fate is sealed). Not
      // allowed to (another role's backend), or not ended within 5 s: look again later.
      const ended = await session
        .unsafe<{ ended: boolean }[]>("SELECT pg_terminate_backend($1, 5000) AS ended", [pid])
        .then(
          ([row]) => row?.ended === true,
          (error: unknown) => {
            if (!(error instanceof postgres.PostgresError) || error.code !== "42501") throw error;
            return false;
          },
        );
      if (!ended) {
        sessions.release(session);
        return { again: "its backend still runs it" };
      }
    }
    // A statement of its own: its snapshot is taken after the backend was seen ended.
    const seen =
      mark === undefined ? await status(session, xid, same) : await marked(session, mark);
    sessions.release(session);
    return seen;
  } catch (error) {
    if (isConnectionLost(error)) sessions.discard(session);
    else sessions.release(session);
    throw error;
  }
}

/** Whether the transaction that appended `mark` committed (it has ended). */
async function marked(session: Sql, { runId, seq, eventId }: CommitMark): Promise<Seen> {
  const rows = await session.unsafe(
    "SELECT 1 FROM events WHERE run_id = $1 AND seq = $2 AND body::json ->> 'id' = $3",
    [encodeText(runId), seq, eventId],
  );
  return { committed: rows.length > 0 };
}

/**
 * What the id's status says of a transaction that appended no event (it has ended). After a
 * restart (`same` false) the id may be another transaction's: "committed" is then not known;
 * "in progress" is another's (the transaction ended with the server): it did not commit.
 */
async function status(session: Sql, xid: string, same: boolean): Promise<Seen> {
  let status: string | null;
  try {
    const [row] = await session.unsafe<{ status: string | null }[]>(
      "SELECT pg_xact_status($1::xid8) AS status",
      [xid],
    );
    status = row?.status ?? null;
  } catch (error) {
    // An id this server never handed out: it was lost in a crash, with its transaction.
    if (error instanceof postgres.PostgresError && error.code === FUTURE) {
      return { committed: false };
    }
    throw error;
  }
  if (status === "aborted") return { committed: false };
  if (status === null) return { unknown: "too old" };
  if (!same) {
    if (status === "committed") {
      return { unknown: "the server restarted, and it appended no event to confirm it by" };
    }
    return { committed: false };
  }
  if (status === "committed") return { committed: true };
  return { again: `still ${status}` };
}

/**
 * Settles the outcome of the transaction `identity` whose connection was lost (with `loss`) once
 * its COMMIT was sent, by `mark` (the last event it appended, if any): answers when it
 * committed, throws `loss` when it did not (the caller runs its operations again), and
 * {@link CommitOutcomeUnknownError} when PostgreSQL could not say within {@link SETTLE_MS}
 * (unreachable, the id too old to be known, or no event to confirm it by after a restart).
 */
export async function settleCommit(
  sessions: SessionPool,
  identity: CommitIdentity,
  mark: CommitMark | undefined,
  loss: unknown,
): Promise<void> {
  const deadline = Date.now() + SETTLE_MS;
  for (let attempt = 0; ; attempt++) {
    let why: string;
    try {
      const seen = await look(sessions, identity, mark);
      if ("committed" in seen) {
        if (seen.committed) return;
        throw loss;
      }
      if ("unknown" in seen) {
        throw new CommitOutcomeUnknownError(identity.xid, seen.unknown, loss);
      }
      why = seen.again;
    } catch (error) {
      if (error === loss || error instanceof CommitOutcomeUnknownError) throw error;
      why = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() >= deadline) throw new CommitOutcomeUnknownError(identity.xid, why, loss);
    await new Promise((resolve) => setTimeout(resolve, Math.min(10 * 2 ** attempt, 1000)));
  }
}
