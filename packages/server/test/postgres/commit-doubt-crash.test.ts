// Settling a COMMIT in doubt across a crash of PostgreSQL (src/postgres/commit-doubt.ts): after an
// immediate shutdown, a transaction id handed out but never written to the WAL is handed out
// again, so a later transaction that commits makes the lost one's id read "committed". The
// chaos scenario `restart` met it as a completion acknowledged with an event that was never
// written. Here a transaction appends an event, PostgreSQL crashes before its COMMIT, another
// transaction takes the same id and commits: the lost one is settled as not committed by its
// event, and as unknown when it appended none. Its own server, which it restarts.
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { type Postgres, startPostgres } from "../../../../scripts/postgres.mjs";
import {
  type CommitIdentity,
  CommitOutcomeUnknownError,
  IDENTIFY,
  settleCommit,
} from "../../src/postgres/commit-doubt.ts";
import { PostgresStore } from "../../src/postgres/postgres-store.ts";
import { SessionPool } from "../../src/postgres/session-pool.ts";
import { createDatabase } from "./databases.ts";
import { reason, title } from "./services.ts";

let server: Postgres | undefined;
afterAll(async () => {
  await server?.stop();
});

const options = { max: 1, onnotice: () => {}, fetch_types: false } as const;

/** `BEGIN`, the transaction's identity, and an event of `run` at `seq` with the id `eventId`. */
async function appendInTransaction(sql: postgres.Sql, seq: number, eventId: string) {
  await sql.unsafe("BEGIN");
  const [identity] = await sql.unsafe<CommitIdentity[]>(IDENTIFY);
  await sql.unsafe("INSERT INTO events (run_id, seq, body) VALUES ('run', $1, $2)", [
    seq,
    JSON.stringify({ id: eventId }),
  ]);
  return identity as CommitIdentity;
}

describe.skipIf(reason !== undefined)(
  title("settling a COMMIT in doubt across a crash of PostgreSQL"),
  () => {
    it("settles a transaction lost in a crash as not committed, though its id now reads committed", {
      timeout: 60_000,
    }, async () => {
      server = await startPostgres();
      const database = await createDatabase(server.url);
      await (await PostgresStore.open(database.url)).end();
      const sessions = new SessionPool({
        create: () => postgres(database.url, options),
        max: 2,
        retireMs: 100,
      });
      const lost = postgres(database.url, options);
      const other = postgres(database.url, options);
      try {
        const identity = await appendInTransaction(lost, 1, "evt_lost");
        await server.restart({ mode: "immediate" });
        const loss = new Error("the connection was lost at COMMIT");

        // Another transaction is handed the same id, and commits another event at that seq.
        const taken = await appendInTransaction(other, 1, "evt_other");
        await other.unsafe("COMMIT");
        expect(taken.xid).toBe(identity.xid);
        const [row] = await other.unsafe("SELECT pg_xact_status($1::xid8) AS status", [
          identity.xid,
        ]);
        expect(row?.status).toBe("committed");

        const mark = { runId: "run", seq: 1, eventId: "evt_lost" };
        await expect(settleCommit(sessions, identity, mark, loss)).rejects.toBe(loss);
        const unmarked = settleCommit(sessions, identity, undefined, loss);
        await expect(unmarked).rejects.toThrow(CommitOutcomeUnknownError);
        await expect(unmarked).rejects.toThrow(
          `the connection was lost while transaction ${identity.xid} was committing, and whether it committed could not be learned (the server restarted, and it appended no event to confirm it by)`,
        );
        // The one that committed is settled as committed, by its event and by its id.
        const committed = { runId: "run", seq: 1, eventId: "evt_other" };
        await expect(settleCommit(sessions, taken, committed, loss)).resolves.toBeUndefined();
        await expect(settleCommit(sessions, taken, undefined, loss)).resolves.toBeUndefined();
      } finally {
        await Promise.all([
          sessions.end({ timeoutMs: 1000 }),
          lost.end({ timeout: 0 }).catch(() => {}),
          other.end({ timeout: 1 }),
        ]);
        await database.drop();
      }
    });
  },
);
