// The database restarts (a fast shutdown: every connection dropped) under a running service:
// requests fail with 500 INTERNAL_ERROR while it is away, then succeed again on new connections;
// nothing committed before is lost; a wait on one instance still wakes when another changes the
// run once both are connected again.
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { newId } from "../../src/delivery/ids.ts";
import { PostgresStore } from "../../src/postgres/postgres-store.ts";
import { everyInstanceListens } from "../checker/postgres-chaos.ts";
import { newDatabase, postgresServer, reason, title } from "./services.ts";
import { waitArmed } from "./wait-armed.ts";

const run = {
  goal: "g",
  constraints: [],
  stages: [
    { id: "s", stage_description: "d", expected_output: "o", available_skills: [], items: 3 },
  ],
};

/** Retries `attempt` until it resolves (at most `ms`): what a client does while the database is away. */
async function eventually<T>(attempt: () => Promise<T>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe.skipIf(reason !== undefined)(
  title("PostgresStore across a restart of the database"),
  () => {
    it("serves again once the database is back, with everything committed before", {
      timeout: 90_000,
    }, async () => {
      const database = await newDatabase();
      const a = await PostgresStore.open(database.url);
      const b = await PostgresStore.open(database.url);
      try {
        const runId = newId("run");
        await a.createRun(runId, run);
        const agent = { agent_id: newId("agt"), tag: "agent" };
        await a.addAgent(runId, { ...agent, token_hash: "h" });
        const claimed = await a.claim(runId, agent, undefined);
        const seq = await a.lastSeq(runId);

        await (await postgresServer()).restart();

        // The first requests after the restart may meet a dropped connection; then all is there.
        expect(await eventually(() => b.lastSeq(runId))).toBe(seq);
        const { events } = await eventually(() => a.events(runId, 0, 100));
        expect(events.filter((event) => event.type === "work_item.leased")).toMatchObject([
          { work_item_id: claimed?.work_item.id, attempt: 1 },
        ]);
        await eventually(() => a.lastSeq(runId));

        // Both listen again: a wait on A wakes when B claims (true: woken; a timeout is false).
        const admin = postgres(database.url, { max: 1, onnotice: () => {} });
        await everyInstanceListens(admin, 2).finally(() => admin.end());
        const armed = waitArmed(runId);
        const wait = a.changed(runId, await a.lastSeq(runId), { timeoutMs: 20_000 });
        await armed;
        await b.claim(runId, agent, undefined);
        expect(await wait).toBe(true);
      } finally {
        await a.end();
        await b.end();
        await database.drop();
      }
    });
  },
);
