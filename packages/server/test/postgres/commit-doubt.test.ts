// PostgresStore when its connection is lost after a group's writes and COMMIT went out together
// and before COMMIT's answer came back (src/postgres/commit-doubt.ts): a proxy in front of
// PostgreSQL cuts the connection there (cutting-proxy.ts). Committed, the operation is answered
// as done and not run again; not committed (the batch never reached PostgreSQL, whose backend
// sits in its transaction holding the run's lock), the backend is ended and the operation runs
// again on a new connection. Either way, exactly once.
import postgres from "postgres";
import { describe, expect, it, onTestFinished } from "vitest";
import { newId } from "../../src/delivery/ids.ts";
import { PostgresStore } from "../../src/postgres/postgres-store.ts";
import { type Cut, startCuttingProxy } from "./cutting-proxy.ts";
import { newDatabase, postgresServer, reason, title } from "./services.ts";

const run = {
  goal: "g",
  constraints: [],
  stages: [
    { id: "s", stage_description: "d", expected_output: "o", available_skills: [], items: 3 },
  ],
};

/** A store on a new database reached through a cutting proxy, a run and its agent. */
async function setUp() {
  const database = await newDatabase();
  const proxy = await startCuttingProxy((await postgresServer()).port);
  const url = new URL(database.url);
  url.port = String(proxy.port);
  const store = await PostgresStore.open(url.href);
  const admin = postgres(database.url, { max: 1, onnotice: () => {} });
  onTestFinished(async () => {
    await store.end({ timeoutMs: 1000 });
    await proxy.close();
    await admin.end();
    await database.drop();
  });
  const agent = { agent_id: newId("agt"), tag: "agent" };
  const runId = newId("run");
  await store.createRun(runId, run);
  await store.addAgent(runId, { ...agent, token_hash: "h" });
  /** The items of the run's events of `type`, in order. */
  const events = async (type: string) => {
    const { events } = await store.events(runId, 0, 100);
    return events
      .filter((event) => event.type === type)
      .map((event) => (event as { work_item_id?: string }).work_item_id);
  };
  /** Backends of the store's own, idle in a transaction (one that still holds the run's lock). */
  const idleInTransaction = async () => {
    const [row] = await admin<{ count: number }[]>`
      SELECT count(*)::int AS count FROM pg_stat_activity
      WHERE datname = current_database() AND state = 'idle in transaction'`;
    return row?.count;
  };
  return { store, proxy, agent, runId, events, idleInTransaction };
}

describe.skipIf(reason !== undefined)(
  title("PostgresStore when its connection is lost between COMMIT and its answer"),
  () => {
    it("answers a claim whose transaction committed as done, without claiming again", async () => {
      const { store, proxy, agent, runId, events } = await setUp();
      proxy.arm("answer-lost");
      const claim = await store.claim(runId, agent, undefined);

      expect(proxy.cuts).toEqual<Cut[]>(["answer-lost"]);
      expect(claim).toMatchObject({ lease: { attempt: 1 } });
      expect(await events("work_item.leased")).toEqual([claim?.work_item.id]);
      // The store goes on, on a new connection, from the committed state.
      const next = await store.claim(runId, agent, undefined);
      expect(next?.work_item.id).not.toBe(claim?.work_item.id);
      expect(await events("work_item.leased")).toEqual([claim?.work_item.id, next?.work_item.id]);
    });

    it("ends the backend of a completion whose batch was lost, and completes it again, once", async () => {
      const { store, proxy, agent, runId, events, idleInTransaction } = await setUp();
      const claim = await store.claim(runId, agent, undefined);
      const id = claim?.work_item.id ?? "";
      proxy.arm("batch-lost");
      const completed = await store.complete(runId, agent, id, {
        attempt: 1,
        artifact: { media_type: "text/markdown", title: "Result", content: "done" },
      });

      expect(proxy.cuts).toEqual<Cut[]>(["batch-lost"]);
      expect(completed.view).toMatchObject({ work_item_id: id, status: "completed" });
      expect(await events("work_item.completed")).toEqual([id]);
      expect(await idleInTransaction()).toBe(0);
    });
  },
);
