// Many instances on one PostgreSQL database: migrations run once however many start together, a
// wait on one instance wakes when another changes the run, and concurrent writers on different
// instances keep every item claimed once per attempt and the run's seqs gap-free.
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { newId } from "../../src/delivery/ids.ts";
import { postgresMigrations } from "../../src/postgres/postgres-schema.ts";
import { PostgresStore } from "../../src/postgres/postgres-store.ts";
import { migrations } from "../../src/sql/schema.ts";
import { newDatabase, reason, title } from "./services.ts";
import { waitArmed } from "./wait-armed.ts";

const artifact = { media_type: "text/plain", content: "done" };
const run = (items: number) => ({
  goal: "g",
  constraints: [],
  stages: [{ id: "s", stage_description: "d", expected_output: "o", available_skills: [], items }],
});

/** `count` stores on one new database, opened together. */
async function instances(count: number) {
  const database = await newDatabase();
  const stores = await Promise.all(
    Array.from({ length: count }, () => PostgresStore.open(database.url)),
  );
  return {
    url: database.url,
    stores,
    async end() {
      for (const store of stores) await store.end();
      await database.drop();
    },
  };
}

describe.skipIf(reason !== undefined)(title("PostgresStore on many instances"), () => {
  it("migrates once when six instances start together", async () => {
    const { url, end } = await instances(6);
    const sql = postgres(url, { max: 1 });
    try {
      const versions = await sql`SELECT version FROM schema_version ORDER BY version`;
      expect(versions.map((row) => Number(row.version))).toEqual(migrations.map((_, at) => at + 1));
      const [tables] =
        await sql`SELECT count(*)::int AS count FROM pg_tables WHERE schemaname = 'public'`;
      // The store's ten (a2a_push_tasks the tenth), schema_version and postgres_schema_version.
      expect(tables?.count).toBe(12);
      const own = await sql`SELECT version FROM postgres_schema_version ORDER BY version`;
      expect(own.map((row) => Number(row.version))).toEqual(
        postgresMigrations.map((_, at) => at + 1),
      );
    } finally {
      await sql.end();
      await end();
    }
  });

  it("wakes a wait on one instance when another appends to the run", async () => {
    const { stores, end } = await instances(2);
    const [a, b] = stores as [PostgresStore, PostgresStore];
    try {
      const runId = newId("run");
      await a.createRun(runId, run(1));
      const agent = { agent_id: newId("agt"), tag: "agent" };
      await a.addAgent(runId, { ...agent, token_hash: "h" });
      const seq = await a.lastSeq(runId);
      const armed = waitArmed(runId);
      const woken = a.changed(runId, seq, { timeoutMs: 20_000 });
      await armed;
      await b.claim(runId, agent, undefined);
      // true: woken (a wait that times out answers false).
      expect(await woken).toBe(true);
      expect(await a.lastSeq(runId)).toBe(seq + 1);
    } finally {
      await end();
    }
  });

  it("commits a run's concurrent operations together: a refusal and a failed write undo only themselves", async () => {
    const { stores, end } = await instances(1);
    const store = stores[0] as PostgresStore;
    try {
      const runId = newId("run");
      await store.createRun(runId, run(3));
      const agent = { agent_id: newId("agt"), tag: "agent" };
      await store.addAgent(runId, { ...agent, token_hash: "h" });
      const before = await store.lastSeq(runId);
      const [first, missing, duplicate, second] = await Promise.allSettled([
        store.claim(runId, agent, undefined),
        store.claim(runId, agent, "wi_missing"),
        // The same agent id again: the insert fails in PostgreSQL (primary key), not in a rule.
        store.addAgent(runId, { ...agent, tag: "another", token_hash: "h" }),
        store.claim(runId, agent, undefined),
      ]);
      expect([first, second]).toMatchObject([{ status: "fulfilled" }, { status: "fulfilled" }]);
      expect(missing).toMatchObject({
        status: "rejected",
        reason: { code: "WORK_ITEM_NOT_FOUND" },
      });
      expect(duplicate).toMatchObject({ status: "rejected", reason: { code: "23505" } });
      const { events } = await store.events(runId, before, 100);
      expect(events.map((event) => [event.seq, event.type])).toEqual([
        [before + 1, "work_item.leased"],
        [before + 2, "work_item.leased"],
      ]);
      expect(await store.findAgent(runId, agent.agent_id)).toMatchObject({ tag: "agent" });
    } finally {
      await end();
    }
  });

  it("keeps each claim single and the seqs gap-free with writers on three instances", async () => {
    const { stores, end } = await instances(3);
    try {
      const runId = newId("run");
      const items = 60;
      await stores[0]?.createRun(runId, run(items));
      const agents = Array.from({ length: 9 }, (_, index) => ({
        agent_id: newId("agt"),
        tag: `agent-${index}`,
      }));
      for (const agent of agents) await stores[0]?.addAgent(runId, { ...agent, token_hash: "h" });
      const completedBy = new Map<string, string>();
      await Promise.all(
        agents.map(async (agent, index) => {
          const store = stores[index % stores.length] as PostgresStore;
          for (;;) {
            const claim = await store.claim(runId, agent, undefined);
            if (claim === undefined) return;
            await store.complete(runId, agent, claim.work_item.id, {
              attempt: claim.lease.attempt,
              artifact,
            });
            expect(completedBy.has(claim.work_item.id)).toBe(false);
            completedBy.set(claim.work_item.id, agent.tag);
          }
        }),
      );
      expect(completedBy.size).toBe(items);
      const { events } = await (stores[1] as PostgresStore).events(runId, 0, 10_000);
      expect(events.map((event) => event.seq)).toEqual(events.map((_, at) => at + 1));
      const count = (type: string) => events.filter((event) => event.type === type).length;
      expect([count("work_item.leased"), count("work_item.completed")]).toEqual([items, items]);
      expect(events.at(-1)?.type).toBe("run.completed");
      expect((await (stores[2] as PostgresStore).getRun(runId)).status).toBe("completed");
    } finally {
      await end();
    }
  });
});
