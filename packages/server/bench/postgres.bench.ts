// The delivery service on PostgreSQL, on one throwaway PostgreSQL server
// (scripts/postgres.mjs: fsync on, the server's defaults): claim-next → complete cycles over HTTP
// with one and with two Node instances (src/main.ts with TASK_CONTEXT_DATABASE_URL, each its own
// database, agent i on instance i % 2), beside pg-boss (fetch → complete) and graphile-worker (a
// no-op task) on the same server, at 16 and 64 concurrent agents or workers. Each gets a warm-up,
// then POSTGRES_ROUNDS (default 5) rounds that rotate who goes first; medians of the rounds'
// rates, latencies pooled over the rounds. Ours is measured twice for each instance count: every
// agent on one run (one lock: the worst case), and the agents spread over 8 runs. Where
// PostgreSQL cannot be started, it says why. Then the cost of a cycle (bench/cycle-cost.ts),
// with how long a run's row lock is held per group commit (bench/lock-hold-probe.ts) and the
// anchors' locking statements' times, and the ceiling model: a run's lock-bound rate and the
// CPU-bound rate of N instances on this machine's cores, beside the rates measured.
// Run: `node --conditions=@task-context/source bench/postgres.bench.ts` in packages/server
// (part of `pnpm --filter @task-context/server run bench`).
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join } from "node:path";
import type { ClaimView } from "@task-context/contract";
import postgres from "postgres";
import {
  type Postgres,
  PostgresUnavailableError,
  startPostgres,
} from "../../../scripts/postgres.mjs";
import { completeBody } from "./cycle.ts";
import {
  type CycleCost,
  type LockHoldSummary,
  lockingStatementTimes,
  measureCost,
  type StatementTime,
  startCountingProxy,
  summarizeLockHolds,
} from "./cycle-cost.ts";
import {
  type Contestant,
  graphileWorker,
  type JobShape,
  loadAverage,
  overHttp,
  pgBoss,
  postgresSettings,
  runRounds,
  summary,
} from "./job-queues.ts";
import { takeLockHolds } from "./lock-hold-probe.ts";
import { startService } from "./service-load.ts";

const rounds = Number(process.env.POSTGRES_ROUNDS ?? 5);
/** How many runs the agents are spread over in the second measure of each instance count. */
const RUNS = 8;
const levels = [
  { workers: 16, count: 1500 },
  { workers: 64, count: 3000 },
];
const maxWorkers = Math.max(...levels.map((level) => level.workers));
const loadBefore = loadAverage();

let server: Postgres;
try {
  // Two instances of ours (10 connections each), one of ours, the anchors' pools, headroom.
  server = await startPostgres({
    settings: {
      max_connections: 4 * maxWorkers + 60,
      // The statements each contestant runs (bench/cycle-cost.ts), counted where PostgreSQL runs them.
      shared_preload_libraries: "pg_stat_statements",
    },
  });
} catch (error) {
  if (!(error instanceof PostgresUnavailableError)) throw error;
  console.log(`PostgreSQL cannot be started here (${error.message}): nothing measured.`);
  process.exit(0);
}

/** A new database on the server: its URL. */
async function newDatabase(name: string): Promise<string> {
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  return url.href;
}

const folder = mkdtempSync(join(tmpdir(), "task-context-postgres-bench-"));
const contestants: Contestant[] = [];
/** The anchors' jobs: a work item of ours as the payload, our artifact as pg-boss's output. */
let jobs: JobShape = { maxWorkers, payload: () => ({}), output: {} };
let settings = "";
let sample = "";
try {
  for (const instances of [1, 2]) {
    const url = await newDatabase(`ours_${instances}`);
    const { service, stop } = await startService(folder, {
      environment: { TASK_CONTEXT_DATABASE_URL: url },
      instances,
    });
    const name = instances === 1 ? "ours, 1 instance" : `ours, ${instances} instances`;
    contestants.push(overHttp(name, service, stop));
    // The same service with the agents spread over runs (closed with the contestant above).
    contestants.push({
      ...overHttp(`${name}, ${RUNS} runs`, service, stop, { runs: RUNS }),
      close: async () => {},
    });
    if (sample === "") {
      const [token = ""] = await service.prepare(1, 1);
      sample = (await service.client.send("POST", "/v1/inbox/claim-next", token)).text;
      const claim = JSON.parse(sample) as ClaimView;
      await service.complete(token, { id: claim.work_item.id, attempt: claim.lease.attempt });
    }
  }
  const workItem = (JSON.parse(sample) as ClaimView).work_item;
  jobs = {
    maxWorkers,
    payload: (index: number) => ({ ...workItem, id: `anchor-${index}` }),
    output: completeBody(1).artifact,
  };
  contestants.push(
    await graphileWorker(await newDatabase("graphile"), jobs),
    await pgBoss(await newDatabase("pgboss"), jobs),
  );
  settings = await postgresSettings(server.url, server.version);
} catch (error) {
  for (const contestant of contestants) await contestant.close();
  await server.stop();
  throw error;
}

const one = "ours, 1 instance";
const two = "ours, 2 instances";
let results: Awaited<ReturnType<typeof runRounds>>;
/** Each contestant's cost of a cycle at the top level, through the counting proxy. */
const costs = new Map<string, CycleCost>();
/** Ours: the lock holds of the cost round, per instance count. */
const holds = new Map<string, LockHoldSummary>();
/** The anchors: their locking statements in the cost round. */
const lockingStatements = new Map<string, StatementTime[]>();
/** Where the services' probes write their lock holds. */
const holdsFile = join(folder, "lock-holds");
try {
  results = await runRounds(contestants, levels, rounds);
  await accountCosts();
} finally {
  for (const contestant of contestants) await contestant.close();
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
}

/**
 * One more round of each (ours on one instance, pg-boss, graphile-worker) at the top level, each
 * on a database of its own reached through a TCP proxy that counts round trips (so the rounds
 * above are not slowed by it), with the CPU, statements and transactions of the round per cycle.
 */
async function accountCosts(): Promise<void> {
  const { workers, count } = levels.at(-1) as (typeof levels)[0];
  const proxy = await startCountingProxy(server.port);
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  const through = (url: string) => {
    const proxied = new URL(url);
    proxied.port = String(proxy.port);
    return proxied.href;
  };
  const accounted: Array<{
    contestant: Contestant;
    database: string;
    pids: () => number[];
    ours: boolean;
  }> = [];
  try {
    await admin`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`;
    for (const instances of [1, 2]) {
      const database = `cost_ours_${instances}`;
      const { service, stop, pids } = await startService(folder, {
        environment: {
          TASK_CONTEXT_DATABASE_URL: through(await newDatabase(database)),
          TASK_CONTEXT_LOCK_HOLDS: holdsFile,
        },
        nodeOptions: [`--import=${new URL("./lock-hold-probe.ts", import.meta.url).pathname}`],
        instances,
      });
      const name = instances === 1 ? one : `ours, ${instances} instances`;
      accounted.push({ contestant: overHttp(name, service, stop), database, pids, ours: true });
    }
    const self = () => [process.pid];
    accounted.push(
      {
        contestant: await pgBoss(through(await newDatabase("cost_pgboss")), jobs),
        database: "cost_pgboss",
        pids: self,
        ours: false,
      },
      {
        contestant: await graphileWorker(through(await newDatabase("cost_graphile")), jobs),
        database: "cost_graphile",
        pids: self,
        ours: false,
      },
    );
    for (const { contestant, database, pids, ours } of accounted) {
      await contestant.round(workers, 200);
      if (ours) await takeLockHolds(holdsFile, pids());
      await admin`SELECT pg_stat_statements_reset()`;
      const cost = await measureCost(
        { pids, data: join(server.directory, "data"), sql: admin, database, proxy },
        async () => {
          await contestant.round(workers, count);
          return count;
        },
      );
      costs.set(contestant.name, cost);
      if (ours)
        holds.set(contestant.name, summarizeLockHolds(await takeLockHolds(holdsFile, pids())));
      else lockingStatements.set(contestant.name, await lockingStatementTimes(admin, database));
    }
  } finally {
    for (const { contestant } of accounted) await contestant.close();
    await admin.end();
    await proxy.close();
  }
}

const { spread, pooled, ratio } = summary(results);
console.log(
  `Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? "unknown"}), ${settings}; load average ${loadBefore} before, ${loadAverage()} after (this benchmark's own processes count in it).`,
);
console.log(
  `Medians of ${rounds} rotating rounds of ${levels.map((level) => level.count).join(" / ")} items or jobs at ${levels.map((level) => level.workers).join(" / ")} agents or workers (min–max in brackets); latency p50 / p99 pooled over the rounds.\n`,
);
console.log(
  "| agents / workers | ours, 1 instance cycles/s | ours, 2 instances cycles/s | pg-boss cycles/s | graphile-worker jobs/s | 2 instances ÷ 1 (target ≥ 1.6×) | ours (1) ÷ pg-boss (target ≥ 1×) | ours (1) ÷ graphile-worker |",
);
console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const { workers } of levels) {
  console.log(
    `| ${workers} | ${spread(one, workers)} | ${spread(two, workers)} | ${spread("pg-boss", workers)} | ${spread("graphile-worker", workers)} | ${ratio(two, one, workers)} | ${ratio(one, "pg-boss", workers)} | ${ratio(one, "graphile-worker", workers)} |`,
  );
}
const oneSpread = `${one}, ${RUNS} runs`;
const twoSpread = `${two}, ${RUNS} runs`;
console.log(
  `\nThe agents and items spread evenly over ${RUNS} runs worked at once (each run has its own lock):\n`,
);
console.log(
  `| agents / workers | ours, 1 instance, ${RUNS} runs cycles/s | ours, 2 instances, ${RUNS} runs cycles/s | 2 instances ÷ 1 (target ≥ 1.6×) | ours (1, ${RUNS} runs) ÷ pg-boss |`,
);
console.log("| ---: | ---: | ---: | ---: | ---: |");
for (const { workers } of levels) {
  console.log(
    `| ${workers} | ${spread(oneSpread, workers)} | ${spread(twoSpread, workers)} | ${ratio(twoSpread, oneSpread, workers)} | ${ratio(oneSpread, "pg-boss", workers)} |`,
  );
}
console.log("\nLatency of a whole cycle, p50 / p99:\n");
console.log(
  "| agents / workers | ours, 1 instance | ours, 2 instances | pg-boss | graphile-worker |",
);
console.log("| ---: | ---: | ---: | ---: | ---: |");
for (const { workers } of levels) {
  console.log(
    `| ${workers} | ${pooled(one, workers, "cycle")} | ${pooled(two, workers, "cycle")} | ${pooled("pg-boss", workers, "cycle")} | ${pooled("graphile-worker", workers, "cycle")} |`,
  );
}
console.log(
  "\nEach step alone, p50 / p99 (target at 64 agents: claim and complete < 100 ms; graphile-worker does not wait for its completions):\n",
);
console.log(
  "| agents / workers | ours (1) claim-next | ours (1) complete | ours (2) claim-next | ours (2) complete | pg-boss fetch | pg-boss complete |",
);
console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const { workers } of levels) {
  console.log(
    `| ${workers} | ${pooled(one, workers, "claim")} | ${pooled(one, workers, "complete")} | ${pooled(two, workers, "claim")} | ${pooled(two, workers, "complete")} | ${pooled("pg-boss", workers, "claim")} | ${pooled("pg-boss", workers, "complete")} |`,
  );
}

const { workers: top } = levels.at(-1) as (typeof levels)[0];
console.log(
  `\nThe cost of a cycle at ${top} agents or workers (one more round of each, on a database of its own, through a TCP proxy that counts round trips; CPU from /proc: the instance is the service's process for ours, this benchmark's process for the anchors, which run in it; PostgreSQL is every process of the server; statements from pg_stat_statements, transactions from pg_stat_database; a round's setup — the run, its agents, the queued jobs — is counted in it):\n`,
);
console.log(
  "| per cycle | instance CPU ms | PostgreSQL CPU ms | client CPU ms | statements | transactions | round trips | run's lock held per group, p50 / p99 (mean) | operations / group |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const [name, cost] of costs) {
  const held = holds.get(name);
  const lock =
    held === undefined
      ? "– (a row lock per job, for its statement)"
      : `${held.p50Ms.toFixed(2)} / ${held.p99Ms.toFixed(2)} ms (${held.meanMs.toFixed(2)})`;
  // The anchors' workers run in this process: their client is their instance.
  const client = held === undefined ? "–" : cost.clientCpuMs.toFixed(2);
  console.log(
    `| ${name} | ${cost.instanceCpuMs.toFixed(2)} | ${cost.postgresCpuMs.toFixed(2)} | ${client} | ${cost.statements.toFixed(1)} | ${cost.transactions.toFixed(2)} | ${cost.roundTrips.toFixed(1)} | ${lock} | ${held === undefined ? "1" : held.operations.toFixed(1)} |`,
  );
}
console.log(
  "\nThe anchors' locking statements in that round (a job's row lock, taken with SKIP LOCKED or FOR UPDATE, lasts its statement and the statement's commit; pg_stat_statements gives means and maxima, no percentiles):\n",
);
console.log("| anchor | statement | calls | mean ms | max ms |");
console.log("| --- | --- | ---: | ---: | ---: |");
for (const [name, statements] of lockingStatements) {
  for (const statement of statements) {
    console.log(
      `| ${name} | \`${statement.query.replaceAll("|", "\\|")}…\` | ${statement.calls} | ${statement.meanMs.toFixed(2)} | ${statement.maxMs.toFixed(2)} |`,
    );
  }
}

/**
 * The ceiling model. One run: its groups hold its row lock one after another, so at most
 * 1 000 / (mean hold ms) groups a second, each of `operations` operations, two per cycle.
 * N instances on M cores: every cycle costs the instance's, PostgreSQL's and the client's CPU,
 * all on the same M cores (M × 1 000 / their sum), and an instance's event loop is one core
 * (N × 1 000 / the instance's CPU). The ceiling is the least of them.
 */
const cores = availableParallelism();
console.log(
  `\nThe ceiling model at ${top} agents (${cores} cores here, shared by the instances, PostgreSQL and the client; the costs above), against the medians measured:\n`,
);
console.log(
  "| ours | one run, lock-bound: 1 000 / hold × ops per group ÷ 2 | CPU-bound: cores × 1 000 / (instance + PostgreSQL + client) | event loops: instances × 1 000 / instance | ceiling | measured, 1 run | measured, 8 runs |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const [name, instances] of [
  [one, 1],
  [two, 2],
] as const) {
  const cost = costs.get(name);
  const held = holds.get(name);
  if (cost === undefined || held === undefined) continue;
  const lockBound = (1000 / held.meanMs) * (held.operations / 2);
  const cpuBound = (cores * 1000) / (cost.instanceCpuMs + cost.postgresCpuMs + cost.clientCpuMs);
  const loopBound = (instances * 1000) / cost.instanceCpuMs;
  const ceiling = Math.min(lockBound, cpuBound, loopBound);
  console.log(
    `| ${name} | ${lockBound.toFixed(0)} | ${cpuBound.toFixed(0)} | ${loopBound.toFixed(0)} | ${ceiling.toFixed(0)} | ${spread(name, top)} | ${spread(`${name}, ${RUNS} runs`, top)} |`,
  );
}
