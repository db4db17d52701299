// PostgresStore when its connections are taken from under it: a backend terminated while its
// transaction waits for a lock, a pool whose only connection is lost while another transaction
// waits for it, a statement cancelled by statement_timeout. Each was found by the checker's
// chaos scenarios (test/postgres/chaos.test.ts): the process ended on a write to a closed socket,
// a transaction waited for ever for a connection, a timeout was waited out twice.
import postgres, { type Sql } from "postgres";
import { describe, expect, it, onTestFinished } from "vitest";
import { newId } from "../../src/delivery/ids.ts";
import { PostgresStore, type PostgresStoreOptions } from "../../src/postgres/postgres-store.ts";
import { newDatabase, reason, title } from "./services.ts";

const run = {
  goal: "g",
  constraints: [],
  stages: [
    { id: "s", stage_description: "d", expected_output: "o", available_skills: [], items: 3 },
  ],
};

/** A store on a new database, a run with an agent, and a superuser's connection beside it. */
async function setUp(options: PostgresStoreOptions = {}) {
  const database = await newDatabase();
  const store = await PostgresStore.open(database.url, options);
  const admin = postgres(database.url, { max: 1, onnotice: () => {} });
  onTestFinished(async () => {
    await admin.end();
    await store.end({ timeoutMs: 1000 });
    await database.drop();
  });
  const agent = { agent_id: newId("agt"), tag: "agent" };
  const newRun = async () => {
    const runId = newId("run");
    await store.createRun(runId, run);
    await store.addAgent(runId, { ...agent, token_hash: "h" });
    return runId;
  };
  return { store, admin, agent, newRun, url: database.url };
}

/** Takes the run's row lock in a transaction of its own: `release()` rolls it back. */
async function lockRun(url: string, runId: string) {
  const holder = postgres(url, { max: 1, onnotice: () => {} });
  const session = await holder.reserve();
  await session.unsafe("BEGIN");
  await session.unsafe("SELECT id FROM runs WHERE id = $1 FOR UPDATE", [runId]);
  return {
    async release() {
      await session.unsafe("ROLLBACK");
      session.release();
      await holder.end();
    },
  };
}

/** Polls `condition` until it answers something other than undefined (30 s at most). */
async function until<T>(condition: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await condition();
    if (answer !== undefined) return answer;
    if (Date.now() > deadline) throw new Error(`30 s passed before ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The pid of the store's backend once one waits for a lock. */
function waitingForLock(admin: Sql): Promise<number> {
  return until(async () => {
    const [row] = await admin<{ pid: number }[]>`
      SELECT pid FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = 'task-context-server'
        AND wait_event_type = 'Lock'`;
    return row?.pid;
  }, "a backend of the store waited for a lock");
}

describe.skipIf(reason !== undefined)(title("PostgresStore when it loses its connections"), () => {
  it("runs a group again on a new connection when its backend is terminated mid-transaction, and the process lives", async () => {
    const { store, admin, agent, newRun, url } = await setUp();
    const runId = await newRun();
    const lock = await lockRun(url, runId);
    const claim = store.claim(runId, agent, undefined);
    const pid = await waitingForLock(admin);
    await admin`SELECT pg_terminate_backend(${pid})`;
    await lock.release();

    expect(await claim).toMatchObject({ lease: { attempt: 1 } });
    expect(await store.claim(runId, agent, undefined)).toMatchObject({ lease: { attempt: 1 } });
    const { events } = await store.events(runId, 0, 100);
    expect(events.filter((event) => event.type === "work_item.leased")).toHaveLength(2);
  });

  it("answers a transaction that waits for the pool's only connection when that connection is lost", async () => {
    const { store, admin, agent, newRun, url } = await setUp({ maxConnections: 1 });
    const [first, second] = [await newRun(), await newRun()];
    const lock = await lockRun(url, first);
    const waiting = store.claim(first, agent, undefined);
    const pid = await waitingForLock(admin);
    // Waits for the one connection, which waits for the lock.
    const queued = store.claim(second, agent, undefined);
    await admin`SELECT pg_terminate_backend(${pid})`;
    await lock.release();

    expect(await Promise.all([waiting, queued])).toMatchObject([
      { lease: { attempt: 1 } },
      { lease: { attempt: 1 } },
    ]);
  });

  it("fails an operation whose statement_timeout passed waiting for a lock once: 57014, not run again", async () => {
    const { store, admin, agent, newRun, url } = await setUp({ statementTimeoutMs: 300 });
    const runId = await newRun();
    const lock = await lockRun(url, runId);
    const claim = store.claim(runId, agent, undefined);
    claim.catch(() => {});
    const pid = await waitingForLock(admin);
    // Once that wait has been cancelled, the lock is free: a second try would take it.
    await until(async () => {
      const [row] = await admin<{ waiting: boolean }[]>`
        SELECT wait_event_type = 'Lock' AS waiting FROM pg_stat_activity WHERE pid = ${pid}`;
      return row?.waiting === true ? undefined : true;
    }, "the wait for the lock was cancelled");
    await lock.release();

    await expect(claim).rejects.toMatchObject({ code: "57014" });
    expect(await store.claim(runId, agent, undefined)).toMatchObject({ lease: { attempt: 1 } });
  });

  it("fails with 57014, not the 25P02 of the reads after the cancelled one, when another instance shares the run", async () => {
    const { store, agent, newRun, url } = await setUp({ statementTimeoutMs: 300 });
    const other = await PostgresStore.open(url, { statementTimeoutMs: 300 });
    onTestFinished(() => other.end({ timeoutMs: 1000 }));
    const runId = await newRun();
    // Each instance moves the run in turn: this store's copy is stale, and the run seen shared,
    // so its next look reads what changed in the lock's round trip.
    await store.claim(runId, agent, undefined);
    const taken = await other.claim(runId, agent, undefined);
    await store.claim(runId, agent, undefined);
    await other.heartbeat(runId, agent, taken?.work_item.id ?? "", 1);
    // The run's row is free, the items' table is not: the read of the items sent with the lock
    // waits and is cancelled, and the reads after it are refused with 25P02.
    const holder = postgres(url, { max: 1, onnotice: () => {} });
    const session = await holder.reserve();
    await session.unsafe("BEGIN");
    await session.unsafe("LOCK TABLE work_items IN ACCESS EXCLUSIVE MODE");
    onTestFinished(async () => {
      await session.unsafe("ROLLBACK");
      session.release();
      await holder.end();
    });
    await expect(store.claim(runId, agent, undefined)).rejects.toMatchObject({ code: "57014" });
  });
});
