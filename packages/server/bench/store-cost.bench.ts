// What one claim → complete cycle costs the PostgreSQL store itself, without HTTP: statements
// (pg_stat_statements), transactions (pg_stat_database) and round trips (a counting TCP proxy,
// bench/cycle-cost.ts) per cycle, the run's setup not counted. Agents in order (one at a time:
// every operation its own transaction, so the figures are exact) and all at once (the group
// commit shares transactions: the figures depend on how the operations meet).
// With them, how long the run's row lock was held per group commit (the store's lockHolds
// channel: from the lock's answer to COMMIT's), p50 / p99, and the operations per group.
// STORE_COST_LIMIT=<n> claims up to n items per claim-next (max_items), completing them at once.
// STORE_COST_INSTANCES=<n> opens n stores on the database (instances in one process), agent i
// working through store i % n: each store's copy of the run is then stale at most groups.
// Run: `node --conditions=@task-context/source bench/store-cost.bench.ts` in packages/server.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { join } from "node:path";
import postgres from "postgres";
import { PostgresUnavailableError, startPostgres } from "../../../scripts/postgres.mjs";
import type { AgentIdentity } from "../src/delivery/delivery-store.ts";
import { type LockHold, lockHolds, PostgresStore } from "../src/postgres/postgres-store.ts";
import { benchRun, completeBody } from "./cycle.ts";
import { measureCost, startCountingProxy, summarizeLockHolds } from "./cycle-cost.ts";

const cycles = Number(process.env.STORE_COST_CYCLES ?? 400);
/** How many items one claim-next asks for (1: the one-item claim). */
const claimLimit = Number(process.env.STORE_COST_LIMIT ?? 1);
/** How many stores (instances) share the database. */
const instances = Number(process.env.STORE_COST_INSTANCES ?? 1);

let server: Awaited<ReturnType<typeof startPostgres>>;
try {
  server = await startPostgres({ settings: { shared_preload_libraries: "pg_stat_statements" } });
} catch (error) {
  if (!(error instanceof PostgresUnavailableError)) throw error;
  console.log(`PostgreSQL cannot be started here (${error.message}): nothing measured.`);
  process.exit(0);
}

const admin = postgres(server.url, { max: 1, onnotice: () => {} });
const proxy = await startCountingProxy(server.port);
try {
  await admin`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
  console.log(
    `${instances} instance(s)\n| agents | cycles | statements / cycle | transactions / cycle | round trips / cycle | lock hold p50 / p99 ms | operations / group |`,
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const agents of [1, 16, 64]) {
    const database = `cost_${agents}`;
    await admin.unsafe(`CREATE DATABASE ${database}`);
    const url = new URL(server.url);
    url.pathname = `/${database}`;
    url.port = String(proxy.port);
    const stores = await Promise.all(
      Array.from({ length: instances }, () => PostgresStore.open(url.href)),
    );
    const store = stores[0] as PostgresStore;
    try {
      const runId = `run_cost${agents}`;
      await store.createRun(runId, benchRun(cycles));
      const identities: AgentIdentity[] = [];
      for (let index = 0; index < agents; index++) {
        const agent = {
          agent_id: `agent_${index}`,
          tag: `agent-${index}`,
          token_hash: "x".repeat(64),
        };
        await store.addAgent(runId, agent);
        identities.push({ agent_id: agent.agent_id, tag: agent.tag });
      }
      const holds: LockHold[] = [];
      const keep = (hold: unknown) => holds.push(hold as LockHold);
      subscribe(lockHolds.name, keep);
      const cost = await measureCost(
        {
          pids: () => [process.pid],
          data: join(server.directory, "data"),
          sql: admin,
          database,
          proxy,
        },
        async () => {
          let left = cycles;
          await Promise.all(
            identities.map(async (agent, index) => {
              const mine = stores[index % stores.length] as PostgresStore;
              for (;;) {
                const claims = await claimSome(mine, runId, agent, Math.min(claimLimit, left));
                if (claims.length === 0) return;
                left -= claims.length;
                await Promise.all(
                  claims.map((claim) =>
                    mine.complete(
                      runId,
                      agent,
                      claim.work_item.id,
                      completeBody(claim.lease.attempt),
                    ),
                  ),
                );
              }
            }),
          );
          return cycles;
        },
      );
      unsubscribe(lockHolds.name, keep);
      const held = summarizeLockHolds(holds);
      console.log(
        `| ${agents} | ${cycles} | ${cost.statements.toFixed(2)} | ${cost.transactions.toFixed(3)} | ${cost.roundTrips.toFixed(2)} | ${held.p50Ms.toFixed(2)} / ${held.p99Ms.toFixed(2)} | ${held.operations.toFixed(1)} |`,
      );
    } finally {
      await Promise.all(stores.map((each) => each.end()));
    }
  }
} finally {
  await admin.end();
  await proxy.close();
  await server.stop();
}

/** Up to `limit` claims of the agent in one claim-next (`max_items` when above one). */
async function claimSome(store: PostgresStore, runId: string, agent: AgentIdentity, limit: number) {
  if (limit <= 0) return [];
  const claim = await store.claim(runId, agent, undefined, limit > 1 ? limit : undefined);
  if (claim === undefined) return [];
  return claim.claims ?? [claim];
}
