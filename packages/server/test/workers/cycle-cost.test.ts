// What a claim → complete cycle costs a run's Durable Object in SQL statements (each
// `ctx.storage.sql.exec` counted): the SqlStore of a run object over the object's own storage,
// without HTTP. The figures are logged for docs/benchmarks.md ("The cost of a cycle on SQLite and
// the Durable Object"); the bounds fail should a write cost two statements again.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SqlStore } from "../../src/sql/sql-store.ts";
import { durableObjectSql } from "../../src/workers/durable-object-sql.ts";

const CYCLES = 24;

/** The statements per cycle of `agents` agents claiming up to `limit` items at a time. */
function statementsPerCycle(name: string, agents: number, limit: number) {
  return runInDurableObject(env.RUNS.get(env.RUNS.idFromName(name)), async (_, state) => {
    let statements = 0;
    const { storage } = state;
    const counted = {
      sql: {
        exec: (...args: Parameters<SqlStorage["exec"]>) => {
          statements += 1;
          return storage.sql.exec(...args);
        },
      },
      transactionSync: <T>(fn: () => T) => storage.transactionSync(fn),
    } as unknown as DurableObjectStorage;
    const store = new SqlStore(durableObjectSql(counted));
    const runId = `run_${name}`;
    await store.createRun(runId, {
      goal: "g",
      constraints: [],
      stages: [
        {
          id: "s",
          stage_description: "d",
          expected_output: "o",
          available_skills: [],
          items: CYCLES,
        },
      ],
      lease_ms: 3_600_000,
    });
    const identities = [];
    for (let index = 0; index < agents; index++) {
      const agent = { agent_id: `agt_${index}`, tag: `agent-${index}` };
      await store.addAgent(runId, { ...agent, token_hash: "h" });
      identities.push(agent);
    }
    statements = 0;
    await Promise.all(
      identities.map(async (agent) => {
        for (;;) {
          const claim = await store.claim(runId, agent, undefined, limit > 1 ? limit : undefined);
          if (claim === undefined) return;
          await Promise.all(
            (claim.claims ?? [claim]).map(({ work_item, lease }) =>
              store.complete(runId, agent, work_item.id, {
                attempt: lease.attempt,
                artifact: { media_type: "text/plain", content: "done" },
              }),
            ),
          );
        }
      }),
    );
    return statements / CYCLES;
  });
}

describe("a cycle on a run's Durable Object", () => {
  it("costs one statement a row it writes, none to count changes", async () => {
    const one = await statementsPerCycle("cost-1", 1, 1);
    const many = await statementsPerCycle("cost-4", 4, 1);
    const batched = await statementsPerCycle("cost-batch", 1, 8);
    console.log(
      `Durable Object: statements per cycle, 1 agent ${one.toFixed(2)}, 4 agents ${many.toFixed(2)}, max_items=8 ${batched.toFixed(2)}`,
    );
    // Each operation reads its run's version (its state is kept); a claim writes the item, its
    // attempt, an event and the run, a completion the item, the attempt, the artifact, its events
    // and the run: 12 statements a cycle (22 when each write also asked for changes()).
    expect(one).toBeLessThanOrEqual(13);
    expect(many).toBeLessThanOrEqual(13);
    expect(batched).toBeLessThanOrEqual(11);
  });
});
