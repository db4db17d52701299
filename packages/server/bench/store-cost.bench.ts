// What one claim → complete cycle costs the store itself, without HTTP, the run's setup not
// counted; agents in order (one at a time: every operation its own transaction, so the figures
// are exact) and all at once (the group commit shares transactions: the figures depend on how the
// operations meet).
// - SQLite (`SqlStore` on node:sqlite, a file in WAL mode, group commit per turn of the event loop
//   as the Node service runs it): statements executed (each `run` and `all`, and the BEGIN /
//   COMMIT or SAVEPOINT / RELEASE of each transaction), transactions, and this process's CPU
//   milliseconds per cycle (the store and the loop that drives it), median of
//   STORE_COST_ROUNDS (default 5) rounds of STORE_COST_SQLITE_CYCLES (default 2000) cycles.
// - PostgreSQL: statements (pg_stat_statements), transactions (pg_stat_database) and round trips
//   (a counting TCP proxy, bench/cycle-cost.ts) per cycle, STORE_COST_CYCLES (default 400); with
//   them, how long the run's row lock was held per group commit (the store's lockHolds channel:
//   from the lock's answer to COMMIT's), p50 / p99, and the operations per group.
// STORE_COST_LIMIT=<n> claims up to n items per claim-next (max_items), completing them at once.
// STORE_COST_INSTANCES=<n> opens n PostgreSQL stores on the database (instances in one process),
// agent i working through store i % n: each store's copy of the run is then stale at most groups.
// STORE_COST_STORES=sqlite or =postgres measures one of them (default both); STORE_COST_AGENTS=64
// one level of agents (default 1,16,64).
// Run: `node --conditions=@task-context/source bench/store-cost.bench.ts` in packages/server.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "@task-context/bench-kit";
import postgres from "postgres";
import { PostgresUnavailableError, startPostgres } from "../../../scripts/postgres.mjs";
import type { AgentIdentity } from "../src/delivery/delivery-store.ts";
import { openNodeDatabase } from "../src/node-sqlite.ts";
import { type LockHold, lockHolds, PostgresStore } from "../src/postgres/postgres-store.ts";
import type { SqlDatabase } from "../src/sql/sql-database.ts";
import { SqlStore } from "../src/sql/sql-store.ts";
import type { StepStore } from "../src/sql/step-store.ts";
import { benchRun, completeBody } from "./cycle.ts";
import { measureCost, startCountingProxy, summarizeLockHolds } from "./cycle-cost.ts";

/** How many items one claim-next asks for (1: the one-item claim). */
const claimLimit = Number(process.env.STORE_COST_LIMIT ?? 1);
const stores = (process.env.STORE_COST_STORES ?? "sqlite,postgres").split(",");
const levels = (process.env.STORE_COST_AGENTS ?? "1,16,64").split(",").map(Number);
/** How many PostgreSQL stores (instances) share the database. */
const instances = Number(process.env.STORE_COST_INSTANCES ?? 1);

/** A run of `cycles` items and `agents` agents on `store`: the agents' identities. */
async function prepareRun(
  store: StepStore,
  runId: string,
  cycles: number,
  agents: number,
): Promise<AgentIdentity[]> {
  await store.createRun(runId, benchRun(cycles));
  const identities: AgentIdentity[] = [];
  for (let index = 0; index < agents; index++) {
    const agent = { agent_id: `agent_${index}`, tag: `agent-${index}`, token_hash: "x".repeat(64) };
    await store.addAgent(runId, agent);
    identities.push({ agent_id: agent.agent_id, tag: agent.tag });
  }
  return identities;
}

/**
 * The agents claim and complete every item of the run, all at once, agent i through store
 * i % stores; answers how many.
 */
async function runCycles(
  stores: readonly StepStore[],
  runId: string,
  identities: AgentIdentity[],
  cycles: number,
): Promise<number> {
  let left = cycles;
  await Promise.all(
    identities.map(async (agent, index) => {
      const store = stores[index % stores.length] as StepStore;
      for (;;) {
        const claims = await claimSome(store, runId, agent, Math.min(claimLimit, left));
        if (claims.length === 0) return;
        left -= claims.length;
        await Promise.all(
          claims.map((claim) =>
            store.complete(runId, agent, claim.work_item.id, completeBody(claim.lease.attempt)),
          ),
        );
      }
    }),
  );
  return cycles;
}

/** Up to `limit` claims of the agent in one claim-next (`max_items` when above one). */
async function claimSome(store: StepStore, runId: string, agent: AgentIdentity, limit: number) {
  if (limit <= 0) return [];
  const claim = await store.claim(runId, agent, undefined, limit > 1 ? limit : undefined);
  if (claim === undefined) return [];
  return claim.claims ?? [claim];
}

/** `database`, counting the statements it executes and its (outermost) transactions. */
function counting(database: SqlDatabase) {
  const counts = { statements: 0, transactions: 0 };
  let depth = 0;
  const counted: SqlDatabase = {
    exec: (sql) => database.exec(sql),
    run: (sql, ...params) => {
      counts.statements += 1;
      return database.run(sql, ...params);
    },
    all: (sql, ...params) => {
      counts.statements += 1;
      return database.all(sql, ...params);
    },
    transaction: (fn) => {
      // BEGIN and COMMIT, or SAVEPOINT and RELEASE.
      counts.statements += 2;
      if (depth === 0) counts.transactions += 1;
      depth += 1;
      try {
        return database.transaction(fn);
      } finally {
        depth -= 1;
      }
    },
  };
  return { counted, counts };
}

async function measureSqlite(): Promise<void> {
  const cycles = Number(process.env.STORE_COST_SQLITE_CYCLES ?? 2000);
  const rounds = Number(process.env.STORE_COST_ROUNDS ?? 5);
  const folder = mkdtempSync(join(tmpdir(), "store-cost-"));
  console.log(
    `\nSQLite (node:sqlite ${process.versions.sqlite}), ${cycles} cycles, ${rounds} rounds`,
  );
  console.log("| agents | statements / cycle | transactions / cycle | CPU ms / cycle | cycles/s |");
  console.log("| ---: | ---: | ---: | ---: | ---: |");
  try {
    for (const agents of levels) {
      const results: Array<{
        statements: number;
        transactions: number;
        cpu: number;
        rate: number;
      }> = [];
      for (let round = 0; round < rounds; round++) {
        const database = openNodeDatabase(join(folder, `cost-${agents}-${round}.db`));
        const { counted, counts } = counting(database);
        const store = new SqlStore(counted, { schedule: setImmediate });
        try {
          const runId = `run_cost${agents}`;
          const identities = await prepareRun(store, runId, cycles, agents);
          const before = { ...counts };
          const cpu = process.cpuUsage();
          const start = performance.now();
          await runCycles([store], runId, identities, cycles);
          const wall = performance.now() - start;
          const used = process.cpuUsage(cpu);
          results.push({
            statements: (counts.statements - before.statements) / cycles,
            transactions: (counts.transactions - before.transactions) / cycles,
            cpu: (used.user + used.system) / 1000 / cycles,
            rate: (cycles * 1000) / wall,
          });
        } finally {
          store.close();
          database.close();
        }
      }
      const of = (key: keyof (typeof results)[number]) => median(results.map((row) => row[key]));
      console.log(
        `| ${agents} | ${of("statements").toFixed(2)} | ${of("transactions").toFixed(3)} | ${of("cpu").toFixed(3)} | ${of("rate").toFixed(0)} |`,
      );
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function measurePostgres(): Promise<void> {
  const cycles = Number(process.env.STORE_COST_CYCLES ?? 400);
  let server: Awaited<ReturnType<typeof startPostgres>>;
  try {
    server = await startPostgres({ settings: { shared_preload_libraries: "pg_stat_statements" } });
  } catch (error) {
    if (!(error instanceof PostgresUnavailableError)) throw error;
    console.log(`PostgreSQL cannot be started here (${error.message}): nothing measured.`);
    return;
  }
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  const proxy = await startCountingProxy(server.port);
  try {
    await admin`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
    console.log(`\nPostgreSQL, ${cycles} cycles, ${instances} instance(s)`);
    console.log(
      "| agents | cycles | statements / cycle | transactions / cycle | round trips / cycle | lock hold p50 / p99 ms | operations / group |",
    );
    console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const agents of levels) {
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
        const identities = await prepareRun(store, runId, cycles, agents);
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
          () => runCycles(stores, runId, identities, cycles),
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
}

console.log(`claim-next max_items: ${claimLimit}`);
if (stores.includes("sqlite")) await measureSqlite();
if (stores.includes("postgres")) await measurePostgres();
